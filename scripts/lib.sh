# SPDX-License-Identifier: GPL-2.0
# Common helpers for rbtrace's scripts. Source it; it defines, it does not run.

RBT_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RBT_CACHE=${RBTRACE_CACHE:-/var/cache/rbtrace}

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

mkdir -p "$RBT_CACHE" 2>/dev/null || rbt_die "cannot create cache directory $RBT_CACHE (set RBTRACE_CACHE)"
