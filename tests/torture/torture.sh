#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/torture.sh: run the torture module, keep its KTAP.
# Usage: torture.sh BUILD_DIR SECONDS OUT [module args...]
#
# On a kmemleak kernel (the debug one), rbtrace and the torture are
# unloaded and then kmemleak scans: anything it reports fails the run
# (the lines go to OUT.kmemleak; attributable ones name rbtrace).
set -euo pipefail
dir=$1 secs=$2 out=$3
shift 3
echo "torture: $(nproc) CPUs online: $(cat /sys/devices/system/cpu/online)"
insmod "$dir/rbtrace.ko"
insmod "$dir/tests/torture/rbtrace_torture.ko" seconds="$secs" "$@"
rmmod rbtrace_torture
rmmod rbtrace
# The last KTAP block (the built-in KUnit prints an empty one at boot).
dmesg | sed -n 's/^\[[ 0-9.]*\] //p' |
	awk '/^KTAP version 1$/ { b = "" } { b = b $0 "\n" } / rbtrace_torture: .* passed/ { printf "%s", b; exit }' >"$out"
rc=0
grep -q ' 0 failed' "$out" || rc=1

k=/sys/kernel/debug/kmemleak
if [ -w "$k" ]; then
	# kmemleak reports an object only once it is 5 s old and was found
	# unreferenced by two scans.
	sleep 6
	echo scan >"$k"
	echo scan >"$k"
	cat "$k" >"$out.kmemleak"
	n=$(grep -c '^unreferenced object' "$out.kmemleak" || true)
	ours=$(grep -c 'rbtrace' "$out.kmemleak" || true)
	echo "# kmemleak after unload: $n unreferenced objects, $ours lines naming rbtrace" >>"$out"
	[ "$n" = 0 ] || { cat "$out.kmemleak"; rc=1; }
fi
exit $rc
