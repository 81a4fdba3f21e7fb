# SPDX-License-Identifier: GPL-2.0
# The tool's sources, in one place: tools/rocetune/Makefile builds them,
# and selftests/unit and selftests/fuzz link them (all but main.c), so a
# new file is added here once and every build sees it.

# one file per managed object (obj.h); obj.c is their registry
ROCETUNE_OBJECTS := obj.c obj_devlink.c obj_ets.c obj_pfc.c obj_pfc_storm.c obj_app.c obj_rewr.c obj_mtu.c \
	obj_cm.c obj_cc.c surface.c surface_mlx5.c surface_mlx5_ofed.c surface_bnxt_re.c \
	surface_irdma.c surface_bnxt_re_oot.c surface_ionic.c
# everything but main.c and the terminal UI
ROCETUNE_LIB := profile.c validate.c diag.c plan.c $(ROCETUNE_OBJECTS) nl.c devlink.c \
	dcb.c link.c rdma.c cfs.c cfs_group.c rdmacm.c cc.c host.c apply.c lock.c json.c print.c \
	output.c watch.c ethtool.c ethtool_gstats.c stats.c stats_out.c fingerprint.c vwire.c \
	verify.c probe_msg.c probe_check.c probe_rdma.c ibport.c doctor_rules.c doctor_read.c \
	doctor_cmd.c expect.c testhook.c qpctr.c qpctr_msg.c atomic_file.c \
	mstcfg.c mstcfg_parse.c irdma_load.c kmsg.c qdisc.c
# librdmacm and libibverbs, which probe_rdma.c and ibport.c need: every build that
# links ROCETUNE_LIB links these too
ROCETUNE_RDMA_PKGS := librdmacm libibverbs
# `rocetune top` (ncurses): the tool links it, the tests do not
ROCETUNE_TUI := stats_cmd.c
# the kernel module's tables the tool shares (kmod/core)
ROCETUNE_CORE := params.c counter_names.c
