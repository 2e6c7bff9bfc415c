#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms.sh: dkms add, build against Debian 12's stock 6.1 and 6.12 headers,
# and remove, from a copy of the tree, leaving the system as it was.
# Prints one PASS/FAIL line per step; exits non-zero on any failure.
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
for h in /usr/src/linux-headers-6.1.*-amd64 /usr/src/linux-headers-6.12.*-amd64; do
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
