#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kunit-parse.sh [--src KSRC] INPUT...
#
# Judge the KTAP that rbtrace's KUnit test modules printed in a guest, with
# the kernel tree's own parser (tools/testing/kunit/kunit.py parse).
#
# INPUT is one of:
#   NAME.ktap   what one test module printed (tests/guest/run-kunit.sh
#               writes one per module into the results directory)
#   DIR         every *.ktap in DIR
#   LOG         a serial log or dmesg: the text between the guest's
#               "rbtrace-kunit: begin NAME" and "rbtrace-kunit: end NAME"
#               marker lines, for each NAME
# Only what a test module printed is handed to the parser: the built-in
# KUnit's empty boot-time plan ("KTAP version 1" / "1..0") would otherwise
# be parsed as the whole run.
#
# Prints "PASS kunit:SUITE.CASE" / "FAIL ..." / "SKIP ..." for every
# case, "FAIL kunit:MODULE" when a module printed nothing parseable, and
# exits 1 when anything failed, crashed or is missing.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

ksrc=
work=

find_ksrc() {
	local d
	if [ -z "$ksrc" ]; then
		d=$(ls -d "$RBT_CACHE"/src/linux-source-6.12-* 2>/dev/null | sort -V | tail -n 1)
		ksrc=${d:-}
	fi
	[ -n "$ksrc" ] && [ -f "$ksrc/tools/testing/kunit/kunit.py" ] ||
		rbt_die "kunit-parse: kunit.py not found (run scripts/build-kernel.sh, or pass --src KSRC)"
}

# split_log LOG: write WORK/NAME.ktap for each marked module in LOG.
split_log() {
	tr -d '\r' <"$1" | sed -E 's/^\[ *[0-9]+\.[0-9]+\] ?//' | awk -v dir="$work" '
		/rbtrace-kunit: begin / { name = $NF; out = dir "/" name ".ktap"; printf "" > out; next }
		/rbtrace-kunit: end / { close(out); out = ""; next }
		out != "" { print >> out }'
}

collect() {
	local in
	for in in "$@"; do
		if [ -d "$in" ]; then
			cp "$in"/*.ktap "$work/" 2>/dev/null || true
			# insmod's complaint, if any, explains a missing KTAP.
			cp "$in"/*.insmod "$work/" 2>/dev/null || true
		elif [[ $in == *.ktap ]]; then
			cp "$in" "$work/"
		elif [ -f "$in" ]; then
			split_log "$in"
		else
			rbt_die "kunit-parse: $in not found"
		fi
	done
}

# judge KTAPFILE: run kunit.py parse on it and print one line per case.
judge() {
	local f=$1 mod json rc=0
	mod=$(basename "$f" .ktap)
	if ! grep -qE '^[[:space:]]*(K?TAP version|1\.\.[1-9])' "$f"; then
		echo "FAIL kunit:$mod: no KTAP output (the module did not load or did not run its tests)"
		sed -n '1,5s/^/    /p' "$f"
		[ ! -s "$work/$mod.insmod" ] || sed 's/^/    insmod: /' "$work/$mod.insmod"
		return 1
	fi
	json=$work/$mod.json
	python3 "$ksrc/tools/testing/kunit/kunit.py" parse --json="$json" "$f" >"$work/$mod.parse" 2>&1 || rc=$?
	if [ ! -s "$json" ]; then
		echo "FAIL kunit:$mod: kunit.py parse produced no result"
		sed 's/^/    /' "$work/$mod.parse"
		return 1
	fi
	python3 - "$json" "$mod" <<'EOF' || rc=1
import json, sys
tree = json.load(open(sys.argv[1]))
mod = sys.argv[2]
bad = 0
n = 0

def walk(group, path):
    global bad, n
    for case in group.get("test_cases", []):
        n += 1
        st = case["status"]
        word = {"PASS": "PASS", "SKIP": "SKIP"}.get(st, "FAIL")
        why = "" if word != "FAIL" else (": crashed" if st == "ERROR" else ": failed")
        if word == "FAIL":
            bad = 1
        name = case["name"] or "(missing case)"
        print(f"{word} kunit:{'.'.join(path + [name])}{why}")
    for sub in group.get("sub_groups", []):
        walk(sub, path + [sub["name"]])

walk(tree, [])
if n == 0:
    print(f"FAIL kunit:{mod}: no test cases in the KTAP output")
    bad = 1
sys.exit(bad)
EOF
	if [ "$rc" != 0 ]; then
		# kunit.py's own account names missing or crashed cases.
		grep -E 'ERROR|CRASHED|FAILED|missing|Could not find' "$work/$mod.parse" | sed 's/^/    /' | head -n 20 || true
	fi
	return "$rc"
}

main() {
	local f bad=0
	while [ $# -gt 0 ]; do
		case $1 in
		--src) ksrc=$2; shift 2 ;;
		--) shift; break ;;
		-*) rbt_die "kunit-parse: unknown option $1" ;;
		*) break ;;
		esac
	done
	[ $# -gt 0 ] || rbt_die "usage: kunit-parse.sh [--src KSRC] FILE.ktap|DIR|LOG..."
	find_ksrc
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	collect "$@"
	shopt -s nullglob
	local files=("$work"/*.ktap)
	[ ${#files[@]} -gt 0 ] || { echo "FAIL kunit: no test module output found in $*"; return 1; }
	for f in "${files[@]}"; do
		judge "$f" || bad=1
	done
	return "$bad"
}

main "$@"
