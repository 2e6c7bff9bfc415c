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
rbt_private_build "$kdir" "$bdir" bench

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
