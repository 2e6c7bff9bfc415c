#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by bench/bench.sh (part "events"): the cost of one tracepoint
# event on each of rbtrace's routes against the same event in ftrace,
# and the time to switch every event on and off.
#
# rbt_evbench calls getppid() (or getcwd()) in a loop on CPU 1; each
# getppid() fires raw_syscalls:sys_enter (a hand-written probe of
# rbtrace, tp_events.h) and syscalls:sys_enter_getppid (the syscalls
# route, kevents_syscalls.c); each getcwd() kmem:kmem_cache_alloc (a
# probe compiled from the kernel's definition, kn_stage.h, where the
# build had the kernel's source). Then rbtrace is loaded again with
# native_events=0 and the same two events go through perf (a perf counter
# per CPU, kevents.c): the route they took before. Per configuration one
# line:
#   evbench impl=IMPL event=EVENT rep=R calls=N ns_per_call=X recorded=M
# impl=off is the loop without tracing; under -icount, ns are instructions,
# and ns_per_call minus off's is the event's cost. IMPL-fpass and
# IMPL-freject have an event filter on raw_syscalls:sys_enter that keeps
# every record ("id != 99999") or drops every one ("id == 99999"): the
# cost of the filter, and of a record written then discarded (rbtrace's
# rbt_discard(), ftrace's buffered event). The switch of every event:
#   evall impl=IMPL rep=R on_ns=X off_ns=Y events=N
# ("echo 1 > events/enable", then "echo '!*:*' > set_event"; guest ns,
# instructions under -icount). Needs $dir, $out, $rb, $K, quiet() and
# cstat() of bench.sh, rbtrace loaded with mode=overwrite.
evb_tool=$dir/bench/rbt_evbench
evb_n=${EVB_N:-20000}

evb_run() {
	local impl=$1 event=$2 rep=$3 filter=${4:-} d r call=getppid
	[[ $event != kmem:* ]] || call=getcwd
	quiet 8192
	case $impl in
	off*) d= ;;
	ftrace*) d=$K ;;
	*) d=$rb ;;
	esac
	if [ -n "$d" ]; then
		[ -z "$filter" ] || echo "$filter" >"$d/events/${event/://}/filter"
		echo "$event" >"$d/set_event"
		echo 1 >"$d/tracing_on"
	fi
	r=$(taskset -c 1 "$evb_tool" "$evb_n" "$call")
	echo 0 >"$K/tracing_on"
	echo 0 >"$rb/tracing_on"
	rec=0
	[ -z "$d" ] || rec=$(cstat "${impl%-*}" 1 entries)
	[ -z "$filter" ] || echo 0 >"$d/events/${event/://}/filter"
	echo "evbench impl=$impl event=$event rep=$rep $r recorded=$rec" >>"$out"
}

# evb_all IMPL REP: every event of the tracer on, then off.
evb_all() {
	local d=$K a b c n
	[[ $1 != rbtrace* ]] || d=$rb
	quiet 1024
	a=$(date +%s%N)
	# On perf's route alone the kernel refuses irq_vectors:irq_work_exit
	# (TRACE_EVENT_PERF_PERM: a sampling counter on it would loop through
	# irq_work), and a write of rbtrace's is all or nothing: there, each
	# system's enable but irq_vectors', then irq_vectors' events but that
	# one (a write a system: the loop's own cost is small beside perf's).
	if [ "$1" = rbtrace-perf ]; then
		for s in "$d"/events/*/; do
			# ftrace's own formats (events/ftrace) are not switched.
			case $s in */events/irq_vectors/ | */events/ftrace/) continue ;; esac
			echo 1 >"$s/enable"
		done
		for s in "$d"/events/irq_vectors/*/; do
			[ "$s" = "$d/events/irq_vectors/irq_work_exit/" ] || echo 1 >"$s/enable"
		done
	else
		echo 1 >"$d/events/enable"
	fi
	b=$(date +%s%N)
	n=$(grep -c . "$d/set_event")
	echo '!*:*' >>"$d/set_event"
	c=$(date +%s%N)
	echo "evall impl=$1 rep=$2 on_ns=$((b - a)) off_ns=$((c - b)) events=$n" >>"$out"
}

# The route of each event in this load, for the report.
grep -E '^(syscalls:sys_enter_getppid|kmem:kmem_cache_alloc) ' "$rb/event_routes" |
	sed 's/^/evroute /' >>"$out" || true
for rep in 1 2 3; do
	evb_run off none "$rep"
	evb_run offcwd kmem:none "$rep"
	evb_run ftrace raw_syscalls:sys_enter "$rep"
	evb_run rbtrace-native raw_syscalls:sys_enter "$rep"
	evb_run ftrace syscalls:sys_enter_getppid "$rep"
	evb_run rbtrace-syscalls syscalls:sys_enter_getppid "$rep"
	evb_run ftrace kmem:kmem_cache_alloc "$rep"
	evb_run rbtrace-kn kmem:kmem_cache_alloc "$rep"
	evb_run ftrace-fpass raw_syscalls:sys_enter "$rep" 'id != 99999'
	evb_run rbtrace-fpass raw_syscalls:sys_enter "$rep" 'id != 99999'
	evb_run ftrace-freject raw_syscalls:sys_enter "$rep" 'id == 99999'
	evb_run rbtrace-freject raw_syscalls:sys_enter "$rep" 'id == 99999'
	evb_all ftrace "$rep"
	evb_all rbtrace "$rep"
done
# The same events through perf: rbtrace again, with native_events=0.
rmmod rbtrace
insmod "$dir/rbtrace.ko" mode=overwrite native_events=0
for rep in 1 2 3; do
	evb_run rbtrace-perf syscalls:sys_enter_getppid "$rep"
	evb_run rbtrace-perf kmem:kmem_cache_alloc "$rep"
	evb_all rbtrace-perf "$rep"
done
rmmod rbtrace
insmod "$dir/rbtrace.ko" mode=overwrite
quiet 1024
