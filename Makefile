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

# The kernel's event headers compiled into native probes, per header and
# per kernel (scripts/kn-select.sh): chosen again when the stage, the
# headers it includes of rbtrace, the kernel's exports or its list of
# event headers change; kbuild rebuilds a kept unit whose includes change.
KN_SRC := $(or $(patsubst %/Makefile,%,$(lastword $(shell sed -n 's/^include //p' $(KDIR)/Makefile 2>/dev/null))),$(KDIR))
KN_DEPS := $(addprefix $(TOP)/tracer/,kn_stage.h kn.h event.h kevents.h trace.h) \
	   $(TOP)/scripts/kn-select.sh $(wildcard $(KDIR)/Module.symvers) \
	   $(wildcard $(KN_SRC)/include/trace/events)
KN_ARGS := W=$(W)

$(TOP)/kn/selected.mk: $(KN_DEPS)
	$(TOP)/scripts/kn-select.sh $(KDIR) $(TOP) $(KN_ARGS)

module: $(TOP)/kn/selected.mk
	$(MAKE) -C $(KDIR) M=$(TOP) W=$(W) modules

# The unit's compile command is rbtrace.o's: the test hooks' flag too.
tests: KN_ARGS += RBT_HOOKS=1
tests: $(TOP)/kn/selected.mk
	$(MAKE) -C $(KDIR) M=$(TOP) W=$(W) RBT_HOOKS=1 modules
	$(MAKE) -C $(KDIR) M=$(TOP)/tests/kunit W=$(W) \
		KBUILD_EXTRA_SYMBOLS=$(TOP)/Module.symvers modules

samples: module
	$(MAKE) -C $(TOP)/samples KDIR=$(KDIR) W=$(W) RBTRACE_SYMVERS=$(TOP)/Module.symvers

clean:
	$(MAKE) -C $(KDIR) M=$(TOP) clean
	rm -rf $(TOP)/kn
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
