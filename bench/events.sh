#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Sourced by bench/bench.sh (part "events"): the cost of one tracepoint
# event, rbtrace's generic route (a perf counter per CPU, kevents.c)
# against the same event in ftrace and against rbtrace's native probe.
#
# rbt_evbench calls getppid() in a loop on CPU 1; each call fires
# raw_syscalls:sys_enter (native in rbtrace) and syscalls:sys_enter_getppid
# (generic in rbtrace). Per configuration one line:
#   evbench impl=IMPL event=EVENT rep=R calls=N ns_per_call=X recorded=M
# impl=off is the loop without tracing; under -icount, ns are instructions,
# and ns_per_call minus off's is the event's cost. IMPL-fpass and
# IMPL-freject have an event filter on raw_syscalls:sys_enter that keeps
# every record ("id != 99999") or drops every one ("id == 99999"): the
# cost of the filter, and of a record written then discarded (rbtrace's
# rbt_discard(), ftrace's buffered event). Needs $dir, $out,
# $rb, $K, quiet() and cstat() of bench.sh, rbtrace loaded.
evb_tool=$dir/bench/rbt_evbench
evb_n=${EVB_N:-20000}

evb_run() {
	local impl=$1 event=$2 rep=$3 filter=${4:-} d r
	quiet 8192
	case $impl in
	off) d= ;;
	ftrace*) d=$K ;;
	*) d=$rb ;;
	esac
	if [ -n "$d" ]; then
		[ -z "$filter" ] || echo "$filter" >"$d/events/${event/://}/filter"
		echo "$event" >"$d/set_event"
		echo 1 >"$d/tracing_on"
	fi
	r=$(taskset -c 1 "$evb_tool" "$evb_n")
	echo 0 >"$K/tracing_on"
	echo 0 >"$rb/tracing_on"
	rec=0
	[ -z "$d" ] || rec=$(cstat "${impl%-*}" 1 entries)
	[ -z "$filter" ] || echo 0 >"$d/events/${event/://}/filter"
	echo "evbench impl=$impl event=$event rep=$rep $r recorded=$rec" >>"$out"
}

for rep in 1 2 3; do
	evb_run off none "$rep"
	evb_run ftrace raw_syscalls:sys_enter "$rep"
	evb_run rbtrace-native raw_syscalls:sys_enter "$rep"
	evb_run ftrace syscalls:sys_enter_getppid "$rep"
	evb_run rbtrace-generic syscalls:sys_enter_getppid "$rep"
	evb_run ftrace-fpass raw_syscalls:sys_enter "$rep" 'id != 99999'
	evb_run rbtrace-fpass raw_syscalls:sys_enter "$rep" 'id != 99999'
	evb_run ftrace-freject raw_syscalls:sys_enter "$rep" 'id == 99999'
	evb_run rbtrace-freject raw_syscalls:sys_enter "$rep" 'id == 99999'
done
quiet 1024
