#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# harness-boot.sh [qemu-run.sh options]: boot tests of scripts/qemu-run.sh.
# A guest that fails, hangs, panics or leaves a warning in the kernel log
# must each end the run with the right exit status and a message naming
# the cause; arguments must reach the guest script unchanged. Prints
# PASS/FAIL lines; exits 1 on any failure.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
guest=$top/tests/host/harness-boot-guest.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bad=0

# boot NAME WANT_RC WANT_TEXT [qemu-run options] -- MODE [ARG...]
boot() {
	local name=$1 want=$2 text=$3 rc=0
	shift 3
	local opts=()
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	"$top/scripts/qemu-run.sh" "${opts[@]}" --results "$work/$name" "$guest" "$@" \
		>"$work/$name.out" 2>&1 || rc=$?
	if [ "$rc" = "$want" ] && grep -q -- "$text" "$work/$name.out"; then
		echo "PASS host:qemu-run:$name"
	else
		echo "FAIL host:qemu-run:$name: exit $rc (want $want), message '$text' $(grep -q -- "$text" "$work/$name.out" && echo found || echo missing)"
		sed 's/^/    /' "$work/$name.out" | tail -n 15
		bad=1
	fi
}

boot args-and-success 0 'exit 0' "$@" -- args "a b" "it's" '$HOME*'
boot script-failure 3 'exited 3' "$@" -- exit 3
boot kernel-warning 1 'KERNEL LOG NOT CLEAN' "$@" -- warn
boot panic 125 'KERNEL PANIC' "$@" -- panic
boot hang 124 'TIMEOUT' --timeout 15 "$@" -- hang
exit "$bad"
