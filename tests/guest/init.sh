#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# init.sh: PID 1 of an rbtrace QEMU guest (init=.../tests/guest/init.sh).
#
# The root is the host's / shared read-only over virtio-9p, so the guest
# sees every host file at its host path. This script gives it the writable
# places a system needs (tmpfs), mounts the results share written by the
# host (scripts/qemu-run.sh), runs the job found there, records its exit
# status and the kernel's taint and log, and powers off.
#
# Kernel command line (read from /proc/cmdline, not the environment, so
# that the stock kernels' initramfs can hand over with switch_root):
#   rbt_results=DIR   host path of the results share (9p tag "rbtres")
#   rbt_keep=P1,P2    host paths under /tmp, /root, ... that tmpfs would
#                     hide: bind them back from the read-only host root
#
# Never "set -e" here: if PID 1 exits the kernel panics and the host only
# learns "no exit status". Every failure is reported and we power off.
set -u

export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/root TERM=dumb LANG=C.UTF-8
BB=/bin/busybox

# Messages carry the guest's uptime, to see where boot time goes.
say() {
	local up
	read -r up _ </proc/uptime 2>/dev/null || up=?
	echo "rbtrace-init: [$up] $*" >/dev/console
}

# Write the marker, flush and power off. Called on every path out.
finish() {
	local rc=$1
	if [ -n "${RESULTS:-}" ] && mounted "$RESULTS"; then
		local t
		read -r t </proc/sys/kernel/tainted
		echo "$t" >"$RESULTS/tainted"
		kmemleak_report
		$BB dmesg >"$RESULTS/dmesg.txt" 2>/dev/null
		echo "$rc" >"$RESULTS/rc"
		$BB sync
	fi
	say "guest script exit status $rc, powering off"
	echo o >/proc/sysrq-trigger 2>/dev/null
	$BB sleep 5
	$BB poweroff -f
	# init must never exit (that panics): wait for the power-off, which
	# under -icount,sleep=off can take longer than the sleeps above.
	while :; do $BB sleep 1; done
}

# On a kmemleak kernel (the debug variant) ask for two scans, as an object
# must be seen unreferenced twice before it is reported.
kmemleak_report() {
	local k=/sys/kernel/debug/kmemleak
	[ -w "$k" ] || return 0
	echo scan >"$k" 2>/dev/null
	$BB sleep 1
	echo scan >"$k" 2>/dev/null
	$BB cat "$k" >"$RESULTS/kmemleak.txt" 2>/dev/null
}

cmdline_arg() {
	local a
	local line
	read -r line </proc/cmdline
	for a in $line; do
		case $a in "$1="*) echo "${a#*=}"; return 0 ;; esac
	done
	return 1
}

# Every exec costs tens of milliseconds under TCG, more for a dynamically
# linked binary read over 9p: init uses bash builtins where it can and the
# static busybox for the rest.
mounted() {
	local dev mp rest
	[ -r /proc/self/mounts ] || return 1
	while read -r dev mp rest; do
		[ "$mp" = "$1" ] && return 0
	done </proc/self/mounts
	return 1
}

mnt() {
	# mnt TYPE WHAT WHERE [OPTIONS]: mount unless something is already there
	mounted "$3" && return 0
	$BB mount -t "$1" ${4:+-o "$4"} "$2" "$3" || say "cannot mount $1 on $3"
}

mount_system() {
	mnt proc proc /proc
	mnt sysfs sysfs /sys
	mnt devtmpfs devtmpfs /dev
	$BB mkdir -p /dev/pts /dev/shm 2>/dev/null
	# devtmpfs has no /dev/fd: bash's <(...) and many tools need it.
	[ -e /dev/fd ] || $BB ln -s /proc/self/fd /dev/fd
	[ -e /dev/stdin ] || $BB ln -s /proc/self/fd/0 /dev/stdin
	[ -e /dev/stdout ] || $BB ln -s /proc/self/fd/1 /dev/stdout
	[ -e /dev/stderr ] || $BB ln -s /proc/self/fd/2 /dev/stderr
	mnt devpts devpts /dev/pts gid=5,mode=620
	mnt tmpfs tmpfs /dev/shm mode=1777
	mnt debugfs debugfs /sys/kernel/debug
	mnt tracefs tracefs /sys/kernel/tracing
	# The root is read-only: keep a second view of it before tmpfs hides
	# parts of it, so that host paths under those parts can be bound back.
	mnt tmpfs tmpfs /run mode=0755
	$BB mkdir -p /run/host
	$BB mount -o bind / /run/host || say "cannot bind / on /run/host"
	local d
	for d in /tmp /var/tmp; do mnt tmpfs tmpfs "$d" mode=1777; done
	mnt tmpfs tmpfs /root mode=0700
}

# keep_path P: make host path P (file or directory) visible again if a
# tmpfs above hides it.
keep_path() {
	local p=$1
	[ -e "$p" ] && return 0
	[ -e "/run/host$p" ] || { say "host path $p not found"; return 1; }
	if [ -d "/run/host$p" ]; then
		$BB mkdir -p "$p"
	else
		$BB mkdir -p "${p%/*}" && : >"$p"
	fi && $BB mount -o bind "/run/host$p" "$p" || say "cannot bind $p"
}

mount_results() {
	RESULTS=$(cmdline_arg rbt_results) || { say "no rbt_results= on the command line"; return 1; }
	$BB mkdir -p "$RESULTS" 2>/dev/null
	$BB mount -t 9p -o trans=virtio,version=9p2000.L,msize=262144 rbtres "$RESULTS" ||
		{ say "cannot mount the results share on $RESULTS"; RESULTS=; return 1; }
}

main() {
	local keep p rc
	# rbt_debug on the command line (qemu-run.sh --debug): trace this
	# script with time stamps, to see where the boot's time goes.
	mnt proc proc /proc
	if [[ " $(</proc/cmdline) " == *" rbt_debug "* ]]; then
		PS4='+ $EPOCHREALTIME '
		set -x
	fi
	mount_system
	$BB hostname rbtrace-guest
	$BB ip link set lo up 2>/dev/null || say "cannot bring up lo"
	mount_results || finish 125
	keep=$(cmdline_arg rbt_keep) || keep=
	for p in ${keep//,/ }; do keep_path "$p"; done

	# The host wrote the job as a bash array plus exported variables.
	[ -r "$RESULTS/job" ] || { say "no job file in $RESULTS"; finish 125; }
	RBT_JOB=()
	. "$RESULTS/job"
	[ ${#RBT_JOB[@]} -gt 0 ] || { say "empty job"; finish 125; }
	export RBT_RESULTS=$RESULTS
	say "running ${RBT_JOB[*]}"
	cd "$RESULTS" || finish 125
	# Script output goes to the serial console (kept in console.log) and
	# to guest.out, which is the script's output alone.
	"${RBT_JOB[@]}" </dev/null 2>&1 | $BB tee "$RESULTS/guest.out" >/dev/console
	rc=${PIPESTATUS[0]}
	cd /
	finish "$rc"
}

main "$@"
