#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# torture.sh [--debug] [--seconds N] [--smp N] [-- MODULE_ARGS...]
#
# Run rbtrace_torture.ko in the test kernel (--debug: the KASAN, lockdep,
# DEBUG_PREEMPT, atomic-sleep and kmemleak kernel, with a kmemleak scan
# after unload). Prints the torture's KTAP table and ends with
# "N passed, N failed"; exits non-zero on any failure or unclean log.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

variant=base seconds=60 smp=4
while [ $# -gt 0 ]; do
	case $1 in
	--debug) variant=debug; shift ;;
	--seconds) seconds=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--) shift; break ;;
	*) rbt_die "torture: unknown argument $1 (see the header of $0)" ;;
	esac
done
[[ $seconds =~ ^[0-9]+$ ]] && [ "$seconds" -ge 1 ] || rbt_die "torture: --seconds wants a positive number"

kdir=$("$RBT_TOP/scripts/build-kernel.sh" "$variant")
bdir=$RBT_CACHE/build/torture-$(basename "$kdir")
rbt_private_build "$kdir" "$bdir" tests/torture

results=$RBT_CACHE/runs/torture-$variant-$(date +%Y%m%d-%H%M%S)
mkdir -p "$results"
rc=0
# KASAN and lockdep slow the guest down several times: allow for it
# (the debug kernel's boot alone takes a minute or two under TCG).
limit=$((seconds * 3 + 300))
extra=()
if [ "$variant" = debug ]; then
	limit=$((seconds * 4 + 900))
	# Under KASAN and lockdep, TCG runs ACPI's AML so slowly that the
	# PCI routing method (_PRT) hits the interpreter's 30 s loop timeout:
	# the virtio devices get no interrupt and the 9p root never mounts.
	# acpi=noirq routes PCI interrupts by the BIOS's table instead.
	extra=(--append acpi=noirq)
fi
"$RBT_TOP/scripts/qemu-run.sh" --kernel "$kdir/arch/x86/boot/bzImage" --smp "$smp" --mem 3G \
	--timeout "$limit" --results "$results" "${extra[@]}" \
	"$RBT_TOP/tests/torture/torture.sh" "$bdir" "$seconds" "$results/torture.txt" "$@" || rc=$?
[ -s "$results/torture.txt" ] && grep -E '^(ok|not ok|#)' "$results/torture.txt"
passed=$(grep -c '^ok ' "$results/torture.txt" 2>/dev/null || true)
failed=$(grep -c '^not ok ' "$results/torture.txt" 2>/dev/null || true)
# A failed boot or an unclean log is one more failure.
[ "$rc" = 0 ] || failed=$((failed + 1))
echo "torture ($variant kernel, ${seconds} s, -smp $smp): results in $results"
echo "${passed:-0} passed, ${failed:-0} failed"
[ "$rc" = 0 ] && [ "${failed:-0}" = 0 ]
