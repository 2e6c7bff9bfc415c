#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# run-kunit.sh [--ko RBTRACE.KO] [--results DIR] TEST.KO|DIR...
#
# Load each KUnit test module in the guest and keep exactly what it
# printed: KUnit runs a module's suites while insmod runs, so the kernel
# log between two marker lines written to /dev/kmsg just before and after
# insmod is that module's KTAP. It goes to DIR/kunit/NAME.ktap, which the
# host judges with scripts/kunit-parse.sh (kunit.py parse). The markers
# are in the serial log too, so the log alone is enough to judge.
#
# A test module that needs rbtrace.ko (modinfo depends) gets it loaded
# first. Exits 1 when a module failed to load or to unload.
set -uo pipefail

ko=${RBT_KO:-}
results=${RBT_RESULTS:-/tmp/rbtrace-kunit}
mods=()

parse_args() {
	local a
	while [ $# -gt 0 ]; do
		case $1 in
		--ko) ko=$2; shift 2 ;;
		--results) results=$2; shift 2 ;;
		-*) echo "run-kunit: unknown option $1" >&2; exit 2 ;;
		*) a=$1; shift
		   if [ -d "$a" ]; then mods+=($(ls "$a"/*.ko 2>/dev/null | sort)); else mods+=("$a"); fi ;;
		esac
	done
}

# ktap_between NAME: the kernel log between NAME's two markers.
ktap_between() {
	dmesg -t | awk -v b="rbtrace-kunit: begin $1" -v e="rbtrace-kunit: end $1" '
		$0 == e { on = 0 } on { print } $0 == b { on = 1 }'
}

run_one() {
	local m=$1 name deps ours=0 rc=0
	name=$(basename "$m" .ko)
	deps=$(modinfo -F depends "$m" 2>/dev/null)
	if [[ ,$deps, == *,rbtrace,* ]] && ! grep -q '^rbtrace ' /proc/modules; then
		[ -n "$ko" ] || { echo "run-kunit: $name needs rbtrace.ko (--ko)"; return 1; }
		insmod "$ko" || { echo "run-kunit: insmod $ko failed, $name not run"; return 1; }
		ours=1
	fi
	echo "rbtrace-kunit: begin $name" >/dev/kmsg
	timeout -k 5 300 insmod "$m" 2>"$results/kunit/$name.insmod" || rc=$?
	echo "rbtrace-kunit: end $name" >/dev/kmsg
	ktap_between "$name" >"$results/kunit/$name.ktap"
	cat "$results/kunit/$name.ktap"
	if [ "$rc" != 0 ]; then
		echo "run-kunit: insmod $m failed ($rc): $(cat "$results/kunit/$name.insmod")"
	elif ! rmmod "$name"; then
		echo "run-kunit: rmmod $name failed"
		rc=1
	fi
	if [ "$ours" = 1 ] && ! rmmod rbtrace; then
		echo "run-kunit: rmmod rbtrace after $name failed"
		rc=1
	fi
	return "$rc"
}

main() {
	local m bad=0
	parse_args "$@"
	mkdir -p "$results/kunit"
	[ ${#mods[@]} -gt 0 ] || { echo "run-kunit: no test modules given"; return 1; }
	[ -d /sys/kernel/debug/kunit ] || echo "run-kunit: warning: no /sys/kernel/debug/kunit; is KUnit in this kernel?"
	for m in "${mods[@]}"; do
		run_one "$m" || bad=1
	done
	return "$bad"
}

main "$@"
