#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh [--stock 6.1|6.12] [--seconds N] [--console]: the README's main
# command, a real trace session.
#
# Build the test kernel (cached) and rbtrace.ko for it, boot it under QEMU;
# in the guest load rbtrace, enable the sched and irq events, run a
# workload on both CPUs, show trace, trace_pipe and the per-CPU stats,
# record the workload with trace-cmd (tools/rbtrace-cmd) into trace.dat,
# show trace-cmd report, unload, and check that the kernel log stayed
# clean. Back on the host, report trace.dat again and render it with
# KernelShark under Xvfb to kernelshark.png. With --stock, the same on
# Debian's stock kernel with the module built against its headers. As
# root it installs the Debian packages it needs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

stock=
secs=3
qopts=()
xvfb_pid=
ks_pid=
ksdir=

usage() {
	sed -n '3,15s/^# \{0,1\}//p' "$0"
	exit "${1:-0}"
}

# heading TITLE: the demo's output is read by a new user: one heading per
# step, on stdout, between the build's and QEMU's log lines.
heading() {
	echo
	echo "################ $* ################"
}

parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--stock) stock=$2; shift 2 ;;
		--seconds) secs=$2; shift 2 ;;
		--console) qopts+=(--console); shift ;;
		-h | --help) usage 0 ;;
		*) rbt_die "demo.sh: unknown option $1" ;;
		esac
	done
	[[ $secs =~ ^[1-9][0-9]?$ ]] || rbt_die "demo.sh: --seconds wants 1 to 99, not '$secs'"
}

# build: the kernel to boot and rbtrace.ko for it. Sets mod, adds to qopts.
build() {
	local kdir rel
	if [ -n "$stock" ]; then
		rel=$("$RBT_TOP/scripts/mkinitramfs-stock.sh" --release "$stock")
		[ -d "/usr/src/linux-headers-$rel" ] || rbt_need_pkgs "linux-headers-$rel"
		kdir=/usr/src/linux-headers-$rel
		# Enabling events flips static keys: text_poke_bp() patches code
		# that QEMU's multi-threaded TCG may be running on the other
		# vCPU, which it was seen to mis-execute on the stock kernels.
		qopts+=(--stock "$rel" --one-thread)
	else
		rbt_log "test kernel (built once, then cached; a cold build takes several minutes)"
		kdir=$("$RBT_TOP/scripts/build-kernel.sh" base)
		qopts+=(--kernel "$kdir/arch/x86/boot/bzImage")
	fi
	rbt_log "building rbtrace.ko against $kdir (W=1)"
	mod=$("$RBT_TOP/scripts/build-module.sh" "$kdir")
	echo "kernel: $kdir"
	echo "module: $mod/rbtrace.ko"
}

# boot: run tests/guest/demo.sh in the guest, show what it printed. Sets rc.
boot() {
	rc=0
	"$RBT_TOP/scripts/qemu-run.sh" "${qopts[@]}" --smp 2 --timeout 600 --results "$results" \
		"$RBT_TOP/tests/guest/demo.sh" "$mod/rbtrace.ko" "$secs" || rc=$?
	cat "$results/guest.out" 2>/dev/null || echo "(the guest printed nothing)"
	heading "Kernel log"
	if [ "$rc" = 0 ]; then
		echo "clean: no warning, BUG, oops, lockdep or RCU report; taint $(cat "$results/tainted"): out-of-tree/unsigned module only"
	else
		echo "guest FAILED (exit $rc): see the messages above and $results/console.log"
	fi
	echo "serial console log: $results/console.log"
}

# host_report: the file the guest wrote, read by the host's trace-cmd.
host_report() {
	local dat=$results/trace.dat
	[ -s "$dat" ] || { echo "no trace.dat in $results"; return 1; }
	echo "trace.dat: $dat ($(du -h "$dat" | cut -f1))"
	echo "# trace-cmd report $dat | head -n 15"
	trace-cmd report "$dat" >"$results/report-host.txt" 2>&1 ||
		{ tail -n 5 "$results/report-host.txt"; echo "trace-cmd report FAILED on the host"; return 1; }
	head -n 15 "$results/report-host.txt"
	echo "..."
	# The same events as the guest's trace-cmd read: the file is portable.
	awk '$2 ~ /^\[[0-9]+\]$/ { n[$2]++; t++ } END { printf "%d events:", t; for (c in n) printf " CPU %d: %d", substr(c, 2) + 0, n[c]; print "" }' \
		"$results/report-host.txt"
}

# cleanup: nothing the demo started outlives it.
cleanup() {
	[ -z "$ks_pid" ] || kill "$ks_pid" 2>/dev/null || true
	[ -z "$xvfb_pid" ] || kill "$xvfb_pid" 2>/dev/null || true
	[ -z "$ksdir" ] || rm -rf "$ksdir"
}

# wait_for SECS CMD...: run CMD every half second until it succeeds, at
# most SECS seconds. Every wait of the demo is bounded.
wait_for() {
	local n=$(($1 * 2))
	shift
	while [ "$n" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.5
		n=$((n - 1))
	done
	return 1
}

# ks_window: the id of KernelShark's main window, once it is mapped.
ks_window() {
	xdotool search --onlyvisible --name 'Kernel ?Shark' 2>/dev/null | head -n 1
}

# ks_settled: KernelShark's window shows, or KernelShark is gone (no use
# waiting for it then).
ks_settled() {
	[ -n "$(ks_window)" ] || ! kill -0 "$ks_pid" 2>/dev/null
}

# session REPORT DAT: a KernelShark session (the JSON it saves itself on
# exit) that opens DAT full screen, the plots given most of the height,
# zoomed on the workload (first to last event of its busy loops and gzip),
# with the CPU plots and one plot per workload task below them.
session() {
	local report=$1 dat=$2 pids range
	# "comm-pid [cpu] seconds.micro:" lines of the workload's tasks.
	sed -nE 's/^ *(spin-cpu[01]|gzip)-([0-9]+) +\[[0-9]+\] +([0-9]+)\.([0-9]{6}):.*/\1 \2 \3\4/p' \
		"$report" >"$results/workload-tasks.txt"
	pids=$(sort -s -u -k1,1 "$results/workload-tasks.txt" | cut -d' ' -f2 | paste -sd, -)
	range=$(awk 'NR == 1 { a = $3 } { b = $3 } END { if (NR) printf "%d000, %d000", a, b }' \
		"$results/workload-tasks.txt")
	[ -n "$range" ] || return 1
	cat <<-EOF
	{
	  "type": "kshark.config.session",
	  "MainWindow": [1600, 900],
	  "Splitter": [640, 160],
	  "Model": { "type": "kshark.config.model", "range": [$range], "bins": 1400 },
	  "data streams": [ {
	    "type": "kshark.config.stream", "stream id": 0,
	    "data": { "type": "kshark.config.data", "file": "$dat", "name": "top buffer",
	              "time": $(stat -c %Y "$dat") },
	    "filters": { "type": "kshark.config.filter", "filter mask": 7 },
	    "plugins": { "type": "kshark.config.plugins",
	                 "registered": [["kvm_combo", false], ["missed_events", true], ["sched_events", true]] },
	    "CPUPlots": [0, 1],
	    "TaskPlots": [$pids]
	  } ],
	  "ComboPlots": [],
	  "Markers": { "type": "kshark.config.markers", "markA": { "isSet": false },
	               "markB": { "isSet": false }, "Active": "A" },
	  "ViewTop": 0,
	  "ColorScheme": 0.75,
	  "User Plugins": { "type": "kshark.config.plugins", "obj. files": [] }
	}
	EOF
}

# render DAT PNG: KernelShark, a Qt GUI, on a virtual X screen; grab the
# screen once its window shows and has drawn its plots. Whatever happens,
# neither outlives this function.
render() {
	local rc=0
	render_x "$@" || rc=$?
	cleanup
	wait "$ks_pid" "$xvfb_pid" 2>/dev/null || true
	ks_pid=''
	xvfb_pid=''
	ksdir=''
	return "$rc"
}

render_x() {
	local dat=$1 png=$2 log=$results/kernelshark.log dfile=$results/xvfb.display win as args
	: >"$log"
	rm -f "$png" "$dfile"
	# -displayfd: Xvfb picks a free display itself and writes its number,
	# so that the demo never collides with another X server.
	Xvfb -displayfd 3 -screen 0 1600x900x24 -nolisten tcp 3>"$dfile" >>"$log" 2>&1 &
	xvfb_pid=$!
	wait_for 20 test -s "$dfile" || { echo "Xvfb did not start (see $log)"; return 1; }
	DISPLAY=:$(cat "$dfile")
	export DISPLAY
	# As root, KernelShark opens with a modal "running with Root
	# privileges" warning that hides its window; reading a trace.dat needs
	# no privilege: run it as nobody, on a copy, with a home of its own.
	ksdir=$(mktemp -d)
	cp "$dat" "$ksdir/trace.dat"
	args=(trace.dat)
	if session "$results/report-host.txt" "$ksdir/trace.dat" >"$ksdir/session.json"; then
		args=(-s session.json)
	else
		echo "(no workload task found in the report: KernelShark opens with its defaults)"
	fi
	as=()
	if [ "$(id -u)" = 0 ]; then
		chown -R nobody: "$ksdir"
		as=(setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups)
	fi
	# The GUI has no business outliving the demo: a hard limit.
	(cd "$ksdir" && exec timeout -k 5 120 "${as[@]}" env HOME="$ksdir" XDG_RUNTIME_DIR="$ksdir" \
		kernelshark "${args[@]}") >>"$log" 2>&1 &
	ks_pid=$!
	wait_for 60 ks_settled || true
	if [ -z "$(ks_window)" ]; then
		kill -0 "$ks_pid" 2>/dev/null && echo "KernelShark showed no window in 60 s" ||
			echo "KernelShark exited without showing a window"
		tail -n 5 "$log"
		return 1
	fi
	win=$(ks_window)
	# No window manager: place it by hand (the session sizes it).
	xdotool windowmove "$win" 0 0 windowsize "$win" 1600 900 >/dev/null 2>&1 || true
	# Loading and drawing the plots takes a few seconds after the window maps.
	sleep 8
	kill -0 "$ks_pid" 2>/dev/null || { echo "KernelShark died while drawing (see $log)"; return 1; }
	timeout 30 import -window root "$png" >>"$log" 2>&1 || { echo "screen grab failed (see $log)"; return 1; }
	echo "KernelShark picture: $png ($(identify -format '%wx%h' "$png" 2>/dev/null))"
}

main() {
	local start trace_ok=1 pic=
	parse_args "$@"
	start=$(date +%s)
	trap cleanup EXIT
	export INITRD=No
	rbt_need_pkgs qemu-system-x86 busybox-static cpio xz-utils rsync kmod python3 util-linux \
		build-essential bc bison flex libelf-dev libssl-dev linux-source-6.12 trace-cmd

	if [ -n "$stock" ]; then
		heading "Build: rbtrace.ko for Debian's stock $stock kernel"
	else
		heading "Build: the test kernel (cached) and rbtrace.ko"
	fi
	build
	mkdir -p "$RBT_CACHE/runs"
	results=$(mktemp -d "$RBT_CACHE/runs/demo-$(date +%Y%m%d-%H%M%S)-XXXX")

	heading "Boot it under QEMU and trace (the guest's output follows)"
	boot
	[ "$rc" = 0 ] || trace_ok=0

	heading "On the host: trace-cmd report of the guest's trace.dat"
	host_report || trace_ok=0

	heading "On the host: KernelShark renders trace.dat"
	if [ "$trace_ok" = 1 ]; then
		# The picture is a bonus: missing packages or a GUI that cannot
		# draw are reported, but do not fail the demo.
		if ! (rbt_need_pkgs kernelshark xvfb xdotool imagemagick); then
			echo "KernelShark NOT RENDERED: its packages could not be installed"
		elif render "$results/trace.dat" "$results/kernelshark.png"; then
			pic=$results/kernelshark.png
		else
			echo "KernelShark NOT RENDERED (the trace itself is fine; log: $results/kernelshark.log)"
		fi
	else
		echo "skipped: there is no good trace to render"
	fi

	heading "Summary"
	echo "results: $results"
	if [ "$trace_ok" = 1 ]; then
		echo "trace: $results/trace.dat (open it: kernelshark $results/trace.dat)"
		echo "picture: ${pic:-none, see above}"
		echo "demo OK in $(($(date +%s) - start)) s"
	else
		echo "demo FAILED in $(($(date +%s) - start)) s"
		[ "$rc" != 0 ] || rc=1
		exit "$rc"
	fi
}

main "$@"
