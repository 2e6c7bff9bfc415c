#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
#
# finit_module.py KO [PARAMS]: load KO with PARAMS through finit_module(2)
# itself and print "loaded" or the errno's name (EINVAL, EPERM...):
# insmod prints one text ("Invalid parameters") for several errnos.
import ctypes
import errno
import os
import sys

SYS_finit_module = 313  # x86_64

libc = ctypes.CDLL(None, use_errno=True)
fd = os.open(sys.argv[1], os.O_RDONLY)
params = sys.argv[2] if len(sys.argv) > 2 else ""
if libc.syscall(SYS_finit_module, fd, params.encode(), 0) == 0:
    print("loaded")
else:
    print(errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno())))
