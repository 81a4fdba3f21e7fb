#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In-guest test of `rocetune stats --bind-qp-counters` on Soft-RoCE, the
# one RDMA device the lab has. rxe has no counter_bind_qp, so what can be
# checked here is the refusal: with a user QP waiting on rxe0, the bind
# says "unsupported" with the reason, exits 1, sends nothing and records
# nothing (`rdma statistic qp` and the port's counter mode unchanged);
# the read half (STAT_GET mode and dump, STAT_GET_STATUS) is accepted by
# the kernel's RDMA netlink; --unbind-qp-counters drops a record whose
# counter is gone without touching anything. The bind itself is tested
# against a fake kernel in selftests/unit/test_rocetune_qpctr.c.
#
# On the host it starts itself in a lab guest (args go to lab-run):
#     selftests/rocetune/qp-counters.sh [--keep] [--out DIR]

set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 1 --timeout 300 "$@" \
		--script "1=$here/qp-counters.sh"
fi

. "$here/../lib/tap.sh"
. "$here/../lib/tree.sh"
. "$here/../lib/kernel.sh"

RT=$RTUNE_TOOL
[[ -n ${LAB_HOST:-} ]] || tap_skip_all "runs in a QEMU lab guest (it adds rxe0 on eth0)"
[[ -n $RT && -x $RT ]] || tap_skip_all "rocetune not built (make -C tools/rocetune) or not in PATH"
command -v rdma >/dev/null || tap_skip_all "iproute2 rdma missing"
command -v ibv_rc_pingpong >/dev/null || tap_skip_all "ibv_rc_pingpong (ibverbs-utils) missing"

W=$(mktemp -d /run/rocetune-qpc.XXXXXX)
export ROCETUNE_STATE_DIR=$W/state
PP=

cleanup() {
	[[ -n $PP ]] && kill "$PP" 2>/dev/null
	rdma link delete rxe0 2>/dev/null
	rm -rf "$W"
}
trap cleanup EXIT

kernel_log_mark
modprobe rdma_rxe && ip link set eth0 up && rdma link add rxe0 type rxe netdev eth0 ||
	tap_bail "cannot add rxe0 on eth0"

tap_plan 9

# a user RC QP on rxe0: ibv_rc_pingpong's server makes it, then waits
ibv_rc_pingpong -d rxe0 -g 0 -p 18777 >/dev/null 2>&1 &
PP=$!
has_qp() { rdma resource show qp link rxe0/1 2>/dev/null | grep -q 'pid'; }
wait_for has_qp
tap_ok "a user QP exists on rxe0/1 (ibv_rc_pingpong waiting)" has_qp

snap() {
	rdma statistic qp mode link rxe0/1 2>&1
	rdma -j statistic qp show link rxe0/1 2>&1
}
before=$(snap)

"$RT" stats --bind-qp-counters --interval 0 dev rxe0 >"$W/out" 2>"$W/err"
rc=$?
tap_diag "stderr: $(tr '\n' ' ' <"$W/err")"
tap_eq "--bind-qp-counters on rxe0: exit 1 (no port could bind)" 1 "$rc"
t_says() {
	grep -Eq "qp counters: rxe0/1: unsupported: rxe0.s driver \(none\) cannot bind QPs to counters" "$W/err"
}
tap_ok "it says unsupported, and why (no counter_bind_qp)" t_says
tap_eq "the port's counter mode and its counters are unchanged" "$before" "$(snap)"
t_no_record() { [[ ! -e $ROCETUNE_STATE_DIR/qp-counters ]]; }
tap_ok "nothing recorded in the state directory" t_no_record
t_stats_still() { grep -q '^eth0 (rxe0/1)' "$W/out"; }
tap_ok "the stats are still printed" t_stats_still

# the read half: 6.1's RDMA netlink answers the mode, dump and status requests
t_read() {
	"$RT" -j stats --interval 0 dev rxe0 | python3 -c '
import json, sys
p = [x for x in json.load(sys.stdin)["ports"] if x["rdma_device"] == "rxe0"][0]
nr = p["not_reported"]
if "rdma_counters" in nr:
    sys.exit("rdma_counters not reported: " + nr["rdma_counters"])
if p["qps"] not in (None, []) and any("rdma_counter" in q for q in p["qps"]):
    sys.exit("a QP with an rdma counter on rxe: %s" % p["qps"])'
}
tap_ok "the counters of rxe0/1 are read over RDMA netlink (none bound)" t_read

# a record whose counter is gone: dropped, nothing sent
mkdir -p "$ROCETUNE_STATE_DIR"
echo "bind rxe0 1 7 12345" >"$ROCETUNE_STATE_DIR/qp-counters"
"$RT" stats --unbind-qp-counters --interval 0 dev rxe0 >/dev/null 2>"$W/err2"
urc=$?	# not "rc": tap_ok has a local of that name
tap_diag "stderr: $(tr '\n' ' ' <"$W/err2")"
t_unbind() {
	[[ $urc -eq 0 ]] && grep -q "rxe0/1: 0 bindings removed, 1 gone already, 0 failed" "$W/err2" &&
		[[ ! -e $ROCETUNE_STATE_DIR/qp-counters ]] && [[ "$before" == "$(snap)" ]]
}
tap_ok "--unbind-qp-counters: a stale record dropped, nothing changed (rc $urc)" t_unbind

kill "$PP" 2>/dev/null
wait "$PP" 2>/dev/null
PP=
tap_ok "kernel log clean" kernel_log_clean
tap_done
