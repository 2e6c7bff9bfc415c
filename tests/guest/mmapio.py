#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mmapio.py: a user-space reader of a mapped trace_pipe_raw (ABI of
Linux 6.10's trace_mmap.h, rbtrace_mmap.h), for test.d/raw/mmap.tc and
test.d/raw/mmap-races.tc.

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
  mmapio.py mprotect FILE PROT
        map the ring read-only, then mprotect() it to PROT (exec, write,
        read); prints "ok" or the errno name
  mmapio.py madvise FILE ADVICE
        map the meta page and sub-buffer 0, then madvise(ADVICE: cold or
        pageout) the first page of sub-buffer 0 only; prints "ok" or the
        errno name, then holds the mapping until killed
  mmapio.py race-map FILE SECONDS LAPS
        from CPU 1, for SECONDS: map the whole ring (the CPU's first
        mapping), hand out sub-buffers with GET_READER for LAPS laps of
        the ring (0: four sub-buffers) or 2 s, unmap; prints "maps M
        pages P bad B failed F" (B: pages that do not parse, F: mmap()
        calls that failed) then "seq N" for each marker rs-N, in order
  mmapio.py race-splice FILE MARKER SECONDS
        from CPU 0, for SECONDS, in a tight loop: write the marker rs-N
        (N = 1, 2, ...) to MARKER, splice FILE (non-blocking, whole
        sub-buffers) into a pipe; prints "splices S busy B wrote N"
        (B: refused with EBUSY) then "seq N" for each marker rs-N read,
        in order
  mmapio.py race-check MAPOUT SPLICEOUT
        the outputs of race-map and race-splice: each reader's markers
        strictly increasing, none read by both, none past the last
        written, every page handed out parsed, every mmap() done;
        prints "ok M S" (markers read by each) or the first fault
  mmapio.py recycle FILE MARKER
        map the ring, write 200 markers, GET_READER; then, holding that
        sub-buffer, try read() and splice() on another descriptor, and a
        read() of the CPU's trace_pipe, while writing the ring over
        several times; prints "read R splice S pipe P page same|changed"
  mmapio.py get-reader FILE SECONDS
        GET_READER on a blocking descriptor of FILE that is not mapped;
        prints the errno name (or "ok") if it returns within SECONDS,
        else "slept" (SIGALRM ends the call)
  mmapio.py get-reader-swap FILE SNAPSHOT
        issue 26 item 1's sequence: open FILE (blocking), "1" to
        SNAPSHOT, a child sharing the descriptor calls GET_READER; then
        one O_NONBLOCK read (the file follows the live buffer), "0" to
        SNAPSHOT (frees the buffer the descriptor was opened on), the
        child killed; prints "child C read R free F" (C: the child's
        errno name, or "asleep" if it had not returned in 3 s)
  mmapio.py get-reader-unmap FILE SNAPSHOT
        the mapping goes away under a sleeping GET_READER: map the meta
        page, a child calls GET_READER (blocking, nothing to read: it
        sleeps), munmap, "1" to SNAPSHOT (the swap wakes it), one
        O_NONBLOCK read, "0" to SNAPSHOT; prints "first A then C read R
        free F" (A: "asleep" when the child slept before the munmap)
  mmapio.py map-window FILE MARKER PARAMS
        test builds (PARAMS: the module's parameters directory, with
        map_window_ms and map_window_waits): write markers rs-N on CPU 0,
        hold a first mmap() of the whole ring in its window (sub-buffer
        ids set, ring not mapped yet), splice FILE once inside it, let
        the mmap() finish and hand out the ring's sub-buffers; prints
        "splice S" (S: EBUSY, EAGAIN, or "took N" sub-buffers), then
        "mapped M dup D" (M markers read through the mapping, D of them
        spliced too) or "mmap failed ERRNO"
"""
import ctypes
import errno
import fcntl
import os
import re
import select
import signal
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
MADV_COLD, MADV_PAGEOUT = 20, 21
SPLICE_F_NONBLOCK = 2
MARKER = '/sys/kernel/debug/rbtrace/trace_marker'
libc = ctypes.CDLL(None, use_errno=True)
libc.mmap.restype = ctypes.c_void_p
libc.mmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int,
                      ctypes.c_int, ctypes.c_int, ctypes.c_long)
libc.munmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t)
libc.mprotect.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
libc.madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
libc.splice.restype = ctypes.c_ssize_t
libc.splice.argtypes = (ctypes.c_int, ctypes.c_void_p, ctypes.c_int,
                        ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint)


def check(ret):
    """Raise OSError for a libc call that returned -1."""
    if ret:
        e = ctypes.get_errno()
        raise OSError(e, os.strerror(e))


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


def ring_size(meta):
    return meta['meta_page_size'] + meta['subbuf_size'] * meta['nr_subbufs']


def first_meta(fd):
    """The meta page's fields, through a mapping that is gone on return
    (map_meta()'s stays, and keeps the CPU mapped)."""
    m = Mapping(fd, PAGE)
    meta = read_meta(m)
    m.close()
    return meta


def page_seqs(page, start, end, prefix):
    """The numbers N of the markers PREFIX + "N\\n" in page[start:end]."""
    pattern = re.compile(re.escape(prefix.encode()) + rb'([0-9]+)\n')
    out = []
    for _, payload in events(page, start, end):
        m = pattern.search(payload)
        if m:
            out.append(int(m.group(1)))
    return out


def do_mprotect(path, prot):
    fd = os.open(path, os.O_RDONLY)
    m = Mapping(fd, PAGE)
    prots = {'exec': PROT_READ | PROT_EXEC, 'write': PROT_READ | PROT_WRITE,
             'read': PROT_READ}
    try:
        # The whole VMA: a part would have to split it, which is refused.
        check(libc.mprotect(m.addr, m.length, prots[prot]))
        print('ok')
    except OSError as e:
        print(err_name(e))


def do_madvise(path, advice):
    fd = os.open(path, os.O_RDONLY)
    meta = first_meta(fd)
    ring = Mapping(fd, meta['meta_page_size'] + meta['subbuf_size'])
    advices = {'cold': MADV_COLD, 'pageout': MADV_PAGEOUT}
    try:
        # One page of sub-buffer 0, which is larger than a page.
        check(libc.madvise(ring.addr + meta['meta_page_size'], PAGE,
                           advices[advice]))
        print('ok', flush=True)
    except OSError as e:
        print(err_name(e), flush=True)
    time.sleep(3600)                         # until killed


def race_map(path, seconds, laps):
    os.sched_setaffinity(0, {1})
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    size = ring_size(first_meta(fd))
    seqs, maps, pages, bad, failed = [], 0, 0, 0, 0
    end = time.monotonic() + float(seconds)
    while time.monotonic() < end:
        # The only mapping of the CPU: each is a first mapping. One that
        # fails may have met a page the splicer had freed meanwhile.
        try:
            ring = Mapping(fd, size)
        except OSError:
            failed += 1
            continue
        maps += 1
        meta = read_meta(ring)
        last_id, last_read = meta['id'], meta['read']
        # LAPS laps of the ring (or 2 s), for a sub-buffer whose id went
        # stale to come round as the reader again; 0: four sub-buffers.
        want = int(float(laps) * meta['nr_subbufs']) or 4
        handed, stop = 0, min(end, time.monotonic() + 2)
        while handed < want and time.monotonic() < stop:
            fcntl.ioctl(fd, GET_READER)
            meta = read_meta(ring)
            if meta['id'] == last_id and meta['read'] == last_read:
                time.sleep(0.0005)           # nothing new yet
                continue
            off = meta['meta_page_size'] + meta['id'] * meta['subbuf_size']
            page = ring[off:off + meta['subbuf_size']]
            start = last_read if meta['id'] == last_id else 0
            try:
                seqs += page_seqs(page, start, meta['read'], 'rs-')
            except struct.error:
                bad += 1                     # not the page the id names
            handed += 1
            last_id, last_read = meta['id'], meta['read']
        pages += handed
        ring.close()
        # Every other time the splicer's turn; else the next mmap() at
        # once, the ring full of pages a splice could take meanwhile.
        if maps % 2:
            time.sleep(0.02)
    print('maps %d pages %d bad %d failed %d' % (maps, pages, bad, failed))
    for n in seqs:
        print('seq', n)


def subbuf_bytes(path):
    """A sub-buffer's size, header included, from events/header_page."""
    top = os.path.dirname(os.path.dirname(os.path.dirname(path)))
    with open(os.path.join(top, 'events', 'header_page')) as f:
        for line in f:
            if 'char data;' in line:
                return int(line.split('size:')[1].split(';')[0]) + PAGE_HDR
    raise ValueError('no data field in header_page')


def read_full(fd, n):
    data = b''
    while len(data) < n:
        data += os.read(fd, n - len(data))
    return data


def race_splice(path, marker, seconds):
    # The CPU the mapping reader leaves alone, and the one it reads.
    os.sched_setaffinity(0, {0})
    sub = subbuf_bytes(path)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    mk = os.open(marker, os.O_WRONLY)
    r, w = os.pipe()
    data, splices, busy, tries = [], 0, 0, 0
    end = time.monotonic() + float(seconds)
    # As tight a loop as Python makes, to splice within a first mmap():
    # splice(2) through ctypes (no exception for each EBUSY), the clock
    # read now and then, the pages parsed at the end. Each turn writes
    # the marker rs-N, N = 1, 2, ...
    while tries & 255 or time.monotonic() < end:
        tries += 1
        os.write(mk, b'rs-%d\n' % tries)
        n = libc.splice(fd, None, w, None, sub * 4, SPLICE_F_NONBLOCK)
        if n < 0:
            e = ctypes.get_errno()
            if e == errno.EBUSY:
                busy += 1
            elif e != errno.EAGAIN:
                raise OSError(e, os.strerror(e))
            continue
        if n:
            data.append(read_full(r, n))
            splices += 1
    seqs = []
    for chunk in data:
        for pos in range(0, len(chunk), sub):
            page = chunk[pos:pos + sub]
            commit, = struct.unpack_from('<Q', page, 8)
            seqs += page_seqs(page, 0, commit & (MISSED_STORED - 1), 'rs-')
    print('splices %d busy %d wrote %d' % (splices, busy, tries))
    for n in seqs:
        print('seq', n)


def race_check(map_out, splice_out):
    """Each reader's markers strictly increasing, none read twice, none
    past the last written: prints "ok" or the first fault found."""
    with open(map_out) as f:
        _, _, _, _, _, bad, _, failed = f.readline().split()
    with open(splice_out) as f:
        wrote = int(f.readline().split()[5])
    if int(failed):
        print('%s first mappings failed' % failed)
        return
    if int(bad):
        print('%s sub-buffers handed out do not parse as events' % bad)
        return
    got = {}
    for name, out in (('mapping', map_out), ('splice', splice_out)):
        with open(out) as f:
            got[name] = [int(line.split()[1]) for line in f
                         if line.startswith('seq ')]
        for a, b in zip(got[name], got[name][1:]):
            if b <= a:
                print('%s read rs-%d after rs-%d' % (name, b, a))
                return
    dup = set(got['mapping']) & set(got['splice'])
    if dup:
        print('read through both: %d markers, e.g. rs-%d' % (len(dup),
                                                            min(dup)))
        return
    top = max(got['mapping'] + got['splice'] + [0])
    if top > wrote:
        print('rs-%d read, only %d written' % (top, wrote))
        return
    print('ok %d %d' % (len(got['mapping']), len(got['splice'])))


def recycle(path, marker):
    os.sched_setaffinity(0, {0})
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    meta = first_meta(fd)
    ring = Mapping(fd, ring_size(meta))
    mk = os.open(marker, os.O_WRONLY)
    n = 0
    for n in range(1, 201):                  # over a sub-buffer
        os.write(mk, b'rc-%d\n' % n)
    fcntl.ioctl(fd, GET_READER)
    meta = read_meta(ring)
    off = meta['meta_page_size'] + meta['id'] * meta['subbuf_size']
    held = ring[off:off + meta['subbuf_size']]
    if not page_seqs(held, 0, meta['read'], 'rc-'):
        print('no markers in the sub-buffer handed out')
        return
    other = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    text = os.open(os.path.join(os.path.dirname(path), 'trace_pipe'),
                   os.O_RDONLY | os.O_NONBLOCK)
    r, w = os.pipe()
    res = {'read': set(), 'splice': set(), 'pipe': set()}
    # A consuming reader of another descriptor, and writers wrapping the
    # ring three times over meanwhile.
    for _ in range(3 * meta['nr_subbufs']):
        for _ in range(200):
            n += 1
            os.write(mk, b'rc-%d\n' % n)
        try:
            os.read(other, meta['subbuf_size'])
            res['read'].add('ok')
        except OSError as e:
            res['read'].add(err_name(e))
        try:
            read_full(r, os.splice(other, w, meta['subbuf_size'],
                                   flags=SPLICE_F_NONBLOCK))
            res['splice'].add('ok')
        except OSError as e:
            res['splice'].add(err_name(e))
        try:
            os.read(text, 4096)
            res['pipe'].add('ok')
        except OSError as e:
            res['pipe'].add(err_name(e))
    same = ring[off:off + meta['subbuf_size']] == held
    print('read %s splice %s pipe %s page %s' % (
        ','.join(sorted(res['read'])), ','.join(sorted(res['splice'])),
        ','.join(sorted(res['pipe'])), 'same' if same else 'changed'))


def write_file(path, text):
    """Write TEXT to PATH; "ok" or the errno name."""
    try:
        fd = os.open(path, os.O_WRONLY)
        try:
            os.write(fd, text.encode())
        finally:
            os.close(fd)
        return 'ok'
    except OSError as e:
        return err_name(e)


class Slept(Exception):
    pass


def on_alarm(signum, frame):
    raise Slept()


def get_reader(path, seconds):
    fd = os.open(path, os.O_RDONLY)
    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, float(seconds))
    try:
        fcntl.ioctl(fd, GET_READER)
        res = 'ok'
    except OSError as e:
        res = err_name(e)
    except Slept:
        res = 'slept'
    signal.setitimer(signal.ITIMER_REAL, 0)
    print(res)


def child_get_reader(fd):
    """Fork a child that calls GET_READER on FD and writes its outcome
    to a pipe: (pid, read end)."""
    r, w = os.pipe()
    pid = os.fork()
    if not pid:
        os.close(r)
        try:
            fcntl.ioctl(fd, GET_READER)
            res = 'ok'
        except OSError as e:
            res = err_name(e)
        os.write(w, res.encode())
        os._exit(0)
    os.close(w)
    return pid, r


def child_answer(r, seconds):
    if select.select([r], [], [], seconds)[0]:
        return os.read(r, 64).decode() or 'died'
    return 'asleep'


def read_nonblock(fd):
    """One read with O_NONBLOCK: "ok" or the errno name."""
    flags = fcntl.fcntl(fd, fcntl.F_GETFL)
    fcntl.fcntl(fd, fcntl.F_SETFL, flags | os.O_NONBLOCK)
    try:
        os.read(fd, 65536)
        res = 'ok'
    except OSError as e:
        res = err_name(e)
    fcntl.fcntl(fd, fcntl.F_SETFL, flags)
    return res


def get_reader_swap(path, snapshot):
    fd = os.open(path, os.O_RDONLY)
    res = write_file(snapshot, '1')
    if res != 'ok':
        sys.exit('echo 1 > snapshot: ' + res)
    # The swap's wake of the old buffer's sleepers (an irq_work) is done
    # before the child sleeps there.
    time.sleep(0.5)
    pid, r = child_get_reader(fd)
    child = child_answer(r, 3)
    rd = read_nonblock(fd)
    freed = write_file(snapshot, '0')
    # Unfixed, the child's wait entry is on the freed buffer's queue: the
    # kill takes it off there (KASAN: use-after-free).
    time.sleep(0.5)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    print('child %s read %s free %s' % (child, rd, freed))


def get_reader_unmap(path, snapshot):
    fd = os.open(path, os.O_RDONLY)
    meta = Mapping(fd, PAGE)
    # The mapping is VM_DONTCOPY: the child shares the descriptor only.
    pid, r = child_get_reader(fd)
    first = child_answer(r, 2)
    meta.close()
    swap = write_file(snapshot, '1')
    if swap != 'ok':
        sys.exit('echo 1 > snapshot after munmap: ' + swap)
    then = child_answer(r, 10) if first == 'asleep' else first
    rd = read_nonblock(fd)
    freed = write_file(snapshot, '0')
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    print('first %s then %s read %s free %s' % (first, then, rd, freed))


def read_param(params, name):
    with open(os.path.join(params, name)) as f:
        return int(f.read())


def map_window(path, marker, params):
    os.sched_setaffinity(0, {0})
    sub = subbuf_bytes(path)
    mk = os.open(marker, os.O_WRONLY)
    # Some sub-buffers the writer has left: a splice has pages to take.
    for n in range(1, sub * 3 // 16):
        os.write(mk, b'rs-%d\n' % n)
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    size = ring_size(first_meta(fd))
    waits = read_param(params, 'map_window_waits')
    write_file(os.path.join(params, 'map_window_ms'), '30000')
    r, w = os.pipe()
    pid = os.fork()
    if not pid:
        # The CPU's first mapping: it waits in the window until told.
        os.close(r)
        out = []
        try:
            ring = Mapping(fd, size)
            meta = read_meta(ring)
            last_id, last_read = meta['id'], meta['read']
            for _ in range(10000):
                fcntl.ioctl(fd, GET_READER)
                meta = read_meta(ring)
                if meta['id'] == last_id and meta['read'] == last_read:
                    break
                off = meta['meta_page_size'] + meta['id'] * meta['subbuf_size']
                page = ring[off:off + meta['subbuf_size']]
                start = last_read if meta['id'] == last_id else 0
                try:
                    out += page_seqs(page, start, meta['read'], 'rs-')
                except struct.error:
                    out.append(-1)           # not a page of events
                last_id, last_read = meta['id'], meta['read']
            os.write(w, ('mapped ' + ' '.join(map(str, out))).encode())
        except OSError as e:
            os.write(w, ('failed ' + err_name(e)).encode())
        os._exit(0)
    os.close(w)
    end = time.monotonic() + 30
    while read_param(params, 'map_window_waits') == waits:
        if time.monotonic() > end:
            sys.exit('the first mmap() never reached its window')
        time.sleep(0.05)
    # Inside the window: the ids are set, the ring not mapped yet.
    rp, wp = os.pipe()
    n = libc.splice(fd, None, wp, None, sub * 4, SPLICE_F_NONBLOCK)
    if n < 0:
        res = err_name(OSError(ctypes.get_errno(), ''))
        spliced = []
    else:
        res = 'took %d' % (n // sub)
        data = read_full(rp, n)
        spliced = []
        for pos in range(0, n, sub):
            page = data[pos:pos + sub]
            commit, = struct.unpack_from('<Q', page, 8)
            spliced += page_seqs(page, 0, commit & (MISSED_STORED - 1), 'rs-')
    write_file(os.path.join(params, 'map_window_ms'), '0')
    got = b''
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        got += chunk
    os.waitpid(pid, 0)
    print('splice', res)
    words = got.decode().split()
    if not words or words[0] != 'mapped':
        print('mmap', ' '.join(words))
        return
    seqs = [int(x) for x in words[1:]]
    print('mapped %d dup %d' % (len(seqs), len(set(seqs) & set(spliced))))


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
    elif cmd == 'mprotect':
        do_mprotect(path, sys.argv[3])
    elif cmd == 'madvise':
        do_madvise(path, sys.argv[3])
    elif cmd == 'race-map':
        race_map(path, sys.argv[3], sys.argv[4])
    elif cmd == 'race-splice':
        race_splice(path, sys.argv[3], sys.argv[4])
    elif cmd == 'race-check':
        race_check(path, sys.argv[3])
    elif cmd == 'recycle':
        recycle(path, sys.argv[3])
    elif cmd == 'get-reader':
        get_reader(path, sys.argv[3])
    elif cmd == 'get-reader-swap':
        get_reader_swap(path, sys.argv[3])
    elif cmd == 'get-reader-unmap':
        get_reader_unmap(path, sys.argv[3])
    elif cmd == 'map-window':
        map_window(path, sys.argv[3], sys.argv[4])
    else:
        sys.exit('mmapio.py: unknown command ' + cmd)


if __name__ == '__main__':
    main()
