#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh RBTRACE.KO: the guest half of scripts/demo.sh. Load rbtrace, show
# its debugfs tree and what its control files do, show modinfo, unload.
set -euo pipefail
ko=$1
dir=/sys/kernel/debug/rbtrace

show() {
	echo
	echo "# $*"
	"$@"
}

echo "== kernel $(uname -r), $(nproc) CPUs"
show modinfo "$ko"
show insmod "$ko"
show grep '^rbtrace ' /proc/modules
echo
echo "# the debugfs tree (mode, owner, size, path)"
find "$dir" -print0 | sort -z | xargs -0 stat -c '%A %U %6s %n'
for f in tracing_on buffer_size_kb; do
	show cat "$dir/$f"
done
echo
echo "# echo 0 > tracing_on; echo 64 > buffer_size_kb"
echo 0 >"$dir/tracing_on"
echo 64 >"$dir/buffer_size_kb"
show cat "$dir/tracing_on"
show cat "$dir/buffer_size_kb"
echo 1 >"$dir/tracing_on"
show rmmod rbtrace
show test ! -e "$dir"
echo
echo "# kernel messages from rbtrace"
dmesg | grep 'rbtrace:' || true
