#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side: the trace_marker writer alone, by the wall clock, rbtrace's
# and ftrace's alternating in one boot (issue 15, item 3).
#
# Usage: marker-wall.sh KODIR N REPS
#   KODIR holds rbt_readbench and one or more rbtrace builds named v-*.ko
#   (KOS narrows them: KOS=v-main.ko); each is loaded in turn. Every rep
#   writes N markers of 10 and of 256 bytes from CPU 1 into each
#   tracer's 1 MiB overwrite buffer, with no reader, and prints one line
#   per run: "mw ko=K impl=I size=S rep=R ns_per_write=T".
#
# Host side, with a 2-vCPU boot and the host otherwise idle:
#   scripts/qemu-run.sh --smp 2 --timeout 1500 --env KOS=v-main.ko \
#	--results R "$PWD/bench/marker-wall.sh" KODIR 50000 10
set -u
kodir=$1 n=$2 reps=$3
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
tool=$kodir/rbt_readbench
for ko in "$kodir"/${KOS:-v-*.ko}; do
	insmod "$ko" mode=overwrite || { echo "insmod $ko failed"; continue; }
	quiet 1024
	for d in "$rb" "$K"; do echo 1 >"$d/options/overwrite"; done
	for rep in $(seq "$reps"); do
		for impl in rbtrace ftrace; do
			d=$(tdir "$impl")
			echo >"$d/trace"
			echo 1 >"$d/tracing_on"
			for size in 10 256; do
				t0=$(date +%s%N)
				"$tool" write "$d" 1 "$n" "$size"
				t1=$(date +%s%N)
				echo "mw ko=$(basename "$ko") impl=$impl size=$size rep=$rep ns_per_write=$(((t1 - t0) / n))"
			done
			echo 0 >"$d/tracing_on"
		done
	done
	rmmod rbtrace
done
