#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check.sh: what "make check" runs. The layers apart (check-layout.py:
# no file of tracer/ includes the ring buffer's internal headers, no
# include circle), rbtrace.ko built with W=1 and no
# warning against the test kernel and Debian 12's stock 6.1 and 6.12
# headers, and one boot of each stock kernel (load, check the debugfs
# tree, unload, clean log). The full suite is scripts/test.sh.
exec "$(dirname "$0")/test.sh" --check "$@"
