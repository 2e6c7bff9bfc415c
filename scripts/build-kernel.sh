#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh [base|debug]: build the rbtrace test kernel from Debian's
# linux-source-6.12 and print its build directory (usable as KDIR).
#
# The build lives in $RBTRACE_CACHE (default /var/cache/rbtrace), one
# directory per variant and source version. A key (the config fragments,
# the source version and this script) is stored beside it: an unchanged key
# does nothing, a changed key re-merges the config and lets make rebuild
# only what changed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

variant=${1:-base}
case $variant in
base) frags=("$RBT_TOP/tests/config/base.config") ;;
debug) frags=("$RBT_TOP/tests/config/base.config" "$RBT_TOP/tests/config/debug.config") ;;
*) rbt_die "unknown kernel variant '$variant' (base or debug)" ;;
esac

rbt_need_pkgs linux-source-6.12 build-essential bc bison flex libelf-dev libssl-dev cpio kmod xz-utils python3

srcver=$(dpkg-query -W -f='${Version}' linux-source-6.12)
tarball=$(ls /usr/src/linux-source-6.12.tar.* 2>/dev/null | head -n 1)
[ -n "$tarball" ] || rbt_die "linux-source-6.12 is installed but /usr/src/linux-source-6.12.tar.* is missing"

src=$RBT_CACHE/src/linux-source-6.12-$srcver
out=$RBT_CACHE/kernel/$variant-$srcver
key=$( (echo "$srcver"; cat "${frags[@]}" "$0") | sha256sum | cut -c1-16)

exec 9>"$RBT_CACHE/kernel-$variant.lock"
flock 9

if [ -f "$out/.rbtrace-key" ] && [ "$(cat "$out/.rbtrace-key")" = "$key" ] &&
	[ -f "$out/arch/x86/boot/bzImage" ] && [ -f "$out/Module.symvers" ]; then
	echo "$out"
	exit 0
fi

if [ ! -f "$src/.rbtrace-extracted" ]; then
	rbt_log "extracting $tarball (source $srcver)"
	rm -rf "$src" "$src.tmp"
	mkdir -p "$src.tmp"
	tar -xf "$tarball" -C "$src.tmp" --strip-components=1 ||
		rbt_die "cannot extract $tarball (corrupted? reinstall linux-source-6.12)"
	touch "$src.tmp/.rbtrace-extracted"
	mv "$src.tmp" "$src"
fi

mkdir -p "$out"
rm -f "$out/.rbtrace-key"
rbt_log "configuring the $variant test kernel in $out"
make -s -C "$src" O="$out" allnoconfig >/dev/null
(cd "$out" && "$src/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "${frags[@]}" >/dev/null)
make -s -C "$src" O="$out" olddefconfig >/dev/null

# Every option the fragments ask for must have survived olddefconfig:
# a silently dropped option is a test kernel that lies.
bad=0
while IFS= read -r line; do
	case $line in
	CONFIG_*=n) grep -qx "# ${line%=n} is not set" "$out/.config" || grep -qx "$line" "$out/.config" || { rbt_log "config: $line not honoured"; bad=1; } ;;
	CONFIG_*) grep -qx "$line" "$out/.config" || { rbt_log "config: $line not honoured"; bad=1; } ;;
	esac
done < <(cat "${frags[@]}")
[ $bad = 0 ] || rbt_die "the $variant config fragment does not apply to linux-source $srcver"

jobs=$(($(nproc) + 1))
rbt_log "building the $variant test kernel (make -j$jobs, several minutes on a cold cache)"
if ! make -s -C "$src" O="$out" -j"$jobs" bzImage modules >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	rbt_die "kernel build failed; full log in $out/build.log"
fi
echo "$key" >"$out/.rbtrace-key"
echo "$out"
