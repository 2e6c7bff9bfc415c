#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qemu-run.sh [options] [--] SCRIPT [ARG...]
#
# Boot a kernel under qemu-system-x86_64 (TCG: KVM hangs on these
# machines), run SCRIPT with ARGs inside it as root, power off, and exit
# with SCRIPT's exit status. The guest's root is the host's / read-only
# over virtio-9p, so SCRIPT, the modules and every tool are seen at their
# host paths; /tmp, /run, /var/tmp and /root are tmpfs in the guest.
#
# Options:
#   --kernel BZIMAGE  kernel to boot (default: the base test kernel,
#                     built or taken from the cache by build-kernel.sh)
#   --stock VER       boot Debian's stock kernel: 6.1, 6.12 or a full
#                     release such as 6.12.117+deb12-amd64 (needs the
#                     initramfs from mkinitramfs-stock.sh, made on demand)
#   --smp N           virtual CPUs (default 2)
#   --mem SIZE        guest memory (default 2G)
#   --icount          -icount shift=0: guest time follows instructions,
#                     for repeatable benchmark figures (implies --one-thread)
#   --one-thread      run every vCPU on one TCG thread. Slower, but exact
#                     for code that other vCPUs patch while running it: with
#                     QEMU 7.2's multi-threaded TCG, a vCPU was seen to run
#                     an int3 that text_poke_bp() had already removed
#                     (static keys flipped by tracepoint registration)
#   --timeout SECS    hard limit for the whole boot (default 600)
#   --results DIR     writable directory shared with the guest (default: a
#                     new one under $RBT_CACHE/runs); console.log, rc,
#                     dmesg.txt, tainted, guest.out land there
#   --append ARGS     extra kernel command line
#   --env NAME=VALUE  export NAME in the guest script's environment
#   --keep PATH       host path the guest needs although it lies under
#                     /tmp, /root, ... (repeatable; absolute paths among
#                     the script's arguments are kept without asking)
#   --console         stream the serial console while the guest runs
#   --debug           trace the guest's init script (time-stamped) on the console
#   --allow-taint M   taint bits tolerated by the log scan (see scan-log.sh)
#   --reboot          let a guest reset through (no -no-reboot): "reboot -f"
#                     and a panic (panic=-1) restart the guest with its RAM
#                     as it was, and init runs the same job again (the
#                     script tells its stages apart by files it leaves in
#                     the results dir). Each boot's log is scanned on its
#                     own (console-bootN.log), up to a crash the script
#                     asked for ("sysrq: Trigger a crash", or tests/tpmod's
#                     "an oops on purpose")
#
# Exit status: SCRIPT's status when it ran and the log is clean; 1 when
# the log scan failed; 124 on timeout; 125 when the guest never produced
# an exit status (panic, crash, boot failure). The cause is always printed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

kernel=
stock=
smp=2
mem=2G
icount=0
one_thread=0
timeout=600
results=
append=
console=0
allow_taint=
reboot=0
envs=()
keeps=()
initrd=

usage() {
	awk 'NR > 2 && /^#/ { sub(/^# ?/, ""); print; next } NR > 2 { exit }' "$0" >&2
	exit 2
}

parse_args() {
	while [ $# -gt 0 ]; do
		case $1 in
		--kernel) kernel=$2; shift 2 ;;
		--stock) stock=$2; shift 2 ;;
		--smp) smp=$2; shift 2 ;;
		--mem) mem=$2; shift 2 ;;
		--icount) icount=1; shift ;;
		--one-thread) one_thread=1; shift ;;
		--timeout) timeout=$2; shift 2 ;;
		--results) results=$2; shift 2 ;;
		--append) append="$append $2"; shift 2 ;;
		--env) envs+=("$2"); shift 2 ;;
		--keep) keeps+=("$2"); shift 2 ;;
		--console) console=1; shift ;;
		--reboot) reboot=1; shift ;;
		--debug) append="$append rbt_debug"; shift ;;
		--allow-taint) allow_taint=$2; shift 2 ;;
		-h | --help) usage ;;
		--) shift; break ;;
		-*) rbt_die "qemu-run: unknown option $1" ;;
		*) break ;;
		esac
	done
	[ $# -gt 0 ] || usage
	script=$(realpath -e "$1") || rbt_die "qemu-run: guest script $1 not found"
	[ -x "$script" ] || rbt_die "qemu-run: guest script $script is not executable"
	shift
	script_args=("$@")
	[[ $smp =~ ^[0-9]+$ ]] && [ "$smp" -ge 1 ] || rbt_die "qemu-run: --smp wants a number, not '$smp'"
	[[ $timeout =~ ^[0-9]+$ ]] || rbt_die "qemu-run: --timeout wants seconds, not '$timeout'"
}

# The kernel command line is split on spaces and the guest's init parses
# comma-separated lists: such characters in a shared path cannot work.
check_path() {
	case $1 in
	*[[:space:],]*) rbt_die "qemu-run: path '$1' contains a space or comma; it cannot be passed to the guest" ;;
	esac
}

pick_kernel() {
	if [ -n "$stock" ]; then
		local rel
		rel=$("$RBT_TOP/scripts/mkinitramfs-stock.sh" --release "$stock")
		kernel=/boot/vmlinuz-$rel
		initrd=$("$RBT_TOP/scripts/mkinitramfs-stock.sh" "$rel")
		[ -r "$kernel" ] || rbt_die "qemu-run: $kernel is not readable"
	elif [ -z "$kernel" ]; then
		local kdir
		kdir=$("$RBT_TOP/scripts/build-kernel.sh" base) || rbt_die "qemu-run: building the test kernel failed"
		kernel=$kdir/arch/x86/boot/bzImage
	fi
	[ -r "$kernel" ] || rbt_die "qemu-run: kernel image $kernel not found"
}

make_results_dir() {
	if [ -z "$results" ]; then
		mkdir -p "$RBT_CACHE/runs"
		# Keep the 20 newest runs: logs are for reading, not for hoarding.
		find "$RBT_CACHE/runs" -mindepth 1 -maxdepth 1 -type d -printf '%T@ %p\n' |
			sort -rn | tail -n +20 | cut -d' ' -f2- | xargs -r rm -rf
		results=$(mktemp -d "$RBT_CACHE/runs/$(date +%Y%m%d-%H%M%S)-XXXX")
	fi
	mkdir -p "$results"
	results=$(realpath "$results")
	check_path "$results"
	# Leftovers of an earlier run in the same directory would be taken for
	# this run's results.
	rm -f "$results"/{rc,tainted,dmesg.txt,kmemleak.txt,guest.out,console.log,qemu.out,job}
}

# The job file is sourced by tests/guest/init.sh: the script and its
# arguments as a bash array, then the environment, all %q-quoted.
write_job() {
	local e
	{
		printf 'RBT_JOB=('
		printf '%q ' "$script" "${script_args[@]}"
		printf ')\n'
		printf 'export RBT_TOP=%q\n' "$RBT_TOP"
		printf 'export RBTRACE_CACHE=%q\n' "$RBT_CACHE"
		for e in "${envs[@]}"; do
			[[ $e == *=* ]] || rbt_die "qemu-run: --env wants NAME=VALUE, not '$e'"
			printf 'export %s=%q\n' "${e%%=*}" "${e#*=}"
		done
	} >"$results/job"
}

kernel_cmdline() {
	local keep p
	keep=$RBT_TOP,$RBT_CACHE,$script
	# Script arguments that name existing host paths (a module, a results
	# directory) are kept visible too, wherever they are.
	for p in "${script_args[@]}"; do
		[[ $p == /* ]] && [ -e "$p" ] && keeps+=("$p")
	done
	for p in "${keeps[@]}"; do
		p=$(realpath -m "$p")
		check_path "$p"
		keep+=,$p
	done
	check_path "$RBT_TOP"
	check_path "$RBT_CACHE"
	check_path "$script"
	# panic=-1 with QEMU's -no-reboot: a panic ends QEMU at once instead of
	# waiting for the timeout. cache=loose: the root is read-only, so the
	# guest may cache it; it makes the 9p root several times faster.
	echo "console=ttyS0,115200 root=/dev/root rootfstype=9p" \
		"rootflags=trans=virtio,version=9p2000.L,msize=262144,cache=loose ro" \
		"init=$RBT_TOP/tests/guest/init.sh panic=-1 loglevel=7 log_buf_len=4M" \
		"rbt_results=$results rbt_keep=$keep$append"
}

qemu_cmd() {
	# -icount needs one TCG thread for all vCPUs (QEMU refuses MTTCG with it).
	local threads=multi
	[ "$icount" = 0 ] && [ "$one_thread" = 0 ] || threads=single
	qemu=(qemu-system-x86_64 -accel "tcg,thread=$threads" -cpu max -smp "$smp" -m "$mem"
		-nodefaults -no-user-config -display none -monitor none
		-serial "file:$results/console.log"
		-kernel "$kernel" -append "$(kernel_cmdline)"
		-fsdev "local,id=root,path=/,security_model=none,readonly=on,multidevs=remap"
		-device virtio-9p-pci,fsdev=root,mount_tag=/dev/root
		-fsdev "local,id=res,path=$results,security_model=none"
		-device virtio-9p-pci,fsdev=res,mount_tag=rbtres)
	[ "$reboot" = 1 ] || qemu+=(-no-reboot)
	[ -z "$initrd" ] || qemu+=(-initrd "$initrd")
	[ "$icount" = 0 ] || qemu+=(-icount shift=0,align=off,sleep=off)
}

# run_qemu: start QEMU under a hard timeout and wait for it. Sets qrc.
run_qemu() {
	local tailpid=
	echo "${qemu[*]}" >"$results/qemu.cmd"
	: >"$results/console.log"
	# timeout(1) sends TERM at the limit and KILL 5 s later: QEMU cannot
	# outlive it, whatever the guest does.
	# The subshell's "times" gives QEMU's host CPU time (its children's
	# rusage, timeout(1) having waited for QEMU): cpu-seconds beside
	# seconds, what scripts/test.sh balances its parallel boots by.
	(
		trap 'kill $tpid 2>/dev/null; exit 130' INT TERM
		timeout -k 5 "$timeout" "${qemu[@]}" </dev/null >"$results/qemu.out" 2>&1 &
		tpid=$!
		rc=0
		wait "$tpid" || rc=$?
		# Not "times | ...": a pipeline's subshell has no children.
		times >"$results/cpu-seconds"
		sed -n 2p "$results/cpu-seconds" | sed -E 's/([0-9]+)m([0-9.]+)s/\1 \2/g' |
			awk '{ printf "%.1f\n", $1 * 60 + $2 + $3 * 60 + $4 }' >"$results/cpu-seconds.new"
		mv "$results/cpu-seconds.new" "$results/cpu-seconds"
		exit "$rc"
	) &
	qpid=$!
	trap 'kill $qpid 2>/dev/null; exit 130' INT TERM
	if [ "$console" = 1 ]; then
		tail -n +1 -F --pid="$qpid" "$results/console.log" 2>/dev/null &
		tailpid=$!
	fi
	qrc=0
	wait "$qpid" || qrc=$?
	trap - INT TERM
	[ -z "$tailpid" ] || wait "$tailpid" 2>/dev/null || true
}

# last_lines: the end of the console log, to show what the guest was doing.
last_lines() {
	echo "---- last lines of $results/console.log ----" >&2
	tail -n "${1:-15}" "$results/console.log" | tr -d '\r' >&2
	echo "----" >&2
}

# verdict: the exit status of the whole run, with the cause printed.
verdict() {
	local rc
	if [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
		rbt_log "qemu-run: TIMEOUT: the guest did not power off within $timeout s (hang, or --timeout too short); QEMU killed"
		last_lines 25
		scan_log || true
		return 124
	fi
	if [ ! -s "$results/rc" ]; then
		if grep -aq 'Kernel panic' "$results/console.log"; then
			rbt_log "qemu-run: KERNEL PANIC: $(grep -a -m1 'Kernel panic' "$results/console.log" | tr -d '\r')"
		elif grep -aq 'rbtrace-initramfs: FATAL' "$results/console.log"; then
			rbt_log "qemu-run: STOCK INITRAMFS FAILED: $(grep -a -m1 'rbtrace-initramfs: FATAL' "$results/console.log" | tr -d '\r')"
		elif [ "$qrc" != 0 ]; then
			rbt_log "qemu-run: QEMU FAILED (exit $qrc): $(head -c 500 "$results/qemu.out")"
		else
			rbt_log "qemu-run: NO EXIT STATUS: the guest stopped without recording one (crash or boot failure)"
		fi
		last_lines 25
		scan_log || true
		return 125
	fi
	rc=$(tr -dc 0-9 <"$results/rc")
	rc=${rc:-125}
	[ "$rc" = 0 ] || rbt_log "qemu-run: guest script $(basename "$script") exited $rc"
	if ! scan_log; then
		rbt_log "qemu-run: KERNEL LOG NOT CLEAN (see $results/console.log)"
		[ "$rc" != 0 ] || rc=1
	fi
	return "$rc"
}

# split_boots: with --reboot, console-bootN.log for each boot, cut at a
# crash the guest script triggered on purpose (what follows is the panic,
# or the oops of tests/tpmod's oops parameter).
split_boots() {
	rm -f "$results"/console-boot*.log
	awk -v dir="$results" '
		/Linux version / { n++; cut = 0 }
		/sysrq: Trigger a crash|rbtrace_tp_test: an oops on purpose/ { cut = 1 }
		n && !cut { print > (dir "/console-boot" n ".log") }' \
		"$results/console.log"
}

scan_log() {
	local args=(--taint "$results/tainted") logs=("$results/console.log")
	[ -z "$allow_taint" ] || args+=(--allow-taint "$allow_taint")
	[ -s "$results/tainted" ] || args=()
	if [ "$reboot" = 1 ]; then
		split_boots
		logs=("$results"/console-boot*.log)
	fi
	"$RBT_TOP/scripts/scan-log.sh" "${args[@]}" "${logs[@]}" \
		$(ls "$results"/dmesg.txt "$results"/kmemleak.txt 2>/dev/null) >&2
}

# clock_jump: "A B" when two consecutive kernel log stamps of the console
# jump forward by more than an hour (from A s to B s), else nothing. No
# boot of ours lasts an hour: such a step is the host's clock, seen by
# TCG's timers, leaping while the host was paused (stop 33's CI: both
# one-thread guests, side by side, leapt by 487,000 s at the same moment,
# and reported RCU stalls and scenario timeouts that were none of theirs).
clock_jump() {
	awk -F'[][]' '/^\[ *[0-9]+\.[0-9]+\]/ {
		t = $2 + 0
		if (seen && t - last > 3600) { printf "%d %d\n", last, t; exit }
		last = t; seen = 1
	}' "$results/console.log"
}

# stale_int3: "ADDR" when the guest died of an int3 trap that no int3 in
# its text explains any more: "Oops: int3" with the byte before the trap
# address in the oops's Code: line no longer 0xcc. The kernel's
# text_poke_bp() removes an int3 only after every CPU has serialized, so
# no CPU can still run it; QEMU's multi-threaded TCG can, from a
# translation block made before the removal (see --one-thread above:
# seen in the test kernel's boot as ftrace's own set_event switched
# sched_switch on, in __schedule()). Only for boots on several TCG
# threads; a boot on one cannot have it.
stale_int3() {
	[ "$one_thread" = 0 ] || return 0
	awk '
		/Oops: int3/ { oops = 1; next }
		oops && /RIP: / && rip == "" { rip = $0; sub(/^.*RIP: [0-9a-f]+:/, "", rip) }
		oops && / Code: / {
			if (match($0, /[0-9a-f][0-9a-f] <[0-9a-f][0-9a-f]>/) &&
			    substr($0, RSTART, 2) != "cc")
				print rip
			exit
		}' "$results/console.log"
}

# set_aside_attempt DIR: move a boot's results into DIR/NAME/, all but
# the job and the command line that the next attempt uses again.
set_aside_attempt() {
	local f name=$1
	rm -rf "${results:?}/$name"
	mkdir "$results/$name"
	for f in "$results"/* "$results"/.[!.]*; do
		[ -e "$f" ] || continue
		case ${f##*/} in job | qemu.cmd | clock-jump | stale-int3) continue ;; esac
		mv "$f" "$results/$name/"
	done
}

main() {
	local start elapsed_ms rc=0 jump int3
	parse_args "$@"
	command -v qemu-system-x86_64 >/dev/null || rbt_need_pkgs qemu-system-x86
	pick_kernel
	make_results_dir
	write_job
	qemu_cmd
	start=$(date +%s%N)
	rbt_log "qemu-run: booting $(basename "$kernel")${stock:+ ($stock)} -smp $smp, results in $results"
	run_qemu
	# Once: a second fault, or one of the guest's own making, fails.
	jump=$(clock_jump)
	int3=$(stale_int3)
	if [ -n "$jump" ]; then
		rbt_log "qemu-run: the guest's kernel log leapt from ${jump% *} s to ${jump#* } s in one step: the host's clock, paused; its stall reports and timeouts are not the guest's: booting again once (the first attempt is in $results/clock-jump)"
		set_aside_attempt clock-jump
		run_qemu
	elif [ -n "$int3" ]; then
		rbt_log "qemu-run: the guest died of an int3 at$int3 whose byte is no longer an int3: QEMU's multi-threaded TCG ran text that text_poke_bp() had already restored: booting again once (the first attempt is in $results/stale-int3)"
		set_aside_attempt stale-int3
		run_qemu
	fi
	elapsed_ms=$((($(date +%s%N) - start) / 1000000))
	printf '%d.%d\n' $((elapsed_ms / 1000)) $((elapsed_ms % 1000 / 100)) >"$results/seconds"
	verdict || rc=$?
	rbt_log "qemu-run: done in $(cat "$results/seconds") s ($(cat "$results/cpu-seconds" 2>/dev/null || echo "?") s of host CPU), exit $rc"
	return "$rc"
}

main "$@"
