#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# test.sh --ko RBTRACE.KO [--kunit DIR] [TC...]
#
# The guest half of one test-kernel boot (scripts/test.sh): every .tc
# scenario, then every KUnit test module in DIR. Results land in
# $RBT_RESULTS for the host to count. Exits 1 when anything failed.
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
ko=
kunit=
tcs=()
while [ $# -gt 0 ]; do
	case $1 in
	--ko) ko=$2; shift 2 ;;
	--kunit) kunit=$2; shift 2 ;;
	*) tcs+=("$1"); shift ;;
	esac
done

rc=0
"$here/run-tc.sh" --ko "$ko" "${tcs[@]}" || rc=1
if [ -n "$kunit" ]; then
	"$here/run-kunit.sh" --ko "$ko" "$kunit" || rc=1
fi
exit "$rc"
