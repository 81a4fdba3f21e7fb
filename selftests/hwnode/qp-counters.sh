#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# On a real RoCE node (not in the lab): per-QP hardware counters through
# `rocetune stats --bind-qp-counters`, for each RoCE port of an RDMA device
# whose PCI driver is mlx5_core (the only driver that binds QPs to
# counters, Documentation/hardware.rst "Per-QP congestion counters"), or
# the device named. perftest makes the QPs (ib_write_bw over the port's
# own loopback), iproute2's rdma is the independent reader:
#
#   1. the port's counters are in no auto mode (auto: the port is an
#      operator's, every check skips and says so), read with its counters
#      and the optional counters that are on;
#   2. ib_write_bw's two RC QPs are up on the port;
#   3. --bind-qp-counters exits 0 and binds at least those two;
#   4. rdma statistic shows each of them alone in a counter;
#   5. `rocetune -j stats` names that counter for each QP, as rocetune's,
#      with values no larger than rdma reads right after;
#   6. --unbind-qp-counters exits 0 and rdma shows the counters of step 1
#      again, no more, no fewer;
#   7. the optional counters that are on are those of step 1.
#
# TAP; skips (exit 4) with the reason when the node has no such device,
# when not root, or without the tools. It runs ib_write_bw on the device
# for up to a minute: run it on a node out of service.
#
#     selftests/hwnode/qp-counters.sh [IBDEV]

set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/tree.sh"

RT=$RTUNE_TOOL
SYSIB=${HWNODE_SYSFS_IB:-/sys/class/infiniband}
SECS=${HWNODE_TRAFFIC_SECS:-60}

# IBDEV/PORT per line: the Ethernet ports of mlx5 devices (or of the named)
ports() {
	local d p drv
	for d in "$SYSIB"/*; do
		[[ -e $d ]] || continue
		[[ $# -eq 0 || ${d##*/} == "$1" ]] || continue
		drv=$(basename "$(readlink "$d/device/driver" 2>/dev/null)" 2>/dev/null)
		[[ $drv == mlx5_core ]] || continue
		for p in "$d"/ports/*; do
			[[ $(cat "$p/link_layer" 2>/dev/null) == Ethernet ]] && echo "${d##*/}/${p##*/}"
		done
	done
}

found=$(find "$SYSIB" -mindepth 1 -maxdepth 1 -printf '%f\n' 2>/dev/null | sort | paste -sd ' ')
mapfile -t PORTS < <(ports "$@")
[[ ${#PORTS[@]} -gt 0 ]] ||
	tap_skip_all "no RoCE port of an mlx5 RDMA device${1:+ named $1} on this node (RDMA devices: ${found:-none})"
[[ $(id -u) -eq 0 ]] || tap_skip_all "must run as root (binding counters is root's)"
[[ -n $RT && -x $RT ]] || tap_skip_all "rocetune not built (make -C tools/rocetune) or not in PATH"
for t in rdma ib_write_bw python3; do
	command -v $t >/dev/null || tap_skip_all "$t missing (iproute2, perftest, python3)"
done

W=$(mktemp -d /run/rocetune-hwnode.XXXXXX)
PIDS=()
stop_traffic() {
	((${#PIDS[@]})) && kill "${PIDS[@]}" 2>/dev/null
	((${#PIDS[@]})) && wait "${PIDS[@]}" 2>/dev/null
	PIDS=()
}
trap 'stop_traffic; rm -rf "$W"' EXIT

# roce_v2_gid IBDEV PORT: the first RoCE v2 GID index that is IPv4-mapped
roce_v2_gid() {
	local port=$SYSIB/$1/ports/$2 f i
	for f in "$port"/gids/*; do
		i=${f##*/}
		[[ $(cat "$f" 2>/dev/null) == 0000:0000:0000:0000:0000:ffff:* ]] || continue
		[[ $(cat "$port/gid_attrs/types/$i" 2>/dev/null) == "RoCE v2" ]] || continue
		echo "$i"
		return 0
	done
	return 1
}

# mode LINK: rdma's auto-mode string ("qp auto off"; in auto mode "qp
# auto type on" or the like). rdma cannot tell none from manual.
mode() {
	rdma -j statistic qp mode link "$1" 2>/dev/null | python3 -c '
import json, sys
print(json.load(sys.stdin)[0].get("mode", ""))'
}

# counters LINK: "CNTN:QPN,QPN ..." sorted, every counter of the port
counters() {
	rdma -j statistic qp show link "$1" 2>/dev/null | python3 -c '
import json, sys
print(" ".join(sorted("%d:%s" % (c["cntn"], ",".join(map(str, sorted(c.get("lqpn", [])))))
                      for c in json.load(sys.stdin))))'
}

optional_on() {	# optional_on LINK: the optional counters that are on, sorted
	rdma -j statistic mode link "$1" 2>/dev/null | python3 -c '
import json, sys
names = []
for p in json.load(sys.stdin):
    names += p.get("optional-counters", [])
print(" ".join(sorted(names)))'
}

perftest_qps() {	# perftest_qps LINK: the QPNs of ib_write_bw's RC QPs
	rdma -j resource show qp link "$1" 2>/dev/null | python3 -c '
import json, sys
print(" ".join(str(q["lqpn"]) for q in json.load(sys.stdin)
               if q.get("comm") == "ib_write_bw" and q.get("type") == "RC"))'
}

# qps_up LINK: ib_write_bw's two QPs are on the port within 20 s
# shellcheck disable=SC2317 # run through tap_ok
qps_up() {
	local i q
	for ((i = 0; i < 40; i++)); do
		q=$(perftest_qps "$1")
		[[ $(wc -w <<<"$q") -ge 2 ]] && return 0
		sleep 0.5
	done
	echo "ib_write_bw's QPs on $1: '${q:-none}'; server and client logs:"
	cat "$W/srv.log" "$W/cli.log"
	return 1
}

# alone LINK QPN...: each QPN is the only QP of a counter
# shellcheck disable=SC2317 # run through tap_ok
alone() {
	local link=$1 now q
	shift
	now=$(counters "$link")
	for q in "$@"; do
		[[ " $now " =~ \ [0-9]+:$q\  ]] || { echo "QP $q has no counter of its own: $now"; return 1; }
	done
}

# matches LINK IBDEV QPN...: rocetune's rdma_counter and values for each
# QPN against rdma's counter read after it
# shellcheck disable=SC2317 # run through tap_ok
matches() {
	local link=$1 ibdev=$2
	shift 2
	"$RT" -j stats dev "$ibdev" >"$W/stats.json" 2>"$W/stats.err" || { cat "$W/stats.err"; return 1; }
	rdma -j statistic qp show link "$link" >"$W/rdma.json" 2>&1 || { cat "$W/rdma.json"; return 1; }
	python3 - "$W/stats.json" "$W/rdma.json" "$@" <<'EOP'
import json, sys
st, rd = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
by_qp = {}
for c in rd:
    for q in c.get("lqpn", []):
        by_qp[q] = c
ours = {}
def walk(o):
    if isinstance(o, dict):
        for q in o.get("qps") or []:
            if isinstance(q, dict) and "qpn" in q:
                ours[q["qpn"]] = q
        for v in o.values():
            walk(v)
    elif isinstance(o, list):
        for v in o:
            walk(v)
walk(st)
# rocetune's per-QP names from the RDMA counter's (hardware.rst)
sums = {"retransmissions": ("local_ack_timeout_err", "packet_seq_err", "implied_nak_seq_err"),
        "duplicate_requests": ("duplicate_request",), "out_of_sequence": ("out_of_sequence",)}
bad = []
for qpn in map(int, sys.argv[3:]):
    q, c = ours.get(qpn), by_qp.get(qpn)
    if q is None or c is None:
        bad.append("QP %d: rocetune %s, rdma %s" % (qpn, "has it" if q else "does not list it",
                                                   "has a counter" if c else "has no counter"))
        continue
    rc = q.get("rdma_counter") or {}
    if rc.get("id") != c["cntn"] or rc.get("rocetune") is not True:
        bad.append("QP %d: rdma_counter %s, rdma's counter %d" % (qpn, rc, c["cntn"]))
    for name, src in sums.items():
        tot = ((q.get("counters") or {}).get(name) or {}).get("total")
        have = [s for s in src if s in c]
        if not have:
            continue
        if tot is None or tot > sum(c[s] for s in have):
            bad.append("QP %d: %s %s, rdma %s" % (qpn, name, tot, {s: c[s] for s in have}))
if bad:
    sys.exit("; ".join(bad))
EOP
}

tap_plan $((7 * ${#PORTS[@]}))

port_no=18515
for link in "${PORTS[@]}"; do
	ibdev=${link%/*}
	p=${link#*/}
	m=$(mode "$link")
	before=$(counters "$link")
	opt=$(optional_on "$link")
	tap_diag "$link: mode ${m:-unreadable}, counters: ${before:-none}, optional counters on: ${opt:-none}"
	if [[ $m == *auto* && $m != *"auto off"* ]]; then
		for t in "mode" "QPs up" "bind" "alone" "stats" "unbind" "optional"; do
			tap_skip "$link: $t" "the port counts QPs in auto mode (an operator's \`rdma statistic qp set ... auto\`): rocetune binds nothing there"
		done
		continue
	fi
	tap_eq "$link: the port counts QPs in no auto mode" "qp auto off" "$m"
	gid=$(roce_v2_gid "$ibdev" "$p")
	port_no=$((port_no + 1))
	perf=(ib_write_bw -d "$ibdev" -i "$p" ${gid:+-x "$gid"} -D "$SECS" -p "$port_no" -F)
	"${perf[@]}" >"$W/srv.log" 2>&1 &
	PIDS+=($!)
	sleep 1
	"${perf[@]}" 127.0.0.1 >"$W/cli.log" 2>&1 &
	PIDS+=($!)
	tap_ok "$link: ib_write_bw's two RC QPs up (GID index ${gid:-none: perftest picks})" qps_up "$link"
	read -ra qps <<<"$(perftest_qps "$link")"

	"$RT" stats --bind-qp-counters dev "$ibdev" >/dev/null 2>"$W/bind.err"
	rc=$?
	n=$(sed -n "s|.*qp counters: $link: \([0-9]*\) QPs\{0,1\} bound.*|\1|p" "$W/bind.err")
	tap_ok "$link: --bind-qp-counters exit $rc, ${n:-no} QPs bound (>= ${#qps[@]})" \
		test "$rc" -eq 0 -a "${n:-0}" -ge "${#qps[@]}" -a "${#qps[@]}" -ge 2
	[[ $rc -eq 0 ]] || sed 's/^/#   /' "$W/bind.err"
	tap_ok "$link: rdma statistic: each of QPs ${qps[*]} alone in a counter" alone "$link" "${qps[@]}"
	tap_ok "$link: rocetune stats names those counters, as its own, with rdma's values" \
		matches "$link" "$ibdev" "${qps[@]}"

	"$RT" stats --unbind-qp-counters dev "$ibdev" >/dev/null 2>"$W/unbind.err"
	rc=$?
	tap_eq "$link: --unbind-qp-counters exit $rc, the counters of before again" \
		"0 $before" "$rc $(counters "$link")"
	[[ $rc -eq 0 ]] || sed 's/^/#   /' "$W/unbind.err"
	tap_eq "$link: the optional counters on are those of before" "$opt" "$(optional_on "$link")"
	stop_traffic
done
tap_done
