#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Teardown at any moment: readers and writers hammer every file of the
# tree while the device is added, renamed and deleted underneath them, and
# rmmod is attempted in the middle of it. Errors seen by the hammering
# processes are expected (ENOENT, ENODEV, EBUSY); what must not happen is
# a kernel BUG/WARNING, a hang, or a tree left behind.

. "$(dirname "$0")/lib.sh"

rtune_require
ND=$(rtune_netdev)
[ -n "$ND" ] || tap_skip_all "no netdev that is up"
rtune_loaded && rtune_unload
ROUNDS=${CHURN_ROUNDS:-15}

tap_plan 7
tap_ok "insmod rocetune.ko" rtune_load
rtune_objects_mark

# hammer: read every file of the suite's device (rtch0, renamed rtch1,
# not the host's own devices) and write staged values and commits, forever.
hammer() {
	local f D="$RT/rtch[01]"
	while :; do
		for f in $D/driver $D/ports/1/counters $D/ports/1/netdev \
			 $D/ports/1/cc/params $D/ports/1/cc/active/*; do
			cat "$f" >/dev/null 2>&1
		done
		for f in $D/ports/1/cc/staged/np_cnp_dscp; do
			echo $((RANDOM % 64)) 2>/dev/null >"$f"
		done
		for f in $D/ports/1/cc/commit; do
			echo 1 2>/dev/null >"$f"
		done
		for f in $D/ports/1/cc/preset; do
			echo connectx 2>/dev/null >"$f"
		done
	done
}
pids=()
for _ in 1 2 3; do
	hammer &
	pids+=($!)
done

t_churn() {
	local i
	for i in $(seq "$ROUNDS"); do
		rdma link add rtch0 type rxe netdev "$ND" || return 1
		rdma dev set rtch0 name rtch1 || return 1
		rdma dev set rtch1 name rtch0 || return 1
		rdma link delete rtch0 || return 1
	done
}
tap_ok "$ROUNDS rounds of add, rename twice, delete under load" t_churn
tap_ok "every object freed after the churn" rtune_objects_zero

# rmmod under load: it may be refused while a file is open (EBUSY); it
# must succeed within a few tries and leave no tree.
rdma link add rtch0 type rxe netdev "$ND"
t_rmmod_under_load() {
	local i
	for i in $(seq 200); do
		rtune_unload 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}
tap_ok "rmmod succeeds under load with a device attached" t_rmmod_under_load
tap_ok "no tree left after rmmod" test ! -e "$RT"

kill "${pids[@]}" 2>/dev/null
wait "${pids[@]}" 2>/dev/null
rdma link delete rtch0 2>/dev/null

# The module comes back cleanly after all that.
t_reload() { rtune_load && rtune_unload; }
tap_ok "module loads and unloads again" t_reload
tap_ok "kernel log has no BUG/WARNING/Oops" kernel_log_clean
tap_done
