// SPDX-License-Identifier: GPL-2.0
/*
 * The user memory of the syscalls events: ftrace 6.19's sys_enter_<name>
 * records that carry what their user-space arguments point to (openat's
 * path, write's bytes), on the kernels whose ftrace records only the
 * pointers (Debian's 6.1 and 6.12). Under ftrace 6.19's names: a field
 * __<arg>_val (__data_loc char[]) per such argument, after the
 * arguments, and syscall_user_buf_size in each tracer's directory.
 *
 * Which syscalls, and which of their arguments: the table below, 6.19's
 * list (check_faultable_syscall()). A path or a name is read as a string
 * (up to RBTR_KSYS_USER_READ bytes, its non-printable bytes shown as
 * '.'); write's, pwrite64's and mq_timedsend's buffer as bytes, as many
 * as the count argument says.
 *
 * The record, after ftrace's (struct trace_entry, int nr, the arguments
 * as unsigned long), holds one u32 per user argument, as every
 * __data_loc: the data's offset from the record's start in the low 16
 * bits, its length in the high 16; then the data of each, back to back.
 * A string is kept whole and NUL-terminated when it is no longer than the
 * tracer's syscall_user_buf_size (0 to 165, default 63), else cut there
 * and ended with "...\0"; bytes are cut there with no mark (the text
 * compares with the count). A read that faulted, or a size of 0, keeps
 * none (length 0).
 *
 * How it is read, unlike 6.19: the raw_syscalls tracepoints of 6.1 and
 * 6.12 call their probes with preemption off, where a page fault may not
 * sleep. rbtrace reads with page faults disabled (strncpy_from_user()
 * and copy_from_user_nofault() in pagefault_disable()): memory that is
 * not resident (a path in a page swapped out, or never touched since an
 * mmap()) reads as a fault, and the record keeps no bytes for it. 6.19
 * makes those tracepoints preemptible and faults the page in. A path the
 * task just built, and the bytes it is about to write, are resident in
 * practice.
 *
 * Where the memory is read into: one struct rbtr_ksys_udata per CPU,
 * allocated before the enter probe is registered and freed after it is
 * unregistered and the probes in flight are done (kevents_syscalls.c,
 * rbtr_ksys_attach() and _detach()), so the probe always finds it. The
 * probe uses it with preemption off from the read to its last record,
 * and no other probe of this CPU runs meanwhile: the enter tracepoint
 * fires in the task making the syscall, not in an interrupt, and an
 * interrupt makes no syscall.
 *
 * The text: ftrace's line of the running kernel ("sys_openat(dfd: ...,
 * filename: 7ffd8a1b2c40, ...)"), with 6.19's additions after each user
 * argument: a string as ` "/etc/passwd"`, bytes as ` (68:69:0a) "hi."`
 * (the quoted part only when a byte is printable; ", ..." and "..." when
 * the count was larger than what was kept). The format file's print fmt
 * is 6.19's but for bytes, which it prints with __print_hex() rather
 * than 6.19's __print_dynamic_array(), unknown to Debian 12's
 * libtraceevent (1.7), so that trace-cmd report prints the line.
 * 6.19 also prints openat's flags by name and numbers below 10 in
 * decimal; rbtrace keeps the running kernel's hex, as its other syscalls
 * events print.
 */
#include <linux/bits.h>
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <asm/unistd.h>
#include "event.h"
#include "kevents.h"
#include "kevents_syscalls.h"

/* A path or name at argument @a: a string. */
#define RBTR_KSYS_STR(m)	{ .mask = (m), .len_arg = -1 }
/* Bytes at argument @a, as many as argument @n says. */
#define RBTR_KSYS_BYTES(a, n)	{ .mask = BIT(a), .len_arg = (n) }
/* A string at argument @a of the length argument @n says. */
#define RBTR_KSYS_TEXT(a, n)	{ .mask = BIT(a), .len_arg = (n), .is_str = true }

/* 6.19's check_faultable_syscall(): the numbers the kernel built against has. */
static const struct rbtr_ksys_user rbtr_ksys_users[NR_syscalls] = {
	/* bytes, with their count */
	[__NR_write]			= RBTR_KSYS_BYTES(1, 2),
	[__NR_pwrite64]			= RBTR_KSYS_BYTES(1, 2),
#ifdef __NR_mq_timedsend
	[__NR_mq_timedsend]		= RBTR_KSYS_BYTES(1, 2),
#endif
	/* strings of a given length */
	[__NR_setdomainname]		= RBTR_KSYS_TEXT(0, 1),
	[__NR_sethostname]		= RBTR_KSYS_TEXT(0, 1),
#ifdef __NR_kexec_file_load
	[__NR_kexec_file_load]		= RBTR_KSYS_TEXT(4, 3),
#endif
	/* a string at argument 0 */
#ifdef __NR_access
	[__NR_access]			= RBTR_KSYS_STR(BIT(0)),
#endif
	[__NR_acct]			= RBTR_KSYS_STR(BIT(0)),
	[__NR_chdir]			= RBTR_KSYS_STR(BIT(0)),
#ifdef __NR_chown
	[__NR_chown]			= RBTR_KSYS_STR(BIT(0)),
#endif
#ifdef __NR_chmod
	[__NR_chmod]			= RBTR_KSYS_STR(BIT(0)),
#endif
	[__NR_chroot]			= RBTR_KSYS_STR(BIT(0)),
#ifdef __NR_creat
	[__NR_creat]			= RBTR_KSYS_STR(BIT(0)),
#endif
	[__NR_delete_module]		= RBTR_KSYS_STR(BIT(0)),
	[__NR_execve]			= RBTR_KSYS_STR(BIT(0)),
	[__NR_fsopen]			= RBTR_KSYS_STR(BIT(0)),
#ifdef __NR_lchown
	[__NR_lchown]			= RBTR_KSYS_STR(BIT(0)),
#endif
#ifdef __NR_open
	[__NR_open]			= RBTR_KSYS_STR(BIT(0)),
#endif
	[__NR_memfd_create]		= RBTR_KSYS_STR(BIT(0)),
#ifdef __NR_mkdir
	[__NR_mkdir]			= RBTR_KSYS_STR(BIT(0)),
#endif
#ifdef __NR_mknod
	[__NR_mknod]			= RBTR_KSYS_STR(BIT(0)),
#endif
	[__NR_mq_open]			= RBTR_KSYS_STR(BIT(0)),
	[__NR_mq_unlink]		= RBTR_KSYS_STR(BIT(0)),
#ifdef __NR_readlink
	[__NR_readlink]			= RBTR_KSYS_STR(BIT(0)),
#endif
#ifdef __NR_rmdir
	[__NR_rmdir]			= RBTR_KSYS_STR(BIT(0)),
#endif
	[__NR_shmdt]			= RBTR_KSYS_STR(BIT(0)),
#ifdef __NR_statfs
	[__NR_statfs]			= RBTR_KSYS_STR(BIT(0)),
#endif
	[__NR_swapon]			= RBTR_KSYS_STR(BIT(0)),
	[__NR_swapoff]			= RBTR_KSYS_STR(BIT(0)),
#ifdef __NR_truncate
	[__NR_truncate]			= RBTR_KSYS_STR(BIT(0)),
#endif
#ifdef __NR_unlink
	[__NR_unlink]			= RBTR_KSYS_STR(BIT(0)),
#endif
	[__NR_umount2]			= RBTR_KSYS_STR(BIT(0)),
#ifdef __NR_utime
	[__NR_utime]			= RBTR_KSYS_STR(BIT(0)),
#endif
#ifdef __NR_utimes
	[__NR_utimes]			= RBTR_KSYS_STR(BIT(0)),
#endif
	/* a string at argument 1 */
	[__NR_execveat]			= RBTR_KSYS_STR(BIT(1)),
	[__NR_faccessat]		= RBTR_KSYS_STR(BIT(1)),
	[__NR_faccessat2]		= RBTR_KSYS_STR(BIT(1)),
	[__NR_finit_module]		= RBTR_KSYS_STR(BIT(1)),
	[__NR_fchmodat]			= RBTR_KSYS_STR(BIT(1)),
#ifdef __NR_fchmodat2
	[__NR_fchmodat2]		= RBTR_KSYS_STR(BIT(1)),
#endif
	[__NR_fchownat]			= RBTR_KSYS_STR(BIT(1)),
	[__NR_fgetxattr]		= RBTR_KSYS_STR(BIT(1)),
	[__NR_flistxattr]		= RBTR_KSYS_STR(BIT(1)),
	[__NR_fsetxattr]		= RBTR_KSYS_STR(BIT(1)),
	[__NR_fspick]			= RBTR_KSYS_STR(BIT(1)),
	[__NR_fremovexattr]		= RBTR_KSYS_STR(BIT(1)),
#ifdef __NR_futimesat
	[__NR_futimesat]		= RBTR_KSYS_STR(BIT(1)),
#endif
	[__NR_inotify_add_watch]	= RBTR_KSYS_STR(BIT(1)),
	[__NR_mkdirat]			= RBTR_KSYS_STR(BIT(1)),
	[__NR_mknodat]			= RBTR_KSYS_STR(BIT(1)),
	[__NR_mount_setattr]		= RBTR_KSYS_STR(BIT(1)),
	[__NR_name_to_handle_at]	= RBTR_KSYS_STR(BIT(1)),
#ifdef __NR_newfstatat
	[__NR_newfstatat]		= RBTR_KSYS_STR(BIT(1)),
#endif
	[__NR_openat]			= RBTR_KSYS_STR(BIT(1)),
	[__NR_openat2]			= RBTR_KSYS_STR(BIT(1)),
	[__NR_open_tree]		= RBTR_KSYS_STR(BIT(1)),
#ifdef __NR_open_tree_attr
	[__NR_open_tree_attr]		= RBTR_KSYS_STR(BIT(1)),
#endif
	[__NR_readlinkat]		= RBTR_KSYS_STR(BIT(1)),
	[__NR_quotactl]			= RBTR_KSYS_STR(BIT(1)),
	[__NR_syslog]			= RBTR_KSYS_STR(BIT(1)),
	[__NR_statx]			= RBTR_KSYS_STR(BIT(1)),
	[__NR_unlinkat]			= RBTR_KSYS_STR(BIT(1)),
#ifdef __NR_utimensat
	[__NR_utimensat]		= RBTR_KSYS_STR(BIT(1)),
#endif
	/* a string at argument 2, 4 */
	[__NR_init_module]		= RBTR_KSYS_STR(BIT(2)),
	[__NR_fsconfig]			= RBTR_KSYS_STR(BIT(2)),
	[__NR_fanotify_mark]		= RBTR_KSYS_STR(BIT(4)),
	/* two strings, arguments 0 and 1 */
	[__NR_add_key]			= RBTR_KSYS_STR(BIT(0) | BIT(1)),
	[__NR_getxattr]			= RBTR_KSYS_STR(BIT(0) | BIT(1)),
	[__NR_lgetxattr]		= RBTR_KSYS_STR(BIT(0) | BIT(1)),
	[__NR_lremovexattr]		= RBTR_KSYS_STR(BIT(0) | BIT(1)),
#ifdef __NR_link
	[__NR_link]			= RBTR_KSYS_STR(BIT(0) | BIT(1)),
#endif
	[__NR_listxattr]		= RBTR_KSYS_STR(BIT(0) | BIT(1)),
	[__NR_llistxattr]		= RBTR_KSYS_STR(BIT(0) | BIT(1)),
	[__NR_lsetxattr]		= RBTR_KSYS_STR(BIT(0) | BIT(1)),
	[__NR_pivot_root]		= RBTR_KSYS_STR(BIT(0) | BIT(1)),
	[__NR_removexattr]		= RBTR_KSYS_STR(BIT(0) | BIT(1)),
#ifdef __NR_rename
	[__NR_rename]			= RBTR_KSYS_STR(BIT(0) | BIT(1)),
#endif
	[__NR_request_key]		= RBTR_KSYS_STR(BIT(0) | BIT(1)),
	[__NR_setxattr]			= RBTR_KSYS_STR(BIT(0) | BIT(1)),
#ifdef __NR_symlink
	[__NR_symlink]			= RBTR_KSYS_STR(BIT(0) | BIT(1)),
#endif
	/* two strings, arguments 0 and 2; 1 and 3 */
	[__NR_symlinkat]		= RBTR_KSYS_STR(BIT(0) | BIT(2)),
#ifdef __NR_getxattrat
	[__NR_getxattrat]		= RBTR_KSYS_STR(BIT(1) | BIT(3)),
	[__NR_listxattrat]		= RBTR_KSYS_STR(BIT(1) | BIT(3)),
	[__NR_removexattrat]		= RBTR_KSYS_STR(BIT(1) | BIT(3)),
	[__NR_setxattrat]		= RBTR_KSYS_STR(BIT(1) | BIT(3)),
#endif
	[__NR_linkat]			= RBTR_KSYS_STR(BIT(1) | BIT(3)),
	[__NR_move_mount]		= RBTR_KSYS_STR(BIT(1) | BIT(3)),
#ifdef __NR_renameat
	[__NR_renameat]			= RBTR_KSYS_STR(BIT(1) | BIT(3)),
#endif
	[__NR_renameat2]		= RBTR_KSYS_STR(BIT(1) | BIT(3)),
	/* three: mount's dev_name, dir_name and type */
	[__NR_mount]			= RBTR_KSYS_STR(BIT(0) | BIT(1) | BIT(2)),
};

/**
 * rbtr_ksys_user_of - the user arguments of syscall @nr
 * @nr: a syscall's number, in range
 *
 * Return: its entry of the table, or NULL if it has none.
 */
const struct rbtr_ksys_user *rbtr_ksys_user_of(int nr)
{
	return rbtr_ksys_users[nr].mask ? &rbtr_ksys_users[nr] : NULL;
}

/* ---- reading --------------------------------------------------------------- */

static struct rbtr_ksys_udata __percpu *rbtr_ksys_ubuf;

/**
 * rbtr_ksys_user_buf_get - the per-CPU buffers, before the enter probe is registered
 *
 * Under kevents.c's mutex. The registration that follows orders the
 * allocation before any run of the probe (tracepoint_probe_register()
 * publishes the probe with rcu_assign_pointer()).
 *
 * Return: 0 or -ENOMEM.
 */
int rbtr_ksys_user_buf_get(void)
{
	if (rbtr_ksys_ubuf)
		return 0;
	rbtr_ksys_ubuf = alloc_percpu(struct rbtr_ksys_udata);
	return rbtr_ksys_ubuf ? 0 : -ENOMEM;
}

/**
 * rbtr_ksys_user_buf_put - free them, the enter probe unregistered
 *
 * Under kevents.c's mutex, after tracepoint_synchronize_unregister():
 * no probe is still using them.
 */
void rbtr_ksys_user_buf_put(void)
{
	free_percpu(rbtr_ksys_ubuf);
	rbtr_ksys_ubuf = NULL;
}

/*
 * A string of at most @size bytes at @ptr, without sleeping: the number
 * of bytes before its NUL (@size if none was met), or -1 on a fault.
 */
static int notrace rbtr_ksys_read_str(char *dst, unsigned long ptr, unsigned int size)
{
	long n;

	pagefault_disable();
	n = strncpy_from_user(dst, (const char __user *)ptr, size);
	pagefault_enable();
	return n < 0 ? -1 : n;
}

static int notrace rbtr_ksys_read_bytes(char *dst, unsigned long ptr, unsigned int size)
{
	return copy_from_user_nofault(dst, (const void __user *)ptr, size) ? -1 : size;
}

/**
 * rbtr_ksys_user_read - read the user memory of one syscall's arguments
 * @u: the syscall's entry of the table
 * @args: its arguments
 *
 * Called by the enter probe with preemption off, once per hit, before
 * its records are written (see the top of the file for why this CPU's
 * buffer is its own until then).
 *
 * Return: this CPU's buffer, filled.
 */
notrace struct rbtr_ksys_udata *rbtr_ksys_user_read(const struct rbtr_ksys_user *u,
						    const unsigned long *args)
{
	struct rbtr_ksys_udata *ud = this_cpu_ptr(rbtr_ksys_ubuf);
	unsigned long mask = u->mask;
	unsigned int size = RBTR_KSYS_USER_READ;
	int i, x, arg;

	if (u->len_arg >= 0)
		size = min_t(unsigned long, args[u->len_arg], RBTR_KSYS_USER_READ);
	for (ud->n = 0; mask && ud->n < RBTR_KSYS_USER_ARGS; ud->n++) {
		arg = __ffs(mask);
		mask &= mask - 1;
		i = ud->n;
		if (u->len_arg >= 0) {
			ud->len[i] = rbtr_ksys_read_bytes(ud->buf[i], args[arg], size);
			continue;
		}
		ud->len[i] = rbtr_ksys_read_str(ud->buf[i], args[arg], size);
		for (x = 0; x < ud->len[i]; x++)
			if (!isprint(ud->buf[i][x]))
				ud->buf[i][x] = '.';
	}
	return ud;
}

/* ---- the record ------------------------------------------------------------ */

/* Bytes of argument @i kept for a tracer keeping @max, "...\0" or "\0" included. */
static unsigned int notrace rbtr_ksys_user_len(const struct rbtr_ksys_user *u,
					       const struct rbtr_ksys_udata *ud,
					       unsigned int i, unsigned int max)
{
	int n = ud->len[i];

	if (n < 0 || !max)
		return 0;
	if (u->len_arg >= 0)
		return min_t(unsigned int, n, max);
	return (unsigned int)n > max ? max + sizeof("...") : n + 1;
}

/**
 * rbtr_ksys_user_size - the bytes a record of one tracer adds for the user memory
 * @u: the syscall's entry of the table
 * @ud: what rbtr_ksys_user_read() read
 * @max: the tracer's syscall_user_buf_size, read once for this record
 *
 * Return: the bytes after the arguments: a u32 and the data per argument.
 */
unsigned int notrace rbtr_ksys_user_size(const struct rbtr_ksys_user *u,
					 const struct rbtr_ksys_udata *ud, unsigned int max)
{
	unsigned int i, size = 0;

	for (i = 0; i < ud->n; i++)
		size += sizeof(u32) + rbtr_ksys_user_len(u, ud, i, max);
	return size;
}

/**
 * rbtr_ksys_user_put - write the user memory into a record
 * @rec: the record, reserved with rbtr_ksys_user_size()'s bytes more
 * @at: where its arguments end
 * @u: the syscall's entry of the table
 * @ud: what rbtr_ksys_user_read() read
 * @max: what rbtr_ksys_user_size() was given
 */
void notrace rbtr_ksys_user_put(void *rec, unsigned int at, const struct rbtr_ksys_user *u,
				const struct rbtr_ksys_udata *ud, unsigned int max)
{
	unsigned int i, len, data = at + ud->n * sizeof(u32);
	u32 loc;

	for (i = 0; i < ud->n; i++, data += len) {
		len = rbtr_ksys_user_len(u, ud, i, max);
		loc = data | len << 16;
		memcpy(rec + at + i * sizeof(u32), &loc, sizeof(loc));
		if (!len)
			continue;
		if (u->len_arg >= 0) {
			memcpy(rec + data, ud->buf[i], len);
		} else if ((unsigned int)ud->len[i] > max) {
			/* Cut: what is kept, then "...\0". */
			memcpy(rec + data, ud->buf[i], max);
			memcpy(rec + data + max, "...", sizeof("..."));
		} else {
			memcpy(rec + data, ud->buf[i], len - 1);
			((char *)rec)[data + len - 1] = '\0';
		}
	}
}

/*
 * ---- the event: its format and its text ------------------------------------
 *
 * seq_buf_printf() only: 6.1 exports neither seq_buf_puts() nor seq_buf_putc().
 */

/* The field of argument @i, after the common ones and __syscall_nr. */
static const char *rbtr_ksys_arg_name(const struct rbtr_event_type *type, unsigned int i)
{
	return type->fields[1 + i].name;
}

static bool rbtr_ksys_user_bytes(const struct rbtr_ksys_user *u)
{
	return u->len_arg >= 0 && !u->is_str;
}

static const char rbtr_ksys_hex_fmt[] =
	", __print_hex(__get_dynamic_array(__%s_val), __get_dynamic_array_len(__%s_val))";

/*
 * 6.19's print fmt (__set_enter_print_fmt()), its bytes by __print_hex():
 * see the top of the file.
 */
static void rbtr_ksys_print_fmt(struct seq_buf *s, const struct rbtr_event_type *type,
				unsigned int nargs, const struct rbtr_ksys_user *u)
{
	const char *name;
	unsigned int i;

	seq_buf_printf(s, "print fmt: \"");
	for (i = 0; i < nargs; i++) {
		seq_buf_printf(s, "%s%s: 0x%%0%zulx", i ? ", " : "", rbtr_ksys_arg_name(type, i),
			       sizeof(unsigned long));
		if (u->mask & BIT(i))
			seq_buf_printf(s, "%s", rbtr_ksys_user_bytes(u) ? " (%s)" : " \\\"%s\\\"");
	}
	seq_buf_printf(s, "\"");
	for (i = 0; i < nargs; i++) {
		name = rbtr_ksys_arg_name(type, i);
		seq_buf_printf(s, ", ((unsigned long)(REC->%s))", name);
		if (!(u->mask & BIT(i)))
			continue;
		if (rbtr_ksys_user_bytes(u))
			seq_buf_printf(s, rbtr_ksys_hex_fmt, name, name);
		else
			seq_buf_printf(s, ", __get_str(__%s_val)", name);
	}
	seq_buf_printf(s, "\n");
}

/* The kernel's format text with the __<arg>_val fields and 6.19's print fmt. */
static char *rbtr_ksys_user_format(const struct rbtr_kevent *kev, unsigned int nargs,
				   const struct rbtr_ksys_user *u)
{
	const char *end = strstr(kev->text, "\n\nprint fmt: ");
	unsigned int i, at = RBTR_KSYS_ARG_AT(nargs);
	size_t cap = strlen(kev->text) + 1024;
	struct seq_buf s;
	char *text;

	if (!end)
		return NULL;
	text = kmalloc(cap, GFP_KERNEL);
	if (!text)
		return NULL;
	seq_buf_init(&s, text, cap);
	seq_buf_printf(&s, "%.*s\n", (int)(end - kev->text), kev->text);
	for (i = 0; i < nargs; i++) {
		if (!(u->mask & BIT(i)))
			continue;
		seq_buf_printf(&s, "\tfield:__data_loc char[] __%s_val;\toffset:%u;"
			       "\tsize:4;\tsigned:0;\n", rbtr_ksys_arg_name(&kev->type, i), at);
		at += sizeof(u32);
	}
	seq_buf_printf(&s, "\n");
	rbtr_ksys_print_fmt(&s, &kev->type, nargs, u);
	if (seq_buf_has_overflowed(&s) || !seq_buf_str(&s)) {
		kfree(text);
		return NULL;
	}
	return text;
}

/* The bytes of a write, as 6.19's print_syscall_enter() shows them. */
static void rbtr_ksys_print_bytes(struct seq_buf *s, const u8 *p, unsigned int len,
				  unsigned long count)
{
	bool printable = false;
	unsigned int x;

	seq_buf_printf(s, " (");
	for (x = 0; x < len; x++) {
		printable |= isascii(p[x]) && isprint(p[x]);
		seq_buf_printf(s, "%s%02x", x ? ":" : "", p[x]);
	}
	if (len < count)
		seq_buf_printf(s, ", ...");
	seq_buf_printf(s, ")");
	if (!printable)
		return;
	seq_buf_printf(s, " \"");
	for (x = 0; x < len; x++)
		seq_buf_printf(s, "%c", isascii(p[x]) && isprint(p[x]) ? p[x] : '.');
	seq_buf_printf(s, "%s", len < count ? "\"..." : "\"");
}

/*
 * The running kernel's text of a syscall's entry (print_syscall_enter():
 * "sys_<name>(arg: hex, ...)"), each user argument followed by its data
 * as 6.19 prints it. A record whose data do not fit its length (not this
 * probe's) is printed by its fields.
 */
static void rbtr_ksys_print(struct seq_buf *s, const struct rbtr_event_type *type,
			    const void *rec, unsigned int len)
{
	unsigned int i, nargs, at, uarg = 0, off, n;
	const struct rbtr_ksys_user *u;
	unsigned long v;
	u32 loc;
	int nr;

	memcpy(&nr, rec + sizeof(struct rbtr_entry), sizeof(nr));
	u = nr >= 0 && nr < NR_syscalls ? rbtr_ksys_user_of(nr) : NULL;
	nargs = type->nr_fields - 1 - hweight8(u ? u->mask : 0);
	at = RBTR_KSYS_ARG_AT(nargs);
	if (!u || len < at + hweight8(u->mask) * sizeof(u32))
		goto fields;
	for (i = 0; i < hweight8(u->mask); i++) {
		memcpy(&loc, rec + at + i * sizeof(u32), sizeof(loc));
		if ((loc & 0xffff) + (loc >> 16) > len)
			goto fields;
	}
	seq_buf_printf(s, "sys_%s(", type->name + strlen("sys_enter_"));
	for (i = 0; i < nargs; i++) {
		memcpy(&v, rec + RBTR_KSYS_ARG_AT(i), sizeof(v));
		seq_buf_printf(s, "%s%s: %lx", i ? ", " : "", rbtr_ksys_arg_name(type, i), v);
		if (!(u->mask & BIT(i)))
			continue;
		memcpy(&loc, rec + at + uarg++ * sizeof(u32), sizeof(loc));
		off = loc & 0xffff;
		n = loc >> 16;
		if (rbtr_ksys_user_bytes(u)) {
			memcpy(&v, rec + RBTR_KSYS_ARG_AT(u->len_arg), sizeof(v));
			rbtr_ksys_print_bytes(s, rec + off, n, v);
		} else {
			seq_buf_printf(s, " \"%.*s\"", (int)strnlen(rec + off, n),
				       (const char *)rec + off);
		}
	}
	seq_buf_printf(s, ")\n");
	return;
fields:
	type->print_fields(s, type, rec, len);
}

/**
 * rbtr_ksys_user_event - make a syscall's enter event the one of 6.19
 * @kev: the event, parsed, its layout the running kernel's (checked)
 * @nargs: the syscall's arguments
 * @u: its entry of the table
 *
 * Adds the __<arg>_val fields and 6.19's print fmt to its format, and
 * gives it the text above. Before it is registered.
 *
 * Return: 0, or a negative errno (the event is as it was).
 */
int rbtr_ksys_user_event(struct rbtr_kevent *kev, unsigned int nargs,
			 const struct rbtr_ksys_user *u)
{
	char *text = rbtr_ksys_user_format(kev, nargs, u);
	int ret;

	if (!text)
		return -ENOMEM;
	ret = rbtr_kev_reformat(kev, text);
	kfree(text);
	if (ret)
		return ret;
	kev->type.print = rbtr_ksys_print;
	return 0;
}
