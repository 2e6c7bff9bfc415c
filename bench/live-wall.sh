#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side: the live splice row by the wall clock, taken apart (issue 15,
# item 3). For each tracer, in one boot and alternating: the trace_marker
# writer alone on CPU 1 into 16 MiB per CPU, then the splice drain of
# what it wrote by a reader on CPU 0, then the same writer with the
# splice reader meanwhile into 1 MiB, and the interrupts each CPU took
# during that (/proc/interrupts deltas: the reader's wakeups, TLB
# shootdowns, function calls).
#
# Usage: live-wall.sh KODIR N REPS
#   KODIR holds rbt_readbench and rbtrace.ko. Prints per run
#   "lw impl=I size=S rep=R alone_ns=A live_ns=L <readbench fields>",
#   "lwdrain impl=I size=S rep=R <readbench fields>" and "lwirq impl=I size=S rep=R NAME=cpu0/cpu1 ..." for every
#   interrupt line that moved.
#
# Host side, 2 vCPUs, the host otherwise idle:
#   scripts/qemu-run.sh --smp 2 --timeout 1500 \
#	--results R "$PWD/bench/live-wall.sh" KODIR 50000 5
set -u
kodir=$1 n=$2 reps=$3
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
tool=$kodir/rbt_readbench

# irqs: "NAME cpu0 cpu1" for every line of /proc/interrupts.
irqs() { awk 'NR > 1 { n = $1; sub(":", "", n); print n, $2 + 0, $3 + 0 }' /proc/interrupts; }

# irq_delta BEFORE AFTER: "NAME=d0/d1" for the lines that changed.
irq_delta() {
	awk 'NR == FNR { a[$1] = $2; b[$1] = $3; next }
	     ($2 - a[$1]) + ($3 - b[$1]) > 0 { printf " %s=%d/%d", $1, $2 - a[$1], $3 - b[$1] }' "$1" "$2"
}

insmod "$kodir/rbtrace.ko" mode=overwrite || exit 1
echo nop >"$K/current_tracer"
for rep in $(seq "$reps"); do
	for impl in rbtrace ftrace; do
		d=$(tdir "$impl")
		for size in 10 256; do
			quiet 16384
			echo 1 >"$d/options/overwrite"
			echo 1 >"$d/tracing_on"
			t0=$(date +%s%N)
			"$tool" write "$d" 1 "$n" "$size"
			t1=$(date +%s%N)
			echo 0 >"$d/tracing_on"
			r=$(taskset -c 0 "$tool" splice "$d" 1 /tmp/raw.out)
			echo "lwdrain impl=$impl size=$size rep=$rep $r"
			quiet 1024
			echo 1 >"$d/tracing_on"
			irqs >/tmp/irq.0
			t2=$(date +%s%N)
			r=$(taskset -c 0 "$tool" splice "$d" 1 /tmp/raw.out "$n" "$size" 1)
			t3=$(date +%s%N)
			irqs >/tmp/irq.1
			echo 0 >"$d/tracing_on"
			echo "lw impl=$impl size=$size rep=$rep alone_ns=$(((t1 - t0) / n)) live_ns=$(((t3 - t2) / n)) $r"
			echo "lwirq impl=$impl size=$size rep=$rep$(irq_delta /tmp/irq.0 /tmp/irq.1)"
		done
	done
done
rmmod rbtrace
rm -f /tmp/raw.out /tmp/irq.0 /tmp/irq.1
