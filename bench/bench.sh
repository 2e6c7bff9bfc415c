#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/bench.sh. Usage: bench.sh BUILD_DIR EVENTS OUT [PARTS [READ_REPS]]
#
# PARTS (comma-separated, default all): write (the write-cost module),
# events (cost of one tracepoint event: bench/events.sh),
# read (splice of trace_pipe_raw and trace_pipe text, rbtrace's against
# ftrace's tracefs), hackbench (tracing overhead), hball (hackbench with
# every event of the kernel on in each tracer), mem (bytes beyond the
# data pages), func (a traced function call, bench/fnbench.sh), snap
# (the time of one "echo 1 > snapshot", rbtrace's against ftrace's where
# the kernel has CONFIG_TRACER_SNAPSHOT: stock 6.12, not the test
# kernel), uclock (one read of the latch clock from user space, against
# clock_gettime(CLOCK_MONOTONIC) and a trace_marker write:
# bench/rbt_uclockbench.c); lttng
# (not in the default: hackbench against LTTng too, on the stock 6.1
# kernel, see bench/lttng-guest.sh). Every figure of rbtrace has ftrace's
# beside it from this
# boot. One line per measurement goes to OUT; scripts/bench-report.py
# turns them into tables.
#
# Environment: READ_N (markers of 10 bytes, default 100000; 256-byte ones:
# a fifth), PIPE_N (default 20000), HB_ARGS (default "-g 4 -l 100"),
# HB_RUNS (default 5), HB_CPUS (the CPU sets hackbench runs on, one pass
# each: "all" or a taskset list; default "all 1": on one CPU the runs
# repeat closely under -icount, on all they vary by 10%).
set -euo pipefail
dir=$1 events=$2 out=$3 parts=${4:-write,events,read,hackbench,hball,mem,func,snap,uclock}
# READ_REPS: runs of each read test (default 3: -icount repeats; by the
# wall clock one pair of runs differs by up to 2x, and 3 cannot resolve 5%).
read_reps=${5:-3}
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
tool=$dir/bench/rbt_readbench
read_n=${READ_N:-100000}
pipe_n=${PIPE_N:-20000}
hb_args=${HB_ARGS:--g 4 -l 100}
hb_runs=${HB_RUNS:-5}
hb_cpus=${HB_CPUS:-all 1}
: >"$out"

want() { [[ ,$parts, == *,$1,* ]]; }

if want write; then
	insmod "$dir/rbtrace.ko"
	# A range reserved with memmap=SIZE$ADDR (scripts/bench.sh's -icount
	# boot): the persistent buffer's write cost too.
	persist=()
	m=$(grep -o 'memmap=[0-9]*M\$0x[0-9a-f]*' /proc/cmdline || true)
	if [ -n "$m" ]; then
		sz=${m#memmap=}
		persist=(persist_addr="${m#*\$}" persist_size=$((${sz%%M*} << 20)))
	fi
	insmod "$dir/bench/rbtrace_bench.ko" events="$events" "${persist[@]}"
	rmmod rbtrace_bench
	rmmod rbtrace
	dmesg | grep -o 'rbtrace_bench: impl=.*' >>"$out"
fi

if want read || want hackbench || want hball || want mem || want events; then
	insmod "$dir/rbtrace.ko" mode=overwrite
	echo nop >"$K/current_tracer"
	echo 1 >"$K/options/overwrite"
fi

if want events; then
	# shellcheck source=bench/events.sh
	. "$(dirname "$0")/events.sh"
fi

# read_drain IMPL SIZE REP N: N events in the buffer, then splice them all out.
read_drain() {
	local d r
	d=$(tdir "$1")
	quiet 16384
	echo 1 >"$d/tracing_on"
	"$tool" write "$d" 1 "$4" "$2"
	echo 0 >"$d/tracing_on"
	r=$(taskset -c 0 "$tool" splice "$d" 1 /tmp/raw.out)
	echo "readbench impl=$1 mode=drain size=$2 rep=$3 written=$4 $r overrun=$(cstat "$1" 1 overrun)" >>"$out"
}

# read_live IMPL SIZE REP N KB: a writer on CPU 1, the splice reader on
# CPU 0 meanwhile, into KB per CPU. How many are lost depends on how the
# vCPUs were scheduled. The reader sleeps 1 ms when no page is full: 256
# KiB of 280-byte events fill in about that long under -icount, so one
# late wakeup loses a ring; 1 MiB is four of those sleeps (256 B: 0.43x
# in one boot, 0.86x in another, with the same read code).
read_live() {
	local d r mode=live
	d=$(tdir "$1")
	[ "$5" = 256 ] || mode=live$5
	quiet "$5"
	echo 1 >"$d/tracing_on"
	r=$(taskset -c 0 "$tool" splice "$d" 1 /tmp/raw.out "$4" "$2" 1)
	echo 0 >"$d/tracing_on"
	echo "readbench impl=$1 mode=$mode size=$2 rep=$3 written=$4 $r overrun=$(cstat "$1" 1 overrun)" >>"$out"
}

# read_pipe IMPL REP: N events in the buffer, read them all as text.
read_pipe() {
	local d r
	d=$(tdir "$1")
	quiet 16384
	echo 1 >"$d/tracing_on"
	"$tool" write "$d" 1 "$pipe_n" 10
	echo 0 >"$d/tracing_on"
	r=$(taskset -c 0 "$tool" pipe "$d")
	echo "readbench impl=$1 mode=pipe size=10 rep=$2 written=$pipe_n $r" >>"$out"
}

if want read; then
	# READ_REPS times each, the two tracers in turn within a rep, so
	# that a slow spell of the host falls on both.
	for size in 10 256; do
		n=$read_n
		[ "$size" = 10 ] || n=$((read_n / 5))
		for rep in $(seq "$read_reps"); do
			for impl in rbtrace ftrace; do
				read_drain "$impl" "$size" "$rep" "$n"
			done
		done
		for kb in 256 1024; do
			for rep in $(seq "$read_reps"); do
				for impl in rbtrace ftrace; do
					read_live "$impl" "$size" "$rep" "$n" "$kb"
				done
			done
		done
	done
	for rep in $(seq "$read_reps"); do
		for impl in rbtrace ftrace; do
			read_pipe "$impl" "$rep"
		done
	done
	rm -f /tmp/raw.out
fi

# hb_pass SET: the hackbench runs on the CPUs of SET ("all" or a list).
hb_pass() {
	local tset='' run impl t rec c i
	[ "$1" = all ] || tset=$1
	echo "hackbench-setup args=$hb_args runs=$hb_runs cpus=$1 events=${same// /,}" >>"$out"
	for run in $(seq 1 "$hb_runs"); do
		for impl in off ftrace rbtrace ftrace-all rbtrace-all; do
			quiet 4096
			case $impl in
			ftrace) echo "$same" >"$K/set_event"; echo 1 >"$K/tracing_on" ;;
			ftrace-all) echo 'sched:* irq:*' >"$K/set_event"; echo 1 >"$K/tracing_on" ;;
			rbtrace) echo "$same" >"$rb/set_event"; echo 1 >"$rb/tracing_on" ;;
			rbtrace-all) echo 'sched:* irq:*' >"$rb/set_event"; echo 1 >"$rb/tracing_on" ;;
			esac
			# shellcheck disable=SC2086
			t=$(${tset:+taskset -c "$tset"} hackbench $hb_args | awk '/^Time:/ { print $2 }')
			echo 0 >"$K/tracing_on"
			echo 0 >"$rb/tracing_on"
			rec=0
			if [ "$impl" != off ]; then
				for c in /sys/devices/system/cpu/cpu[0-9]*; do
					c=${c##*cpu}
					i=${impl%-all}
					rec=$((rec + $(cstat "$i" "$c" entries) + $(cstat "$i" "$c" overrun)))
				done
			fi
			echo "hackbench cpus=$1 impl=$impl run=$run seconds=$t recorded=$rec" >>"$out"
			[ -n "$t" ] || { echo "hackbench $hb_args printed no time" >&2; exit 1; }
		done
	done
}

if want hackbench; then
	# The sched and irq events both have ("ftrace", "rbtrace"), and every
	# sched:* irq:* event each has ("ftrace-all", "rbtrace-all": rbtrace
	# has two duration events more, ftrace many sched events more).
	# rbtrace's own duration events have no ftrace twin: left out.
	same=
	for e in $(cd "$rb/events" && find sched irq -mindepth 1 -maxdepth 1 -type d | sort); do
		[ -d "$K/events/$e" ] && same="$same ${e/\//:}"
	done
	same=${same# }
	for set in $hb_cpus; do
		hb_pass "$set"
	done
	quiet 1024
fi

# Every event of the kernel on (trace-cmd record -e all), both CPUs: the
# runs of one tracer in a block, as enabling (and disabling) ~1100 events
# takes seconds each time; "events" is how many the tracer has on.
if want hball; then
	for impl in off ftrace rbtrace; do
		quiet 4096
		nev=0
		if [ "$impl" != off ]; then
			d=$(tdir "$impl")
			echo 1 >"$d/events/enable"
			nev=$(wc -l <"$d/set_event")
			echo 1 >"$d/tracing_on"
		fi
		for run in $(seq 1 "$hb_runs"); do
			[ "$impl" = off ] || echo >"$d/trace"
			# shellcheck disable=SC2086
			t=$(hackbench $hb_args | awk '/^Time:/ { print $2 }')
			rec=0
			if [ "$impl" != off ]; then
				echo 0 >"$d/tracing_on"
				for c in /sys/devices/system/cpu/cpu[0-9]*; do
					c=${c##*cpu}
					rec=$((rec + $(cstat "$impl" "$c" entries) + $(cstat "$impl" "$c" overrun)))
				done
				echo 1 >"$d/tracing_on"
			fi
			echo "hackbench-every args=$hb_args impl=$impl run=$run events=$nev seconds=$t recorded=$rec" >>"$out"
			[ -n "$t" ] || { echo "hackbench $hb_args printed no time" >&2; exit 1; }
		done
		[ "$impl" = off ] || { echo 0 >"$d/tracing_on"; echo 0 >"$d/events/enable"; }
	done
	quiet 1024
fi

# The swap of "echo 1 > snapshot", SNAP_N times (default 200), with a
# writer of markers on CPU 1 meanwhile: what a user waits for. Then as
# many "echo 1" each followed by an open of snapshot for reading
# (snapopen): rbtrace's open waits for the writers still on the snapshot
# (at most the rest of a grace period the write started).
if want snap; then
	lsmod | grep -q '^rbtrace ' || insmod "$dir/rbtrace.ko" mode=overwrite
	for impl in rbtrace ftrace; do
		d=$(tdir "$impl")
		[ -e "$d/snapshot" ] || { echo "snapbench impl=$impl unsupported" >>"$out"; continue; }
		quiet 1024
		echo 1 >"$d/tracing_on"
		"$tool" write "$d" 1 1000000000 10 &
		wpid=$!
		r=$(taskset -c 0 "$tool" snap "$d" "${SNAP_N:-200}")
		echo "snapbench impl=$impl $r" >>"$out"
		r=$(taskset -c 0 "$tool" snapopen "$d" "${SNAP_N:-200}")
		echo "snapopen impl=$impl $r" >>"$out"
		kill "$wpid"
		wait "$wpid" 2>/dev/null || true
		quiet 1024
	done
fi

# One read of the latch clock from user space (trace_clock_page) against
# clock_gettime(CLOCK_MONOTONIC) (the vDSO) and a trace_marker write of
# each tracer: bench/rbt_uclockbench.c, three times, on CPU 0.
if want uclock; then
	lsmod | grep -q '^rbtrace ' || insmod "$dir/rbtrace.ko" mode=overwrite
	quiet 1024
	echo latch >"$rb/trace_clock"
	echo 1 >"$rb/tracing_on"
	echo 1 >"$K/tracing_on"
	for rep in 1 2 3; do
		taskset -c 0 "$dir/bench/rbt_uclockbench" "$rb" "$K" "${UCLOCK_N:-200000}" |
			sed "s/^/uclockbench rep=$rep /" >>"$out"
	done
	echo local >"$rb/trace_clock"
	quiet 1024
fi

# slab: bytes in use of every slab cache; memfree: MemFree in KiB.
slab() { awk 'NR > 2 { s += $2 * $4 } END { print s }' /proc/slabinfo; }
memfree() { awk '$1 == "MemFree:" { print $2 }' /proc/meminfo; }
percpu() { awk '$1 == "Percpu:" { print $2 }' /proc/meminfo; }
# settle: let deferred frees (RCU, work) of what was freed before land.
settle() { sync; sleep 2; }

if want mem; then
	ncpu=$(nproc)
	# Per sub-buffer: grow each buffer by 16 MiB per CPU (4096 pages).
	for impl in rbtrace ftrace; do
		d=$(tdir "$impl")
		quiet 1024
		settle
		s0=$(slab) m0=$(memfree)
		echo 17408 >"$d/buffer_size_kb"
		s1=$(slab) m1=$(memfree)
		echo "mem impl=$impl what=grow cpus=$ncpu pages_per_cpu=4096 slab_bytes=$((s1 - s0)) memfree_kb=$((m0 - m1))" >>"$out"
		quiet 1024
	done
	rmmod rbtrace
	# Per buffer: 256 buffers of 8 KiB per CPU held by the bench module,
	# against the module loaded holding none; three times each.
	insmod "$dir/rbtrace.ko"
	for rep in 1 2 3; do
		for impl in none rbtrace ftrace; do
			settle
			s0=$(slab) m0=$(memfree) p0=$(percpu)
			insmod "$dir/bench/rbtrace_bench.ko" hold_kb=8 hold_count=256 impls="$impl"
			s1=$(slab) m1=$(memfree) p1=$(percpu)
			rmmod rbtrace_bench
			echo "mem impl=$impl what=hold rep=$rep cpus=$ncpu buffers=256 kb_per_cpu=8 slab_bytes=$((s1 - s0)) memfree_kb=$((m0 - m1)) percpu_kb=$((p1 - p0))" >>"$out"
		done
	done
fi
# The function tracers' cost per call: bench/fnbench.sh, which loads its own.
if want func; then
	! lsmod | grep -q '^rbtrace ' || rmmod rbtrace
	"$(dirname "$0")/fnbench.sh" "$dir" "$out"
fi
if want lttng; then
	"$(dirname "$0")/lttng-guest.sh" "$dir" "$out"
fi
lsmod | grep -q '^rbtrace ' && rmmod rbtrace
[ -s "$out" ]
