# SPDX-License-Identifier: GPL-2.0
#
# Helpers for tests/guest/test.d/*/*.tc, sourced by run-tc.sh before each
# scenario (as ftracetest's test.d/functions is). A scenario runs with
# "set -e", in its own bash process: the first failing command fails it.
#
# Environment (set by run-tc.sh):
#   RBT_KO    path of the rbtrace.ko to test
#   RBT_DIR   its debugfs directory, /sys/kernel/debug/rbtrace
# and set here:
#   RBT_TOP   the source tree (tests/guest/rawio.py and the like)

RBT_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

# fail MSG: fail the scenario with a reason.
fail() {
	echo "FAIL: $*" >&2
	exit 1
}

# unsupported MSG: this kernel or machine cannot run the scenario.
unsupported() {
	echo "UNSUPPORTED: $*" >&2
	exit 77
}

# rbt_loaded: rbtrace is in /proc/modules (bash builtins: execs are slow
# under TCG).
rbt_loaded() {
	local m rest
	while read -r m rest; do
		[ "$m" = rbtrace ] && return 0
	done </proc/modules
	return 1
}

# rbt_load [PARAM=VALUE...]: insmod the module under test; it must load.
rbt_load() {
	insmod "$RBT_KO" "$@" || fail "insmod $RBT_KO $* failed"
	rbt_loaded || fail "rbtrace not in /proc/modules after insmod"
}

# rbt_unload: rmmod; it must succeed and take the debugfs tree with it.
rbt_unload() {
	rmmod rbtrace || fail "rmmod rbtrace failed"
	! rbt_loaded || fail "rbtrace still in /proc/modules after rmmod"
	[ ! -e "$RBT_DIR" ] || fail "$RBT_DIR still exists after rmmod"
}

# dmesg_mark: remember where the kernel log is, for dmesg_since_mark.
dmesg_mark() {
	RBT_MARK="rbtrace-tc: mark $$-$RANDOM"
	echo "$RBT_MARK" >/dev/kmsg
}

# dmesg_since_mark: what the kernel logged since the last dmesg_mark.
dmesg_since_mark() {
	dmesg | sed -n "/$RBT_MARK/,\$p" | sed 1d
}

# dmesg_unexpected [RE]: what the kernel logged since the last dmesg_mark,
# less the lines a load prints by design (the taint of an out-of-tree
# module, an unsigned module, rbtrace's count of native events) and less
# the lines matching the extended regex RE that the scenario expects.
dmesg_unexpected() {
	local re='taints kernel|module verification failed|kernel events native'

	[ -z "$1" ] || re="$re|$1"
	dmesg_since_mark | sed -E "/$re/d"
}

# expect_errno ERRTEXT FILE VALUE: writing VALUE to FILE must fail with the
# strerror text ERRTEXT (e.g. "Invalid argument" for EINVAL).
expect_errno() {
	local want=$1 file=$2 value=$3 err
	if err=$( (echo "$value" >"$file") 2>&1); then
		fail "writing '$value' to $file succeeded, expected '$want'"
	fi
	case $err in
	*"$want"*) ;;
	*) fail "writing '$value' to $file failed with '$err', expected '$want'" ;;
	esac
}

# expect_value FILE VALUE: FILE must read back VALUE (first word).
expect_value() {
	local got
	got=$(<"$1")
	got=${got%% *}
	[ "$got" = "$2" ] || fail "$1 reads '$got', expected '$2'"
}

# mode_of FILE: octal permission bits.
mode_of() {
	stat -c %a "$1"
}

# expect_size FILE KB: a buffer size file must read back at least KB and
# not much more: like tracefs, a size may be rounded up to whole pages and
# count page headers (ftrace reads 67 after "echo 64 > buffer_size_kb").
expect_size() {
	local got
	got=$(<"$1")
	got=${got%% *}
	[[ $got =~ ^[0-9]+$ ]] || fail "$1 reads '$got', not a number"
	[ "$got" -ge "$2" ] && [ "$got" -le $(($2 + $2 / 64 + 8)) ] ||
		fail "$1 reads $got after writing $2"
}

# rbt_has_param NAME: the module under test has parameter NAME (the test
# hooks' parameters exist only in test builds, RBTRACE_TEST_HOOKS).
rbt_has_param() {
	modinfo -p "$RBT_KO" | grep -q "^$1:"
}

# wait_stopped PID...: each PID in state T (a task that stopped itself
# with "kill -STOP $$"), within 10 s each; fails otherwise. A CONT sent
# before the STOP would leave the task stopped for good.
wait_stopped() {
	local p i

	for p in "$@"; do
		for i in $(seq 100); do
			[ "$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null)" = T ] && continue 2
			sleep 0.1
		done
		fail "pid $p did not stop: $(cat "/proc/$p/stat" 2>&1)"
	done
}
