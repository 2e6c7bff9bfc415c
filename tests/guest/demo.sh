#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh RBTRACE.KO [SECONDS]: the guest half of scripts/demo.sh, a real
# trace session. Load rbtrace, enable the sched and irq events, run a
# workload on both CPUs, show what the buffer holds (trace, trace_pipe,
# per-CPU stats), record the same workload with trace-cmd through
# tools/rbtrace-cmd into $RBT_RESULTS/trace.dat (the directory shared with
# the host, which renders it with KernelShark), show trace-cmd report,
# unload.
#
# demo.sh --workload SECONDS: the workload alone (what trace-cmd runs).
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
self=$top/tests/guest/demo.sh
dir=/sys/kernel/debug/rbtrace

# section TITLE: a heading, so that the output reads as a story.
section() {
	echo
	echo "==== $*"
}

# show CMD...: print the command as a user would type it, then run it.
show() {
	echo "# $*"
	"$@"
}

# spin NAME CPU SECONDS: a busy loop pinned to CPU. Its name is written to
# its comm, so that trace, trace-cmd report and KernelShark tell it apart
# from the other shells.
spin() {
	taskset -c "$2" bash -c 'printf %s "$1" >/proc/self/comm; end=$((SECONDS + $2)); while [ $SECONDS -lt $end ]; do :; done' \
		spin "$1" "$3"
}

# workload SECONDS: something readable on a two-CPU timeline. A busy loop
# pinned to CPU 0 for the whole time and one pinned to CPU 1 from a third
# of it on; a pipeline of processes (find over /usr/share, cat, gzip) that the
# scheduler moves between them; a ticker that sleeps and wakes up 20 times
# a second. Every part is bounded by SECONDS.
workload() {
	local t=$1 pids=()
	spin spin-cpu0 0 "$t" &
	pids+=($!)
	(sleep $((t / 3)) && spin spin-cpu1 1 $((t - t / 3))) &
	pids+=($!)
	(timeout "$t" find /usr/share -type f -print0 2>/dev/null |
		timeout "$t" xargs -0 -n 64 cat 2>/dev/null | gzip -1 | wc -c >/dev/null) &
	pids+=($!)
	(end=$((SECONDS + t)); while [ $SECONDS -lt $end ]; do sleep 0.05; done) &
	pids+=($!)
	wait "${pids[@]}" || true
}

if [ "${1:-}" = --workload ]; then
	# --events LIST: enable them first (see step 7 below).
	[ "${3:-}" != --events ] || echo "$4" >"$dir/set_event"
	workload "$2"
	exit 0
fi

ko=$1
secs=${2:-3}
out=${RBT_RESULTS:-/tmp}
[ "$(nproc)" -ge 2 ] || echo "(only $(nproc) CPU: the CPU 1 part of the workload will share CPU 0)"

section "1. Load rbtrace (kernel $(uname -r), $(nproc) CPUs)"
show insmod "$ko"
echo "# ls $dir"
ls -C "$dir"
show cat "$dir/buffer_size_kb"

section "2. Enable the scheduler and interrupt events"
echo "# echo 'sched irq' > $dir/set_event"
echo 'sched irq' >"$dir/set_event"
show cat "$dir/set_event"

section "3. Run a ${secs}-second workload (busy loops pinned to CPU 0 and 1, find | xargs cat | gzip, a ticker)"
echo >"$dir/trace"
workload "$secs"
echo "done"

section "4. What the buffer holds: cat trace (its header, then from the first busy loop on)"
awk '/^#/ { print; next } /spin-cpu/ { go = 1 } go && n++ < 24 { print } n == 24 { exit }' "$dir/trace"
echo "..."

section "5. trace_pipe: a consuming read, events as they happen"
# A fresh buffer, then the first lines that come: the ticks, softirqs and
# wakeups of a system at rest. Each line read is gone from the buffer.
echo >"$dir/trace"
echo "# cat trace_pipe | head -n 10"
timeout 10 awk '{ print } NR == 10 { exit }' "$dir/trace_pipe" || true

section "6. Per-CPU statistics (per_cpu/cpuN/stats)"
echo >"$dir/set_event"
for c in "$dir"/per_cpu/cpu*; do
	echo "# cat $c/stats"
	cat "$c/stats"
done

section "7. Record the same workload with trace-cmd into trace.dat"
cd "$out"
rm -f trace.dat trace.dat.cpu*
# trace-cmd's -e looks for the events' filter files (it globs
# events/SYSTEM/EVENT/filter), and without -e it disables every event
# before it starts the command. Where rbtrace has no filter files, the
# command itself enables the events through set_event, once the recorders
# run; trace-cmd saves every event format in trace.dat without -e.
rec=(record -e sched -e irq -o "$out/trace.dat" -- "$self" --workload "$secs")
if [ ! -e "$dir/events/sched/sched_switch/filter" ]; then
	echo "(rbtrace has no events/*/*/filter files, which trace-cmd -e needs:"
	echo " the workload enables the events through set_event when it starts)"
	rec=(record -p nop -o "$out/trace.dat" -- "$self" --workload "$secs" --events 'sched irq')
fi
echo "# tools/rbtrace-cmd ${rec[*]}" | sed "s|$self|demo.sh|"
"$top/tools/rbtrace-cmd" "${rec[@]}" >record.log 2>&1 ||
	{ cat record.log; echo "trace-cmd record FAILED"; exit 1; }
echo >"$dir/set_event"
# trace-cmd's own summary: what it read from each CPU.
grep -E '^(CPU[0-9]|  *(entries|overrun|commit overrun|bytes)):' record.log | head -n 12 || true
ls -l "$out/trace.dat"

section "8. trace-cmd report trace.dat (libtraceevent parses rbtrace's event formats)"
trace-cmd report "$out/trace.dat" >report.txt 2>&1 || { tail report.txt; echo "trace-cmd report FAILED"; exit 1; }
if grep -q 'FAILED TO PARSE' report.txt; then
	grep -m 3 'FAILED TO PARSE' report.txt
	echo "trace-cmd report cannot parse some events"
	exit 1
fi
# Its first line (the CPU count), then from the first busy loop on.
awk 'NR == 1 { print } /spin-cpu/ { go = 1 } go && n++ < 20 { print } n == 20 { exit }' report.txt
echo "..."
echo "# events per name"
sed -nE 's/^.*[0-9]: +([a-z_]+): .*$/\1/p' report.txt | sort | uniq -c | sort -rn
n=$(grep -cE '^ *.+\[[0-9]+\] ' report.txt || true)
echo "# $n events in trace.dat"
[ "$n" -gt 0 ] || { echo "trace.dat holds no event"; exit 1; }

section "9. Any kernel event, a kprobe and a kernel stack, as with ftrace"
echo 0 >"$dir/tracing_on"
echo >"$dir/set_event"
echo >"$dir/trace"
show sh -c "echo 'p:open do_sys_openat2 dfd=\$arg1:s32 comm=\$comm' > $dir/kprobe_events"
show sh -c "echo 'kmem:kmalloc kprobes:open' > $dir/set_event"
show sh -c "echo 1 > $dir/options/stacktrace"
echo 1 >"$dir/tracing_on"
cat /etc/hostname >/dev/null
echo 0 >"$dir/tracing_on"
echo 0 >"$dir/options/stacktrace"
echo "# cat trace (the first of each kind, with the stack after it)"
grep -v '^#' "$dir/trace" | awk '/ open: / && !o { o = 1; p = 8 } / kmalloc: / && !k { k = 1; p = 8 } p-- > 0' | head -n 16
grep -q ' open: ' "$dir/trace" || { echo "no kprobe event recorded"; exit 1; }
grep -q ' kmalloc: ' "$dir/trace" || { echo "no kmem:kmalloc event recorded"; exit 1; }
grep -q '<stack trace>' "$dir/trace" || { echo "no kernel stack recorded"; exit 1; }
echo >"$dir/set_event"
echo >"$dir/kprobe_events"
echo 1 >"$dir/tracing_on"

section "10. Seed 003's example: function_graph with tracing_thresh (calls of 100 us or more)"
# On vfs_read alone here: tracing every function patches all their
# entries, which this demo's multi-threaded TCG guest is not booted for.
echo >"$dir/trace"
show sh -c "echo vfs_read > $dir/set_graph_function"
show sh -c "echo 100 > $dir/tracing_thresh"
show sh -c "echo function_graph > $dir/current_tracer"
# Reads of a few hundred files (head ends find early: SIGPIPE is fine).
for _ in 1 2 3 4 5; do
	(find /usr/share -maxdepth 2 -type f 2>/dev/null | head -n 200 | xargs cat >/dev/null 2>&1) || true
done
echo 0 >"$dir/tracing_on"
show sh -c "grep -v '^#' $dir/trace | head -n 8"
grep -q 'vfs_read' "$dir/trace" || { echo "no vfs_read call of 100 us or more recorded"; exit 1; }
echo nop >"$dir/current_tracer"
echo 0 >"$dir/tracing_thresh"
echo >"$dir/set_graph_function"
echo 1 >"$dir/tracing_on"

section "11. Choose what is recorded: a filter, a pid list, a trigger"
echo 0 >"$dir/tracing_on"
echo >"$dir/trace"
# Two busy loops on CPU 0. set_event_pid keeps the switches in which
# keep-me takes part (as prev or next, as ftrace decides); the filter
# drops those from the idle task; the trigger stops tracing after the
# first switch to drop-me (traceoff acts after its event is recorded).
# Not through spin(): "spin ... &" would fork a subshell, and $! be its
# pid, not the loop's (taskset execs bash: the same pid).
loop='printf %s "$1" >/proc/self/comm; end=$((SECONDS + $2)); while [ $SECONDS -lt $end ]; do :; done'
taskset -c 0 bash -c "$loop" spin keep-me 30 &
keep=$!
taskset -c 0 bash -c "$loop" spin drop-me 30 &
drop=$!
show sh -c "echo $keep > $dir/set_event_pid"
show sh -c "echo 'prev_pid != 0' > $dir/events/sched/sched_switch/filter"
show sh -c "echo 'traceoff if next_comm ~ \"drop*\"' > $dir/events/sched/sched_switch/trigger"
show sh -c "echo 1 > $dir/events/sched/sched_switch/enable"
show cat "$dir/events/sched/sched_switch/trigger"
echo 1 >"$dir/tracing_on"
# The trigger turns tracing off at the first switch to drop-me.
for _ in $(seq 50); do
	[ "$(cat "$dir/tracing_on")" = 0 ] && break
	sleep 0.1
done
kill "$keep" "$drop" 2>/dev/null || true
wait "$keep" "$drop" 2>/dev/null || true
echo "# tracing_on: $(cat "$dir/tracing_on") (the trigger turned it off)"
show sh -c "grep -v '^#' $dir/trace | tail -n 4"
[ "$(cat "$dir/tracing_on")" = 0 ] || { echo "the traceoff trigger did not fire"; exit 1; }
! grep -v '^#' "$dir/trace" | grep ' sched_switch: ' | grep -v -e "prev_pid=$keep " -e "next_pid=$keep " ||
	{ echo "a switch without keep-me (set_event_pid) was recorded"; exit 1; }
grep -q "next_comm=drop-me" "$dir/trace" ||
	{ echo "the switch that fired the trigger is not in the trace"; exit 1; }
echo '!traceoff' >"$dir/events/sched/sched_switch/trigger"
echo 0 >"$dir/events/sched/sched_switch/filter"
echo 0 >"$dir/events/sched/sched_switch/enable"
echo >"$dir/set_event_pid"
echo 1 >"$dir/tracing_on"

section "12. A snapshot: freeze what the buffer holds while recording goes on"
echo >"$dir/trace"
show sh -c "echo before-the-snapshot > $dir/trace_marker"
show sh -c "echo 1 > $dir/snapshot"
show sh -c "echo after-the-snapshot > $dir/trace_marker"
echo "# grep -o 'tracing_mark_write: .*' snapshot trace"
for f in snapshot trace; do
	echo "$f: $(grep -o 'tracing_mark_write: .*' "$dir/$f" | tr '\n' ' ')"
done
grep -q before-the-snapshot "$dir/snapshot" && grep -q after-the-snapshot "$dir/trace" &&
	! grep -q before-the-snapshot "$dir/trace" || { echo "the snapshot did not swap the buffers"; exit 1; }
show sh -c "echo 0 > $dir/snapshot"

section "13. Instances: recorders of their own, each with its own events"
show mkdir "$dir/instances/execs" "$dir/instances/irqs"
show sh -c "echo sched:sched_process_exec > $dir/instances/execs/set_event"
show sh -c "echo 'irq sched:sched_process_exec' > $dir/instances/irqs/set_event"
show sh -c "echo 'pid == 1' > $dir/instances/irqs/events/sched/sched_process_exec/filter"
# Each its own mode: irqs keeps its first events once full (nooverwrite).
show sh -c "echo 0 > $dir/instances/irqs/options/overwrite"
show cat "$dir/instances/irqs/trace_options"
# The execs of the commands above came before the filter.
echo >"$dir/instances/irqs/trace"
/bin/true
sleep 0.2
echo "# grep -c sched_process_exec: instances/*/trace"
for i in execs irqs; do
	echo "instances/$i/trace: $(grep -c 'sched_process_exec:' "$dir/instances/$i/trace" || true)"
done
echo "# grep -c irq_handler_entry: instances/*/trace"
for i in execs irqs; do
	echo "instances/$i/trace: $(grep -c 'irq_handler_entry:' "$dir/instances/$i/trace" || true)"
done
grep -q 'sched_process_exec:.*filename=/bin/true' "$dir/instances/execs/trace" ||
	{ echo "instances/execs did not record the exec"; exit 1; }
! grep -q 'sched_process_exec:' "$dir/instances/irqs/trace" ||
	{ echo "instances/irqs's filter let an exec through"; exit 1; }
# One process's events alone (set_event_pid), any event of the kernel
# (kmem:kmalloc has no probe of rbtrace's own: perf's route), in a
# third instance; the process waits stopped until its pid is set (the
# pid first: events enabled before it would record every task's).
sh -c 'kill -STOP $$; exec ls /usr >/dev/null' &
p=$!
while [ "$(awk '{ print $3 }' "/proc/$p/stat")" != T ]; do sleep 0.1; done
show mkdir "$dir/instances/one"
show sh -c "echo $p > $dir/instances/one/set_event_pid"
show sh -c "echo 'sched:sched_process_exec kmem:kmalloc' > $dir/instances/one/set_event"
kill -CONT "$p"
wait "$p"
echo "# instances/one/trace: its events by name, and the pids that wrote them"
grep -oE '^ +[^ ]+-[0-9]+ .* (sched_process_exec|kmalloc):' "$dir/instances/one/trace" |
	sed -E 's/^ +[^ ]+-([0-9]+) .* ([a-z_]+):$/pid \1 \2/' | sort | uniq -c
grep -q "filename=/usr/bin/ls\|filename=/bin/ls" "$dir/instances/one/trace" &&
	grep -q 'kmalloc:' "$dir/instances/one/trace" ||
	{ echo "instances/one did not record the exec and kmallocs of $p"; exit 1; }
grep -E '^ +[^ ]+-[0-9]+ ' "$dir/instances/one/trace" | grep -vE "^ +[^ ]+-$p " &&
	{ echo "instances/one recorded another pid"; exit 1; }
show rmdir "$dir/instances/execs" "$dir/instances/irqs" "$dir/instances/one"

section "14. The latch clock read from user space, without a system call"
# samples/rbtrace_uclock: each record stamped from the mapped
# trace_clock_page, then written through trace_marker_raw (a raw_data
# event the kernel stamps on the same clock).
gcc -O2 -I "$top/include/uapi" -o /tmp/rbtrace_uclock "$top/samples/rbtrace_uclock.c" ||
	{ echo "cannot build samples/rbtrace_uclock.c"; exit 1; }
echo >"$dir/trace"
show sh -c "echo latch > $dir/trace_clock"
show /tmp/rbtrace_uclock 3
echo "# grep 75636c6b $dir/trace   (the sample's id, \"uclk\")"
grep '# 75636c6b buf:' "$dir/trace" || { echo "no record of the sample"; exit 1; }
show sh -c "echo local > $dir/trace_clock"

section "15. Newer than this kernel's ftrace: syscalls' user memory, copy_trace_marker, show_event_filters; the stack tracer, function commands"
# ftrace 6.19's syscalls events record what their user pointers point to;
# 6.16's copy_trace_marker sends the top's marker writes to an instance
# too; 7.0's show_event_filters lists every filter in force.
echo >"$dir/trace"
show sh -c "echo 'syscalls:sys_enter_openat syscalls:sys_enter_write' > $dir/set_event"
show sh -c "echo 'fd == 1' > $dir/events/syscalls/sys_enter_write/filter"
show cat "$dir/syscall_user_buf_size"
show mkdir "$dir/instances/marks"
show sh -c "echo 1 > $dir/instances/marks/options/copy_trace_marker"
sh -c "cat /etc/hostname; echo hello from the demo > $dir/trace_marker" >/dev/null
echo >"$dir/set_event"
echo "# grep -E 'hostname|hello' trace"
grep -E '/etc/hostname|hello from' "$dir/trace" | head -n 4
grep -q 'filename: [0-9a-f]* "/etc/hostname"' "$dir/trace" || { echo "no openat path recorded"; exit 1; }
show cat "$dir/show_event_filters"
echo "# cat instances/marks/trace (the top's marker write, copied)"
grep -v '^#' "$dir/instances/marks/trace"
grep -q 'hello from the demo' "$dir/instances/marks/trace" || { echo "the marker was not copied"; exit 1; }
echo 0 >"$dir/events/syscalls/sys_enter_write/filter"
rmdir "$dir/instances/marks"
# ftrace's stack tracer, on vfs_read alone (as section 10, one function
# patched): the deepest stack seen at its entry, frame by frame.
show sh -c "echo vfs_read > $dir/stack_trace_filter"
show sh -c "echo 1 > $dir/stack_tracer_enabled"
cat /etc/hostname >/dev/null
echo 0 >"$dir/stack_tracer_enabled"
show cat "$dir/stack_trace"
grep -q ') .*vfs_read+0x' "$dir/stack_trace" || { echo "no stack of vfs_read"; exit 1; }
echo >"$dir/stack_trace_filter"
# ftrace's function commands: a stack the first time vfs_read runs (the
# next read of any file: here cat's own of set_ftrace_filter), and the
# count read back gone down from 1 to 0.
echo >"$dir/trace"
show sh -c "echo 'vfs_read:stacktrace:1' >> $dir/set_ftrace_filter"
show cat "$dir/set_ftrace_filter"
grep -qx 'vfs_read:stacktrace:count=0' "$dir/set_ftrace_filter" || { echo "the command did not fire"; exit 1; }
echo "# grep -A4 '<stack trace>' trace"
grep -A4 '<stack trace>' "$dir/trace" | head -n 5
show sh -c "echo '!vfs_read:stacktrace:0' >> $dir/set_ftrace_filter"

section "16. Unload"
cd /
show rmmod rbtrace
show test ! -e "$dir"
echo "# kernel messages from rbtrace"
dmesg | grep 'rbtrace:' || true
