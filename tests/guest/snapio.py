#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""snapio.py: writers and checker of test.d/snapshot/swap-stress.tc.

  snapio.py write CPU MARKER STOP OUT
        pinned to CPU, write "sw<CPU>-<N>-<N*7919 mod 65521>" to MARKER
        (N = 1, 2, ...) until the file STOP exists; write to OUT the last
        N and one line "failed N" for each write refused (buffer full:
        EBADF)
  snapio.py check OUTS... -- TEXTS...
        OUTS: the writers' OUT files; TEXTS: the snapshots read after
        each swap, in order, then the live trace. Every marker written
        is in exactly one text, whole, its CPU its writer's; no refused
        one is anywhere; each writer's markers come in order; per CPU the
        stamps never go back within a text, and the markers' stamps never
        go back from one text to the next. Prints "ok MARKERS TEXTS" or
        the first fault
"""
import errno
import os
import re
import sys

LINE = re.compile(r'\[(\d+)\] \S+ +(\d+)\.(\d+): (\S+): ?(.*)$')
MARK = re.compile(r'sw(\d+)-(\d+)-(\d+)$')


def write(cpu, marker, stop, out):
    os.sched_setaffinity(0, {cpu})
    fd = os.open(marker, os.O_WRONLY)
    failed = []
    n = 0
    while True:
        n += 1
        if n % 64 == 0 and os.path.exists(stop):
            n -= 1
            break
        msg = b"sw%d-%d-%d" % (cpu, n, n * 7919 % 65521)
        try:
            os.write(fd, msg)
        except OSError as e:
            if e.errno != errno.EBADF:
                raise
            failed.append(n)
    with open(out, "w") as f:
        f.write("last %d %d\n" % (cpu, n))
        for i in failed:
            f.write("failed %d\n" % i)


def check(outs, texts):
    last = {}
    failed = {}
    for o in outs:
        with open(o) as f:
            first = f.readline().split()
            cpu, n = int(first[1]), int(first[2])
            last[cpu] = n
            failed[cpu] = {int(line.split()[1]) for line in f}
    seen = {}
    prev_mark_ts = {}
    for t_idx, t in enumerate(texts):
        prev_ts = {}
        with open(t, errors="replace") as f:
            for line in f:
                if line.startswith("#"):
                    continue
                m = LINE.search(line)
                if not m:
                    continue
                cpu = int(m.group(1))
                ts = int(m.group(2)) * 1000000 + int(m.group(3))
                if ts < prev_ts.get(cpu, 0):
                    return "%s: CPU %d stamp goes back: %s" % (t, cpu, line.strip())
                prev_ts[cpu] = ts
                if m.group(4) != "tracing_mark_write":
                    continue
                mk = MARK.match(m.group(5).strip())
                if not mk:
                    if m.group(5).startswith("sw"):
                        return "%s: marker not whole: %s" % (t, line.strip())
                    continue
                w, n, chk = (int(x) for x in mk.groups())
                if chk != n * 7919 % 65521:
                    return "%s: marker corrupted: %s" % (t, line.strip())
                if w != cpu:
                    return "%s: writer %d's marker on CPU %d" % (t, w, cpu)
                if (w, n) in seen:
                    return "marker sw%d-%d in %s and %s" % (w, n, seen[(w, n)], t)
                if n in failed.get(w, ()):
                    return "refused marker sw%d-%d in %s" % (w, n, t)
                if ts < prev_mark_ts.get(w, (0, 0))[0]:
                    return "%s: sw%d-%d stamped before the previous marker" % (t, w, n)
                if n < prev_mark_ts.get(w, (0, 0))[1]:
                    return "%s: sw%d-%d after sw%d-%d" % (t, w, n, w, prev_mark_ts[w][1])
                prev_mark_ts[w] = (ts, n)
                seen[(w, n)] = t
    for w, n in last.items():
        for i in range(1, n + 1):
            if i not in failed[w] and (w, i) not in seen:
                return "marker sw%d-%d written but in no text" % (w, i)
    return "ok %d %d" % (len(seen), len(texts))


def main():
    if sys.argv[1] == "write":
        write(int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5])
    elif sys.argv[1] == "check":
        args = sys.argv[2:]
        sep = args.index("--")
        print(check(args[:sep], args[sep + 1:]))
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
