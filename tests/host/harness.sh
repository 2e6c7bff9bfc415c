#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# harness.sh: host tests of the test harness itself, on made-up logs.
# A log scan that misses a splat, or a KTAP judge that passes a missing
# case, would make every other test meaningless, so both are tested here
# on inputs with a known verdict. Prints PASS/FAIL lines; exits 1 on any
# failure. Needs kunit.py (the test kernel's source tree) for the KTAP part.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bad=0

# expect NAME WANT CMD...: CMD must exit 0 (WANT=ok) or non-zero (WANT=fail).
expect() {
	local name=$1 want=$2 rc=0
	shift 2
	"$@" >"$work/out" 2>&1 || rc=$?
	if { [ "$want" = ok ] && [ "$rc" = 0 ]; } || { [ "$want" = fail ] && [ "$rc" != 0 ]; }; then
		echo "PASS host:harness:$name"
	else
		echo "FAIL host:harness:$name: expected $want, exit $rc"
		sed 's/^/    /' "$work/out" | head -n 10
		bad=1
	fi
}

# log NAME LINE...: a console log with a clean boot around LINEs.
log() {
	local f=$work/$1.log
	shift
	{
		echo "[    0.000000] Linux version 6.12.0 (test)"
		printf '%s\n' "$@"
		echo "[    3.000000] reboot: Power down"
	} >"$f"
	echo "$f"
}

scan() {
	"$top/scripts/scan-log.sh" "$@"
}

scan_tests() {
	local t
	expect scan-clean ok scan "$(log clean '[    1.000000] rbtrace: loaded')"
	expect scan-warning fail scan "$(log warn '[    1.000000] WARNING: CPU: 1 PID: 7 at rb_core.c:12 rb_commit+0x1/0x2')"
	expect scan-bug fail scan "$(log bug '[    1.000000] BUG: kernel NULL pointer dereference, address: 0000000000000008')"
	expect scan-oops fail scan "$(log oops '[    1.000000] Oops: 0002 [#1] PREEMPT SMP')"
	expect scan-kasan fail scan "$(log kasan '[    1.000000] BUG: KASAN: slab-out-of-bounds in rb_write+0x10')"
	expect scan-lockdep-circular fail scan "$(log circ '[    1.000000] WARNING: possible circular locking dependency detected')"
	expect scan-lockdep-inconsistent fail scan "$(log incons '[    1.000000] inconsistent lock state')"
	expect scan-rcu-stall fail scan "$(log rcu '[   30.000000] rcu: 	1-....: (2 GPs behind) rcu_preempt self-detected stall on CPU')"
	expect scan-rcu-sched-stall fail scan "$(log rcus '[   30.000000] INFO: rcu_sched self-detected stall on CPU')"
	expect scan-atomic-sleep fail scan "$(log sleep '[    1.000000] BUG: sleeping function called from invalid context at mm/slab.h:1')"
	expect scan-panic fail scan "$(log panic '[    1.000000] Kernel panic - not syncing: Attempted to kill init!')"
	expect scan-crlf fail scan "$(log crlf $'[    1.000000] WARNING: CPU: 0 PID: 1 at x.c:1 f\r')"
	# A guest script's own output has no time stamp: not a kernel report.
	expect scan-ignores-user-output ok scan "$(log user 'BUG: this line was echoed by a test script')"
	printf 'unreferenced object 0xffff888003a1c000 (size 64):\n  comm "insmod", pid 80\n' >"$work/kmemleak.txt"
	expect scan-kmemleak fail scan "$(log km)" "$work/kmemleak.txt"
	t=$work/tainted
	echo 4096 >"$t"
	expect scan-taint-out-of-tree ok scan --taint "$t" "$(log t1)"
	echo $((4096 | 8192 | 262144)) >"$t"
	expect scan-taint-unsigned-and-test ok scan --taint "$t" "$(log t2)"
	echo $((4096 | 512)) >"$t"
	expect scan-taint-warn fail scan --taint "$t" "$(log t3)"
	echo 1 >"$t"
	expect scan-taint-proprietary fail scan --taint "$t" "$(log t4)"
}

ktap_tests() {
	local k=$work/ktap
	mkdir -p "$k"
	cat >"$k/pass.ktap" <<'EOF'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: demo
    1..2
    ok 1 one
    ok 2 two # SKIP not yet
ok 1 demo
EOF
	cat >"$k/fail.ktap" <<'EOF'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: demo
    1..2
    # one: EXPECTATION FAILED at demo.c:10
    not ok 1 one
    ok 2 two
not ok 1 demo
EOF
	# The module crashed after its first case: the plan promised three.
	cat >"$k/missing.ktap" <<'EOF'
KTAP version 1
1..1
    KTAP version 1
    # Subtest: demo
    1..3
    ok 1 one
EOF
	: >"$k/empty.ktap"
	# The built-in KUnit's empty boot plan, then a marked module.
	cat >"$k/serial.log" <<'EOF'
[    0.500000] KTAP version 1
[    0.500000] 1..0
[    5.000000] rbtrace-kunit: begin demo_test
[    5.000001] KTAP version 1
[    5.000001] 1..1
[    5.000001]     KTAP version 1
[    5.000001]     # Subtest: demo
[    5.000001]     1..1
[    5.000001]     ok 1 one
[    5.000001] ok 1 demo
[    5.100000] rbtrace-kunit: end demo_test
EOF
	expect kunit-pass ok "$top/scripts/kunit-parse.sh" "$k/pass.ktap"
	expect kunit-failed-case fail "$top/scripts/kunit-parse.sh" "$k/fail.ktap"
	expect kunit-missing-case fail "$top/scripts/kunit-parse.sh" "$k/missing.ktap"
	expect kunit-no-output fail "$top/scripts/kunit-parse.sh" "$k/empty.ktap"
	expect kunit-from-serial-log ok "$top/scripts/kunit-parse.sh" "$k/serial.log"
	expect kunit-serial-log-counts ok grep -q 'PASS kunit:demo.one' <("$top/scripts/kunit-parse.sh" "$k/serial.log")
	# Only the boot-time empty plan: there is no module output to pass.
	head -n 2 "$k/serial.log" >"$k/bootonly.log"
	expect kunit-boot-plan-alone fail "$top/scripts/kunit-parse.sh" "$k/bootonly.log"
}

scan_tests
ktap_tests
exit "$bad"
