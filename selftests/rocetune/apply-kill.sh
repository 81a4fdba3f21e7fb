#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `rocetune apply` killed with SIGKILL at each step (issue 9): the next
# apply converges to the profile, the lock never outlives its holder, and
# no rdma_cm configfs group is left behind (a left group holds its
# cma_device: `rdma link delete` would wait for it for ever).
#
# The test build of the tool (make -C tools/rocetune SANITIZE=1) sends
# itself SIGKILL at its N-th kill point when ROCETUNE_TEST_KILL_AT=N
# (tools/rocetune/testhook.h): after taking the lock, with the pre-apply
# state saved, before each write, between staging and committing [cc],
# with an rdma_cm group stamped and with it made. For N = 1, 2, ... on
# fresh devices, until an apply passes every point and finishes: after
# the kill, the lock is free and a new apply takes it without waiting,
# the rdma_cm group is gone once that apply ran, the host reads back as
# the profile declares, and a diff finds nothing left to do.
#
# On the host it starts itself in a lab guest (args go to lab-run):
#     selftests/rocetune/apply-kill.sh [--keep] [--out DIR]

set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 1 --timeout 900 "$@" \
		--script "1=$here/apply-kill.sh"
fi

. "$here/../lib/tap.sh"
. "$here/../lib/tree.sh"

RT=$RTUNE_TOOL
CM=/sys/kernel/config/rdma_cm/rxe0
W=$(mktemp -d /run/rocetune-test.XXXXXX)
export ROCETUNE_STATE_DIR=$W/state ROCETUNE_LOCK=$W/lock
MAX_STEPS=60

[[ -n $RTUNE_DCBSIM_KO && -f $RTUNE_DCBSIM_KO ]] ||
	tap_skip_all "needs the rocetune_dcbsim test device, a lab module (DCBSIM_KO=PATH)"
[[ -n $RT && -x $RT ]] || tap_skip_all "rocetune not built (make -C tools/rocetune) or not in PATH"
[[ -n $RTUNE_KO && -f $RTUNE_KO ]] || tap_skip_all "kmod/rocetune.ko not built: [cc] is part of the steps"

tap_header
mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
{ insmod "$RTUNE_DCBSIM_KO" && modprobe rdma_rxe && modprobe rdma_cm &&
	insmod "$RTUNE_KO"; } || tap_bail "cannot load dcbsim, rdma_rxe, rdma_cm, rocetune"
ip link set eth0 up

# Fresh devices, in their defaults: dcb0 on eth0 carrying rxe0.
mkdevs() {
	rdma link delete rxe0 2>/dev/null
	ip link del dcb0 2>/dev/null
	ip link add link eth0 name dcb0 type dcbsim && ip link set dcb0 up &&
		rdma link add rxe0 type rxe netdev dcb0 || return 1
	for _ in $(seq 50); do
		[[ -d /sys/kernel/config/rocetune/rxe0 ]] && return 0
		sleep 0.1
	done
	return 1
}

P=$W/lossless-roce.conf
# the tree's example profile, or the copy an install puts beside this script
PROFILES=${RTUNE_SRC:+$RTUNE_SRC/profiles}
sed 's/^netdev = .*/netdev = dcb*/' "${PROFILES:-$here/profiles}/lossless-roce.conf" >"$P" ||
	tap_bail "no profile"

mkdevs || tap_bail "cannot create the test devices"
ROCETUNE_TEST_KILL_AT=1 "$RT" apply --dry-run "$P" >/dev/null 2>&1
[[ $? -eq 137 ]] || tap_skip_all "$RT is not a test build (make -C tools/rocetune SANITIZE=1): no kill points"

lock_free() { flock -n -x "$ROCETUNE_LOCK" true; }
no_wait() { ! grep -q 'waited for another rocetune apply' "$1"; }
no_stamp() { ! compgen -G "$ROCETUNE_STATE_DIR/cfs-group*"; }

n=0 last=
for n in $(seq "$MAX_STEPS"); do
	# A group left by a failed check would make `rdma link delete` hang.
	[[ -d $CM ]] && rmdir "$CM"
	mkdevs || tap_bail "cannot re-create the test devices"
	ROCETUNE_TEST_KILL_AT=$n "$RT" apply "$P" >"$W/killed.out" 2>&1
	rc=$?
	if ((rc != 137)); then
		tap_eq "apply with no kill point left ($((n - 1)) passed) finishes (exit 2)" 2 "$rc"
		break
	fi
	last=$(sed -n 's/^rocetune: test: SIGKILL at step [0-9]* (\(.*\))$/\1/p' "$W/killed.out")
	what="killed at step $n ($last)"
	tap_ok "$what: the lock is free once apply is dead" lock_free
	"$RT" apply "$P" >"$W/next.out" 2>&1
	rc=$?
	tap_ok "$what: the next apply succeeds (exit 0/2, got $rc)" test "$rc" -eq 2 -o "$rc" -eq 0
	tap_ok "$what: the next apply did not wait for the lock" no_wait "$W/next.out"
	tap_ok "$what: no rdma_cm group left behind" test ! -e "$CM"
	tap_ok "$what: the host reads back as the profile says" \
		python3 "$here/readback.py" "$P" dcb0 rxe0 1
	"$RT" diff "$P" >"$W/diff.out" 2>&1
	tap_eq "$what: diff finds nothing left to change" 0 "$?"
	tap_ok "$what: no configfs group stamp left in the state directory" no_stamp
done
tap_ok "the kill points ran out within $MAX_STEPS steps" test "$n" -lt "$MAX_STEPS"
tap_diag "apply has $((n - 1)) kill points on this profile"

# A lock whose holder is killed while another apply waits for it: the
# waiter gets it as soon as the holder is gone.
# (flock(1) would pass the lock to its command: the holder must be one process)
python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.flock(f, fcntl.LOCK_EX)
time.sleep(30)' "$ROCETUNE_LOCK" &
holder=$!
for _ in $(seq 100); do lock_free || break; sleep 0.1; done
tap_notok "the lock is held by a helper process" lock_free
"$RT" apply "$P" >"$W/wait.out" 2>&1 &
waiter=$!
sleep 2
kill -KILL "$holder"
t0=$SECONDS
wait "$waiter"
rc=$?
tap_ok "a waiting apply takes the lock once its holder is killed (exit $rc, $((SECONDS - t0)) s)" \
	test "$rc" -eq 0 -a $((SECONDS - t0)) -lt 10
tap_ok "... and says it waited" grep -q 'waited for another rocetune apply' "$W/wait.out"

rdma link delete rxe0
ip link del dcb0
rm -rf "$W"
tap_done
