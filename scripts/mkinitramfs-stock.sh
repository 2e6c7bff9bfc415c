#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs-stock.sh --release VER
#     Print the full release of the installed stock Debian kernel for VER
#     (6.1, 6.12, or a full release like 6.1.0-57-amd64), installing the
#     image package when it is missing.
# mkinitramfs-stock.sh RELEASE
#     Print the path of a tiny initramfs for /boot/vmlinuz-RELEASE, built
#     on first use and cached in $RBT_CACHE/initramfs, keyed by release,
#     module files, busybox and this script.
#
# Debian's stock kernels build virtio-pci and 9p as modules, so they
# cannot mount the host's root over virtio-9p by themselves. The
# initramfs holds busybox-static and just those modules (with their
# dependencies, resolved from modules.dep): its /init loads them, mounts
# the 9p root and switch_roots to tests/guest/init.sh, as the test kernel
# would have done with root=/dev/root.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# What the 9p root needs; dependencies are added from modules.dep.
WANTED_MODULES=(virtio_pci 9pnet_virtio 9p)

# resolve_release VER: full release of the newest installed matching kernel.
resolve_release() {
	local ver=$1 pkg rel pat
	case $ver in
	6.1) pkg=linux-image-amd64; pat='6.1.[0-9]*-amd64' ;;
	6.12) pkg=linux-image-6.12-amd64; pat='6.12.[0-9]*-amd64' ;;
	*-*) pkg=linux-image-$ver; pat=$ver ;;
	*) rbt_die "unknown stock kernel '$ver' (6.1, 6.12 or a full release)" ;;
	esac
	rel=$(newest_image "$pat")
	if [ -z "$rel" ]; then
		# The host never boots this kernel: skip Debian's own initramfs
		# (update-initramfs takes minutes here), we build ours.
		export INITRD=No
		rbt_need_pkgs "$pkg"
		rel=$(newest_image "$pat")
	fi
	[ -n "$rel" ] || rbt_die "no /boot/vmlinuz-$pat after installing $pkg"
	echo "$rel"
}

newest_image() {
	local f
	f=$(ls -1 /boot/vmlinuz-$1 2>/dev/null | sort -V | tail -n 1)
	[ -z "$f" ] || basename "$f" | sed 's/^vmlinuz-//'
}

# module_order REL: relative paths (in /lib/modules/REL) of the modules to
# load, dependencies first, each once. Built-in modules are skipped.
module_order() {
	local rel=$1 dep=/lib/modules/$1/modules.dep m line deps d i
	[ -r "$dep" ] || rbt_die "$dep missing: is linux-image-$rel installed completely?"
	for m in "${WANTED_MODULES[@]}"; do
		line=$(awk -v m="$m" -F: '{ n = $1; sub(/.*\//, "", n); sub(/\.ko.*/, "", n);
			gsub(/-/, "_", n) } n == m { print; exit }' "$dep")
		if [ -z "$line" ]; then
			grep -qE "/${m//_/[_-]}\.ko" "/lib/modules/$rel/modules.builtin" 2>/dev/null ||
				rbt_die "module $m is neither in $dep nor built into $rel"
			continue
		fi
		# modules.dep lists dependencies so that the last must load first.
		read -r -a deps <<<"${line#*:}"
		for ((i = ${#deps[@]} - 1; i >= 0; i--)); do echo "${deps[i]}"; done
		echo "${line%%:*}"
	done | awk '!seen[$0]++'
}

write_init() {
	cat >"$1/init" <<'EOF'
#!/bin/busybox sh
# rbtrace stock-kernel initramfs: load virtio/9p, mount the host root, go on.
export PATH=/bin
/bin/busybox --install -s /bin
fatal() {
	echo "rbtrace-initramfs: FATAL: $*"
	sleep 1
	poweroff -f
}
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
while read -r m; do
	insmod "/lib/modules/$m" || fatal "insmod $m failed"
done </modules.list
init= flags=
for a in $(cat /proc/cmdline); do
	case $a in
	init=*) init=${a#init=} ;;
	rootflags=*) flags=${a#rootflags=} ;;
	esac
done
[ -n "$init" ] || fatal "no init= on the kernel command line"
# The virtio device may register its mount tag a moment after insmod.
n=0
until mount -t 9p -o "ro,$flags" /dev/root /newroot 2>/dev/null; do
	n=$((n + 1))
	[ $n -lt 50 ] || fatal "cannot mount the 9p root (tag /dev/root, options ro,$flags)"
	sleep 0.1
done
[ -x "/newroot$init" ] || fatal "$init is not executable on the 9p root"
umount /proc /sys
mount --move /dev /newroot/dev
echo "rbtrace-initramfs: 9p root mounted, switching to $init"
exec switch_root /newroot "$init"
EOF
	chmod 755 "$1/init"
}

# build REL OUT: assemble the cpio archive for REL into OUT.
build() {
	local rel=$1 out=$2 stage m
	stage=$(mktemp -d "$RBT_CACHE/initramfs/stage.XXXX")
	trap 'rm -rf "$stage"; trap - RETURN' RETURN
	mkdir -p "$stage"/{bin,dev,proc,sys,newroot,tmp,lib/modules}
	cp /bin/busybox "$stage/bin/busybox"
	mknod -m 600 "$stage/dev/console" c 5 1 2>/dev/null || true
	: >"$stage/modules.list"
	for m in "${modules[@]}"; do
		# busybox insmod cannot read compressed modules: store them plain.
		case $m in
		*.ko.xz) xz -dc "/lib/modules/$rel/$m" >"$stage/lib/modules/$(basename "$m" .xz)" ;;
		*.ko.zst) zstd -qdc "/lib/modules/$rel/$m" >"$stage/lib/modules/$(basename "$m" .zst)" ;;
		*.ko.gz) gzip -dc "/lib/modules/$rel/$m" >"$stage/lib/modules/$(basename "$m" .gz)" ;;
		*.ko) cp "/lib/modules/$rel/$m" "$stage/lib/modules/" ;;
		*) rbt_die "unexpected module file $m" ;;
		esac
		basename "$m" | sed -E 's/\.(xz|zst|gz)$//' >>"$stage/modules.list"
	done
	write_init "$stage"
	(cd "$stage" && find . | cpio -o -H newc --quiet | gzip -1) >"$out.tmp"
	mv "$out.tmp" "$out"
}

main() {
	local rel key out modules
	if [ "${1:-}" = --release ]; then
		[ $# = 2 ] || rbt_die "usage: mkinitramfs-stock.sh --release 6.1|6.12|RELEASE"
		resolve_release "$2"
		return
	fi
	[ $# = 1 ] || rbt_die "usage: mkinitramfs-stock.sh RELEASE"
	rel=$1
	[ -r "/boot/vmlinuz-$rel" ] || rbt_die "/boot/vmlinuz-$rel not found (install linux-image-$rel)"
	rbt_need_pkgs busybox-static cpio xz-utils
	mapfile -t modules < <(module_order "$rel")
	key=$( (cat "$0"; echo "$rel"; dpkg-query -W -f='${Version}' busybox-static
		for m in "${modules[@]}"; do stat -c '%n %s %Y' "/lib/modules/$rel/$m"; done) |
		sha256sum | cut -c1-16)
	mkdir -p "$RBT_CACHE/initramfs"
	out=$RBT_CACHE/initramfs/$rel-$key.cpio.gz
	exec 9>"$RBT_CACHE/initramfs/.lock"
	flock 9
	# A truncated or damaged archive (a crash while writing, a full disk)
	# is rebuilt rather than booted into a confusing panic.
	if [ -s "$out" ] && ! gzip -t "$out" 2>/dev/null; then
		rbt_log "cached initramfs $out is damaged: rebuilding it"
		rm -f "$out"
	fi
	if [ ! -s "$out" ]; then
		rbt_log "building the initramfs for stock kernel $rel (${#modules[@]} modules)"
		rm -f "$RBT_CACHE/initramfs/$rel"-*.cpio.gz
		build "$rel" "$out"
	fi
	echo "$out"
}

main "$@"
