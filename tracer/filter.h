/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rbtrace event filters (filter.c): ftrace's filter grammar over an
 * event's fields, parsed once when written, matched against each record
 * in the event's context.
 */
#ifndef _RBTR_FILTER_H
#define _RBTR_FILTER_H

#include <linux/types.h>

struct rbtr_filter;
struct rbtr_event_type;
struct rbtr_event_file;
struct rbtr_trace;

/* Longest filter text: what a page holds, as ftrace's filter files take. */
#define RBTR_FILTER_MAX_TEXT	(PAGE_SIZE - 1)
/*
 * How many operands may wait for their operator at once while a filter
 * is evaluated (a || (b && (c || ...)), nested to the right): the bits
 * of the matcher's fixed stack, which needs no allocation in NMI.
 */
#define RBTR_FILTER_MAX_DEPTH	256

/**
 * struct rbtr_filter_err - why a filter text did not parse, as ftrace says
 * @code: index of ftrace's error text (rbtr_filter_err_text()), 0 none
 * @pos: where in the text, for the caret of error_log
 */
struct rbtr_filter_err {
	int		code;
	unsigned int	pos;
};

/**
 * rbtr_filter_parse - compile ftrace's filter text for records of @type
 * @type: the event whose fields the filter names
 * @text: the filter, NUL-terminated, trailing blanks already removed
 *
 * A filter that does not parse is reported as ftrace reports it, in
 * error_log ("event filter parse error"). May sleep.
 *
 * Return: the filter, or an ERR_PTR(): the errno ftrace's filter files
 * give for the same text (-EINVAL mostly; -EPERM, -ENOENT, -ESRCH for
 * some malformed ones, as ftrace), -ENOMEM.
 */
struct rbtr_filter *rbtr_filter_parse(const struct rbtr_event_type *type, const char *text);

/**
 * rbtr_filter_parse_err - rbtr_filter_parse() that reports nothing
 * @type: the event whose fields the filter names
 * @text: the filter
 * @err: set to the parse error, if any
 *
 * For a system's filter, which reports once for all its events.
 *
 * Return: as rbtr_filter_parse().
 */
struct rbtr_filter *rbtr_filter_parse_err(const struct rbtr_event_type *type,
					  const char *text, struct rbtr_filter_err *err);

/**
 * rbtr_filter_report - put a parse error in error_log
 * @text: the filter text
 * @err: the error
 */
void rbtr_filter_report(const char *text, const struct rbtr_filter_err *err);

/**
 * rbtr_filter_match - does the record @rec (@size bytes, struct
 * rbtr_entry first) pass @filter?
 * @f: a filter from rbtr_filter_parse()
 * @rec: the record
 * @size: its size: nothing past it is read, a __data_loc pointing out
 *        of it fails its predicate
 *
 * Any context, NMI included: no lock, no allocation, no recursion.
 *
 * Return: true if the record is to be kept.
 */
bool rbtr_filter_match(const struct rbtr_filter *f, const void *rec, unsigned int size);

/**
 * rbtr_filter_text - the filter's text, as written
 * @f: a filter
 *
 * Return: the text; lives as long as @f.
 */
const char *rbtr_filter_text(const struct rbtr_filter *f);

/**
 * rbtr_filter_free - free a filter no writer can be matching any more
 * @f: the filter, or NULL
 *
 * The caller has unpublished it and waited for a grace period.
 */
void rbtr_filter_free(struct rbtr_filter *f);

struct seq_file;

/* Setting filters, error_log (filter_fs.c) */
int rbtr_filter_set_event(struct rbtr_event_file *file, const char *text);
int rbtr_filter_set_system(struct rbtr_trace *tr, const char *system, const char *text);
void rbtr_filter_remove_event(struct rbtr_event_file *file);
void rbtr_error_log(const char *loc, const char *text, const char *cmd, unsigned int pos);
void rbtr_error_log_clear(void);
void rbtr_error_log_show(struct seq_file *m);

#endif /* _RBTR_FILTER_H */
