#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Guest side of scripts/bench.sh: load rbtrace and the benchmark module,
# keep the benchmark's lines. Usage: guest-bench.sh BUILD_DIR EVENTS OUT
set -euo pipefail
dir=$1 events=$2 out=$3
insmod "$dir/rbtrace.ko"
insmod "$dir/bench/rbtrace_bench.ko" events="$events"
rmmod rbtrace_bench
rmmod rbtrace
dmesg | grep -o 'rbtrace_bench: impl=.*' >"$out"
[ -s "$out" ]
