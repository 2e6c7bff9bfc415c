// SPDX-License-Identifier: GPL-2.0
/*
 * rbt-kbuf-check: read rbtrace's raw sub-buffers (trace_pipe_raw dumps)
 * with libtraceevent, as trace-cmd and KernelShark do, and check every
 * record against what the guest wrote.
 *
 * usage: rbt-kbuf-check [-v] -d DIR -e EXPECT [-t T0:T1] CPU0.raw [CPU1.raw...]
 *
 *   DIR     copies of the guest's events/header_page and the format files
 *           of the events written (any file named *.format), and
 *           optionally saved_cmdlines
 *   EXPECT  one line per record written, in the order written per CPU:
 *             <cpu> print <text>          a trace_marker write (no newline)
 *             <cpu> raw <id> <hex bytes>  a trace_marker_raw write
 *   T0:T1   the window (ns of the trace clock) every stamp must fall in
 *   CPUn    the pages read from per_cpu/cpuN/trace_pipe_raw, in order
 *
 * Checks: header_page and the formats parse (tep_parse_header_page,
 * tep_parse_event); every sub-buffer loads in kbuffer, its commit is within
 * the page and the bytes after the data (and the missed-event count) are
 * zero; every record is a known event whose fields hold what was written,
 * in the order written; stamps never go back on a CPU and fall in the
 * window; records are missing only where a page says events were missed.
 * Exits 0 when everything holds, 1 otherwise, 2 on bad usage.
 *
 * Build (host or guest: Debian's libtraceevent-dev):
 *   gcc -O2 -o rbt-kbuf-check rbt-kbuf-check.c $(pkg-config --cflags --libs libtraceevent)
 * tests/guest/test.d/raw/libtraceevent.tc and test.d/subbuf/subbuf-order.tc build and run it.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <unistd.h>
#include <event-parse.h>
#include <kbuffer.h>
#include <trace-seq.h>

#define MAX_CPUS	64
#define BIT(n)		(1UL << (n))
#define COMMIT_MASK	(BIT(27) - 1)
#define MISSED_STORED	BIT(30)

struct expect {
	char	kind;		/* 'p' print, 'r' raw */
	char	*text;		/* print: the text; raw: the payload bytes */
	size_t	len;
	unsigned int id;
};

struct cpu_expect {
	struct expect	*e;
	size_t		n, cap;
};

static struct cpu_expect expected[MAX_CPUS];
static struct tep_handle *tep;
static int verbose, failures;
static unsigned long long t0, t1 = ~0ULL;

static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("FAIL: ", stdout);
	vprintf(fmt, ap);
	putchar('\n');
	va_end(ap);
	failures++;
}

static char *read_file(const char *path, size_t *size)
{
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap + 1);
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f || !buf) {
		fprintf(stderr, "rbt-kbuf-check: %s: %s\n", path, strerror(errno));
		exit(2);
	}
	while ((n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			cap *= 2;
			buf = realloc(buf, cap + 1);
			if (!buf)
				exit(2);
		}
	}
	fclose(f);
	buf[len] = '\0';
	*size = len;
	return buf;
}

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* "<cpu> print <text>" or "<cpu> raw <id> <hex bytes>" */
static void parse_expect_line(char *line)
{
	struct cpu_expect *ce;
	struct expect *e;
	char kind[8], *p;
	int cpu, off;

	if (sscanf(line, "%d %7s %n", &cpu, kind, &off) != 2 || cpu < 0 || cpu >= MAX_CPUS) {
		fprintf(stderr, "rbt-kbuf-check: bad expect line: %s\n", line);
		exit(2);
	}
	ce = &expected[cpu];
	if (ce->n == ce->cap) {
		ce->cap = ce->cap ? 2 * ce->cap : 256;
		ce->e = realloc(ce->e, ce->cap * sizeof(*ce->e));
		if (!ce->e)
			exit(2);
	}
	e = &ce->e[ce->n++];
	p = line + off;
	if (!strcmp(kind, "print")) {
		e->kind = 'p';
		e->text = strdup(p);
		e->len = strlen(p);
		return;
	}
	e->kind = 'r';
	e->id = strtoul(p, &p, 16);
	e->text = malloc(strlen(p) / 2 + 1);
	e->len = 0;
	while (*p) {
		while (*p == ' ')
			p++;
		if (hexval(p[0]) < 0 || hexval(p[1]) < 0)
			break;
		e->text[e->len++] = hexval(p[0]) << 4 | hexval(p[1]);
		p += 2;
	}
}

static void load_expect(const char *path)
{
	size_t size;
	char *buf = read_file(path, &size), *line, *save;

	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		parse_expect_line(line);
}

/* header_page, every *.format file and saved_cmdlines from @dir. */
static void load_formats(const char *dir)
{
	char path[4096];
	struct dirent *d;
	size_t size;
	DIR *dp;
	char *buf;

	snprintf(path, sizeof(path), "%s/header_page", dir);
	buf = read_file(path, &size);
	if (tep_parse_header_page(tep, buf, size, sizeof(long)))
		fail("tep_parse_header_page failed on %s", path);
	free(buf);
	tep_set_long_size(tep, tep_get_header_page_size(tep));

	dp = opendir(dir);
	if (!dp) {
		fprintf(stderr, "rbt-kbuf-check: %s: %s\n", dir, strerror(errno));
		exit(2);
	}
	while ((d = readdir(dp))) {
		size_t l = strlen(d->d_name);

		if (l < 8 || strcmp(d->d_name + l - 7, ".format"))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, d->d_name);
		buf = read_file(path, &size);
		if (tep_parse_event(tep, buf, size, "ftrace"))
			fail("tep_parse_event failed on %s", path);
		free(buf);
	}
	closedir(dp);
	snprintf(path, sizeof(path), "%s/saved_cmdlines", dir);
	if (!access(path, R_OK)) {
		buf = read_file(path, &size);
		if (tep_parse_saved_cmdlines(tep, buf))
			fail("tep_parse_saved_cmdlines failed");
		free(buf);
	}
}

/* What the reader of the page sees past the data must be zero. */
static void check_page_tail(const unsigned char *page, size_t page_size, int cpu, int idx)
{
	unsigned long commit = *(const unsigned long *)(page + 8);
	size_t data = commit & COMMIT_MASK, i;

	if (16 + data > page_size) {
		fail("cpu%d page %d: commit %zu beyond the page", cpu, idx, data);
		return;
	}
	if (commit & MISSED_STORED)
		data += sizeof(long);
	for (i = 16 + data; i < page_size; i++) {
		if (page[i]) {
			fail("cpu%d page %d: byte %zu after the data is %#x, not 0",
			     cpu, idx, i, page[i]);
			return;
		}
	}
}

struct cpu_state {
	int			cpu;
	size_t			next;		/* index of the next expected record */
	unsigned long long	last_ts;
	size_t			seen;
	bool			started;
};

/* Where @data (a print or raw record) is in the expected list, or -1. */
static long find_expected(struct cpu_state *st, struct expect *got)
{
	struct cpu_expect *ce = &expected[st->cpu];
	size_t i;

	for (i = st->next; i < ce->n; i++) {
		struct expect *e = &ce->e[i];

		if (e->kind == got->kind && e->len == got->len &&
		    (e->kind != 'r' || e->id == got->id) &&
		    !memcmp(e->text, got->text, e->len))
			return i;
	}
	return -1;
}

/* Decode a record into what the guest wrote; false if it is neither. */
static bool decode(struct tep_event *ev, struct tep_record *rec, struct expect *got)
{
	struct tep_format_field *f;
	unsigned long long val;

	if (!strcmp(ev->name, "print")) {
		f = tep_find_field(ev, "buf");
		got->kind = 'p';
		got->text = (char *)rec->data + f->offset;
		got->len = strnlen(got->text, rec->size - f->offset);
		/* trace_marker adds the newline the writer left out */
		if (got->len && got->text[got->len - 1] == '\n')
			got->len--;
		if (tep_get_field_val(NULL, ev, "ip", rec, &val, 0) || !val)
			fail("cpu%d: print record without an ip", rec->cpu);
		return true;
	}
	if (!strcmp(ev->name, "raw_data")) {
		f = tep_find_field(ev, "buf");
		if (tep_get_field_val(NULL, ev, "id", rec, &val, 0))
			return false;
		got->kind = 'r';
		got->id = val;
		got->text = (char *)rec->data + f->offset;
		got->len = rec->size - f->offset;
		return true;
	}
	return false;
}

/* A raw record is padded to four bytes (and more for a short one). */
static bool raw_matches_padded(struct cpu_state *st, struct expect *got, long *at)
{
	struct cpu_expect *ce = &expected[st->cpu];
	size_t i, j;

	for (i = st->next; i < ce->n; i++) {
		struct expect *e = &ce->e[i];

		if (e->kind != 'r' || e->id != got->id || e->len > got->len ||
		    memcmp(e->text, got->text, e->len))
			continue;
		for (j = e->len; j < got->len; j++)
			if (got->text[j])
				break;
		if (j == got->len) {
			*at = i;
			return true;
		}
	}
	return false;
}

static void check_record(struct cpu_state *st, struct tep_record *rec, int missed)
{
	struct tep_event *ev;
	struct expect got = { 0 };
	long at;
	int type;

	if (rec->ts < st->last_ts)
		fail("cpu%d: stamp %llu goes back from %llu", st->cpu, rec->ts, st->last_ts);
	if (rec->ts < t0 || rec->ts > t1)
		fail("cpu%d: stamp %llu outside [%llu, %llu]", st->cpu, rec->ts, t0, t1);
	st->last_ts = rec->ts;
	type = tep_data_type(tep, rec);
	ev = tep_find_event(tep, type);
	if (!ev) {
		fail("cpu%d: record of unknown type %d", st->cpu, type);
		return;
	}
	if (!decode(ev, rec, &got)) {
		fail("cpu%d: unexpected %s record", st->cpu, ev->name);
		return;
	}
	at = find_expected(st, &got);
	if (at < 0 && (got.kind != 'r' || !raw_matches_padded(st, &got, &at))) {
		fail("cpu%d: record %zu (%s, %zu bytes) was never written (or is out of order)",
		     st->cpu, st->seen, ev->name, got.len);
		return;
	}
	/* Records may be missing only where the page says so. */
	if ((size_t)at != st->next && !missed)
		fail("cpu%d: %ld records missing before record %zu, with no missed-events mark",
		     st->cpu, at - (long)st->next, st->seen);
	if (verbose)
		printf("cpu%d %llu %s #%ld%s\n", st->cpu, rec->ts, ev->name, at,
		       missed ? " (after missed events)" : "");
	st->next = at + 1;
	st->seen++;
}

static void check_page(struct kbuffer *kbuf, unsigned char *page, size_t page_size,
		       struct cpu_state *st, int idx)
{
	unsigned long long ts;
	struct tep_record rec;
	int missed;
	void *data;

	check_page_tail(page, page_size, st->cpu, idx);
	if (kbuffer_load_subbuffer(kbuf, page)) {
		fail("cpu%d page %d: kbuffer_load_subbuffer failed", st->cpu, idx);
		return;
	}
	missed = kbuffer_missed_events(kbuf);
	for (data = kbuffer_read_event(kbuf, &ts); data; data = kbuffer_next_event(kbuf, &ts)) {
		memset(&rec, 0, sizeof(rec));
		rec.ts = ts;
		rec.cpu = st->cpu;
		rec.data = data;
		rec.size = kbuffer_event_size(kbuf);
		check_record(st, &rec, missed);
		missed = 0;	/* only the first record follows the gap */
	}
}

static void check_cpu_file(const char *path, int cpu, size_t page_size)
{
	struct kbuffer *kbuf = kbuffer_alloc(KBUFFER_LSIZE_8, KBUFFER_ENDIAN_LITTLE);
	struct cpu_state st = { .cpu = cpu };
	size_t size, off;
	char *buf = read_file(path, &size);
	int idx = 0;

	if (size % page_size)
		fail("cpu%d: %zu bytes is not a whole number of %zu-byte sub-buffers",
		     cpu, size, page_size);
	for (off = 0; off + page_size <= size; off += page_size)
		check_page(kbuf, (unsigned char *)buf + off, page_size, &st, idx++);
	if (st.next != expected[cpu].n)
		fail("cpu%d: the last %zu records written are missing", cpu,
		     expected[cpu].n - st.next);
	printf("%s cpu%d: %zu records in %d sub-buffers, %zu expected\n",
	       failures ? "FAIL" : "ok", cpu, st.seen, idx, expected[cpu].n);
	kbuffer_free(kbuf);
	free(buf);
}

static void usage(void)
{
	fputs("Usage: rbt-kbuf-check [-v] -d DIR -e EXPECT [-t T0:T1] CPU0.raw...\n", stderr);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *exp = NULL;
	size_t page_size;
	int c, cpu;

	while ((c = getopt(argc, argv, "vd:e:t:")) != -1) {
		switch (c) {
		case 'v':
			verbose = 1;
			break;
		case 'd':
			dir = optarg;
			break;
		case 'e':
			exp = optarg;
			break;
		case 't':
			if (sscanf(optarg, "%llu:%llu", &t0, &t1) != 2)
				usage();
			break;
		default:
			usage();
		}
	}
	if (!dir || !exp || optind >= argc || argc - optind > MAX_CPUS)
		usage();
	tep = tep_alloc();
	load_formats(dir);
	load_expect(exp);
	page_size = tep_get_sub_buffer_size(tep);
	if (page_size < 32) {
		fail("header_page gives a sub-buffer of %zu bytes", page_size);
		return 1;
	}
	for (cpu = 0; optind + cpu < argc; cpu++)
		check_cpu_file(argv[optind + cpu], cpu, page_size);
	printf("%s: %d failure(s)\n", failures ? "FAIL" : "PASS", failures);
	tep_free(tep);
	return failures ? 1 : 0;
}
