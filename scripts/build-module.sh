#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-module.sh [--tests] [--allow-warnings] KDIR
#
# Build rbtrace.ko ("make module"; with --tests "make tests": rbtrace.ko
# with its test hooks and the KUnit module, tests/kunit/rbtrace_test.ko), then the
# example module samples/rbtrace_sample.ko against it, and
# tests/tpmod/rbtrace_tp_test.ko (a module with tracepoint events),
# against the kernel build or headers tree KDIR, with W=1, and print the
# directory holding the results. Any compiler or modpost warning fails the
# build unless --allow-warnings is given: rbtrace builds warning-free on
# every supported kernel.
#
# Each (checkout, KDIR) pair builds in its own copy of the source under
# $RBT_CACHE/build/, refreshed with rsync: builds for different kernels
# never clobber each other or the work tree, and an unchanged file is not
# rebuilt. The full log is DIR/build.log.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tests=0
allow_warnings=0

# Build products stay in the copy (so that make rebuilds only what
# changed); rsync --delete leaves excluded names alone.
RSYNC_EXCLUDES=(--exclude=.git --exclude='*.o' --exclude='*.ko' --exclude='*.mod'
	--exclude='*.mod.c' --exclude='.*.cmd' --exclude='*.a' --exclude=Module.symvers
	--exclude=modules.order --exclude='.tmp*' --exclude=build.log --exclude=/kn/)

main() {
	local kdir dir tag target rc=0
	while [ $# -gt 0 ]; do
		case $1 in
		--tests) tests=1; shift ;;
		--allow-warnings) allow_warnings=1; shift ;;
		-*) rbt_die "build-module: unknown option $1" ;;
		*) break ;;
		esac
	done
	[ $# = 1 ] || rbt_die "usage: build-module.sh [--tests] [--allow-warnings] KDIR"
	kdir=$(realpath -e "$1") || rbt_die "build-module: KDIR $1 does not exist"
	[ -f "$kdir/Makefile" ] || rbt_die "build-module: $kdir is not a kernel build or headers tree (no Makefile)"
	rbt_need_pkgs rsync build-essential
	# The test build (with hooks) gets its own copy: sharing one would
	# rebuild everything whenever the two alternate.
	tag=$(basename "$kdir")-$(echo "$RBT_TOP|$kdir" | sha256sum | cut -c1-8)
	[ "$tests" = 0 ] || tag=$tag-tests
	dir=$RBT_CACHE/build/$tag
	mkdir -p "$dir"
	exec 8>"$dir.lock"
	flock 8
	# --checksum without --times: a changed file lands with a new mtime,
	# so make rebuilds it even when the work tree gave it an older one.
	rsync -rlpD --checksum --delete "${RSYNC_EXCLUDES[@]}" "$RBT_TOP/" "$dir/"
	# "make tests" builds rbtrace.ko with its test hooks plus the KUnit
	# modules: the module the test kernel boots is that one.
	target=module
	[ "$tests" = 0 ] || target=tests
	# The example module of samples/ too, against this rbtrace.ko's
	# symbols: guest scenario 33-sample-module loads it from beside it.
	{
		echo "# make -C $dir KDIR=$kdir W=1 $target"
		make -j"$(nproc)" -C "$dir" KDIR="$kdir" W=1 "$target" 2>&1 || rc=$?
		if [ "$rc" = 0 ]; then
			# modpost of an external module does not run again when
			# only KBUILD_EXTRA_SYMBOLS changed (6.1's kbuild): a sample
			# built against an older rbtrace.ko keeps its symbol
			# versions ("disagrees about version of symbol"). Its
			# output gone, modpost runs, and the sample is linked
			# again if rbtrace's versions moved.
			rm -f "$dir/samples/Module.symvers"
			echo "# make -C $dir/samples KDIR=$kdir W=1"
			make -j"$(nproc)" -C "$dir/samples" KDIR="$kdir" W=1 \
				RBTRACE_SYMVERS="$dir/Module.symvers" 2>&1 || rc=$?
		fi
		# A module with tracepoint events of its own (events/kevents-module).
		if [ "$rc" = 0 ]; then
			echo "# make -C $dir/tests/tpmod KDIR=$kdir W=1"
			make -j"$(nproc)" -C "$dir/tests/tpmod" KDIR="$kdir" W=1 2>&1 || rc=$?
		fi
	} >"$dir/build.log"
	if [ "$rc" != 0 ]; then
		grep -E 'error|Error|warning:' "$dir/build.log" | head -n 30 >&2 || tail -n 30 "$dir/build.log" >&2
		rbt_die "build-module: build against $kdir failed (log: $dir/build.log)"
	fi
	[ -f "$dir/rbtrace.ko" ] || rbt_die "build-module: make succeeded but $dir/rbtrace.ko is missing"
	if [ "$allow_warnings" = 0 ] && grep -qE 'warning:|WARNING:' "$dir/build.log"; then
		grep -E -A3 'warning:|WARNING:' "$dir/build.log" | head -n 40 >&2
		# An unchanged file is not recompiled, so its warning would not
		# show next time: start the next build from clean.
		make -C "$dir" KDIR="$kdir" clean >/dev/null 2>&1 || rm -f "$dir"/*.o "$dir"/tests/kunit/*.o
		make -C "$dir/samples" KDIR="$kdir" clean >/dev/null 2>&1 || rm -f "$dir"/samples/*.o
		make -C "$dir/tests/tpmod" KDIR="$kdir" clean >/dev/null 2>&1 || rm -f "$dir"/tests/tpmod/*.o
		rbt_die "build-module: warnings building against $kdir (log: $dir/build.log)"
	fi
	sign_modules "$kdir" "$dir"
	echo "$dir"
}

# sign_modules KDIR DIR: sign every module built in DIR with the kernel's
# own key, where the kernel build has one (the test kernel: a distribution's
# headers have none). The test kernel has the lockdown LSM, which refuses an
# unverifiable module whole at lockdown=integrity, before the parameters
# module/lockdown-params is about. A module already signed is left alone:
# sign-file would append a second signature.
sign_modules() {
	local kdir=$1 dir=$2 ko
	local key=$kdir/certs/signing_key.pem cert=$kdir/certs/signing_key.x509
	[ -f "$key" ] && [ -f "$cert" ] && [ -x "$kdir/scripts/sign-file" ] || return 0
	grep -qx 'CONFIG_MODULE_SIG=y' "$kdir/.config" 2>/dev/null || return 0
	while IFS= read -r ko; do
		tail -c 28 "$ko" | grep -q 'Module signature appended' && continue
		"$kdir/scripts/sign-file" sha256 "$key" "$cert" "$ko" ||
			rbt_die "build-module: signing $ko with $key failed"
	done < <(find "$dir" -name '*.ko' -not -path "$dir/kn/*")
}

main "$@"
