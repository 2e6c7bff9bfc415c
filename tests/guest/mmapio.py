#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mmapio.py: a user-space reader of a mapped trace_pipe_raw (ABI of
Linux 6.10's trace_mmap.h, rbtrace_mmap.h), for test.d/raw/mmap.tc.

  mmapio.py meta FILE
        map the meta page; print its fields as NAME=VALUE lines
  mmapio.py drain FILE PREFIX
        map the ring, then GET_READER until every event counted in the
        meta page is read; print each trace_marker string that starts
        with PREFIX ("msg TEXT"), each page's lost count ("lost N id I
        flags F") and at the end "entries E read R overrun O"
  mmapio.py errno FILE CASE
        one mapping that must fail; print the errno name or "ok": CASE is
        private, write, exec, past-end, too-long, partial-unmap
  mmapio.py hold FILE SECONDS
        map the ring and keep it for SECONDS; prints "mapped" when it is
"""
import ctypes
import errno
import fcntl
import os
import struct
import sys
import time

GET_READER = (ord('R') << 8) | 0x20          # _IO('R', 0x20)
META = struct.Struct('<IIIIQIIQQQQQQ')       # struct rbt_buffer_meta
META_FIELDS = ('meta_page_size', 'meta_struct_len', 'subbuf_size',
               'nr_subbufs', 'lost_events', 'id', 'read', 'flags',
               'entries', 'overrun', 'read_events', 'reserved1',
               'reserved2')
MISSED_EVENTS = 1 << 31
MISSED_STORED = 1 << 30
PAGE_HDR = 16                                # u64 time_stamp, u64 commit
PAGE = os.sysconf('SC_PAGE_SIZE')


PROT_READ, PROT_WRITE, PROT_EXEC = 1, 2, 4
MAP_SHARED, MAP_PRIVATE = 1, 2
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                      ctypes.c_int, ctypes.c_int, ctypes.c_long)
libc.munmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t)


def err_name(e):
    return errno.errorcode.get(e.errno, str(e.errno))


class Mapping:
    """mmap(2) itself: Python's mmap module refuses a debugfs file, whose
    size reads 0."""

    def __init__(self, fd, length, prot=PROT_READ, flags=MAP_SHARED, offset=0):
        addr = libc.mmap(None, length, prot, flags, fd, offset)
        if addr == ctypes.c_void_p(-1).value:
            e = ctypes.get_errno()
            raise OSError(e, os.strerror(e))
        self.addr, self.length = addr, length

    def __getitem__(self, s):
        return ctypes.string_at(self.addr + s.start, s.stop - s.start)

    def close(self):
        if libc.munmap(self.addr, self.length):
            e = ctypes.get_errno()
            raise OSError(e, os.strerror(e))


def read_meta(m):
    return dict(zip(META_FIELDS, META.unpack_from(m[0:META.size], 0)))


def map_meta(fd):
    return read_meta(Mapping(fd, PAGE))


def events(page, start, end):
    """Yield (type_len, payload) of the events in page[start:end]."""
    pos = PAGE_HDR + start
    end += PAGE_HDR
    while pos < end:
        word, = struct.unpack_from('<I', page, pos)
        type_len = word & 0x1f
        if type_len == 0:
            length, = struct.unpack_from('<I', page, pos + 4)
            yield 0, page[pos + 8:pos + 4 + length]
            pos += 4 + length
        elif type_len <= 28:
            yield type_len, page[pos + 4:pos + 4 + type_len * 4]
            pos += 4 + type_len * 4
        elif type_len == 29:                 # padding
            if not word >> 5:                # null padding: rest of page
                return
            length, = struct.unpack_from('<I', page, pos + 4)
            pos += 4 + length
        else:                                # time extend / stamp
            pos += 8


def marker_text(payload, prefix):
    i = payload.find(prefix)
    if i < 0:
        return None
    return payload[i:].split(b'\n')[0].split(b'\0')[0].decode()


def drain(path, prefix):
    prefix = prefix.encode()
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    meta_map = Mapping(fd, PAGE)
    meta = read_meta(meta_map)
    size = meta['meta_page_size'] + meta['subbuf_size'] * meta['nr_subbufs']
    ring = Mapping(fd, size)
    # Where earlier readers left off: the reader page and how much of it
    # GET_READER counted read.
    last_id, last_read = meta['id'], meta['read']
    for _ in range(100000):
        fcntl.ioctl(fd, GET_READER)
        meta = read_meta(meta_map)
        off = meta['meta_page_size'] + meta['id'] * meta['subbuf_size']
        page = ring[off:off + meta['subbuf_size']]
        commit, = struct.unpack_from('<Q', page, 8)
        start = last_read if meta['id'] == last_id else 0
        if meta['lost_events'] or commit & MISSED_EVENTS:
            print('lost %d id %d flags %x' % (meta['lost_events'], meta['id'],
                                                commit >> 30))
        for _, payload in events(page, start, meta['read']):
            text = marker_text(payload, prefix)
            if text is not None:
                print('msg', text)
        if meta['id'] == last_id and meta['read'] == last_read:
            break                            # nothing new: drained
        last_id, last_read = meta['id'], meta['read']
    print('entries %d read %d overrun %d' % (meta['entries'],
                                             meta['read_events'],
                                             meta['overrun']))


def one_errno(path, case):
    fd = os.open(path, os.O_RDONLY)
    meta = map_meta(fd)
    sub = meta['subbuf_size']
    size = meta['meta_page_size'] + sub * meta['nr_subbufs']
    args = {
        'private': (size, PROT_READ, MAP_PRIVATE, 0),
        'write': (size, PROT_READ | PROT_WRITE, MAP_SHARED, 0),
        'exec': (size, PROT_READ | PROT_EXEC, MAP_SHARED, 0),
        'past-end': (sub, PROT_READ, MAP_SHARED, size),
        'too-long': (size + sub, PROT_READ, MAP_SHARED, 0),
        'whole': (size, PROT_READ, MAP_SHARED, 0),
    }
    try:
        m = Mapping(fd, *args['whole' if case == 'partial-unmap' else case])
        if case == 'partial-unmap':
            # The last page alone: the kernel must refuse to split.
            if libc.munmap(m.addr + size - PAGE, PAGE):
                e = ctypes.get_errno()
                raise OSError(e, os.strerror(e))
        print('ok')
    except OSError as e:
        print(err_name(e))


def hold(path, seconds):
    fd = os.open(path, os.O_RDONLY)
    meta = map_meta(fd)
    size = meta['meta_page_size'] + meta['subbuf_size'] * meta['nr_subbufs']
    ring = Mapping(fd, size)
    print('mapped', flush=True)
    time.sleep(float(seconds))
    ring.close()


def main():
    cmd, path = sys.argv[1], sys.argv[2]
    if cmd == 'meta':
        meta = map_meta(os.open(path, os.O_RDONLY))
        for name in META_FIELDS:
            print('%s=%d' % (name, meta[name]))
    elif cmd == 'drain':
        drain(path, sys.argv[3])
    elif cmd == 'errno':
        one_errno(path, sys.argv[3])
    elif cmd == 'hold':
        hold(path, sys.argv[3])
    else:
        sys.exit('mmapio.py: unknown command ' + cmd)


if __name__ == '__main__':
    main()
