#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of the function-tracer benchmark (bench/bench.sh part "func").
# Usage: fnbench.sh BUILD_DIR OUT [CALLS]
#
# The cost of one traced call of rbt_fnbench_target() (bench/rbt_fnbench.c),
# rbtrace's function tracer against ftrace's, each filtered to that one
# function, in this boot; minus the loop with no tracer. Appends lines
# "fnbench: impl=IMPL calls=N ns=T per_call=P" to OUT (under -icount,
# ns are instructions).
set -euo pipefail
dir=$1 out=$2 calls=${3:-200000}
rb=/sys/kernel/debug/rbtrace
K=/sys/kernel/tracing
run=/sys/module/rbt_fnbench/parameters/run

# timed: ns of $calls calls, the least of three runs.
timed() {
	local best='' _ t
	for _ in 1 2 3; do
		echo "$calls" >"$run"
		t=$(dmesg | grep -o 'rbt_fnbench: calls=[0-9]* ns=[0-9]*' | tail -1 | sed 's/.*ns=//')
		if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
	done
	echo "$best"
}

insmod "$dir/rbtrace.ko" mode=overwrite
insmod "$dir/bench/rbt_fnbench.ko"
echo 1 >"$K/options/overwrite"
base=$(timed)
echo "fnbench: impl=none calls=$calls ns=$base per_call=0" >>"$out"
for impl in rbtrace ftrace; do
	d=$rb
	[ "$impl" = ftrace ] && d=$K
	echo rbt_fnbench_target >"$d/set_ftrace_filter"
	# Recording on and empty: the parts of bench.sh before this one
	# leave tracing_on 0, and a call into a buffer that refuses it
	# costs less than one recorded (ftrace's: 196 against 562).
	echo >"$d/trace"
	echo 1 >"$d/tracing_on"
	echo function >"$d/current_tracer"
	t=$(timed)
	entries=$(cat "$d"/per_cpu/cpu*/stats | awk '$1 == "entries:" { s += $2 } END { print s + 0 }')
	echo nop >"$d/current_tracer"
	if [ "$entries" = 0 ]; then
		echo "fnbench: $impl recorded nothing: not a traced call's cost" >&2
		exit 1
	fi
	echo >"$d/set_ftrace_filter"
	echo "fnbench: impl=$impl calls=$calls ns=$t per_call=$(( (t - base) / calls ))" >>"$out"
done
rmmod rbt_fnbench
rmmod rbtrace
grep fnbench "$out"
