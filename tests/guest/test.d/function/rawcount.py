#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""rawcount.py [--field TYPE OFFSET] PAGE FILE...: count the records of
each common_type in the sub-buffers of trace_pipe_raw dumps (ftrace's page
format: u64 stamp, u64 commit, then 4-byte event headers); prints "TYPE
COUNT" lines. With --field: "PID VALUE" for each record of TYPE instead,
VALUE the u32 at OFFSET in it, in the dumps' order."""
import struct
import sys
from collections import Counter


def walk(page, counts, field=None):
    commit = struct.unpack_from("<Q", page, 8)[0] & 0xfffff
    off, end = 16, 16 + commit
    while off + 4 <= end:
        hdr = struct.unpack_from("<I", page, off)[0]
        tl = hdr & 0x1f
        off += 4
        if tl == 29:            # padding
            if hdr >> 5 == 0:
                break
            off += struct.unpack_from("<I", page, off)[0]
            continue
        if tl in (30, 31):      # time extend, time stamp
            off += 4
            continue
        if tl == 0:
            n = struct.unpack_from("<I", page, off)[0] - 4
            off += 4
        else:
            n = tl * 4
        t = struct.unpack_from("<H", page, off)[0]
        counts[t] += 1
        if field and t == field[0]:
            pid = struct.unpack_from("<i", page, off + 4)[0]
            print(pid, struct.unpack_from("<I", page, off + field[1])[0])
        off += n


def main():
    args = sys.argv[1:]
    field = None
    if args[0] == "--field":
        field = (int(args[1]), int(args[2]))
        args = args[3:]
    size = int(args[0])
    counts = Counter()
    for path in args[1:]:
        data = open(path, "rb").read()
        for i in range(0, len(data) - size + 1, size):
            walk(data[i:i + size], counts, field)
    if not field:
        for t, c in sorted(counts.items()):
            print(t, c)


main()
