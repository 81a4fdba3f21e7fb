# SPDX-License-Identifier: GPL-2.0
#
# rocetune top-level build.
#
#   make              module (kmod/rocetune.ko, kmod/dcbsim/) and tools
#   make lab          the two-host Soft-RoCE lab demo (QEMU guests)
#   make check        every test: host unit tests and in-guest selftests
#   make deps         install the Debian packages the above need
#   make lint         checkpatch and sparse over the kernel code
#
# KDIR selects the kernel build tree; by default the running kernel's, or
# when that has none (as on the CI machines, whose kernel has no module
# support) the newest one installed under /lib/modules.

KVER_RUNNING := $(shell uname -r)
ifeq ($(origin KDIR),undefined)
  ifneq ($(wildcard /lib/modules/$(KVER_RUNNING)/build/Makefile),)
    KDIR := /lib/modules/$(KVER_RUNNING)/build
  else
    KDIR := $(lastword $(sort $(wildcard /lib/modules/*/build)))
  endif
endif
KVER := $(notdir $(patsubst %/build,%,$(KDIR)))

# Userspace tools are built with sanitizers for the tests.
SANITIZE ?=
export SANITIZE

TOOLS := tools/rocetune tools/dcqcn-sim

.PHONY: all module tools deps lab check unit selftests lint sparse \
	checkpatch clean kdir-check

all: module tools

kdir-check:
	@if [ -z "$(KDIR)" ] || [ ! -f "$(KDIR)/Makefile" ]; then \
		echo "rocetune: no kernel build tree found (set KDIR=..., or run 'make deps')" >&2; \
		exit 1; \
	fi
	@echo "rocetune: building against $(KDIR)"

# Kernel feature probes run inside Kbuild (kmod/compat/kbuild.mk).
module: kdir-check
	$(MAKE) -C $(KDIR) M=$(CURDIR) W=1 modules

tools:
	@for t in $(TOOLS); do \
		[ -f $$t/Makefile ] || continue; \
		$(MAKE) -C $$t || exit 1; \
	done

deps:
	scripts/install-deps.sh

lab: deps
	$(MAKE) all
	selftests/lab/demo.sh

check: deps
	$(MAKE) all SANITIZE=1
	$(MAKE) -C selftests/unit all
	selftests/run_tests.sh

unit:
	$(MAKE) -C selftests/unit run SANITIZE=1

lint: checkpatch sparse

checkpatch:
	scripts/checkpatch.sh

sparse: kdir-check
	$(MAKE) -C $(KDIR) M=$(CURDIR) C=2 W=1 modules

clean:
	-[ -z "$(KDIR)" ] || $(MAKE) -C $(KDIR) M=$(CURDIR) clean
	@for t in $(TOOLS) selftests/unit; do \
		[ -f $$t/Makefile ] && $(MAKE) -C $$t clean; \
	done; true
	rm -rf build

