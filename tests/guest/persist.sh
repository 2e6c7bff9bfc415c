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
#          Then an oops that does not panic (tests/tpmod's oops parameter):
#          record "d<cpu> <n>", oops, a marker after it, reboot -f.
#  boot 4  load: the "d" sequence is all there, the marker after the oops
#          is not (the die notifier stopped recording).
#          A module built without test hooks (the stock kernels' builds)
#          has no persist_corrupt=: the stage is skipped, and the output
#          says so ("corruption: SKIPPED"), never "corruption: PASS".
# What a later boot needs to decode the old data (the metadata area), in
# every boot: last_boot_info's "ADDR\t[kernel]" line is the previous
# boot's _text (saved from /proc/kallsyms), its rbtrace line is there,
# the events enabled then are listed, "# Current" once cleared; the
# markers' ip (rbtrace's own code, which module KASLR moves) reads back
# as tracing_mark_write. With --functions (the stock kernels, one TCG
# thread: ftrace patches text) boot 1 also runs the function tracer on
# vfs_write while it records, and boot 2 checks that every function
# record reads back as vfs_write: the KASLR delta applied. A boot that
# got the previous one's offset (the test kernel is not relocatable:
# always) says so: "KASLR delta 0", the shift then untested.
# Event ids move between boots: boot 1 records the events of the test
# module (tests/tpmod, loaded after rbtrace) and rcu:rcu_utilization (a
# const char * field); boot 2 first makes a kprobe event of the kernel's,
# which takes the id the module's first event had, and the module's
# events take the next ones: each old id of the module's is another
# event's now. Boot 2 checks that the old records decode by the previous
# boot's event table (last_boot_info's "# event ID SYSTEM:NAME"): as
# "Unknown type" while the module is not loaded, as their own events
# once it is; and that the old pointers print as boot 1's addresses,
# never followed (no ":string").
# Every boot's kernel log is scanned by qemu-run (up to the crash).
set -uo pipefail

ko=
functions=0
while [ $# -gt 0 ]; do
	case $1 in
	--ko) ko=$2; shift 2 ;;
	--functions) functions=1; shift ;;
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

FN=vfs_write
K=/sys/kernel/tracing
TP_SYS=rbtrace_tp_test
tp_ko() { echo "$(dirname "$ko")/tests/tpmod/rbtrace_tp_test.ko"; }

# record_events: boot 1's records of the test module's two events (3
# rbtt_fire, 1 rbtt_count) and a moment of rcu_utilization; their ids
# and the addresses of rcu_utilization's strings saved for boot 2.
record_events() {
	local tp ev
	tp=$(tp_ko)
	[ -f "$tp" ] || fail "no $tp (build-module.sh builds it beside rbtrace.ko)"
	insmod "$tp" || fail "insmod $tp"
	for ev in rbtt_fire rbtt_count; do
		echo 1 >$D/events/$TP_SYS/$ev/enable || fail "enabling $ev"
	done
	echo 3 >/sys/module/$TP_SYS/parameters/fire || fail "firing $TP_SYS"
	for ev in rbtt_fire rbtt_count; do
		echo 0 >$D/events/$TP_SYS/$ev/enable
		echo "$ev $(cat $D/events/$TP_SYS/$ev/id)" >>"$R/persist.ids1"
	done
	[ "$(grep -c ': rbtt_' $D/trace)" = 4 ] || fail "boot 1: not 4 rbtt_ records: $(grep -v ': [ab][01] [0-9]*$' $D/trace | tail -5)"
	[ -e $D/events/rcu/rcu_utilization/enable ] || fail "no rcu:rcu_utilization in rbtrace"
	echo 1 >$D/events/rcu/rcu_utilization/enable || fail "enabling rcu_utilization"
	sleep 0.5
	echo 0 >$D/events/rcu/rcu_utilization/enable
	# The addresses, from the fields text (the default is ftrace's: the string).
	echo 1 >$D/options/fields
	grep -o 'rcu_utilization: s=(0x[0-9a-f]*:' $D/trace | sed 's/.*(0x//; s/:$//' | sort -u >"$R/persist.ptrs1"
	echo 0 >$D/options/fields
	[ -s "$R/persist.ptrs1" ] ||
		fail "no rcu_utilization record with its string: $(grep -m3 rcu_utilization $D/trace)"
	say "boot 1: ids $(tr '\n' ' ' <"$R/persist.ids1"); $(wc -l <"$R/persist.ptrs1") rcu_utilization strings"
}

# check_events_unknown: before the module is loaded, none of its old
# records decodes: 4 records print as "Unknown type N", no rbtt_ line.
check_events_unknown() {
	local n
	n=$(grep -c 'rbtt_' $D/trace) || true
	[ "$n" = 0 ] || fail "old records decoded as rbtt_ events with no module loaded: $(grep -m2 rbtt_ $D/trace)"
	n=$(grep -cE ': Unknown type [0-9]+$' $D/trace) || true
	[ "$n" = 4 ] || fail "$n old records print as 'Unknown type', expected 4: $(grep -m4 'Unknown type' $D/trace) (other records: $(grep -v '^#' $D/trace | grep -v ': a[01] [0-9]*$' | grep -v rcu_utilization | head -8))"
	say "the module's 4 old records print as $(grep -m1 -oE 'Unknown type [0-9]+$' $D/trace) while it is not loaded"
}

# check_events: the module loaded (its ids not boot 1's): the old
# records decode as their own events.
check_events() {
	local tp ev old now others got want
	tp=$(tp_ko)
	insmod "$tp" || fail "insmod $tp"
	others=
	while read -r ev old; do
		now=$(cat $D/events/$TP_SYS/$ev/id)
		[ "$now" != "$old" ] || fail "$ev has boot 1's id $old again: the kprobe event did not move the ids"
		grep -qE "^# event $old $TP_SYS:$ev\$" $D/last_boot_info ||
			fail "last_boot_info does not list $old $TP_SYS:$ev: $(grep '^# event' $D/last_boot_info)"
		others="$others $ev $old->$now"
	done <"$R/persist.ids1"
	say "ids moved:$others"
	# Printed by the module's own printer (its TP_printk), as ftrace
	# prints them.
	got=$(grep -o 'rbtt_.*' $D/trace)
	want="rbtt_fire: seq=1 val=3 msg=fire-1
rbtt_fire: seq=2 val=3 msg=fire-2
rbtt_fire: seq=3 val=3 msg=fire-3
rbtt_count: total=3"
	[ "$got" = "$want" ] || fail "the module's old records: '$(echo "$got" | tr '\n' '|')', expected '$(echo "$want" | tr '\n' '|')'"
	! grep -q 'Unknown type' $D/trace || fail "old records left unknown: $(grep -m2 'Unknown type' $D/trace)"
	say "the module's old records decode as their own events under their new ids"
	echo "-:kprobes/rbtr_persist_shift" >>$K/kprobe_events || fail "removing the kprobe event"
}

# check_old_ptrs: rcu_utilization's old pointers print as addresses of
# boot 1, not followed into this boot's memory.
check_old_ptrs() {
	local got bad
	got=$(grep -o 'rcu_utilization: .*' $D/trace)
	[ -n "$got" ] || fail "no old rcu_utilization record"
	bad=$(echo "$got" | grep -v -m1 -E '^rcu_utilization: s=\(0x[0-9a-f]+\)$') || true
	[ -z "$bad" ] || fail "an old const char * followed in this boot: $bad"
	bad=$(echo "$got" | sed 's/.*(0x//; s/)$//' | sort -u | comm -23 - "$R/persist.ptrs1" | head -1)
	[ -z "$bad" ] || fail "old rcu_utilization address $bad is not one of boot 1's: $(tr '\n' ' ' <"$R/persist.ptrs1")"
	say "$(echo "$got" | wc -l) old rcu_utilization records: boot 1's addresses, not followed"
}

text_now() { awk '$3 == "_text" { print $1; exit }' /proc/kallsyms; }

# save_text BOOT: this boot's _text, for the next boot's last_boot_info.
save_text() { text_now >"$R/persist.text$1"; }

# check_last_boot BOOT: last_boot_info names the previous boot (BOOT)'s
# _text and rbtrace's text; the KASLR delta is said.
check_last_boot() {
	local old new got info
	info=$(cat $D/last_boot_info) || fail "no last_boot_info"
	old=$(cat "$R/persist.text$1")
	new=$(text_now)
	got=$(echo "$info" | awk -F'\t' '$2 == "[kernel]" { print $1 }')
	[ "$((16#$got))" = "$((16#$old))" ] ||
		fail "last_boot_info: kernel line '$got', boot $1's _text was $old: $(echo "$info" | head -3)"
	echo "$info" | grep -qP '^[0-9a-f]+\trbtrace$' || fail "last_boot_info: no rbtrace line: $info"
	echo "$info" | grep -q '^# clock: local$' || fail "last_boot_info: no clock line: $info"
	if [ "$old" = "$new" ]; then
		say "KASLR delta 0: this boot's _text is boot $1's ($old); the shift is not tested by this boot"
	else
		say "KASLR delta $((16#$new - 16#$old)) (_text $old in boot $1, $new now)"
	fi
}

# check_marker_sym TAG CPU: TAG's markers read back as tracing_mark_write.
check_marker_sym() {
	local bad
	bad=$(grep ": $1$2 [0-9]*\$" $D/per_cpu/cpu$2/trace | grep -vc 'tracing_mark_write: ')
	[ "$bad" = 0 ] || fail "CPU $2: $bad '$1' markers not named tracing_mark_write: $(grep ": $1$2 [0-9]*\$" $D/per_cpu/cpu$2/trace | grep -v -m1 'tracing_mark_write: ')"
	say "CPU $2: the '$1' markers' ip is tracing_mark_write (the module table)"
}

stage=$(cat "$STAGE" 2>/dev/null || echo 1)
say "boot $stage"
case $stage in
1)
	load
	dmesg | grep -q "rbtrace: buffer at .*starting empty" || fail "no 'starting empty' line"
	[ "$(cat $D/last_boot_info)" = "# Current" ] || fail "last_boot_info of a fresh buffer: $(cat $D/last_boot_info)"
	# An event enabled for a moment: the metadata keeps it.
	echo 1 >$D/events/sched/sched_process_fork/enable || fail "enabling sched_process_fork"
	echo 0 >$D/events/sched/sched_process_fork/enable
	if [ "$functions" = 1 ]; then
		echo $FN >$D/set_ftrace_filter || fail "set_ftrace_filter $FN"
		echo function >$D/current_tracer || fail "current_tracer function"
	fi
	# After the tracer's change, which empties the buffer.
	rm -f "$R/persist.ids1"
	record_events
	record a
	check_all a 0
	check_all a 1
	[ "$functions" = 0 ] || echo 0 >$D/tracing_on
	save_text 1
	echo 2 >"$STAGE"
	sync
	say "rebooting"
	/bin/busybox reboot -f
	sleep 60
	fail "no reboot"
	;;
2)
	# The kernel's next event id: boot 1's first of the test module's.
	echo "p:kprobes/rbtr_persist_shift $FN" >>$K/kprobe_events || fail "making a kprobe event"
	load
	line=$(dmesg | grep "rbtrace: buffer at .*previous boot's") || fail "the previous boot's data not found"
	say "$line"
	check_all a 0
	check_all a 1
	check_last_boot 1
	check_marker_sym a 0
	check_marker_sym a 1
	grep -qE '^# event [0-9]+ sched:sched_process_fork$' $D/last_boot_info ||
		fail "last_boot_info: sched_process_fork not listed: $(grep '^# event' $D/last_boot_info)"
	check_old_ptrs
	check_events_unknown
	check_events
	if [ "$functions" = 1 ]; then
		# Every function record of boot 1 by its boot 1 name.
		fns=$(grep -E ': [^ ]+ <-[^ ]+$' $D/trace | sed -E 's/.*: ([^ ]+) <-([^ ]+)$/\1 \2/')
		n=$(echo "$fns" | grep -c .)
		[ "$n" -ge 100 ] || fail "only $n function records of boot 1"
		other=$(echo "$fns" | awk -v f=$FN '$1 != f' | sort | uniq -c | sort -rn | head -3)
		[ -z "$other" ] || fail "function records not named $FN: $other"
		raw=$(echo "$fns" | awk '$2 ~ /^0x/' | head -1)
		[ -z "$raw" ] || fail "a parent left as an address: $raw"
		say "$n function records of boot 1, every one $FN, parents $(echo "$fns" | awk '{print $2}' | sort | uniq -c | sort -rn | head -2 | awk '{printf "%s %s ", $2, $1}')"
	fi
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
	# trace-cmd extract of the old data (CPU 0's, not consumed yet):
	# trace-cmd report reads every number of boot 1 back. extract ends
	# by truncating trace (strace: it clears what it read, as on
	# ftrace's tracefs), which clears the old data too.
	"$top/tools/rbtrace-cmd" extract -o /tmp/old.dat >/tmp/old.log 2>&1 ||
		fail "trace-cmd extract of the previous boot's data: $(tail -3 /tmp/old.log)"
	got=$(trace-cmd report -i /tmp/old.dat 2>/dev/null | grep -o "a0 [0-9]*" | awk '{print $2}')
	[ "$got" = "$(seq 1 "$N")" ] ||
		fail "trace-cmd report of the old data: $(echo "$got" | grep -c .) numbers of CPU 0, not 1..$N"
	say "trace-cmd extract and report of the old data: all $N numbers of CPU 0 in order"
	echo > $D/trace
	[ "$(cat $D/last_boot_info)" = "# Current" ] || fail "last_boot_info after clearing: $(cat $D/last_boot_info)"
	echo "accepted" > $D/trace_marker
	grep -q "tracing_mark_write: accepted" $D/trace || fail "no recording after clearing"
	echo > $D/trace
	record b
	save_text 2
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
	# The metadata this boot's load wrote after boot 2 cleared the old data.
	check_last_boot 2
	check_marker_sym b 0
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
	say "corruption: PASS"
	# An oops that does not panic: the die notifier stops recording, the
	# events before it are kept for the next boot, none after.
	tp=$(dirname "$ko")/tests/tpmod/rbtrace_tp_test.ko
	[ -f "$tp" ] || fail "no $tp (built with --tests)"
	record d
	insmod "$tp" || fail "insmod $tp"
	echo 4 >"$STAGE"
	sync
	say "oops"
	(echo 1 >/sys/module/rbtrace_tp_test/parameters/oops) 2>/dev/null
	echo after-oops >$D/trace_marker 2>/dev/null
	grep -q after-oops $D/trace && fail "recorded after the oops"
	sync
	/bin/busybox reboot -f
	sleep 60
	fail "no reboot"
	;;
4)
	load
	dmesg | grep "rbtrace: buffer at .*previous boot's" || fail "the data of the boot that oopsed not found"
	check_all d 0
	check_all d 1
	grep -q after-oops $D/trace && fail "a marker written after the oops is in the old data"
	echo > $D/trace
	rmmod rbtrace || fail "rmmod"
	rm -f "$STAGE"
	say "oops: PASS"
	say "PASS"
	;;
*)
	fail "stage $stage?"
	;;
esac
