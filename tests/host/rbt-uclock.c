// SPDX-License-Identifier: GPL-2.0
/*
 * rbt-uclock: the guest side of clock/user-clock (built in the guest).
 *
 *   rbt-uclock stamps DIR N
 *	N times: a marker "uclk I U" into DIR/trace_marker, then a read of
 *	the latch clock from DIR/trace_clock_page (U, given in the next
 *	marker). The scenario checks that each U lies between the kernel's
 *	stamps of the markers around it.
 *   rbt-uclock hostile DIR
 *	every mapping the file must refuse, each with its errno; one line
 *	per case, exit 1 if any is wrong.
 *   rbt-uclock hold DIR FILE
 *	map the page, close the file, write "mapped SEQ" to FILE, wait for
 *	SIGTERM; then munmap and exit.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <rbtrace/clock_page.h>

#define PAGE	4096

static const struct rbtrace_clock_page *map_page(const char *dir)
{
	char path[512];
	void *p;
	int fd;

	snprintf(path, sizeof(path), "%s/trace_clock_page", dir);
	fd = open(path, O_RDONLY);
	if (fd < 0) {
		perror(path);
		exit(2);
	}
	p = mmap(NULL, PAGE, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		exit(2);
	}
	close(fd);
	if (!rbtrace_clock_usable(p)) {
		fprintf(stderr, "page not usable: version %u counter %u shift %u\n",
			((const struct rbtrace_clock_page *)p)->version,
			((const struct rbtrace_clock_page *)p)->counter,
			((const struct rbtrace_clock_page *)p)->shift);
		exit(2);
	}
	return p;
}

static int stamps(const char *dir, long n)
{
	const struct rbtrace_clock_page *p = map_page(dir);
	unsigned long long u = 0;
	char path[512], buf[96];
	long i;
	int fd;

	snprintf(path, sizeof(path), "%s/trace_marker", dir);
	fd = open(path, O_WRONLY);
	if (fd < 0) {
		perror(path);
		return 2;
	}
	for (i = 0; i <= n; i++) {
		int len = snprintf(buf, sizeof(buf), "uclk %ld %llu", i, u);

		if (write(fd, buf, len) != len) {
			perror("trace_marker");
			return 2;
		}
		u = rbtrace_clock_read(p);
	}
	close(fd);
	return 0;
}

static int bad;

/* One case: @got is mmap()'s or mprotect()'s result, @want the errno. */
static void expect(const char *name, int failed, int want)
{
	int got = failed ? errno : 0;

	printf("%s: %s (want %s)\n", name, got ? strerror(got) : "ok",
	       want ? strerror(want) : "ok");
	if (got != want)
		bad = 1;
}

static int try_map(const char *path, int oflags, size_t len, int prot, int flags, off_t off)
{
	int fd = open(path, oflags), ret = 0, e;
	void *p;

	if (fd < 0) {
		perror(path);
		exit(2);
	}
	p = mmap(NULL, len, prot, flags, fd, off);
	e = errno;
	if (p == MAP_FAILED)
		ret = -1;
	else
		munmap(p, len);
	close(fd);
	errno = e;
	return ret;
}

static int hostile(const char *dir)
{
	struct rbtrace_clock_page pg;
	char path[512], page[2 * PAGE];
	const void *p;
	void *q;
	ssize_t r;
	int fd;

	snprintf(path, sizeof(path), "%s/trace_clock_page", dir);
	expect("read-only", try_map(path, O_RDONLY, PAGE, PROT_READ, MAP_SHARED, 0), 0);
	/* The kernel refuses a writable shared map of a read-only open. */
	expect("write, O_RDONLY", try_map(path, O_RDONLY, PAGE, PROT_READ | PROT_WRITE,
					  MAP_SHARED, 0), EACCES);
	/* Root opens the 0400 file for writing (CAP_DAC_OVERRIDE): ours refuses. */
	expect("write, O_RDWR", try_map(path, O_RDWR, PAGE, PROT_READ | PROT_WRITE,
					MAP_SHARED, 0), EPERM);
	expect("exec", try_map(path, O_RDONLY, PAGE, PROT_READ | PROT_EXEC, MAP_SHARED, 0),
	       EPERM);
	expect("private", try_map(path, O_RDONLY, PAGE, PROT_READ, MAP_PRIVATE, 0), EINVAL);
	expect("private, O_RDWR", try_map(path, O_RDWR, PAGE, PROT_READ | PROT_WRITE,
					  MAP_PRIVATE, 0), EPERM);
	expect("offset", try_map(path, O_RDONLY, PAGE, PROT_READ, MAP_SHARED, PAGE), EINVAL);
	expect("two pages", try_map(path, O_RDONLY, 2 * PAGE, PROT_READ, MAP_SHARED, 0),
	       EINVAL);

	p = map_page(dir);
	expect("mprotect write", mprotect((void *)p, PAGE, PROT_READ | PROT_WRITE), EACCES);
	expect("mprotect exec", mprotect((void *)p, PAGE, PROT_READ | PROT_EXEC), EACCES);
	q = mremap((void *)p, PAGE, 2 * PAGE, MREMAP_MAYMOVE);
	expect("mremap grow", q == MAP_FAILED, EFAULT);
	/* Still mapped, still the clock, after all that. */
	if (!rbtrace_clock_usable(p) || !rbtrace_clock_read(p)) {
		printf("mapping: unusable after the refusals\n");
		bad = 1;
	}
	munmap((void *)p, PAGE);

	/* read(): the whole page, the struct at its start, then EOF. */
	fd = open(path, O_RDONLY);
	r = read(fd, page, sizeof(page));
	memcpy(&pg, page, sizeof(pg));
	printf("read: %zd bytes, version %u counter %u shift %u\n", r, pg.version,
	       pg.counter, pg.shift);
	if (r != PAGE || pg.version != RBTRACE_CLOCK_PAGE_VERSION || pg.shift != 22 ||
	    read(fd, page, 1) != 0)
		bad = 1;
	close(fd);
	return bad;
}

static void on_term(int sig)
{
	(void)sig;
}

static int hold(const char *dir, const char *file)
{
	const struct rbtrace_clock_page *p = map_page(dir);
	struct sigaction sa;
	sigset_t set, old;
	FILE *f;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, &old);
	f = fopen(file, "w");
	if (!f) {
		perror(file);
		return 2;
	}
	fprintf(f, "mapped %u\n", p->seq);
	fclose(f);
	sigsuspend(&old);
	munmap((void *)p, PAGE);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "stamps"))
		return stamps(argv[2], atol(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "hostile"))
		return hostile(argv[2]);
	if (argc == 4 && !strcmp(argv[1], "hold"))
		return hold(argv[2], argv[3]);
	fprintf(stderr, "usage: %s stamps DIR N | hostile DIR | hold DIR FILE\n", argv[0]);
	return 2;
}
