#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms.sh [--all]: dkms add, build against Debian 12's stock 6.1 headers
# (its default kernel; with --all, its 6.12 too), and remove, from a copy
# of the tree, leaving the system as it was. Prints one PASS/FAIL line
# per step; exits non-zero on any failure.
#
# scripts/test.sh builds against 6.1 only: the W=1 builds of the run
# compile the same sources against the 6.12 headers, without a warning,
# and what DKMS adds (dkms.conf, its make command, add/build/remove) does
# not depend on the kernel. The 6.12 build took five minutes of the
# run's 45 (stop 36).
set -uo pipefail
. "$(dirname "$0")/../../scripts/lib.sh"

rbt_need_pkgs dkms linux-headers-amd64 linux-headers-6.12-amd64
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$RBT_TOP/dkms.conf")
src=/usr/src/rbtrace-$ver
fail=0

step() {
	local name=$1
	shift
	if "$@" >"$RBT_CACHE/dkms-$name.log" 2>&1; then
		echo "PASS: dkms $name"
	else
		echo "FAIL: dkms $name (log: $RBT_CACHE/dkms-$name.log)"
		tail -n 20 "$RBT_CACHE/dkms-$name.log"
		fail=1
	fi
}

cleanup() {
	dkms remove "rbtrace/$ver" --all >/dev/null 2>&1 || true
	rm -rf "$src"
}
trap cleanup EXIT
cleanup
mkdir -p "$src"
# The module's sources and the one script its build runs (the choice of
# native event headers, scripts/kn-select.sh): what a package would ship.
cp -a "$RBT_TOP"/{Makefile,Kbuild,dkms.conf,*.c,*.h,include,tracer} "$src/"
install -D -m 0755 "$RBT_TOP/scripts/kn-select.sh" "$src/scripts/kn-select.sh"
step add dkms add "rbtrace/$ver"
heads=(/usr/src/linux-headers-6.1.*-amd64)
[ "${1:-}" != --all ] || heads+=(/usr/src/linux-headers-6.12.*-amd64)
for h in "${heads[@]}"; do
	[ -d "$h" ] || continue
	k=${h#/usr/src/linux-headers-}
	step "build-$k" dkms build "rbtrace/$ver" -k "$k"
	# The build's own log must exist and hold no compiler warning.
	log=/var/lib/dkms/rbtrace/$ver/$k/x86_64/log/make.log
	[ -s "$log" ] || log=/var/lib/dkms/rbtrace/$ver/build/make.log
	step "warnings-$k" bash -c "grep -q 'rbtrace.ko' '$log' && ! grep -E 'warning:|error:' '$log'"
done
step remove dkms remove "rbtrace/$ver" --all
step gone bash -c "! dkms status rbtrace | grep -q ."
exit $fail
