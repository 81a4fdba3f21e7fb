# SPDX-License-Identifier: GPL-2.0
#
# rocetune top-level build.
#
#   make              module (kmod/rocetune.ko, kmod/dcbsim/) and tools
#   make lab          the two-host Soft-RoCE lab demo (QEMU guests)
#   make check        every test: host unit tests and in-guest selftests
#   make deps         install the Debian packages the above need
#   make lint         checkpatch and sparse over the kernel code
#   make kernels      the installed kernels, and which one is used
#   make matrix       build, DKMS and suites on every installed kernel
#
# KVER=<release> (or KDIR=<build tree>) picks the kernel to build for and
# the lab to boot; by default the running kernel if it has a build tree,
# else Debian's default kernel (the one linux-headers-amd64 depends on).
# scripts/kernel.sh decides, for lab-run and the DKMS test too; see
# Documentation/kernels.rst. `make kernels` lists the installed ones and
# `make matrix` builds and tests each.

# KVER on the command line beats a KDIR from the environment.
ifeq ($(origin KVER),command line)
  ifneq ($(origin KDIR),command line)
    KDIR :=
  endif
endif
# Sub-makes inherit the choice (RTUNE_KERNEL) as long as they ask for the
# same kernel; anything else (dkms passing its own KDIR) chooses afresh.
# No kernel is not an error here: `make deps` may be about to install one;
# targets that need a kernel fail in kdir-check with the reason.
ifneq ($(KVER) $(KDIR),$(wordlist 1,2,$(RTUNE_KERNEL)))
  RTUNE_KERNEL := $(shell KVER='$(KVER)' KDIR='$(KDIR)' scripts/kernel.sh 2>/dev/null)
endif
export RTUNE_KERNEL
ifneq ($(RTUNE_KERNEL),)
  override KVER := $(word 1,$(RTUNE_KERNEL))
  override KDIR := $(word 2,$(RTUNE_KERNEL))
  KWHY := $(wordlist 3,$(words $(RTUNE_KERNEL)),$(RTUNE_KERNEL))
  # The lab boots the kernel the module is built for.
  ifneq ($(origin LAB_KVER),undefined)
    ifneq ($(LAB_KVER),$(KVER))
      $(info rocetune: LAB_KVER=$(LAB_KVER) ignored: the module is built for $(KVER))
    endif
  endif
  override LAB_KVER := $(KVER)
else
  KERNEL_ARGS := KVER='$(KVER)' KDIR='$(KDIR)'
  override KDIR :=
endif
export KVER KDIR LAB_KVER

# A kernel installed in a chroot (7.2 from sid: its kbuild tools and
# compiler need sid's userland) is built inside that chroot, with this
# tree bind-mounted at the same path (scripts/chroot-run.sh).
KROOT := $(if $(KDIR),$(shell scripts/kernel.sh --root '$(KDIR)'))
ifneq ($(KROOT),)
  KMAKE = scripts/chroot-run.sh $(KROOT) $(CURDIR) $(MAKE) -C $(patsubst $(KROOT)%,%,$(realpath $(KDIR)))
else
  KMAKE = $(MAKE) -C $(KDIR)
endif

# Userspace tools are built with sanitizers for the tests.
SANITIZE ?=
NPROC := $(shell nproc 2>/dev/null || echo 1)
export SANITIZE

TOOLS := tools/rocetune tools/dcqcn-sim

.PHONY: all module tools deps lab check unit selftests lint sparse \
	checkpatch clean kdir-check kernels matrix check-deps

all: module tools

kdir-check:
ifeq ($(KDIR),)
	@$(KERNEL_ARGS) scripts/kernel.sh >/dev/null
endif
	@echo "rocetune: kernel $(KVER) ($(KDIR)): $(KWHY)$(if $(KROOT),; built in the chroot $(KROOT))"

# Kernel feature probes run inside Kbuild (kmod/compat/kbuild.mk). A
# failure names the kernel and lists the installed ones.
module: kdir-check
	+@$(KMAKE) M=$(CURDIR) W=1 modules || { \
		echo "rocetune: the module does not build against $(KDIR) (kernel $(KVER))" >&2; \
		echo "rocetune: installed kernels:" >&2; scripts/kernel.sh --list >&2; \
		echo "rocetune: pick another with KVER=<release>" >&2; exit 1; }

kernels: kdir-check
	@scripts/kernel.sh --list

# Build, DKMS and lab suites on every installed kernel (Documentation/kernels.rst).
matrix:
	scripts/kernel-matrix.sh

tools:
	+@for t in $(TOOLS); do \
		[ -f $$t/Makefile ] || continue; \
		$(MAKE) -C $$t || exit 1; \
	done

deps:
	scripts/install-deps.sh

lab: deps
	$(MAKE) -j$(NPROC) all
	selftests/lab/demo.sh

# make check also builds for and boots the other kernels listed in
# selftests/lab/kernels (Documentation/kernels.rst, "In make check"), so
# it installs them; RTUNE_OTHER_KERNELS=0 leaves them out.
CHECK_KERNELS := $(if $(filter 0,$(RTUNE_OTHER_KERNELS)),,$(shell \
	sed -n 's/^\([0-9][0-9.]*\)[[:space:]].*/\1/p' selftests/lab/kernels 2>/dev/null))

check-deps:
	scripts/install-deps.sh$(if $(CHECK_KERNELS), --kernels "$(CHECK_KERNELS)")

# The builds of check use every core (kbuild and the unit tests build in
# parallel); the tests then run side by side (selftests/run_tests.sh).
check: check-deps
	$(MAKE) -j$(NPROC) all SANITIZE=1
	$(MAKE) -j$(NPROC) -C selftests/unit all
	selftests/run_tests.sh

unit:
	$(MAKE) -C selftests/unit run SANITIZE=1

lint: checkpatch sparse

checkpatch:
	scripts/checkpatch.sh

# KBUILD_CHECKSRC=2 as well: Debian's 7.2 kbuild lacks
# scripts/checker-valid.sh, so its Makefile's check of the checker fails
# and would quietly turn C=2 off ("sparse is not available or not up to
# date"). Set on the command line, it wins; a sparse that is really
# missing then fails the build, as it should.
sparse: kdir-check
	$(KMAKE) M=$(CURDIR) C=2 KBUILD_CHECKSRC=2 W=1 modules

clean:
	-[ -z "$(KDIR)" ] || $(KMAKE) M=$(CURDIR) clean
	@for t in $(TOOLS) selftests/unit; do \
		[ -f $$t/Makefile ] && $(MAKE) -C $$t clean; \
	done; true
	rm -rf build

