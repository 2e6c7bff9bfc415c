// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace event filters: ftrace's filter grammar (Documentation/trace/
 * events.rst, section 5), compiled once when written and matched against
 * each record before its commit (event_cond.c).
 *
 * The text is read as ftrace reads it, in the same two passes, so that
 * the same texts parse and the same ones fail with the same error text,
 * position and errno (some malformed texts give -EPERM, -ENOENT or
 * -ESRCH in ftrace: they do here too):
 *  1. a count (rbtr_fl_count()): quotes, parentheses, predicates;
 *  2. the predicates left to right (rbtr_fl_pred()), with '(' , '!',
 *     "&&" and "||" between them; "&&" binds tighter than "||", '!'
 *     applies to the predicate or parenthesis after it.
 *
 * The compiled form is a postfix program (operator-precedence parse of
 * pass 2): predicate indices and AND, OR, NOT. The matcher runs it with
 * a stack of bits of fixed size (RBTR_FILTER_MAX_DEPTH): no recursion,
 * no allocation, in any context, NMI included. Every predicate is
 * evaluated (none has side effects); a record field out of the record's
 * bounds makes its predicate false.
 */
#include <linux/bitops.h>
#include <linux/ctype.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/uaccess.h>
#include "event.h"
#include "filter.h"
#include "filter_internal.h"

/* ftrace's operators, in ftrace's order: "<=" before "<". */
static const char *const rbtr_fl_ops[] = {
	[RBTR_FOP_GLOB] = "~", [RBTR_FOP_NE] = "!=", [RBTR_FOP_EQ] = "==",
	[RBTR_FOP_LE] = "<=", [RBTR_FOP_LT] = "<", [RBTR_FOP_GE] = ">=",
	[RBTR_FOP_GT] = ">", [RBTR_FOP_BAND] = "&",
};

/* ftrace's error texts (enum filter_parse_error's), in ftrace's order. */
static const char *const rbtr_fl_errs[] = {
	[RBTR_FE_NONE] = "No error",
	[RBTR_FE_INVALID_OP] = "Invalid operator",
	[RBTR_FE_TOO_MANY_OPEN] = "Too many '('",
	[RBTR_FE_TOO_MANY_CLOSE] = "Too few '('",
	[RBTR_FE_MISSING_QUOTE] = "Missing matching quote",
	[RBTR_FE_OPERAND_TOO_LONG] = "Operand too long",
	[RBTR_FE_EXPECT_STRING] = "Expecting string field",
	[RBTR_FE_EXPECT_DIGIT] = "Expecting numeric field",
	[RBTR_FE_ILLEGAL_FIELD_OP] = "Illegal operation for field type",
	[RBTR_FE_FIELD_NOT_FOUND] = "Field not found",
	[RBTR_FE_ILLEGAL_INTVAL] = "Illegal integer value",
	[RBTR_FE_BAD_SUBSYS_FILTER] =
		"Couldn't find or set field in one of a subsystem's events",
	[RBTR_FE_TOO_MANY_PREDS] = "Too many terms in predicate expression",
	[RBTR_FE_INVALID_FILTER] = "Meaningless filter expression",
	[RBTR_FE_INVALID_VALUE] = "Invalid value (did you forget quotes)?",
	[RBTR_FE_ERRNO] = "Error",
	[RBTR_FE_NO_FILTER] = "No filter found",
};

/**
 * rbtr_filter_err_text - ftrace's text of a parse error
 * @code: RBTR_FE_*
 *
 * Return: the text.
 */
const char *rbtr_filter_err_text(int code)
{
	if (code < 0 || code >= ARRAY_SIZE(rbtr_fl_errs) || !rbtr_fl_errs[code])
		return "Error";
	return rbtr_fl_errs[code];
}

#ifdef RBTRACE_TEST_HOOKS
EXPORT_SYMBOL_GPL(rbtr_filter_err_text);
#endif

/* A field found by name: its predicate kind, and the field if in the record. */
struct rbtr_fl_field {
	enum rbtr_fpred_kind	kind;
	const struct rbtr_field	*f;
};

/* Does the format-file name @name ("comm[16]") name @s (@len bytes)? */
static bool rbtr_fl_name_is(const char *name, const char *s, unsigned int len)
{
	return !strncmp(name, s, len) && (name[len] == '\0' || name[len] == '[');
}

/* ftrace's filter_assign_type(), from the field's kind. */
static enum rbtr_fpred_kind rbtr_fl_kind(const struct rbtr_field *f)
{
	switch (f->kind) {
	case RBTR_FIELD_CHARS:
	case RBTR_FIELD_K_STR:
		return RBTR_FP_STR;
	case RBTR_FIELD_STRLOC:
	case RBTR_FIELD_K_DYNSTR:
		return RBTR_FP_DYNSTR;
	case RBTR_FIELD_K_RELSTR:
		return RBTR_FP_RELSTR;
	case RBTR_FIELD_K_PTRSTR:
		return RBTR_FP_PTRSTR;
	default:
		return RBTR_FP_NUM;
	}
}

/*
 * ftrace's trace_find_event_field(): the event's own fields first, then
 * the generic ones (CPU, cpu, common_cpu, COMM, comm), then the common.
 */
static bool rbtr_fl_find(const struct rbtr_event_type *type, const char *s,
			 unsigned int len, struct rbtr_fl_field *out)
{
	static const char *const cpus[] = { "CPU", "cpu", "common_cpu" };
	const struct rbtr_field *common;
	unsigned int i, nr;

	for (i = 0; i < type->nr_fields; i++) {
		if (rbtr_fl_name_is(type->fields[i].name, s, len)) {
			out->f = &type->fields[i];
			out->kind = rbtr_fl_kind(out->f);
			return true;
		}
	}
	out->f = NULL;
	for (i = 0; i < ARRAY_SIZE(cpus); i++) {
		if (rbtr_fl_name_is(cpus[i], s, len)) {
			out->kind = RBTR_FP_CPU;
			return true;
		}
	}
	if (rbtr_fl_name_is("COMM", s, len) || rbtr_fl_name_is("comm", s, len)) {
		out->kind = RBTR_FP_COMM;
		return true;
	}
	/* ftrace's ftrace_common_fields: struct rbtr_entry's. */
	common = rbtr_event_common_fields(&nr);
	for (i = 0; i < nr; i++) {
		if (rbtr_fl_name_is(common[i].name, s, len)) {
			out->f = &common[i];
			out->kind = RBTR_FP_NUM;
			return true;
		}
	}
	return false;
}

static bool rbtr_fl_is_string(enum rbtr_fpred_kind kind)
{
	return kind == RBTR_FP_STR || kind == RBTR_FP_DYNSTR || kind == RBTR_FP_RELSTR ||
	       kind == RBTR_FP_PTRSTR || kind == RBTR_FP_COMM;
}

/*
 * ftrace's filter_parse_regex() for "~": a leading '!' negates, "x*",
 * "*x", "*x*" are prefix, suffix and substring tests, anything else with
 * '*', '?', '[' or '\\' is a full glob. Edits @p in place.
 */
static void rbtr_fl_regex(struct rbtr_fpred *p)
{
	char *s = p->pattern;
	int len = p->plen, i;

	p->match = RBTR_FM_FULL;
	if (s[0] == '!') {
		p->not = !p->not;
		memmove(s, s + 1, len--);
	}
	if (isdigit(s[0]))
		goto out;
	for (i = 0; i < len; i++) {
		if (s[i] == '*' && !i) {
			p->match = RBTR_FM_END;
		} else if (s[i] == '*' && i == len - 1) {
			p->match = p->match == RBTR_FM_END ? RBTR_FM_MIDDLE : RBTR_FM_FRONT;
			s[i] = '\0';
			break;
		} else if (s[i] == '*') {
			p->match = RBTR_FM_GLOB;
			goto out;
		} else if (strchr("[?\\", s[i])) {
			p->match = RBTR_FM_GLOB;
			goto out;
		}
	}
	if (s[0] == '*')
		memmove(s, s + 1, len);
out:
	p->plen = strlen(s);
}

/* Parse state of one text. */
struct rbtr_fl_parse {
	const struct rbtr_event_type	*type;
	const char			*str;
	struct rbtr_filter		*f;
	struct rbtr_filter_err		*err;
	u16				*ops;	/* operator stack */
	unsigned int			nr_ops;
};

static int rbtr_fl_error(struct rbtr_fl_parse *ps, int code, unsigned int pos, int ret)
{
	ps->err->code = code;
	ps->err->pos = pos;
	return ret;
}

/* A string operand: the op must be one for strings, the field a string. */
static int rbtr_fl_string(struct rbtr_fl_parse *ps, struct rbtr_fpred *p,
			  const char *str, int pos, int i)
{
	int s = i;
	char q = str[i];

	switch (p->op) {
	case RBTR_FOP_NE:
		p->not = true;
		break;
	case RBTR_FOP_GLOB:
	case RBTR_FOP_EQ:
		break;
	default:
		return rbtr_fl_error(ps, RBTR_FE_ILLEGAL_FIELD_OP, pos + i, -EINVAL);
	}
	if (!rbtr_fl_is_string(p->kind))
		return rbtr_fl_error(ps, RBTR_FE_EXPECT_DIGIT, pos + i, -EINVAL);
	for (i++; str[i] && str[i] != q; i++)
		;
	if (!str[i])
		return rbtr_fl_error(ps, RBTR_FE_MISSING_QUOTE, pos + i, -EINVAL);
	s++;
	if (i - s >= RBTR_FILTER_MAX_STR)
		return rbtr_fl_error(ps, RBTR_FE_OPERAND_TOO_LONG, pos + i, -EINVAL);
	p->pattern = kmemdup_nul(str + s, i - s, GFP_KERNEL);
	if (!p->pattern)
		return -ENOMEM;
	p->plen = i - s;
	if (p->op == RBTR_FOP_GLOB)
		rbtr_fl_regex(p);
	else
		p->match = RBTR_FM_FULL;
	return i + 1;
}

/* A number: decimal, 0x hex, 0 octal, negative for a signed field. */
static int rbtr_fl_number(struct rbtr_fl_parse *ps, struct rbtr_fpred *p,
			  const char *str, int pos, int i)
{
	char buf[24];
	int s = i, ret;

	if (rbtr_fl_is_string(p->kind))
		return rbtr_fl_error(ps, RBTR_FE_EXPECT_STRING, pos + i, -EINVAL);
	if (p->op == RBTR_FOP_GLOB)
		return rbtr_fl_error(ps, RBTR_FE_ILLEGAL_FIELD_OP, pos + i, -EINVAL);
	if (str[i] == '-')
		i++;
	while (isalnum(str[i]))
		i++;
	if (i - s >= sizeof(buf))
		return rbtr_fl_error(ps, RBTR_FE_OPERAND_TOO_LONG, pos + i, -EINVAL);
	memcpy(buf, str + s, i - s);
	buf[i - s] = '\0';
	if (p->is_signed)
		ret = kstrtoll(buf, 0, (s64 *)&p->val);
	else
		ret = kstrtoull(buf, 0, &p->val);
	if (ret)
		return rbtr_fl_error(ps, RBTR_FE_ILLEGAL_INTVAL, pos + s, -EINVAL);
	if (p->op == RBTR_FOP_NE && p->kind == RBTR_FP_NUM)
		p->not = true;
	return i;
}

/*
 * One predicate "FIELD OP VALUE" at @str (ftrace's parse_pred()). @pos is
 * where ftrace counts error positions from: one past @str's start.
 * Return: its length, or a negative errno.
 */
static int rbtr_fl_pred(struct rbtr_fl_parse *ps, const char *str, int pos,
			struct rbtr_fpred *p)
{
	struct rbtr_fl_field fld;
	int i = 0, s, op;

	while (isspace(str[i]))
		i++;
	s = i;
	while (isalnum(str[i]) || str[i] == '_')
		i++;
	/* No field name: ftrace returns -1 without an error text. */
	if (i == s)
		return -EPERM;
	if (!rbtr_fl_find(ps->type, str + s, i - s, &fld))
		return rbtr_fl_error(ps, RBTR_FE_FIELD_NOT_FOUND, pos + i, -EINVAL);
	while (isspace(str[i]))
		i++;
	for (op = 0; op < ARRAY_SIZE(rbtr_fl_ops); op++)
		if (!strncmp(str + i, rbtr_fl_ops[op], strlen(rbtr_fl_ops[op])))
			break;
	if (op == ARRAY_SIZE(rbtr_fl_ops))
		return rbtr_fl_error(ps, RBTR_FE_INVALID_OP, pos + i, -EINVAL);
	i += strlen(rbtr_fl_ops[op]);
	while (isspace(str[i]))
		i++;

	p->op = op;
	p->kind = fld.kind;
	if (fld.f) {
		p->offset = fld.f->offset;
		p->size = fld.f->size;
		p->is_signed = fld.f->is_signed;
	} else {
		/* CPU is ftrace's "int"; COMM a string. */
		p->is_signed = true;
	}
	if (p->kind == RBTR_FP_STR)
		p->size = fld.f->size;
	if (str[i] == '\'' || str[i] == '"')
		return rbtr_fl_string(ps, p, str, pos, i);
	if (isdigit(str[i]) || str[i] == '-')
		return rbtr_fl_number(ps, p, str, pos, i);
	return rbtr_fl_error(ps, RBTR_FE_INVALID_VALUE, pos + i, -EINVAL);
}

/*
 * Pass 1 (ftrace's calc_stack()): balanced quotes and parentheses, and
 * how many predicates at most. Errors with ftrace's (odd) errnos.
 */
static int rbtr_fl_count(struct rbtr_fl_parse *ps, unsigned int *nr_preds)
{
	const char *str = ps->str;
	int open = 1, quote = 0, last_quote = 0, level, i;
	bool is_pred = false;

	*nr_preds = 0;
	for (i = 0; str[i]; i++) {
		if (isspace(str[i]))
			continue;
		if (quote) {
			if (str[i] == quote)
				quote = 0;
			continue;
		}
		switch (str[i]) {
		case '\'':
		case '"':
			quote = str[i];
			last_quote = i;
			break;
		case '|':
		case '&':
			if (str[i + 1] != str[i])
				break;
			is_pred = false;
			continue;
		case '(':
			is_pred = false;
			open++;
			continue;
		case ')':
			is_pred = false;
			if (open == 1)
				return rbtr_fl_error(ps, RBTR_FE_TOO_MANY_CLOSE, i, -EPERM);
			open--;
			continue;
		}
		if (!is_pred) {
			(*nr_preds)++;
			is_pred = true;
		}
	}
	if (quote)
		return rbtr_fl_error(ps, RBTR_FE_MISSING_QUOTE, last_quote, -ESRCH);
	if (open == 1)
		return 0;
	/* The '(' left open: the last one at the outermost missing level. */
	level = open;
	for (i--; i; i--) {
		if (quote) {
			if (str[i] == quote)
				quote = 0;
			continue;
		}
		switch (str[i]) {
		case '(':
			if (level == open)
				return rbtr_fl_error(ps, RBTR_FE_TOO_MANY_OPEN, i, -ENOENT);
			level--;
			break;
		case ')':
			level++;
			break;
		case '\'':
		case '"':
			quote = str[i];
			break;
		}
	}
	return rbtr_fl_error(ps, RBTR_FE_TOO_MANY_OPEN, 0, -ENOENT);
}

static void rbtr_fl_emit(struct rbtr_fl_parse *ps, u16 code)
{
	ps->f->prog[ps->f->nr_prog++] = code;
}

/* An operand is complete: the '!'s before it apply now. */
static void rbtr_fl_operand_done(struct rbtr_fl_parse *ps)
{
	while (ps->nr_ops && ps->ops[ps->nr_ops - 1] == RBTR_FPROG_NOT)
		rbtr_fl_emit(ps, ps->ops[--ps->nr_ops]);
}

/* Before pushing @op: emit the operators that bind at least as tight. */
static void rbtr_fl_reduce(struct rbtr_fl_parse *ps, u16 op)
{
	u16 top;

	while (ps->nr_ops) {
		top = ps->ops[ps->nr_ops - 1];
		if (top == RBTR_FPROG_AND || (top == RBTR_FPROG_OR && op != RBTR_FPROG_AND))
			rbtr_fl_emit(ps, ps->ops[--ps->nr_ops]);
		else
			break;
	}
}

/* After a predicate: ')' , '&&', '||' or the end (ftrace's #5 loop). */
static int rbtr_fl_after(struct rbtr_fl_parse *ps, const char **pptr, bool *end)
{
	const char *str = ps->str, *ptr = *pptr, *next;

	for (;;) {
		next = ptr++;
		if (isspace(*next))
			continue;
		switch (*next) {
		case ')':
		case '\0':
			break;
		case '&':
		case '|':
			if (next[1] == next[0]) {
				ptr++;
				break;
			}
			fallthrough;
		default:
			return rbtr_fl_error(ps, RBTR_FE_TOO_MANY_PREDS, next - str, -EPERM);
		}
		rbtr_fl_operand_done(ps);
		if (*next == '&') {
			rbtr_fl_reduce(ps, RBTR_FPROG_AND);
			ps->ops[ps->nr_ops++] = RBTR_FPROG_AND;
			break;
		}
		if (*next == '|') {
			rbtr_fl_reduce(ps, RBTR_FPROG_OR);
			ps->ops[ps->nr_ops++] = RBTR_FPROG_OR;
			break;
		}
		rbtr_fl_reduce(ps, RBTR_FPROG_OR);
		if (!*next) {
			*end = true;
			break;
		}
		if (!ps->nr_ops || ps->ops[ps->nr_ops - 1] != RBTR_FPROG_LPAREN)
			return rbtr_fl_error(ps, RBTR_FE_TOO_MANY_CLOSE, ptr - str, -EPERM);
		ps->nr_ops--;
		rbtr_fl_operand_done(ps);
	}
	*pptr = ptr;
	return 0;
}

/* Pass 2 (ftrace's predicate_parse()): predicates and operators, in order. */
static int rbtr_fl_program(struct rbtr_fl_parse *ps, unsigned int nr_preds)
{
	struct rbtr_filter *f = ps->f;
	const char *str = ps->str, *ptr = str, *next;
	bool end = false;
	int len, ret;

	while (*ptr) {
		next = ptr++;
		if (isspace(*next))
			continue;
		if (*next == '(') {
			ps->ops[ps->nr_ops++] = RBTR_FPROG_LPAREN;
			continue;
		}
		/* '!' is a not unless it starts "!=" or "!~". */
		if (*next == '!' && next[1] != '=' && next[1] != '~') {
			ps->ops[ps->nr_ops++] = RBTR_FPROG_NOT;
			continue;
		}
		if (f->nr_preds >= nr_preds)
			return rbtr_fl_error(ps, RBTR_FE_TOO_MANY_PREDS, next - str,
					     f->nr_preds ? -EPERM : -ENOMEM);
		len = rbtr_fl_pred(ps, next, ptr - str, &f->preds[f->nr_preds]);
		if (len < 0)
			return len;
		ptr = next + len;
		rbtr_fl_emit(ps, f->nr_preds++);
		ret = rbtr_fl_after(ps, &ptr, &end);
		if (ret)
			return ret;
		if (end)
			break;
	}
	if (!end && f->nr_preds)
		return rbtr_fl_error(ps, RBTR_FE_INVALID_FILTER, ptr - str, -EINVAL);
	/* A '(' pass 1 did not see: cannot happen ('!'s alone are not counted). */
	while (ps->nr_ops && ps->ops[ps->nr_ops - 1] == RBTR_FPROG_NOT)
		ps->nr_ops--;
	if (ps->nr_ops)
		return rbtr_fl_error(ps, RBTR_FE_TOO_MANY_OPEN, ptr - str, -EPERM);
	if (!f->nr_preds)
		return rbtr_fl_error(ps, RBTR_FE_NO_FILTER, ptr - str, -EINVAL);
	return 0;
}

/* The deepest the matcher's stack goes on this program. */
static unsigned int rbtr_fl_depth(const struct rbtr_filter *f)
{
	unsigned int i, d = 0, max = 0;

	for (i = 0; i < f->nr_prog; i++) {
		if (f->prog[i] < RBTR_FPROG_NOT)
			d++;
		else if (f->prog[i] != RBTR_FPROG_NOT)
			d--;
		max = max(max, d);
	}
	return max;
}

/**
 * rbtr_filter_free - free a filter no writer can be matching any more
 * @f: the filter, or NULL
 */
void rbtr_filter_free(struct rbtr_filter *f)
{
	unsigned int i;

	if (IS_ERR_OR_NULL(f))
		return;
	for (i = 0; i < f->nr_preds; i++)
		kfree(f->preds[i].pattern);
	kfree(f->preds);
	kfree(f->prog);
	kfree(f->text);
	kfree(f);
}

#ifdef RBTRACE_TEST_HOOKS
EXPORT_SYMBOL_GPL(rbtr_filter_free);
#endif

static struct rbtr_filter *rbtr_fl_alloc(const char *text, unsigned int nr_preds)
{
	size_t len = strlen(text);
	struct rbtr_filter *f;

	f = kzalloc(sizeof(*f), GFP_KERNEL);
	if (!f)
		return NULL;
	f->text = kstrdup(text, GFP_KERNEL);
	f->preds = kcalloc(nr_preds, sizeof(*f->preds), GFP_KERNEL);
	/* Every character is at most one entry of the program. */
	f->prog = kcalloc(len + 1, sizeof(*f->prog), GFP_KERNEL);
	if (!f->text || !f->preds || !f->prog) {
		rbtr_filter_free(f);
		return NULL;
	}
	return f;
}

/*
 * One number compare on a field past the common ones ("id == 99999",
 * "prev_pid != 0"), the filter most set: its predicate is tested on its
 * own (rbtr_filter_match_fast()), before the record's header is filled.
 */
static void rbtr_fl_set_fast(struct rbtr_filter *f)
{
	const struct rbtr_fpred *p = &f->preds[0];

	if (f->nr_preds != 1 || f->nr_prog != 1 || p->kind != RBTR_FP_NUM ||
	    p->offset < sizeof(struct rbtr_entry))
		return;
	if (p->size == 1 || p->size == 2 || p->size == 4 || p->size == 8)
		f->fast = p;
}

/**
 * rbtr_filter_parse_err - rbtr_filter_parse() that reports nothing
 * @type: the event whose fields the filter names
 * @text: the filter
 * @err: set to the parse error, if any
 *
 * Return: the filter or an ERR_PTR().
 */
struct rbtr_filter *rbtr_filter_parse_err(const struct rbtr_event_type *type,
					  const char *text, struct rbtr_filter_err *err)
{
	struct rbtr_fl_parse ps = { .type = type, .str = text, .err = err };
	unsigned int nr_preds;
	int ret;

	err->code = RBTR_FE_NONE;
	err->pos = 0;
	if (strlen(text) > RBTR_FILTER_MAX_TEXT)
		return ERR_PTR(-EINVAL);
	ret = rbtr_fl_count(&ps, &nr_preds);
	if (ret)
		return ERR_PTR(ret);
	/* Nothing to parse ("", "()", "&&"): ftrace's -EINVAL, no text. */
	if (!nr_preds)
		return ERR_PTR(-EINVAL);
	ps.f = rbtr_fl_alloc(text, nr_preds);
	ps.ops = kcalloc(strlen(text) + 1, sizeof(*ps.ops), GFP_KERNEL);
	if (!ps.f || !ps.ops) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = rbtr_fl_program(&ps, nr_preds);
	if (!ret && rbtr_fl_depth(ps.f) > RBTR_FILTER_MAX_DEPTH)
		ret = rbtr_fl_error(&ps, RBTR_FE_TOO_MANY_PREDS, 0, -EINVAL);
	if (ret)
		goto fail;
	kfree(ps.ops);
	rbtr_fl_set_fast(ps.f);
	return ps.f;
fail:
	kfree(ps.ops);
	rbtr_filter_free(ps.f);
	return ERR_PTR(ret);
}

#ifdef RBTRACE_TEST_HOOKS
EXPORT_SYMBOL_GPL(rbtr_filter_parse_err);
#endif

/**
 * rbtr_filter_text - the filter's text, as written
 * @f: a filter
 *
 * Return: the text.
 */
const char *rbtr_filter_text(const struct rbtr_filter *f)
{
	return f->text;
}

#ifdef RBTRACE_TEST_HOOKS
EXPORT_SYMBOL_GPL(rbtr_filter_text);
#endif
