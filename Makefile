# SPDX-License-Identifier: GPL-2.0
#
# make                 build rbtrace.ko (W=1) against KDIR
# make tests           rbtrace.ko with test hooks + KUnit modules (test kernel)
# make samples         rbtrace.ko, then samples/rbtrace_sample.ko against it
# make check           build against every supported kernel, boot the stock ones
# make test / demo     the README's two commands
# make bench           write-cost benchmark against ftrace's ring buffer
# make torture         60 s torture on the test kernel (TORTURE_ARGS=--debug ...)
#
# KDIR defaults to the running kernel's headers, else the test kernel
# (built and cached by scripts/build-kernel.sh).

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
KDIR ?= $(or $(wildcard /lib/modules/$(shell uname -r)/build),$(shell $(TOP)/scripts/build-kernel.sh base))
W ?= 1

.PHONY: all module tests samples clean check test demo bench torture

all: module

module:
	$(MAKE) -C $(KDIR) M=$(TOP) W=$(W) modules

tests:
	$(MAKE) -C $(KDIR) M=$(TOP) W=$(W) RBT_HOOKS=1 modules
	$(MAKE) -C $(KDIR) M=$(TOP)/tests/kunit W=$(W) \
		KBUILD_EXTRA_SYMBOLS=$(TOP)/Module.symvers modules

samples: module
	$(MAKE) -C $(TOP)/samples KDIR=$(KDIR) W=$(W) RBTRACE_SYMVERS=$(TOP)/Module.symvers

clean:
	$(MAKE) -C $(KDIR) M=$(TOP) clean
	$(MAKE) -C $(KDIR) M=$(TOP)/tests/kunit clean
	$(MAKE) -C $(KDIR) M=$(TOP)/tests/tpmod clean

check:
	$(TOP)/scripts/check.sh

test:
	$(TOP)/scripts/test.sh

demo:
	$(TOP)/scripts/demo.sh

bench:
	$(TOP)/scripts/bench.sh

torture:
	$(TOP)/scripts/torture.sh $(TORTURE_ARGS)
