#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""rawio.py: system-call level helpers for the trace_pipe_raw and
trace_pipe scenarios (20-*.tc ... ), where the shell cannot say exactly
which read, splice, poll or ioctl it makes.

  rawio.py dump FILE OUT PAGE [--splice]
        read FILE (O_NONBLOCK) to OUT until nothing is left: with --splice,
        whole sub-buffers through a pipe first, then read() for the rest;
        prints "pages N spliced M"
  rawio.py small FILE OUT CHUNK
        read FILE in CHUNK-byte reads until EAGAIN; prints the byte count
  rawio.py errno FILE OP [ARG]
        one operation, prints "ok N" or the errno name: OP is read (ARG
        bytes, non-blocking), splice (ARG bytes, non-blocking), splice-off
        (read 1 byte, then splice ARG bytes), ioctl (command ARG), lseek
        (to ARG)
  rawio.py wake FILE KIND
        block in KIND (read or splice) on FILE in a thread, then
        ioctl(fd, 0) from another: prints "woken RESULT SECONDS"
  rawio.py poll FILE MS
        poll FILE for MS milliseconds: prints "ready" or "timeout"
"""
import errno
import fcntl
import os
import select
import sys
import threading
import time

SPLICE_F_NONBLOCK = 2


def err_name(e):
    return errno.errorcode.get(e.errno, str(e.errno))


def dump(path, out, page, splice):
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    spliced = 0
    with open(out, "wb") as f:
        if splice:
            r, w = os.pipe()
            fcntl.fcntl(w, 1031, 16 * page)  # F_SETPIPE_SZ
            while True:
                try:
                    n = os.splice(fd, w, 16 * page, flags=SPLICE_F_NONBLOCK)
                except BlockingIOError:
                    break
                if n == 0:
                    break
                if n % page:
                    sys.exit("splice returned %d, not whole sub-buffers" % n)
                spliced += n // page
                while n:
                    data = os.read(r, n)
                    f.write(data)
                    n -= len(data)
        while True:
            try:
                data = os.read(fd, page)
            except BlockingIOError:
                break
            if not data:
                break
            if len(data) != page:
                sys.exit("read returned %d bytes, not a sub-buffer" % len(data))
            f.write(data)
        pages = f.tell() // page
    print("pages %d spliced %d" % (pages, spliced))


def small(path, out, chunk):
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    total = 0
    with open(out, "wb") as f:
        while True:
            try:
                data = os.read(fd, chunk)
            except BlockingIOError:
                break
            if not data:
                break
            f.write(data)
            total += len(data)
    print(total)


def one_errno(path, op, arg):
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if op == "read":
            n = len(os.read(fd, arg))
        elif op in ("splice", "splice-off"):
            if op == "splice-off":
                os.read(fd, 1)
            r, w = os.pipe()
            n = os.splice(fd, w, arg, flags=SPLICE_F_NONBLOCK)
        elif op == "ioctl":
            n = fcntl.ioctl(fd, arg)
        elif op == "lseek":
            n = os.lseek(fd, arg, os.SEEK_SET)
        else:
            sys.exit("unknown op " + op)
        print("ok %d" % n)
    except OSError as e:
        print(err_name(e))


def wake(path, kind):
    fd = os.open(path, os.O_RDONLY)
    result = []

    def reader():
        try:
            if kind == "read":
                result.append("ok %d" % len(os.read(fd, 1 << 20)))
            else:
                r, w = os.pipe()
                result.append("ok %d" % os.splice(fd, w, 1 << 16))
        except OSError as e:
            result.append(err_name(e))

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    time.sleep(1)
    if not t.is_alive():
        print("not-blocked %s" % result[0])
        return
    start = time.monotonic()
    fcntl.ioctl(fd, 0)
    t.join(5)
    print("woken %s %.1f" % (result[0] if result else "still-blocked",
                             time.monotonic() - start))


def poll(path, ms):
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    p = select.poll()
    p.register(fd, select.POLLIN)
    print("ready" if p.poll(ms) else "timeout")


def main():
    a = sys.argv[1:]
    if not a:
        sys.exit(__doc__)
    if a[0] == "dump":
        dump(a[1], a[2], int(a[3]), "--splice" in a[4:])
    elif a[0] == "small":
        small(a[1], a[2], int(a[3]))
    elif a[0] == "errno":
        one_errno(a[1], a[2], int(a[3]) if len(a) > 3 else 0)
    elif a[0] == "wake":
        wake(a[1], a[2])
    elif a[0] == "poll":
        poll(a[1], int(a[2]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
