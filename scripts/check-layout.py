#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# check-layout.py [TOP]: the two layers stay apart, in both directions, no
# header includes itself through others, and no file grows past 900 lines.
#
#   - a file of tracer/ includes only kernel headers, <rbtrace/...> (the
#     public API) and tracer/'s own headers: never the ring buffer's
#     internal headers (rb_internal.h and the headers it gathers);
#   - a file of the ring buffer (the top-level rb_*.c and rb_*.h, and
#     include/) includes nothing of tracer/: the ring buffer knows
#     nothing of its clients;
#   - the test hooks linked into test builds of rbtrace.ko (tests/hooks/)
#     may include tracer/'s headers: they test the tracer from inside;
#   - the graph of #include "..." between rbtrace's own files has no
#     circle, in either layer or across them;
#   - no file of the product (rb_*, tracer/, include/; .c and .h) is
#     past 900 lines: a longer one is split along a seam.
#
# Prints each violation and exits 1 if there is any. Run by
# scripts/test.sh (and so by make check and make test); its own test is
# tests/host/check-layout.sh.
import os
import re
import sys

top = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                      os.path.join(os.path.dirname(__file__), '..'))
INC = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]', re.M)
SKIP = {'.git'}
MAX_LINES = 900


def sources():
    for root, dirs, files in os.walk(top):
        dirs[:] = [d for d in dirs if d not in SKIP and not d.startswith('.')]
        for f in files:
            if f.endswith(('.c', '.h')) and not f.endswith('.mod.c'):
                yield os.path.relpath(os.path.join(root, f), top)


def resolve(src, name):
    """The rbtrace file a quoted include names, or None (a kernel header)."""
    for base in (os.path.dirname(src), '', 'include'):
        cand = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(top, cand)):
            return cand
    return None


def layer(src):
    """'rb' (the ring buffer), 'tracer', or None (tests, tools, samples)."""
    if src.startswith('tracer/'):
        return 'tracer'
    if src.startswith('include/') or ('/' not in src and src.startswith('rb_')):
        return 'rb'
    return None


def main():
    bad = []
    graph = {}
    for src in sorted(sources()):
        with open(os.path.join(top, src), encoding='utf-8', errors='replace') as fh:
            text = fh.read()
        graph[src] = []
        where = layer(src)
        for kind, name in INC.findall(text):
            dep = resolve(src, name) if kind == '"' else None
            if kind == '<' and name.startswith('rbtrace/'):
                dep = os.path.join('include', name)
            if dep:
                graph[src].append(dep)
            if where == 'tracer' and kind == '"':
                if dep is None or not dep.startswith('tracer/'):
                    bad.append('%s: includes "%s": tracer/ reaches the ring buffer '
                               'only through <rbtrace/rbtrace.h>' % (src, name))
            # A header of tracer/ found or not (a name that no longer
            # resolves still says where it looks).
            if where == 'rb' and kind == '"':
                if (dep or '').startswith('tracer/') or \
                   re.search(r'(^|/)tracer/', os.path.normpath(name)):
                    bad.append('%s: includes "%s": the ring buffer (rb_*, include/) '
                               'knows nothing of tracer/' % (src, name))
        if where:
            n = text.count('\n') + (not text.endswith('\n') and text != '')
            if n > MAX_LINES:
                bad.append('%s: %d lines: past %d, split it along a seam'
                           % (src, n, MAX_LINES))
    # Circles: depth-first search with colours.
    state = {}
    stack = []

    def visit(n):
        state[n] = 1
        stack.append(n)
        for d in graph.get(n, []):
            if state.get(d) == 1:
                bad.append('include circle: ' + ' -> '.join(stack[stack.index(d):] + [d]))
            elif d not in state:
                visit(d)
        stack.pop()
        state[n] = 2

    for n in sorted(graph):
        if n not in state:
            visit(n)
    for line in bad:
        print(line)
    if bad:
        return 1
    print('layout: %d files, tracer/ uses the public API only, the ring buffer '
          'nothing of tracer/, no include circle, none past %d lines'
          % (len(graph), MAX_LINES))
    return 0


sys.exit(main())
