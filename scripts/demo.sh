#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh [--stock 6.1|6.12] [--console]: the README's main command.
#
# Build the test kernel (cached) and rbtrace.ko for it, boot it under QEMU,
# load rbtrace, show its debugfs tree, what tracing_on and buffer_size_kb
# do, modinfo, unload, and check that the kernel log stayed clean. With
# --stock, do the same on Debian's stock kernel with the module built
# against its headers. As root it installs the Debian packages it needs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

stock=
qopts=()
while [ $# -gt 0 ]; do
	case $1 in
	--stock) stock=$2; shift 2 ;;
	--console) qopts+=(--console); shift ;;
	-h | --help) sed -n '3,10s/^# \{0,1\}//p' "$0"; exit 0 ;;
	*) rbt_die "demo.sh: unknown option $1" ;;
	esac
done

export INITRD=No
rbt_need_pkgs qemu-system-x86 busybox-static cpio xz-utils rsync kmod python3 \
	build-essential bc bison flex libelf-dev libssl-dev linux-source-6.12

if [ -n "$stock" ]; then
	rel=$("$RBT_TOP/scripts/mkinitramfs-stock.sh" --release "$stock")
	[ -d "/usr/src/linux-headers-$rel" ] || rbt_need_pkgs "linux-headers-$rel"
	kdir=/usr/src/linux-headers-$rel
	qopts+=(--stock "$rel")
else
	rbt_log "test kernel (built once, then cached; a cold build takes several minutes)"
	kdir=$("$RBT_TOP/scripts/build-kernel.sh" base)
	qopts+=(--kernel "$kdir/arch/x86/boot/bzImage")
fi
rbt_log "building rbtrace.ko against $kdir (W=1)"
mod=$("$RBT_TOP/scripts/build-module.sh" "$kdir")

results=$(mktemp -d "$RBT_CACHE/runs/demo-$(date +%Y%m%d-%H%M%S)-XXXX")
rc=0
"$RBT_TOP/scripts/qemu-run.sh" "${qopts[@]}" --timeout 600 --results "$results" \
	"$RBT_TOP/tests/guest/demo.sh" "$mod/rbtrace.ko" || rc=$?
echo "================ guest output ================"
cat "$results/guest.out" 2>/dev/null || echo "(none)"
echo "=============================================="
if [ "$rc" = 0 ]; then
	echo "kernel log: clean (no warning, BUG, oops, lockdep or RCU report; taint $(cat "$results/tainted"): out-of-tree/unsigned module only)"
	echo "serial console log: $results/console.log"
else
	echo "demo FAILED (exit $rc); serial console log: $results/console.log"
fi
exit "$rc"
