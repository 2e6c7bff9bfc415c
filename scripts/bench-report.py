#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn rbtrace_bench lines into the results table (markdown) and plot data."""
import argparse
import re
import sys

LINE = re.compile(r'impl=(\w+) size=(\d+) writers=(\d+) reader=(\d) events=(\d+) '
                  r'ns_per_event=([\d.]+)')
SIZES = (4, 10, 64, 256)


def parse(path):
    res = {}
    for line in open(path):
        m = LINE.search(line)
        if m:
            impl, size, writers, reader, _, ns = m.groups()
            res[(impl, int(size), int(writers), int(reader))] = float(ns)
    return res


def variants_table(res):
    """One writer, no reader: the latch clock and the one-call write beside the default."""
    if not any((i, s, 1, 0) in res for i in ('rbtrace_latch', 'rbtrace_write') for s in SIZES):
        return []
    out = ['### One writer, no reader: other ways in', '',
           'rbtrace on its latch clock (inlined into the write path); `rbt_write()` of a '
           'record against `ring_buffer_write()` (one call that reserves, copies and commits); '
           'rbtrace on a buffer in memory reserved at boot (`memmap=`, `rbt_alloc_in()`: the '
           'persistent buffer, whose commits are noted in the range\'s header).', '',
           '| payload | rbtrace ns | rbtrace latch ns | rbt_write ns | ring_buffer_write ns '
           '| rbt_write / ring_buffer_write | rbt_write / limit | persistent ns | persistent / rbtrace |',
           '|---:|---:|---:|---:|---:|---:|---:|---:|---:|']
    for size in SIZES:
        g = {i: res.get((i, size, 1, 0)) for i in
             ('rbtrace', 'rbtrace_latch', 'rbtrace_write', 'ftrace_write', 'limit',
              'rbtrace_persist')}
        if g['rbtrace'] is None:
            continue

        def f(x):
            return f'{x:.1f}' if x else '-'

        def r(a, b):
            return f'{a / b:.2f}x' if a and b else '-'
        out.append(f"| {size} B | {f(g['rbtrace'])} | {f(g['rbtrace_latch'])} | "
                   f"{f(g['rbtrace_write'])} | {f(g['ftrace_write'])} | "
                   f"{r(g['rbtrace_write'], g['ftrace_write'])} | {r(g['rbtrace_write'], g['limit'])} | "
                   f"{f(g['rbtrace_persist'])} | {r(g['rbtrace_persist'], g['rbtrace'])} |")
    return out + ['']


def kv_lines(path, tag):
    """The key=value lines of a kind ("readbench", "hackbench", "mem")."""
    out = []
    for line in open(path):
        f = line.split()
        if f and f[0] == tag:
            d = {}
            for kv in f[1:]:
                if '=' in kv:
                    k, v = kv.split('=', 1)
                    d[k] = v
            out.append(d)
    return out


def median(xs):
    xs = sorted(xs)
    n = len(xs)
    return (xs[n // 2] + xs[(n - 1) // 2]) / 2 if n else 0.0


def read_tables(path, clock):
    rows = kv_lines(path, 'readbench')
    if not rows:
        return []
    get = {}
    for r in rows:
        get.setdefault((r['impl'], r['mode'], int(r['size'])), []).append(r)
    out = [f'### Read throughput ({clock})', '',
           'Markers of the payload size written by one task on CPU 1 to `trace_marker` '
           '(ftrace\'s `print` record: 16-byte header + text + NUL, so 10 B make a 32-byte '
           'event and 256 B a 280-byte one); read by `bench/rbt_readbench` on CPU 0. '
           '**drain**: all the events in a 16 MiB/CPU buffer, then `splice()` of '
           '`per_cpu/cpu1/trace_pipe_raw` into a tmpfs file until empty (the last partial '
           'page by `read()`). **live**: the same splice reader while the writer writes, '
           'into 256 KiB (and 1 MiB) per CPU in overwrite mode, three times: lost = '
           'written - read (= the stats file\'s overrun = the missed counts in the page '
           'headers); the reader sleeps 1 ms when no page is full, about the time the '
           'writer takes to fill 256 KiB with 256-byte events under -icount, so that row '
           'measures when the reader\'s vCPU ran more than the read path. '
           '**trace_pipe**: the events in the buffer read as text, 64 KiB reads. Each test '
           'runs three times under -icount, twelve by the wall clock, the two tracers in turn '
           'within each run: MB/s and events/s '
           'are medians, read / lost every run '
           '(once when all agree).', '',
           '| test | payload | rbtrace MB/s | ftrace MB/s | rbtrace events/s | ftrace events/s '
           '| rbtrace / ftrace | rbtrace read / lost | ftrace read / lost |',
           '|---|---:|---:|---:|---:|---:|---:|---:|---:|']

    def cell(rs):
        mbps = median([float(r['MBps']) for r in rs])
        eps = median([float(r['events_per_s']) for r in rs])
        rl = ', '.join(dict.fromkeys(f"{r['events']} / {int(r['written']) - int(r['events'])}"
                                     for r in rs))
        return mbps, eps, rl
    for mode, name in (('drain', 'splice, drain'), ('live', 'splice, live 256 KiB'),
                       ('live1024', 'splice, live 1 MiB'), ('pipe', 'trace_pipe text')):
        for size in (10, 256):
            a, b = get.get(('rbtrace', mode, size)), get.get(('ftrace', mode, size))
            if not a or not b:
                continue
            am, ae, arl = cell(a)
            bm, be, brl = cell(b)
            out.append(f'| {name} | {size} B | {am:.1f} | {bm:.1f} | {ae:,.0f} | {be:,.0f} '
                       f'| {ratio(am, bm)} | {arl} | {brl} |')
    return out + ['']


def overhead_cells(xs, base, recorded, is_off):
    """Median, overhead against the off runs and ns per event recorded."""
    med = median(xs)
    over = f'{(med / base - 1) * 100:+.1f}%' if base and not is_off else '-'
    nrec = median(recorded)
    per = f'{(med - base) * 1e9 / nrec:.0f}' if nrec and base else '-'
    return med, over, nrec, per


def overhead_ratio(runs, base, what):
    """rbtrace's overhead over ftrace's, as a sentence."""
    if not (base and 'rbtrace' in runs and 'ftrace' in runs):
        return []
    ro = median(runs['rbtrace']) / base - 1
    fo = median(runs['ftrace']) / base - 1
    return ['', f'rbtrace\'s overhead / ftrace\'s ({what}): '
            f'{ratio(ro, fo) if fo > 0 and ro > 0 else "n/a"} '
            f'({ro * 100:+.1f}% against {fo * 100:+.1f}%).']


def hackbench_args(path, kind, after):
    """hackbench's arguments, which have spaces: args=... up to ' AFTER='."""
    with open(path) as f:
        for line in f:
            if line.startswith(kind + ' '):
                return line.split('args=', 1)[1].split(f' {after}=')[0]
    return ''


def hackbench_table(path, clock):
    rows = kv_lines(path, 'hackbench')
    setups = kv_lines(path, 'hackbench-setup')
    if not rows:
        return []
    args = hackbench_args(path, 'hackbench-setup', 'runs')
    events = setups[0].get('events', '') if setups else ''
    out = [f'### Tracing overhead: hackbench ({clock})', '',
           f'`hackbench {args}` (rt-tests), the runs of the five set-ups interleaved, each '
           'buffer 4 MiB per CPU in overwrite mode; "recorded" is entries + overrun summed '
           'over the CPUs after the run, and "ns per event recorded" is (median - median '
           'off) / median recorded. On both CPUs the number of events a run records varies '
           'by 2x from run to run (hackbench\'s scheduling across vCPUs is not repeatable '
           'even under -icount): differences smaller than the spread are noise there. Pinned '
           'to one CPU (`taskset -c 1`) the runs repeat within 1% but record fewer events. '
           'The events both have: ' + ', '.join(f'`{e}`' for e in events.split(',') if e) +
           '.', '']
    names = {'off': 'tracepoints off',
             'ftrace': 'ftrace, the events both have',
             'rbtrace': 'rbtrace, the events both have',
             'ftrace-all': 'ftrace, `sched:*` `irq:*` (all of its)',
             'rbtrace-all': 'rbtrace, `sched:*` `irq:*` (all of its)'}
    for cpus in dict.fromkeys(r.get('cpus', 'all') for r in rows):
        runs, rec = {}, {}
        for r in rows:
            if r.get('cpus', 'all') != cpus:
                continue
            runs.setdefault(r['impl'], []).append(float(r['seconds']))
            rec.setdefault(r['impl'], []).append(int(r['recorded']))
        base = median(runs.get('off', [0]))
        where = 'both CPUs' if cpus == 'all' else f'pinned to CPU {cpus}'
        out += [f'**{where}**', '',
                '| tracing | runs s | median s | spread (max-min) | overhead '
                '| events recorded (median) | ns per event recorded |',
                '|---|---|---:|---:|---:|---:|---:|']
        for impl in ('off', 'ftrace', 'rbtrace', 'ftrace-all', 'rbtrace-all'):
            if impl not in runs:
                continue
            xs = runs[impl]
            med, over, nrec, per = overhead_cells(xs, base, rec[impl], impl == 'off')
            spread = max(xs) - min(xs)
            out.append(f'| {names[impl]} | {" ".join(f"{x:.3f}" for x in xs)} | {med:.3f} '
                       f'| {spread:.3f} ({spread / med * 100:.1f}%) | {over} '
                       f'| {nrec:,.0f} | {per} |')
        out += overhead_ratio(runs, base, f'same events, {where}') + ['']
    return out + ['']


def hackbench_every_table(path, clock):
    """hackbench with every event on (trace-cmd record -e all) in each tracer."""
    rows = kv_lines(path, 'hackbench-every')
    if not rows:
        return []
    args = hackbench_args(path, 'hackbench-every', 'impl')
    out = [f'### Tracing overhead: hackbench with every event on ({clock})', '',
           f'`hackbench {args}` on both CPUs, `events/enable` = 1 in one tracer at '
           'a time (what `trace-cmd record -e all` does), buffers of 4 MiB per CPU in '
           'overwrite mode, the runs of one tracer in a block (enabling every event takes '
           'seconds). rbtrace records the kernel\'s events it has no native probe for through '
           'a perf counter per CPU; "events" is how many each tracer had on.', '',
           '| tracing | events | runs s | median s | overhead | events recorded (median) '
           '| ns per event recorded |',
           '|---|---:|---|---:|---:|---:|---:|']
    runs, rec, nev = {}, {}, {}
    for r in rows:
        runs.setdefault(r['impl'], []).append(float(r['seconds']))
        rec.setdefault(r['impl'], []).append(int(r['recorded']))
        nev[r['impl']] = r['events']
    base = median(runs.get('off', [0]))
    for impl in ('off', 'ftrace', 'rbtrace'):
        if impl not in runs:
            continue
        med, over, nrec, per = overhead_cells(runs[impl], base, rec[impl], impl == 'off')
        out.append(f'| {"tracepoints off" if impl == "off" else impl} | {nev[impl]} '
                   f'| {" ".join(f"{x:.3f}" for x in runs[impl])} | {med:.3f} | {over} '
                   f'| {nrec:,.0f} | {per} |')
    return out + overhead_ratio(runs, base, 'every event') + ['']


def snap_table(path):
    """bench.sh part snap: the write() of "echo 1 > snapshot"."""
    rows = [r for r in kv_lines(path, 'snapbench') if 'median_us' in r]
    if not rows:
        return []
    out = ['### Snapshot swap: one "echo 1 > snapshot" (QEMU -icount, 2 vCPUs)', '',
           'The write() timed from user space, a marker writer on CPU 1 meanwhile. '
           'ftrace only where the kernel has CONFIG_TRACER_SNAPSHOT (stock 6.12, not '
           'the test kernel).', '',
           '| tracer | swaps | median us | p99 us | max us |', '|---|---|---|---|---|']
    for r in rows:
        out.append(f"| {r['impl']} | {r['swaps']} | {r['median_us']} | {r['p99_us']} | {r['max_us']} |")
    opens = [r for r in kv_lines(path, 'snapopen') if 'open_median_us' in r]
    if opens:
        out += ['', '"echo 1 > snapshot" then at once an open() and close() of snapshot '
                'for reading: rbtrace\'s open waits for the writers still on the snapshot '
                '(the rest of the grace period the write started).', '',
                '| tracer | swaps | write median us | write p99 us | open median us '
                '| open p99 us | open max us |', '|---|---|---|---|---|---|---|']
        for r in opens:
            out.append(f"| {r['impl']} | {r['swaps']} | {r['write_median_us']} | "
                       f"{r['write_p99_us']} | {r['open_median_us']} | {r['open_p99_us']} | "
                       f"{r['open_max_us']} |")
    return out + ['']


def uclock_table(path, clock):
    """bench.sh part uclock: one stamp from user space, three ways."""
    rows = kv_lines(path, 'uclockbench')
    ops = ['user_read', 'clock_gettime_mono', 'marker_rbtrace', 'marker_ftrace']
    ns = {op: [float(r['ns']) for r in rows if r.get('op') == op] for op in ops}
    if not ns['user_read']:
        return []
    cs = sorted({r['name'] for r in rows if r.get('op') == 'clocksource'})
    what = {'user_read': 'rbtrace_clock_read() of trace_clock_page (latch clock)',
            'clock_gettime_mono': 'clock_gettime(CLOCK_MONOTONIC)',
            'marker_rbtrace': 'write() of 10 bytes to rbtrace\'s trace_marker',
            'marker_ftrace': 'write() of 10 bytes to ftrace\'s trace_marker'}
    base = median(ns['user_read'])
    out = [f'### A stamp from user space ({clock})', '',
           f'ns per call, three runs; the guest\'s clocksource: {", ".join(cs) or "unknown"} '
           '(the vDSO serves CLOCK_MONOTONIC only from tsc or a paravirtual clock; '
           'else clock_gettime() is a system call).', '',
           '| call | runs (ns) | median ns | x user read |', '|---|---|---|---|']
    for op in ops:
        if ns[op]:
            m = median(ns[op])
            out.append(f'| {what[op]} | {" ".join(f"{x:.1f}" for x in ns[op])} | {m:.1f} '
                       f'| {m / base if base else 0:.1f} |')
    return out + ['']


def mem_table(path):
    rows = kv_lines(path, 'mem')
    if not rows:
        return []
    grow = {r['impl']: r for r in rows if r['what'] == 'grow'}
    hold = {}
    for r in rows:
        if r['what'] == 'hold':
            hold.setdefault(r['impl'], []).append(r)
    out = ['## Memory beyond the data pages', '',
           'Measured in the guest from `/proc/slabinfo` (bytes in use, active objects x '
           'object size, summed over every cache) and `MemFree` around two operations. '
           '**Per sub-buffer**: `buffer_size_kb` of each grown from 1 MiB to 17 MiB per CPU '
           '(4096 more 4 KiB pages per CPU); the slab delta over the pages added is the '
           'descriptor of one page (MemFree, in the raw line, moves by several MiB either way '
           'with per-CPU page lists and frees deferred from earlier steps: not used). **Per buffer**: the bench module loaded with '
           '`hold_kb=8 hold_count=256`, holding 256 buffers of one kind (`ring_buffer_alloc()` '
           '/ `rbt_alloc()`, 8 KiB per CPU) against the same module holding none, median of '
           'three, divided by 256 x CPUs: the per-CPU structure, the reader page\'s and the '
           'few pages\' descriptors, plus the buffer\'s global part. SLUB counts a CPU\'s '
           'partly used slab as in use (one slab of granularity, spread over 512 buffers '
           'here), and deferred frees of the step before may land in a window (2 s settle).', '',
           '| | rbtrace | ftrace | rbtrace / ftrace |', '|---|---:|---:|---:|']
    if 'rbtrace' in grow and 'ftrace' in grow:
        per = {}
        for impl in ('rbtrace', 'ftrace'):
            g = grow[impl]
            pages = int(g['pages_per_cpu']) * int(g['cpus'])
            per[impl] = int(g['slab_bytes']) / pages
        out.append(f'| slab bytes per data page | {per["rbtrace"]:.1f} | {per["ftrace"]:.1f} '
                   f'| {ratio(per["rbtrace"], per["ftrace"])} |')
    if 'none' in hold:
        def med(impl, key):
            return median([int(r[key]) for r in hold[impl]])
        fixed, pcpu, mfree = {}, {}, {}
        for impl in ('rbtrace', 'ftrace'):
            if impl in hold:
                n = int(hold[impl][0]['buffers']) * int(hold[impl][0]['cpus'])
                fixed[impl] = (med(impl, 'slab_bytes') - med('none', 'slab_bytes')) / n
                pcpu[impl] = (med(impl, 'percpu_kb') - med('none', 'percpu_kb')) * 1024 / n
                mfree[impl] = (med(impl, 'memfree_kb') - med('none', 'memfree_kb')) / n
        if len(fixed) == 2:
            out.append(f'| slab bytes per CPU of an 8 KiB/CPU buffer | {fixed["rbtrace"]:.0f} '
                       f'| {fixed["ftrace"]:.0f} | {ratio(fixed["rbtrace"], fixed["ftrace"])} |')
            out.append(f'| percpu allocator bytes per CPU of a buffer | {pcpu["rbtrace"]:.0f} '
                       f'| {pcpu["ftrace"]:.0f} | - |')
            out.append(f'| MemFree KiB per CPU of an 8 KiB/CPU buffer (data + reader page + '
                       f'slab) | {mfree["rbtrace"]:.1f} | {mfree["ftrace"]:.1f} | - |')
            if 'rbtrace' in grow and 'ftrace' in grow:
                for mb in (1, 4):
                    pg = mb * 256
                    r = fixed['rbtrace'] + pcpu['rbtrace'] + per['rbtrace'] * pg
                    f = fixed['ftrace'] + pcpu['ftrace'] + per['ftrace'] * pg
                    out.append(f'| bytes per CPU beyond the data pages, {mb} MiB per CPU '
                               f'(computed from the rows above) | {r:,.0f} | {f:,.0f} '
                               f'| {ratio(r, f)} |')
        out += ['', 'Raw (slab bytes, MemFree and Percpu KiB deltas): ' + '; '.join(
            f"{impl} {r['what']}{' ' + r['rep'] if 'rep' in r else ''}: slab "
            f"{r['slab_bytes']}, MemFree {r['memfree_kb']}"
            f"{', Percpu ' + r['percpu_kb'] if 'percpu_kb' in r else ''}"
            for impl in ('none', 'rbtrace', 'ftrace')
            for r in ([grow[impl]] if impl in grow else []) + hold.get(impl, [])) + '.']
    return out + ['']


LTTNG = [
    '## LTTng', '',
    'Not on the test kernel: Debian 12\'s `lttng-modules-dkms` (2.13.9-1+deb12u1, the only version in '
    'bookworm) does not build against the test kernel (6.12.117). Upstream 2.13.9 '
    'supports Linux up to 6.2 (its changelog: "adds support for v6.2"); 6.12 support came in '
    'later 2.13.x/2.14 releases, not in Debian 12. `make -C <test kernel> M=... modules '
    'CONFIG_LTTNG=m -k` stops with 321 errors, among them in the ring buffer library itself '
    '(`lttng-lib-ring-buffer`, the part a third write-cost column needs): `strlcpy` '
    '(removed in 6.8) in ring_buffer_backend.c, `vm_flags` now read-only (6.3) in '
    'ring_buffer_mmap.c, `uprobe_register()`\'s new signature (6.12) through wrapper/uprobes.h; '
    'and in the probes `uuid_le` (gone), `cpuinfo_x86.phys_proc_id`, and tracepoint '
    'prototypes that changed (`sched_stat_runtime`, `timer_start`, `hrtimer_start`). '
    'On Debian\'s stock 6.1 kernel, the pairing Debian ships, it builds but for its timer probe, '
    'left out by `bench/lttng.sh`: the next section.', '']


def ratio(a, b):
    return f'{a / b:.2f}x' if a and b else 'n/a'


def table(res, writers, reader, title):
    has_limit = not reader
    rows = [f'### {title}', '',
            '| payload | rbtrace ns | ftrace ns' + (' | limit ns' if has_limit else '') +
            ' | rbtrace / ftrace' + (' | rbtrace / limit' if has_limit else '') + ' |',
            '|---:|---:|---:' + ('|---:' if has_limit else '') + '|---:' +
            ('|---:' if has_limit else '') + '|']
    for size in SIZES:
        r = res.get(('rbtrace', size, writers, reader))
        f = res.get(('ftrace', size, writers, reader))
        lim = res.get(('limit', size, writers, reader))
        if r is None or f is None:
            continue
        row = f'| {size} B | {r:.1f} | {f:.1f}'
        if has_limit:
            row += f' | {lim:.1f}' if lim else ' | n/a'
        row += f' | {ratio(r, f)}'
        if has_limit:
            row += f' | {ratio(r, lim)}'
        rows.append(row + ' |')
    return rows + ['']


def writer_counts(res):
    return sorted({k[2] for k in res})


def events_table(path):
    """bench/events.sh: instructions one tracepoint event costs (-icount), per route."""
    rows = kv_lines(path, 'evbench')
    if not rows:
        return []

    def med(impl, ev=None):
        return median([float(r['ns_per_call']) for r in rows
                       if r['impl'] == impl and (ev is None or r['event'] == ev)])
    routes = {}
    for line in open(path):
        f = line.split()
        if len(f) == 3 and f[0] == 'evroute':
            routes[f[1]] = f[2]
    off, offcwd = med('off'), med('offcwd')
    out = ['### Cost of one tracepoint event, per route', '',
           'A system call in a loop on CPU 1 (bench/rbt_evbench): getppid() fires '
           'raw_syscalls:sys_enter and syscalls:sys_enter_getppid, getcwd() one '
           'kmem:kmem_cache_alloc; guest instructions per call minus the same loop without '
           'tracing, median of 3 (the syscall tracepoint slow path is in the syscall figures). '
           'The routes: tp_events.h (a hand-written probe), syscalls (one probe for every '
           'syscall event, kevents_syscalls.c), native (the kernel\'s definition compiled, '
           'kn_stage.h), perf (a perf counter per CPU: rbtrace loaded with native_events=0).', '',
           '| event | route | ftrace | rbtrace | rbtrace / ftrace | through perf | perf / ftrace |',
           '|---|---|---:|---:|---:|---:|---:|']
    for ev, impl, base in (('raw_syscalls:sys_enter', 'rbtrace-native', off),
                           ('syscalls:sys_enter_getppid', 'rbtrace-syscalls', off),
                           ('syscalls:sys_enter_getppid', 'rbtrace-generic', off),
                           ('kmem:kmem_cache_alloc', 'rbtrace-kn', offcwd)):
        if not any(r['impl'] == impl and r['event'] == ev for r in rows):
            continue
        f = med('ftrace', ev) - base
        r = med(impl, ev) - base
        route = 'tp_events.h' if impl == 'rbtrace-native' else routes.get(ev, impl[8:])
        pr = med('rbtrace-perf', ev)
        p = f'{pr - base:.0f}' if pr else 'n/a'
        out.append(f'| {ev} | {route} | {f:.0f} | {r:.0f} | {ratio(r, f)} | {p} | '
                   f'{ratio(pr - base, f) if pr else "n/a"} |')
    # bench/events.sh: raw_syscalls:sys_enter with an event filter
    for kind, text in (('fpass', 'id != 99999, keeps all'), ('freject', 'id == 99999, drops all')):
        if not any(r['impl'] == 'ftrace-' + kind for r in rows):
            continue
        f = med('ftrace-' + kind) - off
        r = med('rbtrace-' + kind) - off
        out.append(f'| raw_syscalls:sys_enter, filter {text} | tp_events.h | {f:.0f} | {r:.0f} | '
                   f'{ratio(r, f)} | | |')
    out.append('')
    every = kv_lines(path, 'evall')
    if every:
        out += ['### Every event on, then off', '',
                '`echo 1 > events/enable`, then `echo \'!*:*\' >> set_event`, in each tracer '
                '(rbtrace with its routes, and with native_events=0: every event through perf); '
                'guest milliseconds (instructions under -icount), median of 3.', '',
                '| tracer | events | on ms | off ms | on / ftrace | off / ftrace |',
                '|---|---:|---:|---:|---:|---:|']
        def emed(impl, key):
            return median([float(r[key]) for r in every if r['impl'] == impl]) / 1e6
        for impl in ('ftrace', 'rbtrace', 'rbtrace-perf'):
            if not any(r['impl'] == impl for r in every):
                continue
            n = max(int(r['events']) for r in every if r['impl'] == impl)
            on, off_ = emed(impl, 'on_ns'), emed(impl, 'off_ns')
            out.append(f'| {impl} | {n} | {on:.1f} | {off_:.1f} | '
                       f'{ratio(on, emed("ftrace", "on_ns"))} | {ratio(off_, emed("ftrace", "off_ns"))} |')
        out.append('')
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--kernel', required=True)
    ap.add_argument('--events', required=True)
    ap.add_argument('--icount', required=True)
    ap.add_argument('--wall')
    ap.add_argument('--md', required=True)
    ap.add_argument('--dat')
    ap.add_argument('--partial', action='store_true',
                    help='the -icount boot of some parts only (scripts/bench.sh --parts)')
    ap.add_argument('--host-load', default='', help='uptime on the host, for the wall-clock boot')
    a = ap.parse_args()
    if a.partial:
        out = [f'## Some parts, kernel {a.kernel}', '',
               '**QEMU `-icount shift=0,align=off,sleep=off`, 2 vCPUs** '
               '(1 ns = 1 guest instruction; repeatable across boots):', '']
        out += events_table(a.icount)
        out += hackbench_every_table(a.icount, 'QEMU -icount, 2 vCPUs')
        open(a.md, 'w').write('\n'.join(out))
        return
    if not a.wall or not a.dat:
        sys.exit('bench-report: --wall and --dat are needed without --partial')
    ic, wall = parse(a.icount), parse(a.wall)
    if not ic:
        sys.exit(f'bench-report: no write-cost lines in {a.icount}')
    out = [f'## Write cost, kernel {a.kernel}', '',
           f'Same loop, same boot: `rbt_reserve` (the payload pointer) + memcpy + `rbt_unlock_commit` against '
           f'`ring_buffer_lock_reserve` + memcpy + `ring_buffer_unlock_commit` on a 4 MiB per-CPU '
           f'buffer in overwrite mode, and the limit (same clock read and bytes into a per-CPU '
           f'array). {a.events} events per writer per figure.', '',
           '**QEMU `-icount shift=0,align=off,sleep=off`, 2 vCPUs** '
           '(1 ns = 1 guest instruction; repeatable across boots):', '']
    out += table(ic, 1, 0, 'One writer, no reader')
    out += variants_table(ic)
    out += table(ic, 1, 1, 'One writer, a consuming reader on another CPU')
    for w in writer_counts(ic):
        if w > 1:
            out += table(ic, w, 0, f'{w} writers, one per CPU (elapsed time per event written by all)')
    out += read_tables(a.icount, 'QEMU -icount, 2 vCPUs: MB/s and events/s per guest '
                       'instruction-second, repeatable')
    out += hackbench_table(a.icount, 'QEMU -icount, 2 vCPUs: guest seconds = instructions, '
                           'caches not modelled')
    out += hackbench_every_table(a.icount, 'QEMU -icount, 2 vCPUs')
    load = f' (host load while it ran: {a.host_load})' if a.host_load else ''
    out += ['**Multi-threaded TCG, 2 vCPUs on 2 host cores, wall clock** (noisy: indicative '
            f'only){load}:', '']
    out += table(wall, 1, 0, 'One writer, no reader (wall clock)')
    for w in writer_counts(wall):
        if w > 1:
            out += table(wall, w, 0, f'{w} writers, one per CPU (wall clock, elapsed per event written by all)')
    out += read_tables(a.wall, 'wall clock under multi-threaded TCG, 2 vCPUs: noisy')
    out += hackbench_table(a.wall, 'wall clock under multi-threaded TCG, 2 vCPUs: noisy')
    out += events_table(a.icount)
    out += mem_table(a.icount)
    out += snap_table(a.icount)
    out += uclock_table(a.icount, 'QEMU -icount, 2 vCPUs')
    out += uclock_table(a.wall, 'multi-threaded TCG, 2 vCPUs, wall clock: noisy')
    out += LTTNG
    open(a.md, 'w').write('\n'.join(out))
    with open(a.dat, 'w') as f:
        f.write('# size rbtrace ftrace limit (icount ns/event, one writer)\n')
        for size in SIZES:
            f.write(f'{size} {ic.get(("rbtrace", size, 1, 0), 0)} '
                    f'{ic.get(("ftrace", size, 1, 0), 0)} {ic.get(("limit", size, 1, 0), 0)}\n')


if __name__ == '__main__':
    main()
