# SPDX-License-Identifier: GPL-2.0
# Common helpers for rbtrace's scripts. Source it; it defines, it does not run.

RBT_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RBT_CACHE=${RBTRACE_CACHE:-/var/cache/rbtrace}
# scripts/kn-select.sh's verdicts and objects, shared by every build
# directory of the same kernel and sources (a fresh clone, DKMS's).
export RBT_KN_CACHE=${RBT_KN_CACHE:-$RBT_CACHE/kn}

rbt_die() {
	echo "rbtrace: $*" >&2
	exit 1
}

rbt_log() {
	echo "rbtrace: $*" >&2
}

# rbt_need_pkgs PKG...: install the missing Debian packages as root, or
# name them and fail otherwise.
rbt_need_pkgs() {
	local missing=() p
	for p in "$@"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
			missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	if [ "$(id -u)" != 0 ]; then
		rbt_die "missing Debian packages: ${missing[*]} (run as root, or: apt-get install ${missing[*]})"
	fi
	rbt_log "installing ${missing[*]}"
	if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >"$RBT_CACHE/apt.log" 2>&1; then
		apt-get update -qq >>"$RBT_CACHE/apt.log" 2>&1
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >>"$RBT_CACHE/apt.log" 2>&1 ||
			rbt_die "apt-get install ${missing[*]} failed; see $RBT_CACHE/apt.log"
	fi
}

# Debian 12's 6.12 header package name, newest available.
rbt_stock612_flavour() {
	local v
	v=$(ls -d /usr/src/linux-headers-6.12.*-amd64 2>/dev/null | sort -V | tail -n 1)
	[ -n "$v" ] && basename "$v" | sed 's/^linux-headers-//'
}

# rbt_private_build KDIR DIR [SUBDIR...]: copy the sources (no build
# products of other kernels) to DIR and build rbtrace.ko there against
# KDIR as "make module" does (the kernel's events compiled in: kbuild's
# own "modules" would leave them all on perf), then each SUBDIR's modules
# against it. A copy of one's own, that
# no other build in the tree changes underneath. A failed build may be a
# stale copy: it is retried once from an empty one. Log: DIR/build.log.
rbt_private_build() {
	local kdir=$1 dir=$2 sub
	shift 2
	_rbt_build() {
		mkdir -p "$dir" &&
			rsync -a --delete --exclude=.git --exclude=tests/kunit --exclude='bench/results' \
				--exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
				--exclude='.*.cmd' --exclude='.*.d' --exclude=Module.symvers \
				--exclude=modules.order --exclude=build.log --exclude=/kn/ "$RBT_TOP/" "$dir/" &&
			make -s -j"$(nproc)" -C "$dir" KDIR="$kdir" W=1 module >"$dir/build.log" 2>&1 || return 1
		for sub in "$@"; do
			make -s -j"$(nproc)" -C "$kdir" M="$dir/$sub" W=1 KBUILD_EXTRA_SYMBOLS="$dir/Module.symvers" \
				modules >>"$dir/build.log" 2>&1 || return 1
		done
	}
	_rbt_build "$@" || { rm -rf "$dir"; _rbt_build "$@"; } ||
		rbt_die "build in $dir failed, see $dir/build.log"
}

mkdir -p "$RBT_CACHE" 2>/dev/null || rbt_die "cannot create cache directory $RBT_CACHE (set RBTRACE_CACHE)"
