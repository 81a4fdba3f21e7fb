#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `rocetune verify --probe` between two lab guests: after the fingerprints,
# host2 sends an RC flow (librdmacm, 64 SENDs of 1 KiB) to host1, whose
# listener watches the packets of its probe QP arrive on dcb0 and reports
# their DSCP and ECN codepoints. Set up as verify.sh: dcbsim dcb0 on eth0
# carrying rxe0, rocetune.ko, profiles/soft-roce-lab.conf applied (RDMA-CM
# ToS 106: DSCP 26, ECT(0); ECN on for priority 3, which DSCP 26 maps to).
# host1 runs `rocetune -j verify --listen` once per case, host2
# `rocetune -j verify --peer --probe`:
#   same     pass, exit 0: 64 of 64 arrived, every packet DSCP 26 ECT(0),
#            every check passes (delivery, DSCP and ECN for both hosts, the
#            path MTU: all 16 sizes up to 1024, a 1068-byte packet seen)
#   dscp     host2's nftables rewrites the DSCP of its RoCEv2 packets to
#            10 (as a misconfigured switch or a host rule would): the
#            settings agree, but exactly the DSCP checks fail, naming each
#            host's rdma_cm.tos and the observed DSCP 10; exit 1
#   ecnoff   rocetune.ko on host2 with ecn_enabled_prios none: besides the
#            setting difference, the probe names host2's
#            cc.active.ecn_enabled_prios (priority 3 off) against the
#            ECT(0) packets that arrived; exit 1
#   blocked  host1's nftables drops UDP 4791 in: no probe message arrives;
#            verify fails (exit 1) with the error, never passes, on both
#            (path_mtu unchecked: not even the smallest size arrived)
#   pmtu     host2's nftables drops its RoCEv2 packets longer than 1000
#            IP bytes, as a hop with a smaller MTU would, while small ones
#            pass: the path MTU ladder (64..1024 bytes in steps of 64, the
#            RoCE MTU 1024 of both hosts) arrives up to 896 bytes (940-byte
#            packets); path_mtu and delivery fail on both sides, naming
#            896 and 1024; DSCP and ECN still pass on the small packets
#   nolisten host2 probes a port nobody listens on: not run, exit 4
#   cnp      host1's ingress becomes an ECN bottleneck (ifb0: HTB 8 Mbit/s,
#            RED ecn, selftests/dcqcn/lab-preset.sh) and host2 runs
#            `verify --probe-cnp` (256 SENDs of 8 KiB): some packets arrive
#            CE-marked, CNPs come back to host2's probe QP with DSCP 48 (the
#            profile's np_cnp_dscp), and rocetune.ko cut the QP's rate
#            (qp_stats rate_cuts); host1's NP counted CE marks and sent
#            CNPs, and its report's cnp_sent (seen leaving dcb0) says
#            they were DSCP 48, priority 6; pass, exit 0
#   cnpdscp  the same with host1's np_cnp_dscp 46 (configfs): the setting
#            differs, and the peer's cnp_dscp check names host1 (the
#            listener, whose CNPs carry DSCP 46); exit 1. The listener
#            never sees the CNPs come back: its report has no CNP checks,
#            but its cnp_sent says DSCP 46, priority 5.
# Each case is checked on host2 (the peer) and on host1 (the listener's own
# report names the same).
#
# Run on the host:   selftests/rocetune/verify_probe.sh [lab-run options]
# Needs: tools/rocetune/rocetune, kmod/rocetune.ko,
# kmod/dcbsim/rocetune_dcbsim.ko, nft (nftables) in the guests.

# shellcheck disable=SC2154 # LAB_* come from /run/lab/env
set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 2 --timeout 900 "$@" \
		--script "1,2=$here/verify_probe.sh"
fi

. "$here/../lib/lab-guest.sh"
. "$here/../lib/tap.sh"
. "$here/../lib/tree.sh"
lab_hosts 2 || tap_skip_all "$LAB_WHY: two hosts to probe between"

RT=$RTUNE_TOOL
DCBSIM=$RTUNE_DCBSIM_KO
RTKO=$RTUNE_KO
if [[ -n $RTUNE_SRC ]]; then
	PROFILE=$RTUNE_SRC/profiles/soft-roce-lab.conf
else
	PROFILE=$here/profiles/soft-roce-lab.conf
fi
[[ -n $DCBSIM && -f $DCBSIM ]] ||
	tap_skip_all "needs the rocetune_dcbsim test device (DCBSIM_KO=PATH)"
[[ -n $RT && -x $RT ]] || tap_skip_all "rocetune not built (make -C tools/rocetune) or not in PATH"
[[ -n $RTKO && -f $RTKO ]] || tap_skip_all "rocetune.ko not built: the ECN case needs it"
command -v nft >/dev/null || tap_skip_all "nft (nftables) not installed: the DSCP and blocked cases need it"

CC=/sys/kernel/config/rocetune/rxe0/ports/1/cc
W=$(mktemp -d /run/rocetune-probe.XXXXXX)
export ROCETUNE_STATE_DIR=$W/state
PORT=4793
CASES="same dscp ecnoff blocked pmtu cnp cnpdscp"
# the bottleneck of the CNP cases (rtune_lab_bottleneck)
# shellcheck disable=SC2034 # read by lab-preset.sh
BN_MBIT=8
. "$here/../dcqcn/lab-preset.sh"

tap_header
tap_diag "host$LAB_HOST: eth0 $LAB_ADDR_eth0, peer $LAB_PEER_eth0"
lab_addr_ok "$LAB_PEER_eth0" || tap_bail "peer address $LAB_PEER_eth0 outside the lab range"

mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
insmod "$DCBSIM" || tap_bail "insmod $DCBSIM"
{ modprobe rdma_rxe && modprobe rdma_cm && modprobe rdma_ucm && modprobe ib_uverbs; } ||
	tap_bail "no rdma_rxe / rdma_cm / rdma_ucm / ib_uverbs"
insmod "$RTKO" || tap_bail "insmod $RTKO"
# dcb0 on eth0 with the lab address, rxe0 on it, the peer pingable
lab_dcb0_up || tap_bail "dcb0 and rxe0 on eth0, and a ping to $LAB_PEER_eth0"
for _ in $(seq 50); do [[ -d $CC ]] && break; sleep 0.1; done
[[ -d $CC ]] || tap_bail "rocetune.ko did not take rxe0"

if ((LAB_HOST == 1)); then
	head -c 32 /dev/urandom | base64 >"$LAB_RUN_DIR/probe.key"
	lab_put key-ready 1
fi
lab_get 1 key-ready >/dev/null || tap_bail "no key from host1"
(umask 077 && cp "$LAB_RUN_DIR/probe.key" "$W/key") || tap_bail "key file"

apply() {
	local rc
	"$RT" apply "$PROFILE" >"$W/apply.out" 2>&1
	rc=$?
	((rc == 0 || rc == 2)) || { sed 's/^/# apply: /' "$W/apply.out"; return 1; }
}
apply || tap_bail "rocetune apply $PROFILE"
lab_barrier applied || tap_bail "barrier applied"

# summary FILE ME: "EXIT RESULT PROBE | failing checks as check@hostN |
# observed dscp/ecn" of a verify JSON document (host ME wrote it)
summary() {
	python3 - "$@" <<'PY'
import json, sys
d = json.loads([l for l in open(sys.argv[1]) if l.strip()][-1])
me = int(sys.argv[2])
p = d.get("probe") or {}
def who(label):
    return "host%d" % (me if label == d["local"].get("label") else 3 - me)
bad = ["%s@%s" % (c["check"], who(c["host"])) for c in p.get("checks", [])
       if c["verdict"] != "pass"]
obs = ["%d/%d" % (o["dscp"], o["ecn"]) for o in p.get("observed", [])]
print(d["exit_code"], d["result"], p.get("result", "-"), "|", *(bad or ["-"]), "|",
      *(obs or ["-"]))
PY
}

# What each case gives, the same on both hosts.
declare -A EXPECT=(
	[same]="0 pass pass | - | 26/2"
	[dscp]="1 fail fail | dscp@host1 dscp@host2 | 10/2"
	[ecnoff]="1 fail fail | ecn@host2 | 26/2"
	[blocked]="1 fail fail | delivery@host1 dscp@host1 ecn@host1 path_mtu@host1 | -"
	[pmtu]="1 fail fail | delivery@host1 path_mtu@host1 | 26/2"
	[cnp]="0 pass pass | - | 26/2 26/3"
	[cnpdscp]="1 fail fail | cnp_dscp@host1 | 26/2 26/3"
)
# the listener never sees the CNPs: no CNP check in its report
declare -A EXPECT_L=([cnpdscp]="1 fail pass | - | 26/2 26/3")

# schema l|p: every document this host wrote conforms to the published schema
schema() {
	tap_ok "every verify document of host$LAB_HOST conforms to rocetune-verify.v4.json" \
		sh -c 'cat "$@" | python3 "$0" rocetune-verify.v4.json' "$here/stats_schema.py" \
		"$W/$1"-*.json
}

# pmtu_ok FILE: the path MTU check names the largest size through (896
# bytes, 940-byte packets) and the expected one (1024), in JSON and text
pmtu_ok() {
	tap_ok "pmtu: host$LAB_HOST's path_mtu names 896 of 1024 bytes (940-byte packets)" \
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = d["probe"]["path_mtu"]
assert m == {"mtu": 1024, "sizes": 16, "arrived": 14, "largest_message": 896,
             "largest_packet": 940}, m
f = [c for c in d["probe"]["checks"] if c["check"] == "path_mtu"][0]
assert f["verdict"] == "fail" and f["setting"] == "roce_active_mtu" and f["value"] == "1024", f
assert "up to 1024 bytes" in f["promised"] and "896 bytes (940-byte" in f["observed"], f
assert d["verify_version"] == 4, d
' "$1"
}

nft_del() { nft delete table ip rtprobe 2>/dev/null; true; }

# show FILE TAG: the verdict, differences and probe of a verify document as
# TAP diagnostics (the settings are in the file)
show() {
	python3 -c '
import json, sys
d = json.loads([l for l in open(sys.argv[1]) if l.strip()][-1])
for k in ("exit_code", "result", "reason", "differences", "probe"):
    print("# %s: %s: %s" % (sys.argv[2], k, json.dumps(d.get(k))))
' "$1" "$2" 2>&1 | sed 's/^\([^#]\)/# \1/'
}

if ((LAB_HOST == 1)); then
	tap_plan 12
	for c in $CASES; do
		if [[ $c == blocked ]]; then
			if ! { nft add table ip rtprobe && nft add chain ip rtprobe in \
				'{ type filter hook input priority 0; }' &&
				nft add rule ip rtprobe in udp dport 4791 drop; }; then
				tap_fail "blocked: host1 drops RoCEv2" "nft failed"
			fi
		fi
		if [[ $c == cnp ]]; then
			{ modprobe ifb && modprobe sch_htb && modprobe sch_red &&
				rtune_lab_bottleneck; } ||
				tap_fail "cnp: host1's ingress bottleneck" "tc failed"
		fi
		if [[ $c == cnpdscp ]]; then
			{ echo 1 >"$CC/discard" && echo 46 >"$CC/staged/np_cnp_dscp" &&
				echo 1 >"$CC/commit"; } ||
				tap_fail "cnpdscp: host1's CNP DSCP 46" "configfs"
			rtune_lab_red replace
		fi
		timeout 300 "$RT" -j verify --listen --port $PORT --key "$W/key" --timeout 10 \
			>"$W/l-$c.json" 2>"$W/l-$c.err" &
		pid=$!
		lab_put "listening-$c" 1
		wait $pid
		nft_del
		got=$(summary "$W/l-$c.json" 1 2>&1)
		tap_eq "$c: the listener's own report" "${EXPECT_L[$c]:-${EXPECT[$c]}}" "$got"
		show "$W/l-$c.json" "l-$c"
		case $c in
		cnp)
			tap_diag "cnp: ifb0 RED: $(rtune_lab_redstat marked) marked, $(rtune_lab_redstat dropped) dropped"
			tap_ok "cnp: host1's NP counted CE marks on its probe QP and sent CNPs" python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["probe"]
assert p["counters"]["qp_ce_rcvd"] > 0 and p["counters"]["qp_cnp_sent"] > 0, p
assert p["cnp"] is None, p
s = p["cnp_sent"]
assert s["cnps"] > 0 and [(o["dscp"], o["prio"]) for o in s["observed"]] == [(48, 6)], s
' "$W/l-$c.json" ;;
		cnpdscp)
			tap_ok "cnpdscp: host1 reports the CNPs it sent: DSCP 46, priority 5" python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["probe"]["cnp_sent"]
assert s["cnps"] > 0 and [(o["dscp"], o["prio"]) for o in s["observed"]] == [(46, 5)], s
' "$W/l-$c.json"
			apply || tap_fail "cnpdscp: the profile applies again" "apply failed" ;;
		pmtu) pmtu_ok "$W/l-$c.json" ;;
		esac
		lab_barrier "done-$c" || tap_bail "barrier done-$c"
	done
	tc qdisc del dev eth0 ingress 2>/dev/null
	ip link del ifb0 2>/dev/null
	tap_ok "the listener's report of the same profile: 64 of 64 messages, every packet counted, the path MTU's 16 sizes" \
		python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["probe"]
assert p["received"] == 64 and p["packets"] >= 64 + 16 and p["captured"], p
assert sum(o["packets"] for o in p["observed"]) == p["packets"], p
m = p["path_mtu"]
assert m["mtu"] == 1024 and m["arrived"] == 16 and m["largest_packet"] == 1068, m
assert [c["verdict"] for c in p["checks"] if c["check"] == "path_mtu"] == ["pass"], p
' "$W/l-same.json"
	schema l
	tap_done
fi

# host2: the peer
# peer OUT [PORT [PROBE-OPTION]]: verify --probe against host1, again while
# it is not listening yet
peer() {
	local rc
	for _ in $(seq 40); do
		"$RT" -j verify --peer "$LAB_PEER_eth0" --port "${2:-$PORT}" --key "$W/key" \
			--timeout 10 "${3:---probe}" >"$1"
		rc=$?
		[[ ${2:-$PORT} != "$PORT" ]] && return $rc
		grep -q '"reason":"connect to' "$1" || return $rc
		sleep 0.5
	done
	return $rc
}

tap_plan 14
for c in $CASES; do
	opt=--probe
	[[ $c == cnp* ]] && opt=--probe-cnp
	case $c in
	dscp)
		if ! { nft add table ip rtprobe && nft add chain ip rtprobe out \
			'{ type filter hook output priority 0; }' &&
			nft add rule ip rtprobe out udp dport 4791 ip dscp set 10; }; then
			tap_fail "dscp: host2 rewrites its DSCP" "nft failed"
		fi ;;
	ecnoff)
		{ echo 1 >"$CC/discard" && echo none >"$CC/staged/ecn_enabled_prios" &&
			echo 1 >"$CC/commit"; } || tap_fail "ecnoff: host2 changed" "configfs" ;;
	pmtu)
		# a hop with a smaller MTU: RoCEv2 packets over 1000 IP bytes vanish
		if ! { nft add table ip rtprobe && nft add chain ip rtprobe out \
			'{ type filter hook output priority 0; }' &&
			nft add rule ip rtprobe out udp dport 4791 meta length gt 1000 drop; }; then
			tap_fail "pmtu: host2 drops packets over 1000 bytes" "nft failed"
		fi ;;
	esac
	lab_get 1 "listening-$c" 120 >/dev/null || tap_bail "host1 never listened for $c"
	start=$(date +%s)
	peer "$W/p-$c.json" "$PORT" "$opt"
	rc=$?
	secs=$(($(date +%s) - start))
	nft_del
	got=$(summary "$W/p-$c.json" 2 2>&1)
	tap_eq "$c: the peer's verdict (exit $rc, ${secs}s)" "${EXPECT[$c]}" "$got"
	show "$W/p-$c.json" "p-$c"
	case $c in
	ecnoff)
		tap_ok "ecnoff: the setting is named too, with host2's value" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert [x["setting"] for x in d["differences"]] == ["cc.active.ecn_enabled_prios"], d
f = [c for c in d["probe"]["checks"] if c["verdict"] == "fail"]
assert f[0]["setting"] == "cc.active.ecn_enabled_prios" and f[0]["value"].startswith("0 "), f
assert "ECT(0)" in f[0]["observed"], f
' "$W/p-$c.json"
		apply || tap_fail "ecnoff: the profile applies again" "apply failed" ;;
	cnp)
		tap_ok "cnp: CNPs came back, every one DSCP 48, host1 says it sent some, and host2's rate was cut" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = d["probe"]["cnp"]
assert c["captured"] and c["cnps"] > 0, c
assert [o["dscp"] for o in c["observed"]] == [48], c
assert d["probe"]["cnp_sent"]["cnps"] > 0, d["probe"]["cnp_sent"]
q = c["qp_stats"]
assert q["rate_cuts"] > 0 and q["cnp_rcvd"] > 0, c
v = {x["check"]: x["verdict"] for x in d["probe"]["checks"]}
assert v["cnp_dscp"] == "pass" and v["rate_reaction"] == "pass", v
assert d["verify_version"] == 4, d
' "$W/p-$c.json" ;;
	cnpdscp)
		tap_ok "cnpdscp: the setting and the CNPs name host1's DSCP 46" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert [(x["setting"], x["local"], x["remote"]) for x in d["differences"]] == \
	[("cc.active.np_cnp_dscp", "48", "46")], d["differences"]
f = [c for c in d["probe"]["checks"] if c["check"] == "cnp_dscp"][0]
assert f["verdict"] == "fail" and f["host"] == d["remote"]["label"] and f["value"] == "46", f
assert "DSCP 46 in all" in f["observed"], f
' "$W/p-$c.json" ;;
	pmtu) pmtu_ok "$W/p-$c.json" ;;
	blocked)
		tap_ok "blocked: the exit status is 1 and the error says the flow failed" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert int(sys.argv[2]) == 1 and "probe flow" in (d["probe"]["error"] or ""), d
' "$W/p-$c.json" "$rc" ;;
	esac
	lab_barrier "done-$c" || tap_bail "barrier done-$c"
done
peer "$W/p-nolisten.json" 4799
rc=$?
tap_ok "nolisten: no listener on the port: not run, exit 4, never a pass (rc $rc)" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert int(sys.argv[2]) == 4 and d["result"] == "not-run", d
' "$W/p-nolisten.json" "$rc"
schema p
tap_done
