#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# version.sh [RBTRACE.KO]: the version is one: MODULE_VERSION of
# tracer/module.c (and of RBTRACE.KO's modinfo, if given), PACKAGE_VERSION
# of dkms.conf and the first entry of CHANGELOG.md agree, and a tag
# vX.Y.Z on HEAD, if there is one, names that version too. Prints
# "PASS|FAIL host:version[:what] ..." lines.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
fail=0
say() {
	echo "$1 host:version:$2${3:+ $3}"
	[ "$1" = PASS ] || fail=1
}

src=$(sed -n 's/^MODULE_VERSION("\(.*\)");$/\1/p' "$top/tracer/module.c")
dkms=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/dkms.conf")
log=$(sed -n 's/^## \([0-9][0-9.]*\) (.*$/\1/p' "$top/CHANGELOG.md" | head -n 1)
if [ -z "$src" ] || [ -z "$dkms" ] || [ -z "$log" ]; then
	say FAIL found "module.c '$src', dkms.conf '$dkms', CHANGELOG.md '$log': one is missing"
elif [ "$src" != "$dkms" ] || [ "$src" != "$log" ]; then
	say FAIL agree "module.c $src, dkms.conf $dkms, CHANGELOG.md $log"
else
	say PASS agree "$src"
fi
if [ $# -ge 1 ]; then
	ko=$(/sbin/modinfo -F version "$1" 2>/dev/null)
	if [ "$ko" = "$src" ]; then
		say PASS modinfo "$ko"
	else
		say FAIL modinfo "$1 says '$ko', the source $src"
	fi
fi
tags=$(git -C "$top" tag --points-at HEAD 2>/dev/null | grep '^v[0-9]' || true)
for t in $tags; do
	if [ "$t" = "v$src" ]; then
		say PASS tag "$t"
	else
		say FAIL tag "HEAD is $t, the version $src"
	fi
done
exit $fail
