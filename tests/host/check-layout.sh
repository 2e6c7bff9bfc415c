#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-layout.sh [TOP]: host tests of scripts/check-layout.py, on copies
# of the tree (TOP, default this checkout) with one violation planted in
# each. A layout check that passes a file of tracer/ reaching into the
# ring buffer, or the ring buffer reaching into tracer/, would let the
# layers grow back together unseen, so each rule is tested here on an
# input with a known verdict: check-layout.py must fail on each planted
# copy and print exactly the planted violation's line (the lines it
# prints for the unplanted copy aside), and pass on the unplanted copy.
# Prints PASS/FAIL lines; exits 1 on any failure.
set -euo pipefail
top=$(cd "${1:-$(dirname "$0")/../..}" && pwd)
check=$top/scripts/check-layout.py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bad=0

# The sources only: check-layout.py reads nothing else.
mkdir "$work/base"
(cd "$top" && find . -name .git -prune -o -type f -name '*.[ch]' ! -name '*.mod.c' -print0 |
	cpio -0 -pdm --quiet "$work/base")
base_rc=0
python3 "$check" "$work/base" >"$work/base.out" 2>&1 || base_rc=$?
grep -v '^layout: ' "$work/base.out" | sort >"$work/base.lines" || true

if [ "$base_rc" = 0 ]; then
	echo "PASS host:check-layout:unplanted"
else
	echo "FAIL host:check-layout:unplanted: check-layout.py fails on the tree as it is, exit $base_rc"
	sed 's/^/    /' "$work/base.out" | head -n 20
	bad=1
fi

# copy NAME: a fresh copy of the sources to plant one violation in.
copy() {
	rm -rf "${work:?}/$1"
	cp -a "$work/base" "$work/$1"
	echo "$work/$1"
}

# lines N: N lines of C, a file of exactly N lines.
lines() {
	echo '// SPDX-License-Identifier: GPL-2.0'
	awk -v n=$(($1 - 1)) 'BEGIN { while (n-- > 0) print "static int rbt_planted_line;" }'
}

# expect NAME WANT [LINE...]: check-layout.py on copy NAME must exit 1
# (WANT=fail) or as on the unplanted copy (WANT=same), and print LINEs
# and no other line the unplanted copy does not print.
expect() {
	local name=$1 want=$2 rc=0 diff ok
	shift 2
	python3 "$check" "$work/$name" >"$work/$name.out" 2>&1 || rc=$?
	printf '%s\n' "$@" | sed '/^$/d' | sort >"$work/$name.want"
	grep -v '^layout: ' "$work/$name.out" | sort | comm -23 - "$work/base.lines" >"$work/$name.new" || true
	diff=$(diff "$work/$name.want" "$work/$name.new" || true)
	ok=$rc
	[ "$want" = fail ] || ok=$((rc == base_rc ? 1 : 0))
	if [ "$ok" = 1 ] && [ -z "$diff" ]; then
		echo "PASS host:check-layout:$name"
	else
		echo "FAIL host:check-layout:$name: expected $want, exit $rc (unplanted: $base_rc)"
		[ -z "$diff" ] || echo "$diff" | sed 's/^</    missing:/; s/^>/    unexpected:/' | grep -E '^    (missing|unexpected):'
		bad=1
	fi
}

# A file of tracer/ that includes the ring buffer's internal header.
d=$(copy tracer-includes-rb)
sed -i '0,/^#include/s//#include "..\/rb_internal.h"\n#include/' "$d/tracer/trace.c"
expect tracer-includes-rb fail \
	'tracer/trace.c: includes "../rb_internal.h": tracer/ reaches the ring buffer only through <rbtrace/rbtrace.h>'

# A file of the ring buffer that includes a header of tracer/, and a
# public header that does.
d=$(copy rb-includes-tracer)
sed -i '0,/^#include/s//#include "tracer\/trace.h"\n#include/' "$d/rb_core.c"
expect rb-includes-tracer fail \
	'rb_core.c: includes "tracer/trace.h": the ring buffer (rb_*, include/) knows nothing of tracer/'
d=$(copy api-includes-tracer)
printf '#include "../../tracer/planted.h"\n' >>"$d/include/rbtrace/rbtrace_mmap.h"
echo '/* SPDX-License-Identifier: GPL-2.0 */' >"$d/tracer/planted.h"
expect api-includes-tracer fail \
	'include/rbtrace/rbtrace_mmap.h: includes "../../tracer/planted.h": the ring buffer (rb_*, include/) knows nothing of tracer/'

# A test hook may include the tracer's headers (tests/hooks/).
d=$(copy hook-includes-tracer)
mkdir -p "$d/tests/hooks"
printf '// SPDX-License-Identifier: GPL-2.0\n#include "../../tracer/trace.h"\n' >"$d/tests/hooks/planted.c"
expect hook-includes-tracer same

# A two-header include circle in each layer.
d=$(copy rb-circle)
printf '/* SPDX-License-Identifier: GPL-2.0 */\n#include "rb_planted_b.h"\n' >"$d/rb_planted_a.h"
printf '/* SPDX-License-Identifier: GPL-2.0 */\n#include "rb_planted_a.h"\n' >"$d/rb_planted_b.h"
expect rb-circle fail 'include circle: rb_planted_a.h -> rb_planted_b.h -> rb_planted_a.h'
d=$(copy tracer-circle)
printf '/* SPDX-License-Identifier: GPL-2.0 */\n#include "planted_b.h"\n' >"$d/tracer/planted_a.h"
printf '/* SPDX-License-Identifier: GPL-2.0 */\n#include "planted_a.h"\n' >"$d/tracer/planted_b.h"
expect tracer-circle fail 'include circle: tracer/planted_a.h -> tracer/planted_b.h -> tracer/planted_a.h'

# A file of 901 lines in each layer; 900 lines is the limit, not past it.
d=$(copy long-file)
lines 901 >"$d/tracer/planted_long.c"
lines 901 >"$d/rb_planted_long.c"
lines 900 >"$d/tracer/planted_900.c"
expect long-file fail \
	'tracer/planted_long.c: 901 lines: past 900, split it along a seam' \
	'rb_planted_long.c: 901 lines: past 900, split it along a seam'

exit $bad
