#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""followio.py: a consuming reader open across "echo 1 > snapshot"
(test.d/snapshot/readers-follow.tc), for rbtrace's directory or ftrace's.

  followio.py pipe DIR
        trace_pipe: markers a1-a3 read, a4-a6 left unread, the swap, b1-b3;
        the second read must return b1-b3 alone; snapshot then shows
        a4-a6; "echo 0 > snapshot" with the reader still open succeeds
  followio.py raw DIR
        the same on per_cpu/cpu0/trace_pipe_raw, markers written on CPU 0:
        the pages read after the swap hold b1-b3 and nothing before
Prints "ok" or the first fault (exit 1).
"""
import errno
import os
import re
import sys

TAG = "flw"


def mark(d, names):
    fd = os.open(d + "/trace_marker", os.O_WRONLY)
    for n in names:
        os.write(fd, (TAG + n + "\n").encode())
    os.close(fd)


def ctl(path, val):
    fd = os.open(path, os.O_WRONLY)
    try:
        os.write(fd, val.encode())
    finally:
        os.close(fd)


def drain(fd, size):
    out = b""
    while True:
        try:
            b = os.read(fd, size)
        except OSError as e:
            if e.errno == errno.EAGAIN:
                return out
            raise
        if not b:
            return out
        out += b


def names(text):
    return re.findall(TAG + r"([ab]\d)", text.decode(errors="replace"))


def fail(msg):
    print("FAIL " + msg)
    sys.exit(1)


def run(d, raw):
    os.sched_setaffinity(0, {0})
    path = d + ("/per_cpu/cpu0/trace_pipe_raw" if raw else "/trace_pipe")
    size = os.sysconf("SC_PAGE_SIZE") * 4 if raw else 4096
    ctl(d + "/snapshot", "0")
    ctl(d + "/trace", "")
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    mark(d, ["a1", "a2", "a3"])
    got = names(drain(fd, size))
    if got != ["a1", "a2", "a3"]:
        fail("before the swap read %s" % got)
    mark(d, ["a4", "a5", "a6"])
    ctl(d + "/snapshot", "1")
    mark(d, ["b1", "b2", "b3"])
    got = names(drain(fd, size))
    if got != ["b1", "b2", "b3"]:
        fail("after the swap read %s (want b1-b3)" % got)
    with open(d + "/snapshot", "rb") as f:
        snap = names(f.read())
    if snap != ["a4", "a5", "a6"]:
        fail("snapshot shows %s (want a4-a6)" % snap)
    mark(d, ["b4"])
    got = names(drain(fd, size))
    if got != ["b4"]:
        fail("second read after the swap %s" % got)
    try:
        ctl(d + "/snapshot", "0")
    except OSError as e:
        fail("echo 0 > snapshot with the reader open: %s" % errno.errorcode[e.errno])
    os.close(fd)
    print("ok")


def main():
    run(sys.argv[2], sys.argv[1] == "raw")


if __name__ == "__main__":
    main()
