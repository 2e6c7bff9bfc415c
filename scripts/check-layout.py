#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# check-layout.py [TOP]: the two layers stay apart, and no header includes
# itself through others.
#
#   - a file of tracer/ includes only kernel headers, <rbtrace/...> (the
#     public API) and tracer/'s own headers: never the ring buffer's
#     internal headers (rb_internal.h and the headers it gathers);
#   - the graph of #include "..." between rbtrace's own files has no
#     circle.
#
# Prints each violation and exits 1 if there is any. Run by
# scripts/test.sh (and so by make check and make test).
import os
import re
import sys

top = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                      os.path.join(os.path.dirname(__file__), '..'))
INC = re.compile(r'^\s*#\s*include\s+([<"])([^>"]+)[>"]', re.M)
SKIP = {'.git'}


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


def main():
    bad = []
    graph = {}
    for src in sorted(sources()):
        with open(os.path.join(top, src), encoding='utf-8', errors='replace') as fh:
            text = fh.read()
        graph[src] = []
        for kind, name in INC.findall(text):
            dep = resolve(src, name) if kind == '"' else None
            if kind == '<' and name.startswith('rbtrace/'):
                dep = os.path.join('include', name)
            if dep:
                graph[src].append(dep)
            if src.startswith('tracer/') and kind == '"':
                if dep is None or not dep.startswith('tracer/'):
                    bad.append('%s: includes "%s": tracer/ reaches the ring buffer '
                               'only through <rbtrace/rbtrace.h>' % (src, name))
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
    print('layout: %d files, tracer/ uses the public API only, no include circle'
          % len(graph))
    return 0


sys.exit(main())
