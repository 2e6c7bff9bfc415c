#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kn-select.sh KDIR TOP [MAKE ARGS...]
# kn-select.sh --source KDIR: print the kernel source it would use (1.),
#                             or nothing
# kn-select.sh --deps TOP:    print rbtrace's headers a unit includes (5.)
#
# Which of the kernel's event headers become native probes of rbtrace
# (tracer/kn_stage.h), decided for the kernel built against (KDIR), in
# the module's build directory TOP (the M= directory): called by the
# Makefile when kn/selected.mk is older than what it depends on.
#
#  1. One unit per header of include/trace/events/ and of the
#     architecture's include/asm/trace/ that defines a TRACE_SYSTEM:
#     TOP/kn/<header>.c (asm_<header>.c), rewritten only when it
#     changes.
#     When the kernel's source is at hand (below), a unit first includes
#     what the kernel's own file that defines the header's tracepoints
#     (#define CREATE_TRACE_POINTS) includes before it, its private
#     headers by their path (mm/slab.h for kmem): most headers that do
#     not compile alone then do; one that fails so is tried without.
#  2. One kbuild run (RBT_KN_PROBE=1) compiles them all as objects of
#     rbtrace.ko, in parallel, with keep-going. A unit that failed is
#     tried again only when its header, the stage or this script changed
#     (kn/<header>.res, the verdict, is newer than those).
#  3. Each object's undefined symbols must be exported by vmlinux
#     (KDIR/Module.symvers, not another module's exports: rbtrace would
#     then need that module) or be rbtrace's own (rbt_*, rbtr_*, linked
#     with it, which modpost checks).
#  4. A unit that fails 2 or 3 (an error, a warning: rbtrace builds W=1
#     clean, or a symbol it may not use) loses the classes and events
#     the failure is in, by name (RBTR_KN_SKIP_<name>, kn_stage.h), and
#     is compiled again, at most five times: the header's other events
#     stay native. A failure no class can be named for (the header's own
#     declarations) leaves the whole header on perf, with the first
#     diagnostic as the reason; kn/<header>.skip keeps each name left out
#     with its own.
#  5. With RBT_KN_CACHE set (a directory: scripts/lib.sh sets it for the
#     project's own builds), the verdicts and the kept objects are kept
#     there under a key of everything they depend on (this script,
#     the headers of rbtrace's that kn_stage.h reaches, not the others:
#     the tracer's headers change often and a unit sees only these; the
#     kernel's headers directory, Module.symvers
#     and .config, the source, the make arguments): another build
#     directory of the same key (a fresh clone, the DKMS build of the
#     same kernel) takes them instead of compiling them again.
#  6. kn/selected.mk (the objects for Kbuild), kn/list.c (their table),
#     kn/native_events.txt (every header, kept or not, and why) and one
#     line on stdout.
set -euo pipefail

# stage_deps TOP: tracer/kn_stage.h and every header of rbtrace's it
# reaches through #include "..." (beside the includer) and
# #include <rbtrace/...> (TOP/include), one path a line, sorted.
stage_deps() {
	local top=$1 f inc dep
	local -a todo=("$top/tracer/kn_stage.h")
	local -A seen=()
	while [ ${#todo[@]} -gt 0 ]; do
		f=${todo[0]} todo=("${todo[@]:1}")
		[ -z "${seen[$f]:-}" ] && [ -f "$f" ] || continue
		seen[$f]=1
		while read -r inc; do
			case $inc in
			'"'*) dep=$(dirname "$f")/${inc//\"/} ;;
			'<rbtrace/'*) dep=${inc#<} dep=$top/include/${dep%>} ;;
			*) continue ;;
			esac
			todo+=("$dep")
		done < <(sed -n 's/^#include[[:space:]]*\([<"][^>"]*[>"]\).*/\1/p' "$f")
	done
	printf '%s\n' "${!seen[@]}" | sort
}

if [ "$1" = --deps ]; then
	stage_deps "$2"
	exit 0
fi

only_source=0
if [ "$1" = --source ]; then
	only_source=1
	shift
	set -- "$1" /nonexistent
fi
kdir=$1 top=$2
shift 2
kn=$top/kn
# The tree the headers come from: a headers package or an O= build
# includes the source's Makefile.
ksrc=$(sed -n 's|^include \(.*\)/Makefile$|\1|p' "$kdir/Makefile" | tail -n 1)
[ -n "$ksrc" ] && [ -d "$ksrc/include" ] || ksrc=$kdir

# The kernel's architecture, as its .config says (arch/<arch>/).
arch=$(sed -n 's/^CONFIG_\(X86\|ARM64\|ARM\|RISCV\|POWERPC\|S390\|LOONGARCH\|MIPS\)=y$/\1/p' \
	"$kdir/.config" 2>/dev/null | head -n 1 | tr '[:upper:]' '[:lower:]')

# kversion DIR: the VERSION.PATCHLEVEL.SUBLEVEL of DIR/Makefile.
kversion() {
	awk -F' *= *' '$1 == "VERSION" { v = $2 } $1 == "PATCHLEVEL" { p = $2 }
		$1 == "SUBLEVEL" { s = $2 } END { if (v != "") print v "." p "." s }' "$1/Makefile" 2>/dev/null
}

# The kernel's source, with its .c files, of the headers' version: KSRC
# (make KSRC=DIR), else the tree the headers come from (a kernel built
# from source), else Debian's linux-source package extracted in /usr/src.
# None: every header is compiled alone.
src=
want=$(kversion "$ksrc")
for d in ${KSRC:-} "$ksrc" /usr/src/linux-source-"$want" /usr/src/linux-source-"${want%.*}"; do
	if [ -n "$want" ] && [ -f "$d/kernel/sched/core.c" ] && [ "$(kversion "$d")" = "$want" ]; then
		src=$(cd "$d" && pwd)
		break
	fi
done
if [ "$only_source" = 1 ]; then
	echo "$src"
	exit 0
fi
mkdir -p "$kn"

# Which file of the source defines each header's tracepoints:
# kn/src.index, "header file" lines (the header as included, without
# .h: trace/events/sched, or a header of the file's own directory by its
# path), made once per source tree; of arch/, only the kernel's own.
# Besides the headers of include/trace/events and asm/trace, anywhere in
# the file, those it includes right after its CREATE_TRACE_POINTS: the
# driver's own ("trace.h" of drivers/base/regmap) and the others of
# include/ (<ras/ras_event.h>).
if [ -n "$src" ] && ! grep -qxF "# 4 $src $arch" "$kn/src.index" 2>/dev/null; then
	{
		echo "# 4 $src $arch"
		grep -rl --include='*.c' '^#define CREATE_TRACE_POINTS' "$src" | sort |
			awk -v a="$src/arch/$arch/" 'index($0, "/arch/") == 0 || index($0, a) == 1' |
			while read -r f; do
				awk -v f="$f" -v dir="${f%/*}" '
					/^#include <(trace\/events|asm\/trace)\// {
						h = $2; gsub(/[<>]/, "", h); sub(/\.h$/, "", h)
						print h " " f; next
					}
					/^#define CREATE_TRACE_POINTS/ { after = 1; next }
					after && /^#include </ {
						h = $2; gsub(/[<>]/, "", h); sub(/\.h$/, "", h)
						print h " " f; next
					}
					after && /^#include "/ {
						h = $2; gsub(/"/, "", h); sub(/\.h$/, "", h)
						print dir "/" h " " f; next
					}
					after && !/^#/ { after = 0 }' "$f"
			done
	} >"$kn/src.index.tmp"
	mv "$kn/src.index.tmp" "$kn/src.index"
fi

# prelude INC: the includes of the file that defines <INC.h> (as
# trace/events/sched) before its CREATE_TRACE_POINTS, those of its own
# directory by path.
prelude() {
	local f
	[ -n "$src" ] || return 0
	f=$(awk -v h="$1" '$1 == h { print $2; exit }' "$kn/src.index")
	[ -n "$f" ] || return 0
	awk -v dir="$(dirname "$f")" '
		/^#define CREATE_TRACE_POINTS/ { exit }
		/^#include <(trace\/events|asm\/trace)\// { next }
		/^#include </ { print; next }
		/^#include "/ { p = $2; gsub(/"/, "", p); print "#include \"" dir "/" p "\"" }' "$f"
}

# What every verdict depends on besides the unit and its header (and
# the source's index, remade when another source is found).
deps=("$top/tracer/kn_stage.h" "$top/tracer/kn.h" "$top/tracer/event.h"
	"$top/tracer/kevents.h" "$top/tracer/trace.h" "$0")
[ -z "$src" ] || deps+=("$kn/src.index")

write_if_changed() { # FILE: stdin replaces FILE only if different
	local tmp
	tmp=$(mktemp "$1.XXXXXX")
	cat >"$tmp"
	if cmp -s "$tmp" "$1"; then rm -f "$tmp"; else mv "$tmp" "$1"; fi
}

stale() { # RES FILE...: RES missing or older than one of FILE
	local r=$1 f
	shift
	[ -e "$r" ] || return 0
	for f in "$@"; do [ "$f" -nt "$r" ] && return 0; done
	return 1
}

# The TRACE_SYSTEM a header defines: its first, whether or not under
# CREATE_TRACE_POINTS (module.h defines it only there).
sysname() {
	sed -n 's/^#define TRACE_SYSTEM[[:space:]]\+\([A-Za-z0-9_]*\).*/\1/p' "$1" | head -n 1
}

# incname HEADER: HEADER as included, without .h (trace/events/sched,
# asm/trace/irq_vectors), or a driver's own by its path in the source.
incname() {
	local i=$1
	if [ -n "$src" ]; then
		case $i in
		"$src"/*/include/* | "$src"/include/*) ;;
		"$src"/*) echo "${i%.h}"; return ;;
		esac
	fi
	i=${i##*/include/}
	echo "${i%.h}"
}

# incline INC: how a unit includes INC (incname): <trace/events/sched.h>,
# or a driver's own header as a path ("/usr/src/.../regmap/trace.h").
incline() {
	case $1 in
	/*) echo "\"$1.h\"" ;;
	*) echo "<$1.h>" ;;
	esac
}

# write_unit ID HEADER: kn/ID.c, the unit of HEADER, without the names
# of kn/ID.skip.
write_unit() {
	local id=$1 h=$2 inc
	inc=$(incname "$h")
	# The structs it names, declared first: a struct first named in a
	# TP_PROTO() would be a new type in each prototype, the probe's and
	# the tracepoint's (check_trace_callback_type_<name>() refuses it).
	{
		echo "/* Generated by scripts/kn-select.sh: the events of <$inc.h>. */"
		{ grep -o 'struct [A-Za-z_][A-Za-z0-9_]*' "$h" || true; } | sort -u | sed 's/$/;/'
		if [ -s "$kn/$id.skip" ]; then
			cut -f1 "$kn/$id.skip" | sed 's/.*/#define RBTR_KN_SKIP_& 1/'
		fi
		if [ ! -e "$kn/$id.alone" ]; then
			prelude "$inc"
		fi
		echo "#define RBTR_KN_HEADER $(incline "$inc")"
		echo "#define RBTR_KN_SYSTEM \"$(sysname "$h")\""
		echo "#define RBTR_KN_SYM rbtr_kn_sys_$id"
		echo '#include "../tracer/kn_stage.h"'
	} | write_if_changed "$kn/$id.c"
}

# defines_events HEADER: HEADER is an event header (a TRACE_SYSTEM, and
# the kernel's define_trace.h at its end), not one of the kernel's
# event machinery (trace_custom_events.h).
defines_events() {
	grep -q '^#define TRACE_SYSTEM\b' "$1" && grep -q '^#include <trace/define_trace\.h>' "$1"
}

# The kernel's System.map, when it is a real one (a kernel built here;
# Debian's /boot/System.map-* is a stub that points at the -dbg package):
# which tracepoints are built into vmlinux.
sysmap=$kdir/System.map
[ "$(head -c 100000 "$sysmap" 2>/dev/null | wc -l)" -gt 1000 ] || sysmap=

# builtin_events HEADER: one of HEADER's events has its tracepoint in
# vmlinux (__tracepoint_<event> in System.map).
builtin_events() {
	sed -n 's/^[[:space:]]*\(TRACE_EVENT[A-Z_]*\|DEFINE_EVENT[A-Z_]*\)(\([A-Za-z0-9_,[:space:]]*\).*/\1 \2/p' "$1" |
		awk '{
			s = substr($0, length($1) + 2); gsub(/[ \t]/, "", s); split(s, a, ",")
			e = $1 ~ /^DEFINE/ ? a[2] : a[1]
			if (e != "") print "__tracepoint_" e
		}' |
		sort -u | grep -qxFf - <(awk '{ print $3 }' "$sysmap")
}

# builtin_c FILE.c: FILE is built into vmlinux, as far as the Makefile
# of its directory and the kernel's .config say: its object is in obj-y,
# or obj-$(CONFIG_X) with X=y, or in a composite object that is, up to
# three steps (thermal_core.o in thermal_sys-y, thermal_sys.o in
# obj-$(CONFIG_THERMAL)). For a kernel without a real System.map.
# makefile_lhs DIR WORD: the left side of the first assignment of DIR's
# Makefile (or Kbuild) whose right side has WORD (obj-$(CONFIG_X), fuse-y).
makefile_lhs() {
	local f=$1/Makefile
	[ -f "$f" ] || f=$1/Kbuild
	[ -f "$f" ] || return 0
	sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta' "$f" | awk -v o="$2" '
		{ split($0, side, /[:+]?=/); n = split(side[2], w, /[ \t]+/)
		  for (i = 1; i <= n; i++) if (w[i] == o) { gsub(/[ \t]/, "", side[1]); print side[1]; exit } }'
}

# config_y LHS: LHS is obj-y, or names a CONFIG_ that .config sets to y.
config_y() {
	local cfg
	case $1 in
	obj-y | lib-y | *-y | *-objs) return 0 ;;
	*-\$\(CONFIG_*\))
		cfg=${1#*-\$(}
		grep -qx "${cfg%)}=y" "$kdir/.config" ;;
	*) return 1 ;;
	esac
}

# reached DIR: kbuild descends into DIR: its parent's Makefile names it
# (obj-y += DIR/, obj-$(CONFIG_X) += DIR/ with X=y), and so on up to the
# directories the top Makefile names (drivers/s390/ is not, on x86).
reached() {
	local d=$1 up
	while :; do
		up=${d%/*}
		[ "$up" != "$src" ] && [ "$up" != "$src/arch" ] && [ "$up" != "$src/arch/$arch" ] || return 0
		config_y "$(makefile_lhs "$up" "${d##*/}/")" || return 1
		d=$up
	done
}

builtin_c() {
	local dir=${1%/*} o hop lhs
	o=$(basename "$1" .c)
	reached "$dir" || return 1
	for hop in 1 2 3; do
		lhs=$(makefile_lhs "$dir" "$o.o")
		case $lhs in
		obj-y | lib-y) return 0 ;;
		obj-\$\(CONFIG_*\))
			config_y "$lhs"
			return ;;
		*-y | *-objs) o=${lhs%-*} ;;
		*-\$\(CONFIG_*\))
			config_y "$lhs" || return 1
			o=${lhs%%-\$(*} ;;
		*) return 1 ;;
		esac
	done
	return 1
}

# builtin HEADER FILE.c: the events of HEADER, defined by FILE, are in
# vmlinux: one of its tracepoints is in a real System.map, else FILE is
# built in (builtin_c).
builtin() {
	if [ -n "$sysmap" ]; then
		builtin_events "$1"
	else
		builtin_c "$2"
	fi
}

# headers: every event header, as a path: those of include/trace/events
# and of the architecture's asm/trace; the others of the headers'
# include/ and the architecture's (ras/ras_event.h, asm/msr-trace.h);
# with the source, the drivers' own (in the source's index), those with
# a tracepoint built into vmlinux only: a module's events would need its
# symbols, which rbtrace may not use.
headers() {
	local h
	find "$ksrc/include/trace/events" "$ksrc/arch/$arch/include/asm/trace" \
		-maxdepth 1 -name '*.h' -print0 2>/dev/null | xargs -0 grep -l '^#define TRACE_SYSTEM\b'
	grep -rl --include='*.h' '^#include <trace/define_trace\.h>' "$ksrc/include" \
		"$ksrc/arch/$arch/include" 2>/dev/null | grep -v -e '/include/trace/events/' -e '/asm/trace/' |
		while read -r h; do
			! defines_events "$h" || echo "$h"
		done
	[ -n "$src" ] || return 0
	awk '$1 ~ /^\// { print $1 ".h", $2 }' "$kn/src.index" | while read -r h c; do
		[ -f "$h" ] && defines_events "$h" && builtin "$h" "$c" && echo "$h" || true
	done
}

ids=() targets=() probe=()
while read -r h; do
	# trace/events/X: X; asm/trace/X: asm_X; ras/ras_event: ras_ras_event;
	# a driver's: its path in the source (drivers_base_regmap_trace).
	base=$(incname "$h")
	base=${base#"$src"/}
	base=${base#trace/events/}
	id=$(echo "${base//\/trace\//_}" | tr -c 'A-Za-z0-9_\n' '_')
	ids+=("$id")
	echo "$h" >"$kn/$id.hdr"
	if stale "$kn/$id.res" "$h" "${deps[@]}"; then
		# Tried afresh: every class in again, with the prelude.
		rm -f "$kn/$id.skip" "$kn/$id.alone"
		write_unit "$id" "$h"
		probe+=("$id")
		targets+=("kn/$id.o")
		rm -f "$kn/$id.o" "$kn/$id.res"
	elif [ -e "$kn/$id.o" ]; then
		# Kept before: kbuild rebuilds it if an include of it changed,
		# and it is judged again.
		probe+=("$id")
		targets+=("kn/$id.o")
		rm -f "$kn/$id.res"
	fi
done < <(headers | sort -u)

# vmlinux's exports.
exports=$kn/vmlinux.exports
awk '$3 == "vmlinux" { print $2 }' "$kdir/Module.symvers" | sort -u >"$exports"

# compile ID...: one kbuild run over their units, its output in
# kn/probe.log (kept across rounds in kn/probe-all.log). The C locale:
# plain quotes around the names in the diagnostics (the kernel's
# Makefile unexports LC_ALL: LANG and the categories, then).
log=$kn/probe.log
: >"$kn/probe-all.log"
compile() {
	: >"$log"
	[ $# -gt 0 ] || return 0
	local objs
	mapfile -t objs < <(printf 'kn/%s.o\n' "$@")
	LANG=C LC_CTYPE=C LC_MESSAGES=C make -C "$kdir" M="$top" "${make_args[@]}" RBT_KN_PROBE=1 \
		RBT_KN_UNITS="${objs[*]}" -k -j"$(nproc)" --output-sync=target \
		"${objs[@]}" >"$log" 2>&1 || true
	cat "$log" >>"$kn/probe-all.log"
}

# diags ID KIND: the diagnostics of KIND (error or warning) in unit ID's
# block of the log, one per line: "NAME<TAB>first line", where NAME is
# the class or event it is in (the function gcc names, else the
# header's definition its location or a note's falls in), or "-".
diags() {
	local id=$1 kind=$2 h
	h=$(cat "$kn/$id.hdr")
	awk -v o="kn/$id.o" -v kind="$kind" -v hdr="$h" '
		# The name a header line belongs to: the definition that
		# starts last at or before it (read once, below).
		function owner(at,   l) {
			for (l = at; l > 0; l--)
				if (l in def)
					return at <= end[l] ? def[l] : ""
			return ""
		}
		function named(fn) {
			if (fn ~ /^rbtr_kn_(probe|fields|test)_/) {
				sub(/^rbtr_kn_(probe|fields|test)_/, "", fn)
				return fn
			}
			if (fn ~ /^trace_event_get_offsets_/) {
				sub(/^trace_event_get_offsets_/, "", fn)
				return fn
			}
			return ""
		}
		# gcc says "implicit declaration" once per unit: every other
		# definition that calls the function is named with the first.
		function flush(   f, l) {
			if (msg == "")
				return
			print (name == "" ? "-" : name) "\t" msg
			if (match(msg, /implicit declaration of function .[A-Za-z_][A-Za-z0-9_]*/)) {
				f = substr(msg, RSTART + 34, RLENGTH - 34)
				# Its calls inside the definitions of events.
				for (l = 1; l <= n; l++)
					if (line[l] ~ ("[^A-Za-z0-9_]" f "[ \t]*\\(") &&
					    owner(l) != "" && owner(l) != "-")
						print owner(l) "\t" msg
			}
			msg = ""
		}
		BEGIN {
			# The header: where each definition starts, and its name
			# (a class: the first argument; DEFINE_EVENT*(): the second).
			while ((getline t < hdr) > 0) {
				line[++n] = t
				# Where the definition ends: its parentheses closed.
				if (open) {
					u = t
					depth += gsub(/\(/, "", u)
					depth -= gsub(/\)/, "", u)
					if (depth <= 0) {
						end[start] = n
						open = 0
					}
				}
				if (want) {
					text = text " " t
				} else if (t ~ /^[ \t]*(DECLARE_EVENT_CLASS|DECLARE_EVENT_SYSCALL_CLASS|TRACE_EVENT[A-Z_]*|DEFINE_EVENT[A-Z_]*)[ \t]*\(/) {
					start = n
					want = (t ~ /^[ \t]*DEFINE_EVENT/) ? 2 : 1
					text = t
					u = t
					depth = gsub(/\(/, "", u) - gsub(/\)/, "", u)
					if (depth > 0)
						open = 1
					else
						end[start] = n
				} else {
					continue
				}
				s = text
				sub(/^[^(]*\(/, "", s)
				gsub(/[ \t]/, "", s)
				# A definition made by a macro of the header is not
				# one a name can be given to: "-".
				if (split(s, a, ",") > want) {
					def[start] = (a[want] ~ /^[A-Za-z_][A-Za-z0-9_]*$/) ? a[want] : "-"
					want = 0
				}
			}
		}
		/^  CC / { flush(); inblk = index($0, o) > 0; fn = ""; next }
		!inblk { next }
		/: In function / {
			flush()
			fn = $0
			sub(/^.*In function /, "", fn)
			fn = match(fn, /[A-Za-z_][A-Za-z0-9_]*/) ? substr(fn, RSTART, RLENGTH) : ""
			next
		}
		/: At top level:/ { flush(); fn = ""; next }
		/^[^ ]*:[0-9]+:[0-9]+: (fatal error|error|warning): / {
			flush()
			if ($0 !~ (" " kind ": "))
				next
			msg = $0
			sub(/^.*\/include\//, "include/", msg)
			name = named(fn)
			if (name == "" && index($0, hdr ":") == 1) {
				split(substr($0, length(hdr) + 2), p, ":")
				name = owner(p[1] + 0)
			}
			next
		}
		/^[^ ]*:[0-9]+:[0-9]+: note: / {
			if (msg != "" && name == "" && index($0, hdr ":") == 1) {
				split(substr($0, length(hdr) + 2), p, ":")
				name = owner(p[1] + 0)
			}
			next
		}
		END { flush() }' "$log"
}

# unexported ID: the symbols unit ID uses that rbtrace may not, one per
# line: "NAME<TAB>symbol", NAME the class whose function refers to it
# (objdump's relocations), or "-".
unexported() {
	local id=$1 missing
	missing=$(nm -u "$kn/$id.o" | awk '{ print $2 }' | { grep -v -E '^(rbt|rbtr)_' || true; } |
		sort -u | comm -23 - "$exports")
	[ -n "$missing" ] || return 0
	objdump -dr "$kn/$id.o" | awk -v miss="$missing" '
		BEGIN { n = split(miss, m, "\n"); for (i = 1; i <= n; i++) want[m[i]] = 1 }
		/^[0-9a-f]+ <[^>]*>:$/ {
			fn = $2; gsub(/[<>:]/, "", fn)
			name = ""
			if (sub(/^rbtr_kn_(probe|fields|test)_/, "", fn) ||
			    sub(/^trace_event_get_offsets_/, "", fn))
				name = fn
			next
		}
		/R_X86_64_|R_AARCH64_/ {
			sym = $NF; sub(/[-+]0x[0-9a-f]+$/, "", sym)
			if (sym in want)
				print (name == "" ? "-" : name) "\t" sym
		}' | sort -u
}

# try_alone ID: unit ID failed as a whole with the prelude: perhaps the
# prelude's fault. True when it is to be compiled again, alone and with
# every class in.
try_alone() {
	local id=$1
	[ ! -e "$kn/$id.alone" ] || return 1
	[ -n "$(prelude "$(incname "$(cat "$kn/$id.hdr")")")" ] || return 1
	touch "$kn/$id.alone"
	rm -f "$kn/$id.skip" "$kn/$id.o" "$kn/$id.res"
}

# verdict ID: kn/ID.res for a unit that compiled or not; returns 1 when
# it lost names and is to be compiled again.
verdict() {
	local id=$1 kind found why
	for kind in error warning unexported; do
		if [ "$kind" = unexported ]; then
			[ -e "$kn/$id.o" ] || continue
			found=$(unexported "$id")
		else
			found=$(diags "$id" "$kind")
		fi
		[ -n "$found" ] || continue
		# A name that cannot be given, or was left out already and
		# fails again (the error is in the header's declarations,
		# which every pass reads): the whole header stays on perf.
		why=$(awk -F'\t' -v skip="$kn/$id.skip" '
			BEGIN { while ((getline l < skip) > 0) { split(l, a, "\t"); gone[a[1]] = 1 } }
			$1 == "-" || ($1 in gone) { print $2; exit }' <<<"$found")
		if [ -n "$why" ] && try_alone "$id"; then
			return 1
		fi
		if [ -n "$why" ]; then
			rm -f "$kn/$id.o"
			if [ "$kind" = unexported ]; then
				echo "perf unexported: $(cut -f2 <<<"$found" | sort -u | tr '\n' ' ' | sed 's/ $//')" >"$kn/$id.res"
			else
				echo "perf ${kind/error/compile}: $why" >"$kn/$id.res"
			fi
			return 0
		fi
		# Each name once, with its first reason.
		awk -F'\t' -v k="${kind/error/compile}" '!seen[$1]++ { print $1 "\t" k ": " $2 }' \
			<<<"$found" >>"$kn/$id.skip"
		rm -f "$kn/$id.o" "$kn/$id.res"
		return 1
	done
	if [ ! -e "$kn/$id.o" ] && try_alone "$id"; then
		return 1
	fi
	if [ ! -e "$kn/$id.o" ]; then
		echo "perf compile: see kn/probe-all.log" >"$kn/$id.res"
		return 0
	fi
	echo "native $(nm "$kn/$id.o" | grep -c ' rbtr_kn_ev_' || true)" >"$kn/$id.res"
}

make_args=("$@")

# The shared cache (5). The key: what a unit's object and verdict depend
# on besides its header (which is the kernel's, under kdir or src).
cache=
if [ -n "${RBT_KN_CACHE:-}" ]; then
	key=$({
		stage_deps "$top" | xargs -d "\n" cat "$0"
		echo "$(cd "$kdir" && pwd -P)|$src|$arch|${make_args[*]}"
		cat "$kdir/Module.symvers" "$kdir/.config" 2>/dev/null
		cat "$kdir/include/generated/utsrelease.h" 2>/dev/null
	} | sha256sum | cut -c1-16)
	cache=$RBT_KN_CACHE/$key
fi

# cache_take: every unit's verdict (and a kept one's object, its
# kbuild command file moved to this directory, then made newer than
# every file it depends on: kbuild keeps it) from the cache. False if
# the cache has none for this key.
cache_take() {
	local id from
	[ -n "$cache" ] && [ -e "$cache/complete" ] || return 1
	from=$(cat "$cache/top")
	for id in "${ids[@]}"; do
		[ -e "$cache/$id.res" ] || return 1
	done
	for id in "${ids[@]}"; do
		rm -f "$kn/$id.o" "$kn/$id.skip" "$kn/$id.alone"
		cp "$cache/$id.res" "$kn/$id.res"
		[ ! -e "$cache/$id.skip" ] || cp "$cache/$id.skip" "$kn/$id.skip"
		[ ! -e "$cache/$id.alone" ] || cp "$cache/$id.alone" "$kn/$id.alone"
		write_unit "$id" "$(cat "$kn/$id.hdr")"
		if [ -e "$cache/$id.o" ]; then
			cp "$cache/$id.o" "$kn/$id.o"
			sed "s|$from|$top|g" "$cache/.$id.o.cmd" >"$kn/.$id.o.cmd"
		fi
	done
	# Newer than the sources copied into this directory a moment ago.
	sleep 1
	for id in "${ids[@]}"; do
		[ ! -e "$kn/$id.o" ] || touch "$kn/$id.o"
	done
	echo "# verdicts and objects of $cache" >"$kn/probe-all.log"
}

# cache_put: this directory's verdicts and kept objects into the cache.
cache_put() {
	local id tmp
	[ -n "$cache" ] && [ ! -e "$cache/complete" ] || return 0
	mkdir -p "$RBT_KN_CACHE"
	tmp=$(mktemp -d "$RBT_KN_CACHE/.new.XXXXXX")
	echo "$top" >"$tmp/top"
	for id in "${ids[@]}"; do
		[ -e "$kn/$id.res" ] || { rm -rf "$tmp"; return 0; }
		cp "$kn/$id.res" "$tmp/"
		[ ! -e "$kn/$id.skip" ] || cp "$kn/$id.skip" "$tmp/"
		[ ! -e "$kn/$id.alone" ] || cp "$kn/$id.alone" "$tmp/"
		if [ -e "$kn/$id.o" ] && [ -e "$kn/.$id.o.cmd" ]; then
			cp "$kn/$id.o" "$kn/.$id.o.cmd" "$tmp/"
		fi
	done
	touch "$tmp/complete"
	# Another build of the same key may have put it first: keep that one.
	mv -T "$tmp" "$cache" 2>/dev/null || rm -rf "$tmp"
}

if [ ${#probe[@]} -gt 0 ] && cache_take; then
	probe=()
fi
round=0 again=("${probe[@]}")
while [ ${#again[@]} -gt 0 ]; do
	compile "${again[@]}"
	round=$((round + 1))
	next=()
	for id in "${again[@]}"; do
		[ ! -e "$kn/$id.res" ] || continue
		if ! verdict "$id"; then
			if [ "$round" -ge 6 ]; then
				echo "perf rounds: still failing after $round compiles, see kn/probe-all.log" >"$kn/$id.res"
				continue
			fi
			write_unit "$id" "$(cat "$kn/$id.hdr")"
			next+=("$id")
		fi
	done
	again=("${next[@]}")
done

cache_put

# The lists.
kept=() nsys=0 nev=0 nperf=0
if [ -n "$src" ]; then
	srcnote="the source of $want in $src"
else
	srcnote="no source of ${want:-this kernel} (KSRC=, or linux-source extracted in /usr/src): each header alone"
fi
{
	echo "# $srcnote"
	for id in "${ids[@]}"; do
		read -r verdict rest <"$kn/$id.res"
		sys=$(sysname "$(cat "$kn/$id.hdr")")
		if [ "$verdict" = native ] && [ "$rest" -gt 0 ]; then
			kept+=("$id")
			nsys=$((nsys + 1))
			nev=$((nev + rest))
			echo "native $sys ($id.h): $rest events"
			# What was left out of it, each with its reason.
			if [ -s "$kn/$id.skip" ]; then
				sed 's/^\([^\t]*\)\t/  perf \1: /' "$kn/$id.skip"
			fi
		elif [ "$verdict" = native ] && [ -s "$kn/$id.skip" ]; then
			# Every event of it left out.
			nperf=$((nperf + 1))
			echo "perf $sys ($id.h): $(head -n 1 "$kn/$id.skip" | cut -f2)"
		elif [ "$verdict" = native ]; then
			echo "none $sys ($id.h): no event in this configuration"
		else
			nperf=$((nperf + 1))
			echo "perf $sys ($id.h): $rest"
		fi
	done
} >"$kn/native_events.txt.tmp"
mv "$kn/native_events.txt.tmp" "$kn/native_events.txt"

{
	echo '/* Generated by scripts/kn-select.sh: the headers compiled into probes. */'
	echo '#include <linux/kernel.h>'
	echo '#include "../tracer/kn.h"'
	echo
	for id in "${kept[@]}"; do
		echo "extern const struct rbtr_kn_system rbtr_kn_sys_$id;"
	done
	echo
	echo 'const struct rbtr_kn_system *const rbtr_kn_systems[] = {'
	for id in "${kept[@]}"; do
		echo "	&rbtr_kn_sys_$id,"
	done
	echo '};'
	echo
	echo 'const unsigned int rbtr_kn_nr_systems = ARRAY_SIZE(rbtr_kn_systems);'
} | write_if_changed "$kn/list.c"
{
	echo '# Generated by scripts/kn-select.sh: see kn/native_events.txt.'
	echo 'rbtrace-y += kn/list.o'
	for id in "${kept[@]}"; do
		echo "rbtrace-y += kn/$id.o"
	done
} | write_if_changed "$kn/selected.mk"
echo "native events: $nsys systems, $nev events; $nperf systems on perf; $srcnote (see $kn/native_events.txt)"
