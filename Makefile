# SPDX-License-Identifier: GPL-2.0
#
# make                 build rbtrace.ko (W=1) against KDIR
# make install         install it (extra/, depmod) and tools/rbtrace-cmd
# make tests           rbtrace.ko with test hooks + KUnit modules (test kernel)
# make samples         rbtrace.ko, then samples/rbtrace_sample.ko against it
# make check           build against every supported kernel, boot the stock ones
# make test / demo     the README's two commands
# make bench           write-cost benchmark against ftrace's ring buffer
# make torture         60 s torture on the test kernel (TORTURE_ARGS=--debug ...)
#
# KDIR defaults to the running kernel's headers (Debian: the package
# linux-headers-$(uname -r)); without them the build stops and says so.
# The test kernel's tree: make KDIR=$(scripts/build-kernel.sh base).
# PREFIX (/usr/local) and DESTDIR are where make install puts rbtrace-cmd.

TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
KDIR ?= $(wildcard /lib/modules/$(shell uname -r)/build)
W ?= 1
PREFIX ?= /usr/local

.PHONY: all module tests samples clean install kdir check test demo bench torture FORCE

all: module

kdir:
	@if [ -z "$(KDIR)" ] || [ ! -f "$(KDIR)/Makefile" ]; then \
		echo "rbtrace: no kernel headers for $$(uname -r) at /lib/modules/$$(uname -r)/build" >&2; \
		echo "rbtrace: install them (apt install linux-headers-$$(uname -r)) or name a tree: make KDIR=DIR" >&2; \
		exit 1; \
	fi

module tests samples clean install: kdir

# The kernel's event headers compiled into native probes, per header and
# per kernel (scripts/kn-select.sh): chosen again when the stage, the
# headers it includes of rbtrace, the kernel's exports or its list of
# event headers change; kbuild rebuilds a kept unit whose includes change.
KN_SRC := $(or $(patsubst %/Makefile,%,$(lastword $(shell sed -n 's/^include //p' $(KDIR)/Makefile 2>/dev/null))),$(KDIR))
KN_DEPS := $(shell $(TOP)/scripts/kn-select.sh --deps $(TOP)) \
	   $(TOP)/scripts/kn-select.sh $(wildcard $(KDIR)/Module.symvers) \
	   $(wildcard $(KN_SRC)/include/trace/events $(KN_SRC)/arch/*/include/asm/trace)
KN_ARGS := W=$(W)

$(TOP)/kn/selected.mk: $(KN_DEPS) $(TOP)/kn/source
	$(TOP)/scripts/kn-select.sh $(KDIR) $(TOP) $(KN_ARGS)

# The kernel source the selection uses (KSRC=, or linux-source extracted
# in /usr/src): rewritten only when it changes, so that a source given or
# extracted after a first build chooses again.
$(TOP)/kn/source: FORCE
	@mkdir -p $(TOP)/kn; s=$$($(TOP)/scripts/kn-select.sh --source $(KDIR)); \
	if [ ! -f $@ ] || [ "$$(cat $@)" != "$$s" ]; then echo "$$s" >$@; fi

FORCE:

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

# Installed uncompressed and signed here, not by kbuild: a distribution's
# headers have no signing key (kbuild's SIGN step fails) and no System.map
# (its depmod is skipped). SIGN_KEY/SIGN_CERT default to the key Debian's
# dkms makes (/var/lib/dkms/mok.*), if there is one; SIGN_KEY= skips it.
KREL = $(shell cat $(KDIR)/include/config/kernel.release 2>/dev/null)
SIGN_KEY ?= $(wildcard /var/lib/dkms/mok.key)
SIGN_CERT ?= $(wildcard /var/lib/dkms/mok.pub)
MODDIR = $(INSTALL_MOD_PATH)/lib/modules/$(KREL)/extra

install: module
	$(MAKE) -C $(KDIR) M=$(TOP) INSTALL_MOD_DIR=extra CONFIG_MODULE_SIG_ALL= \
		CONFIG_MODULE_COMPRESS_GZIP= CONFIG_MODULE_COMPRESS_XZ= \
		CONFIG_MODULE_COMPRESS_ZSTD= modules_install
	@if [ -n "$(SIGN_KEY)" ] && [ -n "$(SIGN_CERT)" ]; then \
		echo "  SIGN    $(MODDIR)/rbtrace.ko ($(SIGN_CERT))"; \
		$(KDIR)/scripts/sign-file sha256 $(SIGN_KEY) $(SIGN_CERT) $(MODDIR)/rbtrace.ko; \
	fi
	depmod $(if $(INSTALL_MOD_PATH),-b $(INSTALL_MOD_PATH)) -a $(KREL)
	install -D -m 0755 $(TOP)/tools/rbtrace-cmd $(DESTDIR)$(PREFIX)/bin/rbtrace-cmd

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
