# SPDX-License-Identifier: GPL-2.0
#
# Included by each module's Kbuild: generate $(obj)/compat_generated.h
# from kmod/compat/conftest.sh with the compiler and flags Kbuild uses for
# the module. filechk reruns the probes on every build and rewrites the
# header only when an answer changes, so switching kernels cannot leave a
# stale answer behind and an unchanged one rebuilds nothing.
#
# Needs: rtune_compat_dir (kmod/compat, relative to $(src)) and
# rtune_compat_objs (the objects that include compat headers).

filechk_rtune_compat = \
	RTUNE_CC="$(CC)" \
	RTUNE_CFLAGS="$(NOSTDINC_FLAGS) $(LINUXINCLUDE) $(KBUILD_CPPFLAGS) $(KBUILD_CFLAGS) $(KBUILD_CFLAGS_MODULE)" \
	RTUNE_SYMVERS="$(objtree)/Module.symvers" \
	$(CONFIG_SHELL) $(src)/$(rtune_compat_dir)/conftest.sh

$(obj)/compat_generated.h: $(src)/$(rtune_compat_dir)/conftest.sh FORCE
	$(call filechk,rtune_compat)

$(addprefix $(obj)/,$(rtune_compat_objs)): $(obj)/compat_generated.h

ccflags-y += -I$(obj)
clean-files += compat_generated.h
