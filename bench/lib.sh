# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Shared by the guest halves of the benchmark (bench.sh, lttng-guest.sh):
# where each tracer's files are and the few steps every part repeats.
# Sourced; sets rb and K.

rb=/sys/kernel/debug/rbtrace
K=/sys/kernel/tracing

# tdir IMPL: the tracing directory of an implementation (rbtrace, ftrace).
tdir() { if [ "$1" = rbtrace ]; then echo "$rb"; else echo "$K"; fi; }

# cstat IMPL CPU FIELD: a per-CPU stats counter ("overrun", "entries").
cstat() { awk -v f="$3:" '$1 == f { print $2 }' "$(tdir "$1")/per_cpu/cpu$2/stats"; }

# quiet KIB: both tracers off, empty, no events; KIB KiB per CPU for both.
quiet() {
	local d
	for d in "$rb" "$K"; do
		echo 0 >"$d/tracing_on"
		echo >"$d/set_event"
		echo "$1" >"$d/buffer_size_kb"
		echo >"$d/trace"
	done
}
