#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# scan-log.sh [--taint FILE] [--allow-taint MASK] LOG...
#
# Fail (exit 1) when a guest's kernel log shows a problem: warnings, BUGs,
# oopses, KASAN/UBSAN reports, lockdep splats, RCU stalls, sleeping in
# atomic context, kmemleak reports, a panic, or a taint beyond the allowed
# mask. Every finding is printed once, as "scan-log: FILE: line".
#
# Only kernel lines are looked at (they start with a printk time stamp
# "[    1.234567]"), so that a guest script echoing "BUG:" in its own
# output does not fail the run. kmemleak.txt files are taken whole.
#
# Default allowed taint: O (out-of-tree module, 4096), E (unsigned module,
# 8192; stock Debian kernels), N (KUnit test module loaded, 262144).
set -euo pipefail

allow_taint=$((4096 | 8192 | 262144))
taint_file=

# One extended regex per kind of problem. Keep them specific: a pattern
# that matches harmless boot noise teaches people to ignore the scan.
patterns=(
	'WARNING:'
	'BUG:'
	'Oops'
	'KASAN'
	'UBSAN'
	'general protection fault'
	'Unable to handle kernel'
	'Kernel panic'
	'Call Trace:'
	'possible circular locking'
	'possible recursive locking'
	'inconsistent lock state'
	'INFO: trying to register non-static key'
	'suspicious RCU usage'
	'(rcu_sched|rcu_preempt|rcu).*self-detected stall'
	'rcu: INFO: .*detected stalls'
	'sleeping function called from invalid context'
	'scheduling while atomic'
	'unreferenced object'
	'kmemleak: .*new suspected memory leak'
	'INFO: task .* blocked for more than'
	'list_(add|del) corruption'
	'refcount_t: '
)

taint_letters=PFSRMBUDAWCIOELKXTN

# taint_names MASK: the kernel's one-letter names of the bits set in MASK.
taint_names() {
	local m=$1 i out=
	for ((i = 0; i < ${#taint_letters}; i++)); do
		((m & (1 << i))) && out+=${taint_letters:i:1}
	done
	((m >> ${#taint_letters})) && out+="+bits>=${#taint_letters}"
	echo "$out"
}

# kernel_lines FILE: the lines of FILE that the kernel printed.
kernel_lines() {
	case $(basename "$1") in
	kmemleak*) cat "$1" ;;
	dmesg*) cat "$1" ;;
	*) grep -aE '^\[ *[0-9]+\.[0-9]+\]' "$1" || true ;;
	esac
}

scan_file() {
	local f=$1 re
	re=$(IFS='|'; echo "${patterns[*]}")
	# Strip the time stamp and carriage returns so that the same message
	# seen in console.log and dmesg.txt is reported once.
	kernel_lines "$f" | tr -d '\r' | grep -aE "$re" |
		sed -E 's/^\[ *[0-9]+\.[0-9]+\] ?//' || true
}

check_taint() {
	local t
	[ -n "$taint_file" ] || return 0
	if [ ! -s "$taint_file" ]; then
		echo "scan-log: no taint recorded ($taint_file missing): the guest did not finish"
		return 1
	fi
	t=$(tr -dc 0-9 <"$taint_file")
	t=${t:-0}
	if ((t & ~allow_taint)); then
		echo "scan-log: kernel tainted $t ($(taint_names "$t")), allowed only $(taint_names "$allow_taint")"
		return 1
	fi
	return 0
}

main() {
	local bad=0 f found
	while [ $# -gt 0 ]; do
		case $1 in
		--taint) taint_file=$2; shift 2 ;;
		--allow-taint) allow_taint=$2; shift 2 ;;
		--) shift; break ;;
		-*) echo "scan-log: unknown option $1" >&2; exit 2 ;;
		*) break ;;
		esac
	done
	[ $# -gt 0 ] || { echo "usage: scan-log.sh [--taint FILE] [--allow-taint MASK] LOG..." >&2; exit 2; }
	found=$(for f in "$@"; do
		[ -f "$f" ] && scan_file "$f"
	done | awk '!seen[$0]++')
	if [ -n "$found" ]; then
		echo "$found" | sed "s|^|scan-log: |"
		bad=1
	fi
	check_taint || bad=1
	return $bad
}

main "$@"
