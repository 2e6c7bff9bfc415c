// SPDX-License-Identifier: GPL-2.0
/*
 * The words of rbtrace's filter files matched against the kernel's list
 * of traceable functions (function_filter.c keeps the selections and
 * programs ftrace with them).
 *
 * available_filter_functions (and available_filter_functions_addrs where
 * the kernel has it, 6.5 on) is read line by line through rbtrace's mount
 * of the kernel's tracefs (rbtr_kfs(), kevents_fmt.c), with ftrace's rules
 * (filter_parse_regex(), ftrace_match()): "name", "foo*", "*foo", "*foo*",
 * a glob with '?', '[' or a '*' inside, an index N (the Nth line; not in
 * set_graph_function or set_graph_notrace, as ftrace's), "!" before any of
 * them. rbtr_fn_match_ips() gives the matches' addresses (the function
 * commands'): from the list where it has them, else from a kprobe
 * registered disabled at each name (it patches nothing), the write's
 * probes removed together, in one grace period.
 */
#include <linux/ctype.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/glob.h>
#include <linux/kernel.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/sched/signal.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uio.h>
#include "function.h"
#include "function_internal.h"
#include "kevents.h"

/* ftrace's name of a record kallsyms does not know (print_rec()) */
#define RBTR_INVALID_FN	"__ftrace_invalid_address__"
/* The kernel's list is read in pieces of this size. */
#define RBTR_FSEL_CHUNK	(64 << 10)

/* ---- ftrace's matching rules -------------------------------------------- */

/* filter_parse_regex(): @w is cut at a trailing '*'. */
static void rbtr_glob_parse(char *w, struct rbtr_glob *g)
{
	size_t i, len;

	g->not = *w == '!';
	if (g->not)
		w++;
	len = strlen(w);
	g->search = w;
	g->type = RBTR_MATCH_FULL;
	if (isdigit(*w)) {
		g->type = RBTR_MATCH_INDEX;
		/* ftrace's add_rec_by_index(): from 1; not a number matches nothing */
		if (kstrtoul(w, 0, &g->index) || !g->index--)
			g->index = ULONG_MAX;
		return;
	}
	for (i = 0; i < len; i++) {
		if (w[i] == '*') {
			if (!i) {
				g->type = RBTR_MATCH_END;
				continue;
			}
			if (i == len - 1) {
				g->type = g->type == RBTR_MATCH_END ? RBTR_MATCH_MIDDLE :
					  RBTR_MATCH_FRONT;
				w[i] = '\0';
			} else {
				g->type = RBTR_MATCH_GLOB;
			}
			break;
		} else if (strchr("[?\\", w[i])) {
			g->type = RBTR_MATCH_GLOB;
			break;
		}
	}
	if (g->type != RBTR_MATCH_GLOB && *w == '*')
		g->search = w + 1;
	g->len = strlen(g->search);
}

/* ftrace_match(): @name is a function's name, without its module. */
static bool rbtr_glob_match(const struct rbtr_glob *g, const char *name)
{
	size_t n;

	switch (g->type) {
	case RBTR_MATCH_FULL:
		return !strcmp(name, g->search);
	case RBTR_MATCH_FRONT:
		return !strncmp(name, g->search, g->len);
	case RBTR_MATCH_MIDDLE:
		return strstr(name, g->search);
	case RBTR_MATCH_END:
		n = strlen(name);
		return n >= g->len && !memcmp(name + n - g->len, g->search, g->len);
	case RBTR_MATCH_GLOB:
		return glob_match(g->search, name);
	default:
		return false;
	}
}

/* ---- the kernel's list, line by line ----------------------------------- */

struct rbtr_resolve;
static int rbtr_resolve_line(char *line, unsigned int idx, void *arg);

/* Fill @buf from @len up to @cap from @kiocb's file. Return: bytes or -errno. */
static ssize_t rbtr_kfs_fill(struct kiocb *kiocb, char *buf, size_t len, size_t cap)
{
	struct kvec kv = { .iov_base = buf + len, .iov_len = cap - len };
	struct iov_iter it;

	iov_iter_kvec(&it, ITER_DEST, &kv, 1, cap - len);
	return seq_read_iter(kiocb, &it);
}

/*
 * Call rbtr_resolve_line() on each line of the file @path of the kernel's
 * tracefs, without its newline, and its number from 0: it returns 0 to go
 * on, 1 to stop, or -errno. The lists of tracefs are seq_files, read with
 * seq_read_iter(), exported, into a kernel buffer (kernel_read() wants a
 * read_iter handler, which they lack).
 */
static int rbtr_kfs_lines(const char *path, struct rbtr_resolve *arg)
{
	struct vfsmount *mnt = rbtr_kfs();
	size_t len = 0, start;
	unsigned int idx = 0;
	struct kiocb kiocb;
	struct file *f;
	char *buf, *nl;
	ssize_t n;
	int ret = 0;

	if (IS_ERR(mnt))
		return PTR_ERR(mnt);
	f = file_open_root_mnt(mnt, path, O_RDONLY, 0);
	if (IS_ERR(f))
		return PTR_ERR(f);
	buf = f->f_op->read == seq_read ? kvmalloc(RBTR_FSEL_CHUNK + 1, GFP_KERNEL) : NULL;
	if (!buf) {
		fput(f);
		return f->f_op->read == seq_read ? -ENOMEM : -EINVAL;
	}
	init_sync_kiocb(&kiocb, f);
	kiocb.ki_pos = 0;
	do {
		n = rbtr_kfs_fill(&kiocb, buf, len, RBTR_FSEL_CHUNK);
		if (n < 0) {
			ret = n;
			break;
		}
		len += n;
		if (!n && len)	/* a last line without '\n' */
			buf[len++] = '\n';
		for (start = 0; !ret && (nl = memchr(buf + start, '\n', len - start)); idx++) {
			*nl = '\0';
			ret = rbtr_resolve_line(buf + start, idx, arg);
			start = nl + 1 - buf;
		}
		memmove(buf, buf + start, len - start);
		len -= start;
		/* A line longer than a piece: not one of the kernel's. */
		if (!ret && len == RBTR_FSEL_CHUNK)
			ret = -EFBIG;
		/* A pass takes over a second under TCG: a kill need not wait. */
		if (!ret && fatal_signal_pending(current))
			ret = -EINTR;
		cond_resched();
	} while (n && !ret);
	kvfree(buf);
	fput(f);
	return ret < 0 ? ret : 0;
}

/* ---- lists of functions ------------------------------------------------- */

/**
 * rbtr_fsel_free - free a list of functions and empty it
 * @s: the list
 */
void rbtr_fsel_free(struct rbtr_fsel *s)
{
	unsigned int i;

	for (i = 0; i < s->nr; i++)
		kfree(s->ent[i].name);
	kvfree(s->ent);
	memset(s, 0, sizeof(*s));
}

/* Room for one more entry. */
static int rbtr_fsel_grow(struct rbtr_fsel *s)
{
	struct rbtr_fsel_ent *e;
	unsigned int cap;

	if (s->nr < s->cap)
		return 0;
	cap = max(16U, s->cap * 2);
	e = kvmalloc_array(cap, sizeof(*e), GFP_KERNEL);
	if (!e)
		return -ENOMEM;
	if (s->nr)
		memcpy(e, s->ent, s->nr * sizeof(*e));
	kvfree(s->ent);
	s->ent = e;
	s->cap = cap;
	return 0;
}

/* A line: "[addr ]name[ [mod]]". */
/*
 * "FUNC:mod:MODULE": does the line's " [module]" (@tail, NULL for the
 * kernel's own functions) match, as ftrace_match_record()'s? A blank
 * MODULE matches the kernel's own functions ("!" before it: every
 * module's); "!MODULE" every function not in a module MODULE matches.
 */
static bool rbtr_mod_match(const struct rbtr_resolve *r, const char *tail)
{
	char mod[MODULE_NAME_LEN];
	size_t n;

	if (tail && tail[0] == '[') {
		n = strcspn(tail + 1, "]");
		if (n >= sizeof(mod))
			return false;
		memcpy(mod, tail + 1, n);
		mod[n] = '\0';
		tail = mod;
	} else {
		tail = NULL;
	}
	if (!r->mod.len)
		return !r->mod.not != !tail;
	return (tail && rbtr_glob_match(&r->mod, tail)) != r->mod.not;
}

static int rbtr_resolve_line(char *line, unsigned int idx, void *arg)
{
	struct rbtr_resolve *r = arg;
	unsigned long ip = 0;
	char *name = line, *end;
	struct rbtr_fsel_ent *e;
	bool match;
	int ret;

	if (r->g.type == RBTR_MATCH_INDEX && idx != r->g.index)
		return 0;
	if (r->addrs) {
		name = strchr(line, ' ');
		if (!name)
			return 0;
		*name++ = '\0';
		if (kstrtoul(line, 16, &ip))
			return 0;
	}
	if (!strncmp(name, RBTR_INVALID_FN, strlen(RBTR_INVALID_FN)))
		return 0;
	if (r->g.type == RBTR_MATCH_INDEX) {
		match = true;
	} else {
		end = strchr(name, ' ');
		if (end)
			*end = '\0';
		match = (!r->by_mod || rbtr_mod_match(r, end ? end + 1 : NULL)) &&
			((r->by_mod && !r->g.len) || rbtr_glob_match(&r->g, name));
		if (end)
			*end = ' ';
	}
	if (!match)
		return 0;
	ret = rbtr_fsel_grow(&r->found);
	if (ret)
		return ret;
	e = &r->found.ent[r->found.nr];
	e->name = kstrdup(name, GFP_KERNEL);
	if (!e->name)
		return -ENOMEM;
	e->idx = idx;
	e->ip = ip;
	r->found.nr++;
	return r->g.type == RBTR_MATCH_INDEX;
}

/* @r's word against the kernel's list: with addresses where it has them. */
static int rbtr_resolve_read(struct rbtr_resolve *r)
{
	int ret;

	r->addrs = true;
	ret = rbtr_kfs_lines(RBTR_AFF_ADDRS, r);
	if (ret == -ENOENT) {
		r->addrs = false;
		ret = rbtr_kfs_lines(RBTR_AFF, r);
	}
	if (ret)
		rbtr_fsel_free(&r->found);
	return ret;
}

/*
 * Resolve @word (cut by the parse) into @r->found. set_graph_function
 * takes no index: ftrace_graph_set_hash() matches names only.
 * Return: 0 or -errno.
 */
int rbtr_fn_resolve(enum rbtr_fn_kind kind, char *word, struct rbtr_resolve *r)
{
	memset(r, 0, sizeof(*r));
	rbtr_glob_parse(word, &r->g);
	if (r->g.type == RBTR_MATCH_INDEX &&
	    (r->g.index == ULONG_MAX || rbtr_fn_kind_graph(kind)))
		return 0;
	return rbtr_resolve_read(r);
}

/**
 * rbtr_fn_resolve_mod - the functions of "FUNC:mod:MODULE"
 * @func: FUNC, "!" first to take out; blank or "*": every function
 * @module: MODULE, a glob, "!" first for every other one
 * @r: what was matched (r->g.not: take out)
 *
 * As ftrace's match_records() with a module: by name and module only (an
 * index matches nothing).
 *
 * Return: 0 or -errno.
 */
int rbtr_fn_resolve_mod(char *func, char *module, struct rbtr_resolve *r)
{
	memset(r, 0, sizeof(*r));
	rbtr_glob_parse(func, &r->g);
	rbtr_glob_parse(module, &r->mod);
	r->by_mod = true;
	if (r->g.type == RBTR_MATCH_INDEX)
		return 0;
	return rbtr_resolve_read(r);
}

/**
 * rbtr_fn_match - the traceable functions a glob matches
 * @glob: a word of ftrace's filter syntax without "!" (cut up here)
 * @found: set to the functions, in the kernel's order (may be none),
 *         for rbtr_fsel_free()
 *
 * Sleeps: a pass over the kernel's list.
 *
 * Return: 0 or a negative errno.
 */
int rbtr_fn_match(char *glob, struct rbtr_fsel *found)
{
	struct rbtr_resolve r;
	int ret;

	ret = rbtr_fn_resolve(RBTR_FN_FILTER, glob, &r);
	*found = r.found;
	return ret;
}

/*
 * The addresses of @found's functions on a kernel whose list gives none
 * (its lines "name[ [mod]]"), into @ips: a kprobe at each, disabled
 * (nothing is patched), says where it is; 0 where kprobes refuse one.
 * The probes go in one unregister_kprobes(): one grace period for the
 * write, not one per function. Return: 0 or -ENOMEM.
 */
static int rbtr_fn_lookup_ips(const struct rbtr_fsel *found, unsigned long *ips)
{
	struct kprobe *kp, **done;
	unsigned int i, n = 0;
	const char *mod, *line;
	int ret = -ENOMEM;

	kp = kvcalloc(found->nr, sizeof(*kp), GFP_KERNEL);
	done = kvcalloc(found->nr, sizeof(*done), GFP_KERNEL);
	if (!kp || !done)
		goto out;
	for (i = 0; i < found->nr; i++) {
		line = found->ent[i].name;
		mod = strstr(line, " [");
		kp[i].flags = KPROBE_FLAG_DISABLED;
		kp[i].symbol_name = mod ?
			kasprintf(GFP_KERNEL, "%.*s:%.*s", (int)strcspn(mod + 2, "]"), mod + 2,
				  (int)(mod - line), line) :
			kstrdup(line, GFP_KERNEL);
		ips[i] = 0;
		if (kp[i].symbol_name && !register_kprobe(&kp[i])) {
			ips[i] = (unsigned long)kp[i].addr;
			done[n++] = &kp[i];
		}
	}
	if (n)
		unregister_kprobes(done, n);
	ret = 0;
out:
	for (i = 0; kp && i < found->nr; i++)
		kfree(kp[i].symbol_name);
	kvfree(done);
	kvfree(kp);
	return ret;
}

/**
 * rbtr_fn_match_ips - the addresses of the functions a glob matches
 * @glob: a word of set_ftrace_filter's syntax (cut up here)
 * @lookup_max: on a kernel whose list gives no addresses (before 6.5),
 *              the most functions to look up by name
 * @ips: set to their addresses, kvmalloc()ed (kvfree())
 * @nr: set to their number
 *
 * Functions kprobes cannot find are left out.
 *
 * Return: 0; -EINVAL when none matches, -E2BIG (and a log line) past
 * @lookup_max, -ENOMEM, or rbtr_fn_match()'s error.
 */
int rbtr_fn_match_ips(char *glob, unsigned int lookup_max, unsigned long **ips,
		      unsigned int *nr)
{
	struct rbtr_fsel found;
	unsigned long *a;
	unsigned int i, n = 0;
	int ret;

	ret = rbtr_fn_match(glob, &found);
	if (ret)
		return ret;
	if (!found.nr) {
		rbtr_fsel_free(&found);
		return -EINVAL;
	}
	if (!found.ent[0].ip && found.nr > lookup_max) {
		pr_warn_ratelimited("rbtrace: set_ftrace_filter: '%.64s' matches %u functions; without available_filter_functions_addrs a command takes at most %u\n",
				    glob, found.nr, lookup_max);
		rbtr_fsel_free(&found);
		return -E2BIG;
	}
	a = kvmalloc_array(found.nr, sizeof(*a), GFP_KERNEL);
	if (!a) {
		rbtr_fsel_free(&found);
		return -ENOMEM;
	}
	for (i = 0; i < found.nr; i++)
		a[i] = found.ent[i].ip;
	ret = found.ent[0].ip ? 0 : rbtr_fn_lookup_ips(&found, a);
	/* Those kprobes refused, left out. */
	for (i = 0; !ret && i < found.nr; i++)
		if (a[i])
			a[n++] = a[i];
	rbtr_fsel_free(&found);
	if (ret) {
		kvfree(a);
		return ret;
	}
	if (!n) {
		kvfree(a);
		return -EINVAL;
	}
	*ips = a;
	*nr = n;
	return 0;
}
