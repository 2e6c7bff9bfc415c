#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# persist.sh --ko RBTRACE.KO PARAM...: the buffer that survives a reboot,
# in one QEMU run of several boots (scripts/qemu-run.sh --reboot, with the
# range reserved on the kernel command line and PARAM the module
# parameters that name it: persist_addr=... persist_size=... or
# persist=NAME). The stage is kept in the results dir, which survives the
# resets; RAM survives them too (QEMU's guest reset keeps it).
#
#  boot 1  record "a<cpu> <n>", n = 1..N, on each CPU; reboot -f.
#  boot 2  load: the previous boot's data is found, read-only; every
#          number of each CPU read back from trace, in order, and from
#          trace_pipe_raw; new writes refused until "echo > trace",
#          recorded after it. Record "b<cpu> <n>", then panic (sysrq c).
#  boot 3  load: the "b" sequence up to the panic is all there. Then
#          corruption: record "c<cpu> <n>", unload with persist_corrupt=
#          (test builds: two sub-buffers of CPU 0 damaged at unload, random
#          bytes and a bad commit word), load again: the damaged ones are
#          refused and counted, CPU 1 is whole, CPU 0's numbers still rise.
#          A module built without test hooks (the stock kernels' builds)
#          has no persist_corrupt=: the stage is skipped, and the output
#          says so ("corruption: SKIPPED"), never "corruption: PASS".
# Every boot's kernel log is scanned by qemu-run (up to the crash).
set -uo pipefail

ko=
while [ $# -gt 0 ]; do
	case $1 in
	--ko) ko=$2; shift 2 ;;
	*) break ;;
	esac
done
params=("$@")
R=${RBT_RESULTS:?}
STAGE=$R/persist.stage
D=/sys/kernel/debug/rbtrace
top=$(cd "$(dirname "$0")/../.." && pwd)
N=${RBT_PERSIST_N:-1500}

fail() { echo "FAIL: $*"; exit 1; }
say() { echo "persist: $*"; }

load() {
	insmod "$ko" "${params[@]}" "$@" || fail "insmod ${params[*]} $*"
}

# record TAG: TAG<cpu> 1..N on each CPU, from a shell pinned to it.
record() {
	local cpu
	for cpu in 0 1; do
		taskset -c $cpu bash -c "for ((i = 1; i <= $N; i++)); do echo \"$1$cpu \$i\" > $D/trace_marker || exit 1; done" ||
			fail "recording $1 on CPU $cpu"
	done
}

# check TAG CPU FIRST: the numbers of TAG<cpu> in per_cpu trace are
# FIRST..N, each once, in order.
check_all() {
	local tag=$1 cpu=$2 got
	# Any symbol before the text: on a kernel with KASLR the marker's ip
	# (rbtrace's own code) is another address in each boot.
	got=$(grep -o ": $tag$cpu [0-9]*\$" $D/per_cpu/cpu$cpu/trace | awk '{print $3}')
	[ "$got" = "$(seq 1 "$N")" ] ||
		fail "CPU $cpu: $tag numbers not 1..$N in order: $(echo "$got" | wc -l) read, first $(echo "$got" | head -1), last $(echo "$got" | tail -1)"
	say "CPU $cpu: all $N '$tag' events read back in order"
}

stage=$(cat "$STAGE" 2>/dev/null || echo 1)
say "boot $stage"
case $stage in
1)
	load
	dmesg | grep -q "rbtrace: buffer at .*starting empty" || fail "no 'starting empty' line"
	record a
	check_all a 0
	check_all a 1
	echo 2 >"$STAGE"
	sync
	say "rebooting"
	/bin/busybox reboot -f
	sleep 60
	fail "no reboot"
	;;
2)
	load
	line=$(dmesg | grep "rbtrace: buffer at .*previous boot's") || fail "the previous boot's data not found"
	say "$line"
	check_all a 0
	check_all a 1
	# Raw pages as trace-cmd extract reads them (consumed: CPU 1 last).
	python3 "$top/tests/guest/rawio.py" dump $D/per_cpu/cpu1/trace_pipe_raw /tmp/raw1 4096 ||
		fail "trace_pipe_raw of CPU 1"
	got=$(grep -a -o "a1 [0-9]*" /tmp/raw1 | awk '{print $2}')
	[ "$got" = "$(seq 1 "$N")" ] || fail "trace_pipe_raw of CPU 1: $(echo "$got" | wc -l) numbers, not 1..$N"
	say "trace_pipe_raw of CPU 1: all $N numbers in order"
	# Read-only until cleared.
	echo "refused" > $D/trace_marker
	grep -q "tracing_mark_write: refused" $D/trace && fail "a write went into the old data"
	echo 1 > $D/snapshot 2>/dev/null && fail "a snapshot of the persistent buffer was taken"
	echo > $D/trace
	echo "accepted" > $D/trace_marker
	grep -q "tracing_mark_write: accepted" $D/trace || fail "no recording after clearing"
	echo > $D/trace
	record b
	echo 3 >"$STAGE"
	sync
	say "panicking"
	echo c > /proc/sysrq-trigger
	sleep 60
	fail "no panic"
	;;
3)
	load
	dmesg | grep "rbtrace: buffer at .*previous boot's" || fail "the data of the boot that panicked not found"
	check_all b 0
	check_all b 1
	echo > $D/trace
	if ! modinfo -p "$ko" | grep -q '^persist_corrupt:'; then
		rmmod rbtrace || fail "rmmod"
		rm -f "$STAGE"
		say "corruption: SKIPPED (a build without test hooks has no persist_corrupt=)"
		say "PASS"
		exit 0
	fi
	record c
	rmmod rbtrace || fail "rmmod"
	# Random bytes over one sub-buffer, a commit word past the end of another.
	load persist_corrupt=0:1:0,0:1:1
	rmmod rbtrace || fail "rmmod"
	load
	line=$(dmesg | grep "rbtrace: buffer at .*previous boot's" | tail -1)
	say "$line"
	bad=$(echo "$line" | sed -n 's/.* \([0-9]*\) sub-buffers refused.*/\1/p')
	[ "$bad" = 2 ] || fail "refused sub-buffers: '$bad', expected 2"
	check_all c 1
	got=$(grep -o ": c0 [0-9]*\$" $D/per_cpu/cpu0/trace | awk '{print $3}')
	n=$(echo "$got" | wc -l)
	[ "$n" -lt "$N" ] && [ "$n" -gt $((N / 2)) ] || fail "CPU 0 after corruption: $n events"
	[ "$got" = "$(echo "$got" | sort -n)" ] || fail "CPU 0 after corruption: out of order"
	say "CPU 0: $n of $N 'c' events read, in order, 2 sub-buffers refused"
	echo > $D/trace
	rmmod rbtrace || fail "rmmod"
	rm -f "$STAGE"
	say "corruption: PASS"
	say "PASS"
	;;
*)
	fail "stage $stage?"
	;;
esac
