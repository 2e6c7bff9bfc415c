// SPDX-License-Identifier: GPL-2.0
/*
 * rbtrace events: switching the events of one tracer by name, as
 * set_event, events/enable and events/<system>/enable do, with ftrace's
 * syntax; all or nothing. The files of the tracer are those of
 * event_file.c, walked under the registry mutex.
 */
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <rbtrace/rbtrace.h>
#include "event.h"

/* ftrace's set_event parser takes words of at most 127 bytes. */
#define RBTR_EVENT_WORD_MAX	127

/**
 * rbtr_event_parse_match - parse one set_event word, as ftrace does
 * @word: "sys:event", "sys:", ":event", "*:*", or "name" (a system or an
 *        event of any system); modified in place
 * @m: filled in; NULL members match anything
 */
void rbtr_event_parse_match(char *word, struct rbtr_event_match *m)
{
	char *colon = strchr(word, ':');

	m->match = NULL;
	m->system = NULL;
	m->event = NULL;
	if (!colon) {
		m->match = word;
		return;
	}
	*colon = '\0';
	m->system = word;
	m->event = colon + 1;
	if (!*m->system || !strcmp(m->system, "*"))
		m->system = NULL;
	if (!*m->event || !strcmp(m->event, "*"))
		m->event = NULL;
}

static bool rbtr_event_matches(const struct rbtr_event_file *file,
			       const struct rbtr_event_match *m)
{
	const struct rbtr_event_type *t = file->type;

	/* Only events that can be switched take part: ftrace's rule. */
	if (!t->reg)
		return false;
	if (m->match && strcmp(m->match, t->name) && strcmp(m->match, t->system))
		return false;
	if (m->system && strcmp(m->system, t->system))
		return false;
	if (m->event && strcmp(m->event, t->name))
		return false;
	return true;
}

/* Undo the switches this call made, after one of them failed. */
static void rbtr_event_set_rollback(struct rbtr_trace_events *ev, bool on,
				    struct rbtr_event_file *failed)
{
	struct rbtr_event_file *f;

	list_for_each_entry(f, &ev->files, tr_list) {
		if (f == failed)
			break;
		if (f->toggled)
			rbtr_event_set_locked(f, !on);
	}
}

/**
 * rbtr_event_set_match - enable or disable every event of @tr @m matches
 * @tr: the tracer
 * @m: from rbtr_event_parse_match()
 * @on: the new state
 * @dry_run: only check that something matches
 *
 * All or nothing: if enabling one fails, the ones switched by this call
 * are switched back.
 *
 * Return: 0, -EINVAL when nothing matches, or the error of a @reg.
 */
int rbtr_event_set_match(struct rbtr_trace *tr, const struct rbtr_event_match *m, bool on,
			 bool dry_run)
{
	struct rbtr_trace_events *ev;
	struct rbtr_event_file *f;
	int ret = -EINVAL, err;

	rbtr_events_lock();
	ev = rbtr_trace_events_of(tr);
	if (!ev)
		goto out;
	list_for_each_entry(f, &ev->files, tr_list)
		f->toggled = false;
	list_for_each_entry(f, &ev->files, tr_list) {
		if (!rbtr_event_matches(f, m))
			continue;
		ret = 0;
		if (dry_run || rbtr_event_on(f) == on)
			continue;
		err = rbtr_event_set_locked(f, on);
		if (err) {
			rbtr_event_set_rollback(ev, on, f);
			ret = err;
			break;
		}
		f->toggled = true;
	}
out:
	rbtr_events_unlock();
	return ret;
}

/* The words of a set_event write: which files are to change (@toggled). */
static int rbtr_event_set_words(struct rbtr_trace_events *ev, char *buf)
{
	struct rbtr_event_match match;
	struct rbtr_event_file *f;
	bool on, any;
	char *word;

	while ((word = strsep(&buf, " \t\n")) != NULL) {
		if (!*word)
			continue;
		if (strlen(word) > RBTR_EVENT_WORD_MAX)
			return -EINVAL;
		on = *word != '!';
		if (!on)
			word++;
		rbtr_event_parse_match(word, &match);
		any = false;
		list_for_each_entry(f, &ev->files, tr_list) {
			if (!rbtr_event_matches(f, &match))
				continue;
			any = true;
			f->toggled = rbtr_event_on(f) != on;
		}
		if (!any)
			return -EINVAL;
	}
	return 0;
}

/**
 * rbtr_event_set_list - apply a set_event write of @tr, all or nothing
 * @tr: the tracer
 * @buf: the words, separated by white space ("!word" disables); cut
 * @truncate: the file was opened with O_TRUNC and no write succeeded yet:
 *            start from every event disabled; cleared when this succeeds
 * @written: set: a write of the file was tried (its release then leaves
 *           the truncation undone)
 *
 * Under one hold of the registry mutex, so that no other change comes
 * between the check and the switching: first the state every file must
 * end in is worked out word by word, without switching anything (a
 * word too long, or matching no event that can be switched, fails the
 * write here); then the files to enable are enabled, and if one fails
 * the ones this call enabled are disabled again; then the files to
 * disable are disabled, which cannot fail.
 *
 * Return: 0; -EINVAL for a bad word; or the error of an event's @reg.
 * On error nothing has changed.
 */
int rbtr_event_set_list(struct rbtr_trace *tr, char *buf, bool *truncate, bool *written)
{
	struct rbtr_trace_events *ev;
	struct rbtr_event_file *f;
	int ret = -ENODEV;

	rbtr_events_lock();
	*written = true;
	ev = rbtr_trace_events_of(tr);
	if (!ev)
		goto out;
	/* toggled: the file is to change state. */
	list_for_each_entry(f, &ev->files, tr_list) {
		f->toggled = *truncate && f->type->reg && rbtr_event_on(f);
		f->enabled_now = false;
	}
	ret = rbtr_event_set_words(ev, buf);
	if (ret)
		goto out;
	list_for_each_entry(f, &ev->files, tr_list) {
		if (!f->toggled || rbtr_event_on(f))
			continue;
		ret = rbtr_event_set_locked(f, true);
		if (ret)
			goto undo;
		f->enabled_now = true;
		f->toggled = false;
	}
	list_for_each_entry(f, &ev->files, tr_list)
		if (f->toggled && rbtr_event_on(f))
			rbtr_event_set_locked(f, false);
	*truncate = false;
	goto out;
undo:
	list_for_each_entry(f, &ev->files, tr_list)
		if (f->enabled_now)
			rbtr_event_set_locked(f, false);
out:
	rbtr_events_unlock();
	return ret;
}

/**
 * rbtr_event_state - are the events of @tr @m matches on?
 * @tr: the tracer
 * @m: what to look at (see rbtr_event_parse_match())
 *
 * Return: '0' all off (or none), '1' all on, 'X' some on, as tracefs's
 * events/enable shows.
 */
char rbtr_event_state(struct rbtr_trace *tr, const struct rbtr_event_match *m)
{
	struct rbtr_trace_events *ev;
	struct rbtr_event_file *f;
	bool on = false, off = false;

	rbtr_events_lock();
	ev = rbtr_trace_events_of(tr);
	if (ev) {
		list_for_each_entry(f, &ev->files, tr_list) {
			if (!rbtr_event_matches(f, m))
				continue;
			if (f->enabled)
				on = true;
			else
				off = true;
		}
	}
	rbtr_events_unlock();
	if (on && off)
		return 'X';
	return on ? '1' : '0';
}

/**
 * rbtr_event_show_list - list the events of @tr, one "system:name" a line
 * @tr: the tracer
 * @m: the seq_file of set_event or available_events
 * @enabled: only the enabled ones (set_event); else every one that can
 *           be enabled (available_events)
 */
void rbtr_event_show_list(struct rbtr_trace *tr, struct seq_file *m, bool enabled)
{
	struct rbtr_trace_events *ev;
	struct rbtr_event_file *f;

	rbtr_events_lock();
	ev = rbtr_trace_events_of(tr);
	if (ev)
		list_for_each_entry(f, &ev->files, tr_list)
			if (enabled ? f->enabled : !!f->type->reg)
				seq_printf(m, "%s:%s\n", f->type->system, f->type->name);
	rbtr_events_unlock();
}

/**
 * rbtr_event_disable_all - disable every event of @tr (set_event opened O_TRUNC)
 * @tr: the tracer
 */
void rbtr_event_disable_all(struct rbtr_trace *tr)
{
	struct rbtr_trace_events *ev;
	struct rbtr_event_file *f;

	rbtr_events_lock();
	ev = rbtr_trace_events_of(tr);
	if (ev)
		list_for_each_entry(f, &ev->files, tr_list)
			rbtr_event_set_locked(f, false);
	rbtr_events_unlock();
}
