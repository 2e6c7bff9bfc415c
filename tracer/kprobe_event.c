// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace dynamic probes: a probe in use. Its handlers, which build a
 * record per hit in the probed code's context and commit it into each
 * tracer that has the event on; and its event type: the records' fields
 * and text, and the enabling and disabling in a tracer that arm and
 * disarm the kprobe. Apart from the definition and the lifetime of the
 * probes (kprobe.c, with the design and the steps of a removal, R1 to
 * R4), none of which runs in a handler's context.
 */
#include <linux/kernel.h>
#include <linux/kallsyms.h>
#include <linux/kprobes.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/seq_buf.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include <rbtrace/rbtrace.h>
#include "event.h"
#include "kprobe.h"
#include "kprobe_internal.h"
#include "stack.h"
#include "trace.h"

/* The kernel's struct kprobe_trace_entry_head and kretprobe_trace_entry_head */
struct rbtr_kp_entry {
	struct rbtr_entry	ent;
	unsigned long		ip;
};

struct rbtr_kretp_entry {
	struct rbtr_entry	ent;
	unsigned long		func;
	unsigned long		ret_ip;
};

static const struct rbtr_field rbtr_kp_ip_fields[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_kp_entry)->ip, "unsigned long", "__probe_ip",
		   RBTR_FIELD_HEX),
};

static const struct rbtr_field rbtr_kretp_ip_fields[] = {
	RBTR_FIELD(RBTR_REC(struct rbtr_kretp_entry)->func, "unsigned long", "__probe_func",
		   RBTR_FIELD_HEX),
	RBTR_FIELD(RBTR_REC(struct rbtr_kretp_entry)->ret_ip, "unsigned long",
		   "__probe_ret_ip", RBTR_FIELD_HEX),
};

/* ---- recording ----------------------------------------------------------- */

/* The probed code's context, as ftrace's tracing_gen_ctx_dec(). */
static unsigned int rbtr_kp_ctx(void)
{
	unsigned int ctx = rbtr_trace_ctx();

	if (IS_ENABLED(CONFIG_PREEMPTION) && (ctx & 0xf))
		ctx--;
	return ctx;
}

/* One record of @size bytes built in @scratch, into @file's tracer. */
static __always_inline void rbtr_kp_put(struct rbtr_event_file *file,
					const struct rbtr_kprobe *tk, const void *scratch,
					unsigned int size, unsigned int ctx, struct pt_regs *regs)
{
	struct rbt_buffer *buffer = rbtr_live_buffer(file->tr);
	unsigned int hdr = sizeof(struct rbtr_entry);
	unsigned long caller = 0, post = 0;
	void *rec;

	rec = rbtr_event_reserve(buffer, file, size, ctx);
	if (!rec)
		return;
	memcpy(rec + hdr, scratch + hdr, size - hdr);
	/* The buffer rounds a record up to four bytes: no stale bytes there. */
	memset(rec + size, 0, ALIGN(size, 4) - size);
	/* Not rbtr_event_commit(): the stack starts at the probed code. */
	if (rbtr_event_finish(buffer, file, rec, size, &post) &&
	    static_branch_unlikely(&rbtr_stacktrace_key)) {
		if (!tk->is_return && tk->at_entry &&
		    copy_from_kernel_nofault(&caller, (void *)kernel_stack_pointer(regs),
					     sizeof(caller)))
			caller = 0;
		rbtr_stack_write_regs(buffer, ctx, regs, caller);
	}
	if (unlikely(post))
		rbtr_event_cond_post(buffer, file, post);
}

/*
 * Build the record in this CPU's scratch area (preemption is disabled
 * in kprobe handlers), then copy it into a reservation of its size in
 * each tracer that has the event on. The set is read under sched-RCU:
 * its files live until a grace period after they left it.
 */
static void rbtr_kp_record(struct rbtr_kprobe *tk, struct pt_regs *regs,
			   unsigned long ret_ip)
{
	const struct rbtr_file_set *set = rcu_dereference_sched(tk->files);
	void *scratch = this_cpu_ptr(rbtr_kp_scratch);
	unsigned int size, ctx, i;

	/* NULL: a hit racing with the last file's disable. */
	if (unlikely(!set))
		return;
	ctx = rbtr_kp_ctx();
	if (tk->is_return) {
		struct rbtr_kretp_entry *e = scratch;

		e->func = (unsigned long)tk->rp.kp.addr;
		e->ret_ip = ret_ip;
	} else {
		((struct rbtr_kp_entry *)scratch)->ip = (unsigned long)tk->rp.kp.addr;
	}
	size = rbtr_kp_fetch_args(tk->args, tk->nr_args, regs, scratch, tk->fixed,
				  RBTR_KP_SCRATCH);
	/* One tracer, the common case: no loop. */
	if (likely(set->nr == 1)) {
		rbtr_kp_put(set->file[0], tk, scratch, size, ctx, regs);
		return;
	}
	for (i = 0; i < set->nr; i++)
		rbtr_kp_put(set->file[i], tk, scratch, size, ctx, regs);
}

int rbtr_kp_handler(struct kprobe *p, struct pt_regs *regs)
{
	rbtr_kp_record(container_of(p, struct rbtr_kprobe, rp.kp), regs, 0);
	return 0;
}

NOKPROBE_SYMBOL(rbtr_kp_handler);

int rbtr_kretp_handler(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct kretprobe *rp = get_kretprobe(ri);

	if (rp)
		rbtr_kp_record(container_of(rp, struct rbtr_kprobe, rp), regs,
			       get_kretprobe_retaddr(ri));
	return 0;
}

NOKPROBE_SYMBOL(rbtr_kretp_handler);

/* ---- the event type -------------------------------------------------------- */

/*
 * A kretprobe's return address, as ftrace's kretprobed(): another
 * kretprobe's trampoline (two on one function: the inner one finds the
 * outer one's there) is "[unknown/kretprobe'd]".
 */
static const char *rbtr_kp_ret_sym(char *sym, unsigned long ip)
{
	sprint_symbol(sym, ip);
	if (str_has_prefix(sym, "arch_rethook_trampoline+") ||
	    str_has_prefix(sym, "__kretprobe_trampoline+"))
		return "[unknown/kretprobe'd]";
	return sym;
}

/* "NAME: (sym+off/size) a=1", or "NAME: (ret+off/size <- func) a=1" */
static void rbtr_kp_print(struct seq_buf *s, const struct rbtr_event_type *type,
			  const void *rec, unsigned int len)
{
	const struct rbtr_kprobe *tk = container_of(type, struct rbtr_kprobe, type);
	const struct rbtr_kretp_entry *re = rec;
	const struct rbtr_kp_entry *e = rec;
	char sym[KSYM_SYMBOL_LEN];

	if (len < tk->fixed) {
		seq_buf_printf(s, "%s: (short record)\n", tk->name);
		return;
	}
	if (tk->is_return)
		seq_buf_printf(s, "%s: (%s <- %ps)", tk->name, rbtr_kp_ret_sym(sym, re->ret_ip),
			       (void *)re->func);
	else
		seq_buf_printf(s, "%s: (%pS)", tk->name, (void *)e->ip);
	rbtr_kp_print_args(s, tk->args, tk->nr_args, rec, len);
	seq_buf_printf(s, "\n");
}

/*
 * @tr may get records of @tk from now on: note it, for R3 (see the top
 * of kprobe.c). Under the registry mutex, as every enabling.
 */
static void rbtr_kp_note_tracer(struct rbtr_kprobe *tk, struct rbtr_trace *tr)
{
	struct rbtr_trace **was_in;
	unsigned int i;

	for (i = 0; i < tk->nr_was_in; i++)
		if (tk->was_in[i] == tr)
			return;
	was_in = krealloc_array(tk->was_in, tk->nr_was_in + 1, sizeof(*was_in), GFP_KERNEL);
	if (!was_in) {
		tk->was_anywhere = true;
		return;
	}
	was_in[tk->nr_was_in++] = tr;
	tk->was_in = was_in;
}

/*
 * Enabling in one tracer, under the registry mutex, as is rbtr_kp_busy()'s
 * look after it sets @dying. The file joins the set; the first one arms
 * the kprobe, after the set with it is published (enable_kprobe() orders
 * that for the handler: text_mutex, the arming).
 */
static int rbtr_kp_reg(struct rbtr_event_file *file)
{
	struct rbtr_kprobe *tk = container_of(file->type, struct rbtr_kprobe, type);
	int ret;

	if (tk->dying)
		return -EBUSY;
	rbtr_kp_note_tracer(tk, file->tr);
	ret = rbtr_file_set_add(&tk->files, file);
	if (ret != 1)
		return min(ret, 0);
	ret = enable_kprobe(&tk->rp.kp);
	if (ret)
		rbtr_file_set_del(&tk->files, file);
	return ret;
}

/*
 * Disabling in one tracer, under the registry mutex: the last file
 * disarms the kprobe. A handler in flight that read the old set may
 * still write into the file: it is freed only after a grace period.
 */
static void rbtr_kp_unreg(struct rbtr_event_file *file)
{
	struct rbtr_kprobe *tk = container_of(file->type, struct rbtr_kprobe, type);

	if (!rbtr_file_set_del(&tk->files, file))
		disable_kprobe(&tk->rp.kp);
}

/* The fields and print fmt of a parsed probe; its arguments' offsets. */
int rbtr_kp_make_fields(struct rbtr_kprobe *tk)
{
	const struct rbtr_field *ipf = tk->is_return ? rbtr_kretp_ip_fields : rbtr_kp_ip_fields;
	unsigned int nr_ip = tk->is_return ? ARRAY_SIZE(rbtr_kretp_ip_fields) :
			     ARRAY_SIZE(rbtr_kp_ip_fields);
	unsigned int i, off;

	off = tk->is_return ? sizeof(struct rbtr_kretp_entry) : sizeof(struct rbtr_kp_entry);
	tk->fields = kcalloc(nr_ip + tk->nr_args, sizeof(*tk->fields), GFP_KERNEL);
	if (!tk->fields)
		return -ENOMEM;
	memcpy(tk->fields, ipf, nr_ip * sizeof(*ipf));
	/* Packed, no alignment: ftrace's traceprobe_parse_probe_arg(). */
	for (i = 0; i < tk->nr_args; i++) {
		tk->args[i].offset = off;
		off += tk->args[i].type->size;
		rbtr_kp_arg_field(&tk->args[i], &tk->fields[nr_ip + i]);
	}
	tk->fixed = off;
	if (off > RBTR_KP_SCRATCH / 2)
		return -E2BIG;
	tk->print_fmt = rbtr_kp_print_fmt(tk->args, tk->nr_args, tk->is_return);
	if (!tk->print_fmt)
		return -ENOMEM;
	tk->type.system = tk->group;
	tk->type.name = tk->name;
	tk->type.fields = tk->fields;
	tk->type.nr_fields = nr_ip + tk->nr_args;
	tk->type.print_fmt = tk->print_fmt;
	tk->type.print = rbtr_kp_print;
	tk->type.reg = rbtr_kp_reg;
	tk->type.unreg = rbtr_kp_unreg;
	return 0;
}
