#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest half of LTTng's column (bench/lttng.sh boots it, through
# bench/bench.sh's "lttng" part, on Debian's stock 6.1 kernel).
# Usage: lttng-guest.sh BUILD_DIR OUT; LTTNG_MODULES: the module cache of
# bench/lttng.sh (a depmod tree: lib/modules/RELEASE/extra/*.ko).
#
# hackbench with no tracing, ftrace, rbtrace and LTTng, the runs of the
# four interleaved, each recording the sched and irq events all three
# have, in a buffer of 4 MiB per CPU that overwrites and that nobody reads
# while hackbench runs (LTTng: a snapshot session, whose consumer daemon
# reads only on "lttng snapshot record", after the run; 32 MiB, see
# lttng_on). Lines to OUT:
#   lttng-status ok|failed reason=...
#   lttng-setup args=... runs=... events=ftrace:names lttng=names
#   lttng-hackbench cpus=SET impl=off|ftrace|rbtrace|lttng run=N seconds=S recorded=N [discarded_msgs=N]
#
# Environment: HB_ARGS (default "-g 4 -l 100"), HB_RUNS (default 5),
# HB_CPUS (default "all 1", as in bench.sh; "all" on one CPU).
set -euo pipefail
dir=$1 out=$2
mods=${LTTNG_MODULES:?LTTNG_MODULES: the module directory of bench/lttng.sh}
rel=$(uname -r)
# shellcheck source=bench/lib.sh
. "$(dirname "$0")/lib.sh"
hb_args=${HB_ARGS:--g 4 -l 100}
hb_runs=${HB_RUNS:-5}
hb_cpus=${HB_CPUS:-all 1}
[ "$(nproc)" -gt 1 ] || hb_cpus=${HB_CPUS:-all}
log=$(dirname "$out")/lttng-sessiond.log
snap=/tmp/lttng-snap

# The modules lttng-sessiond 2.13 loads itself (its list of control
# modules, then --kmod-probes): insmod'ed here from the cache, each after
# the modules it needs (modprobe -d only resolves the order; it loads
# nothing).
LTTNG_MODS=(lttng-ring-buffer-client-discard lttng-ring-buffer-client-overwrite
	lttng-ring-buffer-metadata-client lttng-ring-buffer-client-mmap-discard
	lttng-ring-buffer-client-mmap-overwrite lttng-ring-buffer-metadata-mmap-client
	lttng-ring-buffer-event_notifier-client lttng-counter-client-percpu-32-modular
	lttng-counter-client-percpu-64-modular lttng-probe-sched lttng-probe-irq)

# failed REASON: say why LTTng cannot run (the result's column says it).
failed() {
	echo "lttng-status failed reason=$*" >>"$out"
	echo "lttng-guest: $*" >&2
	exit 0
}

lttng_load() {
	local m ko
	for m in "${LTTNG_MODS[@]}"; do
		modprobe -d "$mods" --show-depends "$m" >/tmp/lttng-deps 2>&1 ||
			failed "modprobe -d $mods --show-depends $m: $(head -1 /tmp/lttng-deps)"
		while read -r _ ko _; do
			[ -d "/sys/module/$(basename "$ko" .ko | tr - _)" ] && continue
			insmod "$ko" 2>/tmp/lttng-insmod ||
				failed "insmod $ko: $(head -1 /tmp/lttng-insmod) $(dmesg | tail -1)"
		done < <(grep '^insmod ' /tmp/lttng-deps)
	done
	# lttng-sessiond asks libkmod for every module of its list by name,
	# loaded or not (KMOD_PROBE_IGNORE_LOADED); libkmod finds a module's
	# file through modules.dep of /lib/modules/RELEASE, which does not list
	# the cache's. Bound over it while LTTng runs, the cache's depmod tree
	# answers; the modules are already in, so nothing is loaded twice.
	mount --bind "$mods/lib/modules/$rel" "/lib/modules/$rel" ||
		failed "cannot bind $mods/lib/modules/$rel on /lib/modules/$rel"
	lttng-sessiond --background --kmod-probes=sched,irq -vv >"$log" 2>&1 ||
		failed "lttng-sessiond: $(grep -m1 -E 'Error|ERROR' "$log")"
	# The daemon answers once its kernel tracer is set up: 20 s at most.
	for _ in $(seq 1 100); do
		lttng list --kernel >/tmp/lttng-list 2>&1 && break
		sleep 0.2
	done
	grep -q sched_switch /tmp/lttng-list ||
		failed "lttng list --kernel: $(grep -m1 -iE 'error' /tmp/lttng-list "$log")"
}

lttng_unload() {
	local m
	lttng destroy --all >/dev/null 2>&1 || true
	local pid
	if pid=$(pidof -s lttng-sessiond); then
		kill "$pid"
		for _ in $(seq 1 100); do pidof lttng-sessiond >/dev/null || break; sleep 0.2; done
	fi
	umount "/lib/modules/$rel" 2>/dev/null || true
	# The unused ones first, until none is left; bounded: a module that
	# stays in use is left for the kernel log to tell.
	for _ in $(seq 1 20); do
		lsmod | grep -q '^lttng_' || break
		for m in $(lsmod | awk '$1 ~ /^lttng_/ && $3 == 0 { print $1 }'); do
			rmmod "$m" || true
		done
	done
}

# The LTTng name of ftrace's SYSTEM:EVENT: LTTng prefixes the system
# unless the event already starts with it (irq:softirq_entry is
# irq_softirq_entry, sched:sched_switch is sched_switch).
lttng_name() {
	local sys=${1%%:*} ev=${1#*:}
	case $ev in
	"${sys}"_*) echo "$ev" ;;
	*) echo "${sys}_$ev" ;;
	esac
}


# ftrace's and rbtrace's count: entries + overrun over the CPUs.
recorded() {
	local c rec=0
	for c in /sys/devices/system/cpu/cpu[0-9]*; do
		c=${c##*cpu}
		rec=$((rec + $(cstat "$1" "$c" entries) + $(cstat "$1" "$c" overrun)))
	done
	echo "$rec"
}

# A snapshot session: its channel overwrites, like the other two
# buffers, but holds the whole run (8 x 4 MiB sub-buffers per CPU, for
# the 250,000 events of a run on one CPU), since only what is left in it
# can be counted: ftrace and rbtrace count what they overwrote.
lttng_on() {
	rm -rf "$snap"
	lttng create hb --snapshot --output="$snap" >/dev/null
	lttng enable-channel --kernel --overwrite --subbuf-size=4M --num-subbuf=8 hb >/dev/null
	lttng enable-event --kernel --channel=hb "$lttng_same" >/dev/null
	lttng start >/dev/null
}

# LTTng's count: the events of the snapshot, by babeltrace2's counter.
lttng_off() {
	local c
	lttng stop >/dev/null
	lttng snapshot record >/dev/null
	lttng destroy hb >/dev/null
	c=$(babeltrace2 "$snap" -c sink.utils.counter 2>&1 | awk '
		/Event messages/ { e = $1 } /Discarded (event|packet) messages/ { d += $1 }
		END { print e + 0, d + 0 }')
	echo "recorded=${c% *} discarded_msgs=${c#* }"
}

hb_pass() {
	local tset='' run impl t rec
	[ "$1" = all ] || tset=$1
	for run in $(seq 1 "$hb_runs"); do
		for impl in off ftrace rbtrace lttng; do
			quiet 4096
			case $impl in
			ftrace) echo "$same" >"$K/set_event"; echo 1 >"$K/tracing_on" ;;
			rbtrace) echo "$same" >"$rb/set_event"; echo 1 >"$rb/tracing_on" ;;
			lttng) lttng_on ;;
			esac
			# shellcheck disable=SC2086
			t=$(${tset:+taskset -c "$tset"} hackbench $hb_args | awk '/^Time:/ { print $2 }')
			echo 0 >"$K/tracing_on"
			echo 0 >"$rb/tracing_on"
			case $impl in
			off) rec=recorded=0 ;;
			lttng) rec=$(lttng_off) ;;
			*) rec=recorded=$(recorded "$impl") ;;
			esac
			echo "lttng-hackbench cpus=$1 impl=$impl run=$run seconds=$t $rec" >>"$out"
			[ -n "$t" ] || { echo "hackbench $hb_args printed no time" >&2; exit 1; }
		done
	done
}

command -v lttng-sessiond >/dev/null || failed "lttng-sessiond not installed"
command -v babeltrace2 >/dev/null || failed "babeltrace2 not installed"
insmod "$dir/rbtrace.ko" mode=overwrite
echo nop >"$K/current_tracer"
echo 1 >"$K/options/overwrite"
trap lttng_unload EXIT
lttng_load

# The sched and irq events of all three.
same='' lttng_same=''
for e in $(cd "$rb/events" && find sched irq -mindepth 1 -maxdepth 1 -type d | sort); do
	e=${e/\//:}
	[ -d "$K/events/${e/://}" ] || continue
	l=$(lttng_name "$e")
	grep -qE "^ +$l \(" /tmp/lttng-list || continue
	same="$same $e"
	lttng_same="$lttng_same,$l"
done
same=${same# } lttng_same=${lttng_same#,}
[ -n "$same" ] || failed "no sched or irq event that ftrace, rbtrace and LTTng all have"
echo "lttng-status ok modules=$mods" >>"$out"
echo "lttng-setup args=$hb_args runs=$hb_runs events=${same// /,} lttng=$lttng_same" >>"$out"
for set in $hb_cpus; do
	hb_pass "$set"
done
quiet 1024
rmmod rbtrace
