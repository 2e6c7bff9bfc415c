/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The syscalls events' native route (kevents_syscalls.c) and the user
 * memory its enter records carry (kevents_sysuser.c): ftrace 6.19's
 * syscall events that read their user-space arguments, on the kernels
 * whose ftrace does not.
 */
#ifndef _RBTR_KEVENTS_SYSCALLS_H
#define _RBTR_KEVENTS_SYSCALLS_H

#include <linux/types.h>

struct rbtr_kevent;

/*
 * ftrace's limits (kernel/trace/trace.h, trace_syscalls.c of 6.19): at
 * most 165 bytes of one argument kept (syscall_user_buf_size, default
 * 63), read one more than that at least to tell a string cut ("..."
 * appended), at most three arguments per syscall.
 */
#define RBTR_KSYS_USER_MAX	165
#define RBTR_KSYS_USER_DEFAULT	63
#define RBTR_KSYS_USER_READ	(RBTR_KSYS_USER_MAX + 4)
#define RBTR_KSYS_USER_ARGS	3

/*
 * Where argument @i of an enter record is (ftrace's struct
 * syscall_trace_enter: the entry, int nr padded to a long, the
 * arguments); the user memory's u32s follow the last one.
 */
#define RBTR_KSYS_ARG_AT(i)	(sizeof(struct rbtr_entry) + sizeof(long) * (1 + (i)))

/**
 * struct rbtr_ksys_user - which arguments of a syscall point to user memory
 * @mask: those arguments (bit i: argument i); 0: none, the record is
 *        the running kernel's
 * @len_arg: the argument that gives the memory's length (write's count):
 *           it is read as bytes; -1: a NUL-terminated string (a path)
 * @is_str: bytes of a given length, shown as a string (sethostname's name)
 *
 * An argument with @len_arg is the syscall's only user argument.
 */
struct rbtr_ksys_user {
	u8	mask;
	s8	len_arg;
	bool	is_str;
};

/**
 * struct rbtr_ksys_udata - one syscall's user memory, read once per hit
 * @n: arguments read (the bits of the mask, in order)
 * @len: per argument, the bytes read, or -1 (faulted)
 * @buf: per argument, the bytes, a string's non-printable ones as '.'
 *
 * Per CPU, filled by the probe with preemption off, then written into
 * each enabled file's record, cut to that tracer's syscall_user_buf_size.
 */
struct rbtr_ksys_udata {
	unsigned int	n;
	int		len[RBTR_KSYS_USER_ARGS];
	char		buf[RBTR_KSYS_USER_ARGS][RBTR_KSYS_USER_READ + 1];
};

const struct rbtr_ksys_user *rbtr_ksys_user_of(int nr);
int rbtr_ksys_user_buf_get(void);
void rbtr_ksys_user_buf_put(void);
struct rbtr_ksys_udata *rbtr_ksys_user_read(const struct rbtr_ksys_user *u,
					    const unsigned long *args);
unsigned int rbtr_ksys_user_size(const struct rbtr_ksys_user *u,
				 const struct rbtr_ksys_udata *ud, unsigned int max);
void rbtr_ksys_user_put(void *rec, unsigned int at, const struct rbtr_ksys_user *u,
			const struct rbtr_ksys_udata *ud, unsigned int max);
int rbtr_ksys_user_event(struct rbtr_kevent *kev, unsigned int nargs,
			 const struct rbtr_ksys_user *u);

#endif /* _RBTR_KEVENTS_SYSCALLS_H */
