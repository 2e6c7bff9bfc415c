#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/torture.sh: run the torture module, keep its KTAP.
# Usage: guest-torture.sh BUILD_DIR SECONDS OUT [module args...]
set -euo pipefail
dir=$1 secs=$2 out=$3
shift 3
insmod "$dir/rbtrace.ko"
insmod "$dir/tests/torture/rbtrace_torture.ko" seconds="$secs" "$@"
rmmod rbtrace_torture
rmmod rbtrace
dmesg | sed -n 's/^\[[ 0-9.]*\] //p' | sed -n '/^KTAP version 1$/,/rbtrace_torture: .* passed/p' >"$out"
grep -q ' 0 failed' "$out"
