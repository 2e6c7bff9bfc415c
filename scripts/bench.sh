#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh [--events N]: the write-cost benchmark, rbtrace against ftrace's
# ring buffer and against the limit (a per-CPU array), same loop, same boot.
#
# Two boots of the test kernel: one under -icount shift=0 (guest time =
# instructions executed: the figures repeat across boots) with 2 vCPUs,
# one under multi-threaded TCG with 4 vCPUs for wall-clock figures. Writes
# bench/results/<date>-<kernel>.md and .png.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

events=20000
while [ $# -gt 0 ]; do
	case $1 in
	--events) events=$2; shift 2 ;;
	*) rbt_die "bench: unknown argument $1" ;;
	esac
done

rbt_need_pkgs qemu-system-x86 gnuplot-nox rsync python3

kdir=$("$RBT_TOP/scripts/build-kernel.sh" base)
# A build of our own, without test hooks, that nobody else rebuilds.
bdir=$RBT_CACHE/build/bench-$(basename "$kdir")
# build_bench: copy the sources (no build products from other kernels) and
# build rbtrace.ko and rbtrace_bench.ko against the test kernel.
build_bench() {
	mkdir -p "$bdir"
	rsync -a --delete --exclude=.git --exclude=tests --exclude='bench/results' \
		--exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
		--exclude='.*.cmd' --exclude='.*.d' --exclude=Module.symvers \
		--exclude=modules.order --exclude=build.log "$RBT_TOP/" "$bdir/" &&
		make -s -C "$kdir" M="$bdir" W=1 modules >"$bdir/build.log" 2>&1 &&
		make -s -C "$kdir" M="$bdir/bench" W=1 \
			KBUILD_EXTRA_SYMBOLS="$bdir/Module.symvers" modules >>"$bdir/build.log" 2>&1
}
# A failed build may be a stale copy: start from an empty one once.
build_bench || { rm -rf "$bdir"; build_bench; } ||
	rbt_die "bench: build failed, see $bdir/build.log"

runs=$RBT_CACHE/runs/bench-$(date +%Y%m%d-%H%M%S)
mkdir -p "$runs"
"$RBT_TOP/scripts/qemu-run.sh" --icount --smp 2 --timeout 1200 --results "$runs/icount" \
	"$RBT_TOP/bench/guest-bench.sh" "$bdir" "$events" "$runs/icount/bench.txt" >&2 ||
	rbt_die "bench: the -icount boot failed (see $runs/icount)"
"$RBT_TOP/scripts/qemu-run.sh" --smp 4 --timeout 1200 --results "$runs/wall" \
	"$RBT_TOP/bench/guest-bench.sh" "$bdir" "$events" "$runs/wall/bench.txt" >&2 ||
	rbt_die "bench: the wall-clock boot failed (see $runs/wall)"

kver=$(basename "$kdir")
name=$(date +%Y-%m-%d)-${kver}
out=$RBT_TOP/bench/results/$name
python3 "$RBT_TOP/scripts/bench-report.py" --kernel "$kver" --events "$events" \
	--icount "$runs/icount/bench.txt" --wall "$runs/wall/bench.txt" \
	--md "$out.md" --dat "$runs/write-cost.dat"
gnuplot -e "datafile='$runs/write-cost.dat'; outfile='$out.png'" "$RBT_TOP/bench/write-cost.gp"
cp "$out.md" "$RBT_TOP/bench/results/latest.md"
rbt_log "results: $out.md and $out.png"
