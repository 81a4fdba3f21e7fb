# SPDX-License-Identifier: GPL-2.0
#
# Included by each module's Kbuild: generate $(obj)/compat_generated.h
# from kmod/compat/conftest.sh with the compiler and flags Kbuild uses for
# the module. filechk reruns the probes on every build and rewrites the
# header only when an answer changes, so switching kernels cannot leave a
# stale answer behind and an unchanged one rebuilds nothing.
#
# Needs: rt_compat_dir (kmod/compat, relative to $(src)) and
# rt_compat_objs (the objects that include compat headers).

filechk_rt_compat = \
	RT_CC="$(CC)" \
	RT_CFLAGS="$(NOSTDINC_FLAGS) $(LINUXINCLUDE) $(KBUILD_CPPFLAGS) $(KBUILD_CFLAGS) $(KBUILD_CFLAGS_MODULE)" \
	RT_SYMVERS="$(objtree)/Module.symvers" \
	$(CONFIG_SHELL) $(src)/$(rt_compat_dir)/conftest.sh

$(obj)/compat_generated.h: $(src)/$(rt_compat_dir)/conftest.sh FORCE
	$(call filechk,rt_compat)

$(addprefix $(obj)/,$(rt_compat_objs)): $(obj)/compat_generated.h

ccflags-y += -I$(obj)
clean-files += compat_generated.h
