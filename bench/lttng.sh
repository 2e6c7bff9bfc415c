#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lttng.sh: the host side of LTTng's column in the benchmark (issue 15
# item 4): Debian's LTTng kernel modules built for the stock 6.1 kernel,
# the boot that runs bench/lttng-guest.sh, its Markdown section.
#
# Debian 12 pairs lttng-modules-dkms 2.13.9 with its 6.1 kernel, but DKMS
# cannot build it for 6.1.0-57: one probe, lttng-probe-timer, fails
# ("include/lttng/tracepoint-event-impl.h:133:6: error: conflicting types
# for 'trace_hrtimer_start'; have 'void(struct hrtimer *, enum
# hrtimer_mode)'": the 6.1 stable kernel's hrtimer_start tracepoint took
# a third argument, was_armed, and the probe's prototype did not follow);
# the ring buffer, the tracer and every other probe compile. So the source Debian installs in /usr/src is
# copied to the cache with that one object dropped from its probe list
# (a Kbuild line: no LTTng code is changed or kept here), and built with
# the kernel's own Kbuild. The timer events are lost; the sched and irq
# ones that the benchmark records are not.
#
# Cache: $RBT_CACHE/build/lttng-modules-VERSION-RELEASE-KEY, KEY from the
# package versions (lttng-modules-dkms, the kernel headers) and the build
# recipe (lttng_build below, the probes left out): an unchanged key does
# not rebuild. The packages are installed with DKMS's autoinstall off for
# that one command, so that apt does not fail on the very build that this
# script avoids.
#
# Usage:
#   lttng.sh modules [RELEASE]   build (or find) the modules, print their dir
#   lttng.sh run RESULTS [SRC]   boot the stock 6.1 kernel under -icount (one
#                                vCPU: see cmd_run) with
#                                rbtrace (built from SRC, default this tree)
#                                and LTTng, bench/bench.sh's "lttng" part;
#                                lines in RESULTS/bench.txt
#   lttng.sh report BENCH_TXT    the Markdown section of those lines
set -euo pipefail
. "$(dirname "$0")/../scripts/lib.sh"

# The probe that does not build for 6.1.0-57 (see above).
LTTNG_SKIP_PROBES=(lttng-probe-timer)

lttng_install() {
	local created=0
	dpkg-query -W -f='${Status}' lttng-modules-dkms 2>/dev/null | grep -q 'install ok installed' &&
		dpkg-query -W -f='${Status}' lttng-tools 2>/dev/null | grep -q 'install ok installed' &&
		{ rbt_need_pkgs babeltrace2; return 0; }
	if [ "$(id -u)" = 0 ] && [ ! -e /etc/dkms/no-autoinstall ]; then
		mkdir -p /etc/dkms && touch /etc/dkms/no-autoinstall && created=1
	fi
	(rbt_need_pkgs lttng-modules-dkms lttng-tools babeltrace2) || {
		[ "$created" = 0 ] || rm -f /etc/dkms/no-autoinstall
		exit 1
	}
	[ "$created" = 0 ] || rm -f /etc/dkms/no-autoinstall
}

# lttng_build SRC DIR REL: DIR/src/**/*.ko, built from a copy of SRC.
lttng_build() {
	local src=$1 tmp=$2 rel=$3 p
	cp -a "$src/." "$tmp/"
	for p in "${LTTNG_SKIP_PROBES[@]}"; do
		grep -q "+= $p\.o\$" "$tmp/src/probes/Kbuild" ||
			rbt_die "lttng: $p is not in $src/src/probes/Kbuild: drop it from LTTNG_SKIP_PROBES"
		sed -i "/+= $p\.o\$/d" "$tmp/src/probes/Kbuild"
	done
	make -C "$tmp" KERNELDIR="/usr/src/linux-headers-$rel" -j"$(nproc)" modules >"$tmp/build.log" 2>&1
}

# lttng_tree DIR REL: the modules as a depmod tree, DIR/lib/modules/REL,
# for modprobe -d and libkmod (see bench/lttng-guest.sh).
lttng_tree() {
	local dir=$1 rel=$2 f
	mkdir -p "$dir/lib/modules/$rel/extra"
	find "$dir/src" -name '*.ko' -exec cp {} "$dir/lib/modules/$rel/extra/" \;
	for f in modules.builtin modules.builtin.modinfo; do
		cp "/lib/modules/$rel/$f" "$dir/lib/modules/$rel/"
	done
	depmod -b "$dir" "$rel"
}

lttng_modules() {
	local rel=$1 ver src key out tmp hdrpkg err
	ver=$(dpkg-query -W -f='${Version}' lttng-modules-dkms)
	src=/usr/src/lttng-modules-${ver%%-*}
	[ -d "$src" ] || rbt_die "lttng: $src missing (lttng-modules-dkms $ver)"
	hdrpkg=linux-headers-$rel
	[ -d "/usr/src/$hdrpkg" ] || rbt_need_pkgs "$hdrpkg"
	key=$( (echo "$ver"; dpkg-query -W -f='${Version}' "$hdrpkg"; declare -f lttng_build lttng_tree
		echo "${LTTNG_SKIP_PROBES[@]}") | sha256sum | cut -c1-8)
	out=$RBT_CACHE/build/lttng-modules-$ver-$rel-$key
	if [ -f "$out/.rbtrace-done" ]; then
		echo "$out"
		return 0
	fi
	rbt_log "lttng: building lttng-modules $ver for $rel in $out (without ${LTTNG_SKIP_PROBES[*]})"
	tmp=$out.tmp
	rm -rf "$tmp"
	mkdir -p "$tmp"
	if ! lttng_build "$src" "$tmp" "$rel"; then
		err=$(grep -m1 -E 'error:' "$tmp/build.log" || tail -1 "$tmp/build.log")
		rbt_die "lttng: build failed, see $tmp/build.log: $err"
	fi
	lttng_tree "$tmp" "$rel" >>"$tmp/build.log" 2>&1 || rbt_die "lttng: depmod failed, see $tmp/build.log"
	rm -rf "$out"
	mv "$tmp" "$out"
	touch "$out/.rbtrace-done"
	echo "$out"
}

# modules REL: under a lock, one build per key.
cmd_modules() {
	local rel=${1:-$("$RBT_TOP/scripts/mkinitramfs-stock.sh" --release 6.1)}
	lttng_install
	mkdir -p "$RBT_CACHE/build"
	(
		flock 9
		lttng_modules "$rel"
	) 9>"$RBT_CACHE/build/lttng-modules-$rel.lock"
}

# run RESULTS [SRC]: the stock 6.1 boot. Whatever keeps LTTng from
# running lands in RESULTS/bench.txt as its reason.
cmd_run() {
	local res=$1 src=${2:-$RBT_TOP} rel kdir bdir mods v envs=()
	mkdir -p "$res"
	rel=$("$RBT_TOP/scripts/mkinitramfs-stock.sh" --release 6.1)
	kdir=/usr/src/linux-headers-$rel
	bdir=$RBT_CACHE/build/bench-lttng-$rel
	if ! mods=$(cmd_modules "$rel" 2>"$res/lttng-build.err"); then
		echo "lttng-status failed reason=$(tail -1 "$res/lttng-build.err")" >"$res/bench.txt"
		return 1
	fi
	RBT_TOP=$src rbt_private_build "$kdir" "$bdir"
	# bench.sh's hackbench settings, when given, hold here too; 3 runs
	# by default (a run takes 2 minutes here, and repeats within 1%).
	envs+=(--env "HB_RUNS=${HB_RUNS:-3}")
	for v in HB_ARGS HB_CPUS; do
		[ -z "${!v:-}" ] || envs+=(--env "$v=${!v}")
	done
	# One vCPU: under -icount, Debian's 6.1 kernel hangs bringing up a
	# second one ("x86: Booting SMP configuration:" is its last line, with
	# nox2apic too; the test kernel boots with two).
	"$RBT_TOP/scripts/qemu-run.sh" --stock 6.1 --icount --smp 1 --timeout 3000 --results "$res" \
		--env LTTNG_MODULES="$mods" "${envs[@]}" "$RBT_TOP/bench/bench.sh" "$bdir" 0 "$res/bench.txt" lttng
}

cmd_report() {
	python3 "$RBT_TOP/bench/lttng-report.py" "$1"
}

case ${1:-} in
modules) shift; cmd_modules "$@" ;;
run) shift; cmd_run "$@" ;;
report) shift; cmd_report "$@" ;;
*) rbt_die "usage: lttng.sh modules [RELEASE] | run RESULTS [SRC] | report BENCH_TXT" ;;
esac
