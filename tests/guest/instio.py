#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""instio.py: system-call level helpers for the instances scenarios
(tests/guest/test.d/instances/), where an errno must be told exactly.

  instio.py ops DIR
        the same list of mkdir/rmdir/open operations under DIR (an
        instances directory: rbtrace's or the kernel's ftrace's), one line
        each: "OP NAME: ok" or "OP NAME: ERRNO"; run on both and compared
  instio.py race DIR COUNT [LIMIT]
        one thread makes and removes DIR/race over and over, another
        opens its files (trace_pipe_raw, trace, buffer_size_kb,
        trace_marker) and reads or writes them, until both have done it
        COUNT times (laps and successful opens), or LIMIT seconds
        (default 600) have gone: a slow kernel (KASAN, lockdep) takes
        longer, not fewer rounds; prints "laps L opens O refused R" (R:
        opens refused: ENOENT, ENODEV, EIO), and the caller checks L and O
"""
import errno
import os
import sys
import threading
import time


def err_name(e):
    return errno.errorcode.get(e.errno, str(e.errno))


def attempt(what, fn):
    try:
        fn()
        print("%s: ok" % what)
    except OSError as e:
        print("%s: %s" % (what, err_name(e)))


def ops(top):
    a = os.path.join(top, "inst-a")
    attempt("mkdir inst-a", lambda: os.mkdir(a))
    attempt("mkdir inst-a again", lambda: os.mkdir(a))
    attempt("rmdir missing", lambda: os.rmdir(os.path.join(top, "missing")))
    attempt("mkdir inst-a/sub", lambda: os.mkdir(os.path.join(a, "sub")))
    attempt("rmdir inst-a/per_cpu", lambda: os.rmdir(os.path.join(a, "per_cpu")))
    attempt("rmdir inst-a/per_cpu/cpu0", lambda: os.rmdir(os.path.join(a, "per_cpu", "cpu0")))
    attempt("rmdir inst-a/trace", lambda: os.rmdir(os.path.join(a, "trace")))
    attempt("unlink inst-a/trace", lambda: os.unlink(os.path.join(a, "trace")))
    attempt("create inst-a/new",
            lambda: os.close(os.open(os.path.join(a, "new"), os.O_CREAT | os.O_WRONLY, 0o600)))
    attempt("rename inst-a", lambda: os.rename(a, os.path.join(top, "inst-b")))
    for f in ("trace_pipe", "trace", "trace_marker", "buffer_size_kb",
              "per_cpu/cpu0/trace_pipe_raw", "per_cpu/cpu0/stats"):
        flags = os.O_WRONLY if f == "trace_marker" else os.O_RDONLY
        fd = os.open(os.path.join(a, f), flags | os.O_NONBLOCK)
        attempt("rmdir inst-a with %s open" % f, lambda: os.rmdir(a))
        os.close(fd)
    attempt("rmdir inst-a", lambda: os.rmdir(a))
    attempt("rmdir inst-a again", lambda: os.rmdir(a))
    attempt("mkdir inst-a after rmdir", lambda: os.mkdir(a))
    attempt("rmdir inst-a after rmdir", lambda: os.rmdir(a))
    for name in ("a b", "-dash", ".dot", "x" * 255, "\u00e9t\u00e9", "a:b", "a,b"):
        attempt("mkdir %r" % name[:20], lambda: os.mkdir(os.path.join(top, name)))
        attempt("rmdir %r" % name[:20], lambda: os.rmdir(os.path.join(top, name)))
    attempt("mkdir 256 chars", lambda: os.mkdir(os.path.join(top, "y" * 256)))
    attempt("mkdir .", lambda: os.mkdir(os.path.join(top, ".")))
    attempt("mkdir ..", lambda: os.mkdir(os.path.join(top, "..")))
    attempt("rmdir .", lambda: os.rmdir(os.path.join(top, ".")))


def race(top, count, limit):
    d = os.path.join(top, "race")
    stop = time.time() + limit
    laps = [0]
    opened = [0]
    done = threading.Event()

    def churn():
        while time.time() < stop and (laps[0] < count or opened[0] < count):
            try:
                os.mkdir(d)
            except OSError:
                pass
            try:
                os.rmdir(d)
            except OSError:
                pass
            laps[0] += 1
        done.set()

    t = threading.Thread(target=churn)
    t.start()
    opens = refused = 0
    files = ("per_cpu/cpu0/trace_pipe_raw", "trace", "buffer_size_kb", "trace_marker",
             "per_cpu/cpu1/trace_pipe_raw", "trace_pipe")
    i = 0
    while not done.is_set():
        f = files[i % len(files)]
        i += 1
        try:
            if f == "trace_marker":
                fd = os.open(os.path.join(d, f), os.O_WRONLY)
                try:
                    os.write(fd, b"race")
                except OSError:
                    pass
            else:
                fd = os.open(os.path.join(d, f), os.O_RDONLY | os.O_NONBLOCK)
                try:
                    os.read(fd, 4096)
                except OSError:
                    pass
            opens += 1
            opened[0] = opens
            os.close(fd)
        except OSError as e:
            if e.errno not in (errno.ENOENT, errno.ENODEV, errno.EIO):
                raise
            refused += 1
    t.join()
    try:
        os.rmdir(d)
    except OSError:
        pass
    print("laps %d opens %d refused %d" % (laps[0], opens, refused))


def main():
    if sys.argv[1] == "ops":
        ops(sys.argv[2])
    elif sys.argv[1] == "race":
        race(sys.argv[2], int(sys.argv[3]),
             float(sys.argv[4]) if len(sys.argv) > 4 else 600.0)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
