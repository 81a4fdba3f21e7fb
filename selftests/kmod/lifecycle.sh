#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rocetune.ko lifecycle: load and unload; the configfs tree follows
# `rdma link add/delete` and renames; rmmod while the tree is in use;
# userspace cannot mkdir/rmdir in the tree; the kernel log stays clean.
# Needs one host with one netdev (a lab guest or a test box).

. "$(dirname "$0")/lib.sh"

rtune_require
ND=$(rtune_netdev)
[ -n "$ND" ] || tap_skip_all "no netdev that is up"
# Start from nothing of ours.
rtune_loaded && rtune_unload
rdma link delete rtlc0 2>/dev/null

tap_plan 24

tap_ok "insmod rocetune.ko" rtune_load
rtune_objects_mark
tap_ok "configfs subsystem /sys/kernel/config/rocetune exists" test -d "$RT"
tap_eq "version file matches the tests' VERSION" "$RTUNE_VERSION" "$(cat "$RT/version" 2>&1)"

tap_ok "rdma link add rtlc0 on $ND" rdma link add rtlc0 type rxe netdev "$ND"
tap_ok "device directory appears" wait_for test -d "$RT/rtlc0"
tap_eq "driver is rxe" rxe "$(cat "$RT/rtlc0/driver" 2>&1)"
tap_eq "backend is rxe-software" rxe-software "$(cat "$RT/rtlc0/backend" 2>&1)"
tap_eq "port 1 netdev is $ND" "$ND" "$(cat "$RT/rtlc0/ports/1/netdev" 2>&1)"
tap_notok "userspace cannot rmdir a device directory" rmdir "$RT/rtlc0"
tap_notok "userspace cannot mkdir in the subsystem" mkdir "$RT/bogus"

# State survives a rename: stage a value, rename, read it back.
rtune_write "$RT/rtlc0/ports/1/cc/staged/np_cnp_dscp" 26
tap_ok "rdma dev set rtlc0 name rtlc1" rdma dev set rtlc0 name rtlc1
tap_ok "renamed device directory appears" wait_for test -d "$RT/rtlc1"
tap_ok "old directory is gone after rename" test ! -e "$RT/rtlc0"
tap_eq "staged value carried over the rename" 26 \
	"$(cat "$RT/rtlc1/ports/1/cc/staged/np_cnp_dscp" 2>&1)"

# Device removal while a file is open: the removal completes, the open
# file fails cleanly afterwards, nothing dangles.
exec 7<"$RT/rtlc1/ports/1/cc/staged/np_cnp_dscp"
tap_ok "rdma link delete with a file open" rdma link delete rtlc1
tap_ok "device directory vanishes" wait_for test ! -e "$RT/rtlc1"
tap_notok "reading the stale open file fails" cat <&7
exec 7<&-
tap_ok "every object freed once the device is gone and files closed" rtune_objects_zero

# rmmod with an open file is refused (configfs pins the module), and the
# tree keeps working; after close it goes.
rdma link add rtlc0 type rxe netdev "$ND"
wait_for test -d "$RT/rtlc0"
exec 7<"$RT/rtlc0/ports/1/cc/commit"
tap_notok "rmmod refused while a configfs file is open" rtune_unload
exec 7<&-
# rmmod with a shell whose cwd is inside the tree: allowed, tree gone.
( cd "$RT/rtlc0/ports/1/cc" && sleep 30 ) &
holder=$!
sleep 0.5
tap_ok "rmmod while a process sits in the tree" rtune_unload
tap_ok "tree gone after rmmod" test ! -e "$RT"
kill $holder 2>/dev/null; wait $holder 2>/dev/null

# Devices that exist before the module loads are attached at load.
rtune_load
tap_ok "existing device attached at load" wait_for test -d "$RT/rtlc0"
rdma link delete rtlc0
tap_ok "every object freed after rdma link delete" rtune_objects_zero
rtune_unload

tap_ok "kernel log has no BUG/WARNING/Oops" kernel_log_clean
tap_done
