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
    if not res:
        sys.exit(f'bench-report: no benchmark lines in {path}')
    return res


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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--kernel', required=True)
    ap.add_argument('--events', required=True)
    ap.add_argument('--icount', required=True)
    ap.add_argument('--wall', required=True)
    ap.add_argument('--md', required=True)
    ap.add_argument('--dat', required=True)
    a = ap.parse_args()
    ic, wall = parse(a.icount), parse(a.wall)
    out = [f'## Write cost, kernel {a.kernel}', '',
           f'Same loop, same boot: `rbt_lock_reserve` + memcpy + `rbt_unlock_commit` against '
           f'`ring_buffer_lock_reserve` + memcpy + `ring_buffer_unlock_commit` on a 4 MiB per-CPU '
           f'buffer in overwrite mode, and the limit (same clock read and bytes into a per-CPU '
           f'array). {a.events} events per writer per figure.', '',
           '**QEMU `-icount shift=0,align=off,sleep=off`, 2 vCPUs** '
           '(1 ns = 1 guest instruction; repeatable across boots):', '']
    out += table(ic, 1, 0, 'One writer, no reader')
    out += table(ic, 1, 1, 'One writer, a consuming reader on another CPU')
    for w in writer_counts(ic):
        if w > 1:
            out += table(ic, w, 0, f'{w} writers, one per CPU (elapsed time per event written by all)')
    out += ['**Multi-threaded TCG, 4 vCPUs on 2 host cores, wall clock** (noisy: indicative only):', '']
    out += table(wall, 1, 0, 'One writer, no reader (wall clock)')
    for w in writer_counts(wall):
        if w > 1:
            out += table(wall, w, 0, f'{w} writers, one per CPU (wall clock, elapsed per event written by all)')
    open(a.md, 'w').write('\n'.join(out))
    with open(a.dat, 'w') as f:
        f.write('# size rbtrace ftrace limit (icount ns/event, one writer)\n')
        for size in SIZES:
            f.write(f'{size} {ic.get(("rbtrace", size, 1, 0), 0)} '
                    f'{ic.get(("ftrace", size, 1, 0), 0)} {ic.get(("limit", size, 1, 0), 0)}\n')


if __name__ == '__main__':
    main()
