#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh [--events N] [--worktree] [--parts LIST]: rbtrace against ftrace in the same
# boot: write cost (and against the limit, a per-CPU array), read
# throughput (splice of trace_pipe_raw, trace_pipe text), tracing overhead
# (hackbench), memory beyond the data pages, the latch clock read from
# user space (trace_clock_page); and on the stock 6.1 kernel
# hackbench against LTTng too (bench/lttng.sh).
#
# Two boots of the test kernel: one under -icount shift=0 (guest time =
# instructions executed: the figures repeat across boots) with 2 vCPUs,
# everything; one under multi-threaded TCG with 2 vCPUs, one per host
# core, for wall-clock figures of write cost and read throughput (with 4
# on the 2 cores the host's scheduling of the vCPUs was what the live
# read rows measured). Builds the committed module
# with the working tree's bench/ (--worktree: the working tree). Writes
# bench/results/<date>-<kernel>.md and .png, and copies the .md to latest.md.
# --parts LIST (bench/bench.sh's parts, e.g. events,hball): the -icount
# boot only, with those parts, into bench/results/<date>-<kernel>-<parts>.md;
# latest.md is left as it is.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

events=20000
worktree=0
parts=
while [ $# -gt 0 ]; do
	case $1 in
	--events) events=$2; shift 2 ;;
	--worktree) worktree=1; shift ;;
	--parts) parts=$2; shift 2 ;;
	*) rbt_die "bench: unknown argument $1" ;;
	esac
done

rbt_need_pkgs qemu-system-x86 gnuplot-nox rsync python3 gcc rt-tests

kdir=$("$RBT_TOP/scripts/build-kernel.sh" base)
# A build of our own, without test hooks, that nobody else rebuilds: of
# the committed module (HEAD: not a colleague's half-edited file) and the
# working tree's bench/, unless --worktree.
bdir=$RBT_CACHE/build/bench-$(basename "$kdir")
if [ "$worktree" = 1 ] || ! git -C "$RBT_TOP" rev-parse -q --verify HEAD >/dev/null 2>&1; then
	rbt_private_build "$kdir" "$bdir" bench
else
	src=$RBT_CACHE/build/bench-src
	rm -rf "$src"
	mkdir -p "$src"
	git -C "$RBT_TOP" archive HEAD | tar -x -C "$src"
	rsync -a --delete --exclude=results --exclude='*.o' --exclude='*.ko' --exclude='*.mod*' \
		--exclude='.*.cmd' --exclude=Module.symvers --exclude=modules.order \
		"$RBT_TOP/bench/" "$src/bench/"
	RBT_TOP=$src rbt_private_build "$kdir" "$bdir" bench
fi
gcc -O2 -Wall -Wextra -Werror -o "$bdir/bench/rbt_readbench" "$RBT_TOP/bench/rbt_readbench.c" ||
	rbt_die "bench: cannot build bench/rbt_readbench.c"
gcc -O2 -Wall -Wextra -Werror -o "$bdir/bench/rbt_evbench" "$RBT_TOP/bench/rbt_evbench.c" ||
	rbt_die "bench: cannot build bench/rbt_evbench.c"
gcc -O2 -Wall -Wextra -Werror -I "$RBT_TOP/include/uapi" -o "$bdir/bench/rbt_uclockbench" \
	"$RBT_TOP/bench/rbt_uclockbench.c" || rbt_die "bench: cannot build bench/rbt_uclockbench.c"

runs=$RBT_CACHE/runs/bench-$(date +%Y%m%d-%H%M%S)
mkdir -p "$runs"
if [ -n "$parts" ]; then
	"$RBT_TOP/scripts/qemu-run.sh" --icount --smp 2 --timeout 3600 --results "$runs/icount" \
		"$RBT_TOP/bench/bench.sh" "$bdir" "$events" "$runs/icount/bench.txt" "$parts" >&2 ||
		rbt_die "bench: the -icount boot failed (see $runs/icount)"
	kver=$(basename "$kdir")
	out=$RBT_TOP/bench/results/$(date +%Y-%m-%d)-${kver}-${parts//,/-}.md
	python3 "$RBT_TOP/scripts/bench-report.py" --kernel "$kver" --events "$events" \
		--icount "$runs/icount/bench.txt" --partial --md "$out"
	rbt_log "results: $out"
	exit 0
fi
# memmap=: a reserved range for the persistent buffer's write cost.
"$RBT_TOP/scripts/qemu-run.sh" --icount --smp 2 --timeout 3600 --results "$runs/icount" \
	--append 'memmap=4M$0x70000000' \
	"$RBT_TOP/bench/bench.sh" "$bdir" "$events" "$runs/icount/bench.txt" >&2 ||
	rbt_die "bench: the -icount boot failed (see $runs/icount)"
# Wall clock: write cost and read throughput, twelve runs of each read
# test (three cannot resolve 5% there); hackbench and memory only in the
# -icount boot (one boot; instruction counts, not host noise).
load0=$(uptime | sed 's/.*load average: //')
"$RBT_TOP/scripts/qemu-run.sh" --smp 2 --timeout 1200 --results "$runs/wall" \
	"$RBT_TOP/bench/bench.sh" "$bdir" "$events" "$runs/wall/bench.txt" write,read,uclock 12 >&2 ||
	rbt_die "bench: the wall-clock boot failed (see $runs/wall)"
load1=$(uptime | sed 's/.*load average: //')
# LTTng's column: a third boot, Debian's stock 6.1 kernel (bench/lttng.sh).
"$RBT_TOP/bench/lttng.sh" run "$runs/lttng" "${src:-$RBT_TOP}" >&2 ||
	rbt_log "bench: LTTng's boot failed (see $runs/lttng); the results say why"

kver=$(basename "$kdir")
name=$(date +%Y-%m-%d)-${kver}
out=$RBT_TOP/bench/results/$name
python3 "$RBT_TOP/scripts/bench-report.py" --kernel "$kver" --events "$events" \
	--icount "$runs/icount/bench.txt" --wall "$runs/wall/bench.txt" \
	--md "$out.md" --dat "$runs/write-cost.dat" \
	--host-load "load average (1, 5, 15 min) $load0 before, $load1 after, on $(nproc) host CPUs"
"$RBT_TOP/bench/lttng.sh" report "$runs/lttng/bench.txt" >>"$out.md"
gnuplot -e "datafile='$runs/write-cost.dat'; outfile='$out.png'" "$RBT_TOP/bench/write-cost.gp"
cp "$out.md" "$RBT_TOP/bench/results/latest.md"
rbt_log "results: $out.md and $out.png"
