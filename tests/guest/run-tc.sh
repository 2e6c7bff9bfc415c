#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-tc.sh [--ko RBTRACE.KO] [--results DIR] [--timeout SECS] [--tag TAG[,TAG...]] [TC|DIR...]
#
# Run rbtrace's guest scenarios, in the manner of the kernel's ftracetest
# (tools/testing/selftests/ftrace): one scenario per .tc file under
# test.d/AREA/, each in its own bash with "set -e" and tc-functions.sh
# sourced, each with a time limit. Without TC or DIR, all of test.d/. A
# scenario is named by its path under test.d/ without .tc
# (text/trace-pipe). Runs inside the QEMU guest, as root.
#
# Headers read from each .tc file:
#   # description: one line shown in the report
#   # requires: WORD...  each WORD is a path that must exist, cmd:NAME
#                        (a command), or kunit (KUnit in the kernel);
#                        otherwise the scenario is UNSUPPORTED
#   # timeout: SECS      overrides --timeout for this scenario
#   # tags: WORD...      with --tag TAG,..., only scenarios tagged with
#                        one of the TAGs run; "stock" marks those that
#                        also run on both of Debian's stock kernels
#                        (scripts/test.sh), "stock61" and "stock612"
#                        those that run on one of them; "alone" those
#                        that run only in a boot of their own, with
#                        --tag (they change the kernel for good);
#                        "onethread" those booted on one TCG thread
#                        (qemu-run.sh --one-thread: they patch kernel
#                        text, as the function tracers and kprobes do,
#                        or check what rbtrace does rather than how
#                        two CPUs race in it), also only with --tag
#   # cost: SECS         what it takes on one TCG thread, when far more
#                        than the usual 15 s: scripts/test.sh splits the
#                        onethread scenarios into two boots of equal cost
#
# Results: PASS, FAIL, UNSUPPORTED (exit 77). Prints one line per scenario,
# writes "PASS|FAIL|SKIP tc:NAME" lines to DIR/tc-results.txt and each
# scenario's trace to DIR/tc/NAME.log. Exits 1 when any scenario failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ko=${RBT_KO:-}
results=${RBT_RESULTS:-/tmp/rbtrace-tc}
timeout=120
tag=
tcs=()

# tc_tagged TC: whether TC carries one of --tag's comma-separated tags.
tc_tagged() {
	local t tags
	tags=" $(header "$1" tags) "
	for t in ${tag//,/ }; do
		[[ $tags == *" $t "* ]] && return 0
	done
	return 1
}

parse_args() {
	local a
	while [ $# -gt 0 ]; do
		case $1 in
		--ko) ko=$2; shift 2 ;;
		--results) results=$2; shift 2 ;;
		--timeout) timeout=$2; shift 2 ;;
		--tag) tag=$2; shift 2 ;;
		-*) echo "run-tc: unknown option $1" >&2; exit 2 ;;
		*) tcs+=("$1"); shift ;;
		esac
	done
	[ ${#tcs[@]} -gt 0 ] || tcs=("$here/test.d")
	local expanded=()
	for a in "${tcs[@]}"; do
		if [ -d "$a" ]; then
			expanded+=($(find "$a" -name '*.tc' | sort))
		else
			expanded+=("$a")
		fi
	done
	tcs=()
	for a in "${expanded[@]}"; do
		if [ -z "$tag" ]; then
			# "alone", "onethread": only in a boot of their own,
			# asked for by their tag.
			t=" $(header "$a" tags) "
			[[ $t == *" alone "* || $t == *" onethread "* ]] || tcs+=("$a")
		elif tc_tagged "$a"; then
			tcs+=("$a")
		fi
	done
	[ -n "$ko" ] && [ -f "$ko" ] || { echo "run-tc: rbtrace.ko not found (--ko or RBT_KO): '$ko'" >&2; exit 2; }
	ko=$(realpath "$ko")
}

# tc_name TC: the scenario's name, its path under test.d/ without .tc.
tc_name() {
	local p
	p=$(realpath "$1")
	p=${p#"$here/test.d/"}
	echo "${p%.tc}"
}

# header TC NAME: the value of "# NAME:" in TC. Bash builtins only: under
# TCG every exec costs a tenth of a second or more.
header() {
	local line
	while IFS= read -r line; do
		if [[ $line == "# $2:"* ]]; then
			line=${line#"# $2:"}
			echo "${line# }"
			return 0
		fi
	done <"$1"
}

# requirements_met TC: 0 when every "# requires:" word holds.
requirements_met() {
	local w
	for w in $(header "$1" requires); do
		case $w in
		cmd:*) command -v "${w#cmd:}" >/dev/null || { echo "needs command ${w#cmd:}"; return 1; } ;;
		kunit) [ -d /sys/kernel/debug/kunit ] || { echo "needs KUnit in the kernel"; return 1; } ;;
		/*) [ -e "$w" ] || { echo "needs $w"; return 1; } ;;
		*) echo "unknown requirement $w"; return 1 ;;
		esac
	done
	return 0
}

# reset_ftrace: the kernel's own tracer as a scenario that failed
# half-way may have left it (ftracetest's initialize_ftrace): off, no
# event enabled, no stacks, no probe, empty. Without it one failure
# cascades (kprobe_events cannot be cleared while its events are on: EBUSY).
reset_ftrace() {
	local k=/sys/kernel/tracing
	[ -w "$k/tracing_on" ] || return 0
	echo 0 >"$k/tracing_on"
	echo 0 >"$k/events/enable"
	[ ! -e "$k/options/stacktrace" ] || echo 0 >"$k/options/stacktrace"
	echo nop >"$k/current_tracer"
	[ ! -e "$k/tracing_thresh" ] || echo 0 >"$k/tracing_thresh"
	[ ! -e "$k/set_ftrace_filter" ] || echo >"$k/set_ftrace_filter"
	[ ! -e "$k/set_graph_function" ] || echo >"$k/set_graph_function"
	[ ! -e "$k/kprobe_events" ] || echo >"$k/kprobe_events"
	echo >"$k/trace"
	echo 1 >"$k/tracing_on"
}

# cleanup: a scenario that failed half-way must not leave rbtrace loaded,
# or ftrace set up, for the next one.
cleanup() {
	local m rest
	reset_ftrace 2>/dev/null || echo "run-tc: cannot reset ftrace after $1" >&2
	while read -r m rest; do
		[ "$m" = rbtrace ] && break
	done </proc/modules
	if [ "$m" = rbtrace ]; then
		rmmod rbtrace 2>/dev/null || echo "run-tc: cannot unload rbtrace after $1" >&2
	fi
}

run_one() {
	local tc=$1 name log desc why t t0 ms rc=0
	name=$(tc_name "$tc")
	log=$results/tc/${name//\//_}.log
	desc=$(header "$tc" description)
	t=$(header "$tc" timeout)
	t=${t:-$timeout}
	if ! why=$(requirements_met "$tc"); then
		printf '[%d] %s\t[UNSUPPORTED: %s]\n' "$n" "$desc" "$why"
		echo "SKIP tc:$name: $why" >>"$results/tc-results.txt"
		return 0
	fi
	t0=${EPOCHREALTIME/./}
	# -x: the log shows every command up to the failing one, as ftracetest's,
	# time-stamped.
	RBT_KO=$ko RBT_DIR=/sys/kernel/debug/rbtrace \
		timeout -k 5 "$t" bash -e -o pipefail -c 'PS4="+ \$EPOCHREALTIME "; set -x; . "$1"; cd /tmp; . "$2"' \
		run-tc "$here/tc-functions.sh" "$tc" >"$log" 2>&1 || rc=$?
	cleanup "$name"
	ms=$(((${EPOCHREALTIME/./} - t0) / 1000))
	case $rc in
	0)
		printf '[%d] %s\t[PASS] (%d.%d s)\n' "$n" "$desc" $((ms / 1000)) $((ms % 1000 / 100))
		echo "PASS tc:$name" >>"$results/tc-results.txt"
		;;
	77)
		why=$(sed -n 's/^UNSUPPORTED: //p' "$log" | tail -n 1)
		printf '[%d] %s\t[UNSUPPORTED: %s]\n' "$n" "$desc" "$why"
		echo "SKIP tc:$name: $why" >>"$results/tc-results.txt"
		;;
	*)
		why=$(sed -n 's/^FAIL: //p' "$log" | tail -n 1)
		[ "$rc" != 124 ] || why="timed out after $t s"
		why=${why:-exit status $rc}
		printf '[%d] %s\t[FAIL: %s]\n' "$n" "$desc" "$why"
		echo "FAIL tc:$name: $why" >>"$results/tc-results.txt"
		echo "---- $log (last lines) ----"
		tail -n 15 "$log"
		echo "----"
		failed=$((failed + 1))
		;;
	esac
}

main() {
	local tc
	parse_args "$@"
	mkdir -p "$results/tc"
	: >"$results/tc-results.txt"
	echo "=== rbtrace guest tests: ${#tcs[@]} scenarios${tag:+ tagged $tag}, module $ko, kernel $(uname -r)"
	n=0
	failed=0
	for tc in "${tcs[@]}"; do
		n=$((n + 1))
		run_one "$tc"
	done
	echo "=== $((n - failed)) of $n scenarios did not fail"
	[ "$failed" = 0 ]
}

main "$@"
