#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In-guest tests of `rocetune stats` and `rocetune top` against
# rocetune_dcbsim devices and rxe: the counters stats reads agree with what
# the kernel's own tools read (`dcb -s -j pfc show`, `ethtool --json -S` /
# `-I -a`, `ethtool`'s speed, sysfs hw_counters and `rdma statistic show`,
# `rdma link show`, rocetune.ko's qp_stats); what a device does not report
# is null in JSON and has no Prometheus sample, never 0; the JSON validates
# against Documentation/schema/rocetune-stats.v1.json; the Prometheus
# output passes `promtool check metrics` and is written atomically; a
# device that vanishes between the two samples is reported as gone; a pause
# storm injected on one priority (dcbsim's debugfs counters) shows as a
# rate on that priority and sorts that port first in `top --iterations`
# and in `top`'s curses screen on a terminal (keys re-sort it, q quits;
# TERM=dumb or a terminal terminfo does not know gets plain frames);
# the driver's PFC storm counters (ethtool -S tx_pause_storm_*_events)
# read by stats equal ethtool's, in JSON and Prometheus.
#
# On the host it starts itself in a lab guest (args go to lab-run):
#     selftests/rocetune/stats.sh [--keep] [--out DIR]

set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 1 --timeout 600 "$@" \
		--script "1=$here/stats.sh"
fi

. "$here/../lib/tap.sh"
. "$here/../lib/tree.sh"
. "$here/../lib/dcb-write.sh"

RT=$RTUNE_TOOL
DCBSIM=$RTUNE_DCBSIM_KO
RTKO=$RTUNE_KO
SCHEMA=$here/stats_schema.py
W=$(mktemp -d /run/rocetune-stats.XXXXXX)
DBG=/sys/kernel/debug/rocetune_dcbsim
have_cc=0

[[ -n $DCBSIM ]] ||
	tap_skip_all "needs the rocetune_dcbsim test device, a lab module that an installed tree does not have (DCBSIM_KO=PATH)"
[[ -n $RT && -x $RT ]] || tap_skip_all "rocetune not built (make -C tools/rocetune) or not in PATH"
[[ -f $DCBSIM ]] || tap_skip_all "rocetune_dcbsim.ko not built"

setup() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
	insmod "$DCBSIM" || return 1
	modprobe rdma_rxe || return 1
	if [[ -f $RTKO ]]; then
		insmod "$RTKO" && have_cc=1
	fi
	ip link set eth0 up
}

# dcb0 stacked on eth0 carrying rxe0, dcbsim1 standalone (no RDMA port).
mkdevs() {
	ip link add link eth0 name dcb0 type dcbsim || return 1
	ip link add dcbsim1 type dcbsim || return 1
	ip link set dcb0 up && ip link set dcbsim1 up || return 1
	rdma link add rxe0 type rxe netdev dcb0 || return 1
	dcb_write pfc set dev dcb0 prio-pfc 3:on || return 1
	dcb_write pfc set dev dcbsim1 prio-pfc 5:on || return 1
	for _ in $(seq 50); do
		[[ -e /sys/class/infiniband/rxe0/ports/1/state ]] &&
			{ ((!have_cc)) || [[ -d /sys/kernel/config/rocetune/rxe0 ]]; } && return 0
		sleep 0.1
	done
	return 1
}

if ! setup; then
	tap_skip_all "cannot load dcbsim/rxe in this guest"
fi
mkdevs || tap_bail "cannot create the dcbsim and rxe test devices"
((have_cc)) || tap_diag "kmod/rocetune.ko absent: qp_stats is checked as not reported"

# port JSON NETDEV: that port's object of a stats document
port() { python3 -c 'import json,sys
for p in json.load(open(sys.argv[1]))["ports"]:
    if p["netdev"] == sys.argv[2]: print(json.dumps(p)); break' "$1" "$2"; }

J=$W/stats.json
"$RT" -j stats --interval 0.5 > "$J" 2> "$W/stats.err"
rc=$?
tap_eq "stats -j --interval 0.5: exit 0" 0 "$rc"
tap_ok "stats -j validates against the published schema (rocetune-stats.v1.json)" \
	python3 "$SCHEMA" < "$J"
tap_eq "stats lists dcb0 (rxe0/1) and dcbsim1, present, with rates over 500 ms" \
	"dcb0 rxe0 1 present 500 dcbsim1 None None present" \
	"$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
ps = {p["netdev"]: p for p in d["ports"]}
out = []
for n in ("dcb0", "dcbsim1"):
    p = ps.get(n, {})
    out += [n, str(p.get("rdma_device")), str(p.get("port")), str(p.get("state"))]
    if n == "dcb0":
        out.append(str(d["interval_ms"]))
print(" ".join(out))' "$J")"

# --------------------------------------------------- PFC agrees with dcb
# compare_pfc NETDEV: the JSON's per-priority totals and enable bits are
# dcb's requests, indications and prio-pfc (read right after; the counters
# do not move without an injected storm).
compare_pfc() {
	dcb -s -j pfc show dev "$1" > "$W/dcb-$1.json" || return 1
	python3 - "$J" "$W/dcb-$1.json" "$1" <<'EOF'
import json, sys
ports = {p["netdev"]: p for p in json.load(open(sys.argv[1]))["ports"]}
dcb = json.load(open(sys.argv[2]))
p = ports[sys.argv[3]]

def per_prio(v):
    # iproute2 prints the counters as a list of 8 numbers, or as
    # {prio: count} pairs; accept both
    if isinstance(v, dict):
        return [int(v.get(str(i), 0)) for i in range(8)]
    if v and isinstance(v[0], (list, dict)):
        out = [0] * 8
        for e in v:
            k, c = (e[0], e[1]) if isinstance(e, list) else (e["prio"], e["count"])
            out[int(k)] = int(c)
        return out
    return [int(x) for x in v]

if p["pfc"] is None:
    sys.exit(f"stats has no PFC for {sys.argv[3]}, dcb has {dcb}")
got_tx = [q["sent"]["total"] for q in p["pfc"]["priorities"]]
got_rx = [q["received"]["total"] for q in p["pfc"]["priorities"]]
got_en = [q["enabled"] for q in p["pfc"]["priorities"]]
want_en = [bool(x) for x in dcb["prio_pfc"]] if isinstance(dcb["prio_pfc"], list) else \
    [bool(dcb["prio_pfc"][str(i)]) for i in range(8)]
want_tx, want_rx = per_prio(dcb["requests"]), per_prio(dcb["indications"])
if (got_tx, got_rx, got_en) != (want_tx, want_rx, want_en):
    sys.exit(f"stats sent {got_tx} received {got_rx} enabled {got_en}; "
             f"dcb requests {want_tx} indications {want_rx} prio_pfc {want_en}")
EOF
}
tap_ok "dcb0: PFC sent/received per priority and the enabled priority (3) agree with dcb -s -j pfc show" \
	compare_pfc dcb0
tap_ok "dcbsim1: the same (priority 5)" compare_pfc dcbsim1

# ------------------------------------------- ethtool agrees, or both absent
# compare_ethtool NETDEV: speed (ethtool's Speed line), pause frames
# (ethtool -I -a), FCS and symbol errors (ethtool -S --groups), link-down
# events (ethtool -I, Linux 6.2+): equal where ethtool reports them, null
# where it does not. Debian 12's ethtool (6.1) does not print link-down
# events even where the kernel has them (6.12): there the device's own
# counter (dcbsim's debugfs, which its get_link_ext_stats returns) stands
# in for ethtool's line; the kernel without them (6.1) wants null.
compare_ethtool() {
	local dev=$1 ldsrc=none ldwant=
	ethtool "$dev" > "$W/eth-$dev.txt" 2>&1
	ethtool --json -I -a "$dev" > "$W/eth-a-$dev.json" 2>/dev/null || echo '[]' > "$W/eth-a-$dev.json"
	ethtool --json -S "$dev" --groups eth-phy eth-mac > "$W/eth-s-$dev.json" 2>/dev/null ||
		echo '[]' > "$W/eth-s-$dev.json"
	ethtool -I "$dev" > "$W/eth-i-$dev.txt" 2>&1
	if grep -q 'Link Down Events:' "$W/eth-i-$dev.txt"; then
		ldsrc=ethtool
	elif grep -qsx link_ext_stats "$DBG/features"; then
		ldsrc=debugfs
		ldwant=$(cat "$DBG/$(cat /sys/class/net/$dev/ifindex)/counters/link_down_events/value")
	fi
	python3 - "$J" "$dev" "$W" "$ldsrc" "$ldwant" <<'EOF'
import json, re, sys
ports = {p["netdev"]: p for p in json.load(open(sys.argv[1]))["ports"]}
dev, w, ldsrc, ldwant = sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
p = ports[dev]
c = p["counters"]
bad = []

def first(path):
    try:
        d = json.load(open(path))
    except ValueError:
        return {}
    return d[0] if isinstance(d, list) and d else d if isinstance(d, dict) else {}

m = re.search(r"Speed: (\d+)Mb/s", open(f"{w}/eth-{dev}.txt").read())
want = int(m.group(1)) if m else None
if p["speed_mbps"] != want:
    bad.append(f"speed {p['speed_mbps']} vs ethtool {want}")
st = first(f"{w}/eth-a-{dev}.json").get("statistics", {})
for k, ek in (("pause_tx_frames", "tx_pause_frames"), ("pause_rx_frames", "rx_pause_frames")):
    if c[k]["total"] != st.get(ek):
        bad.append(f"{k} {c[k]['total']} vs ethtool -I -a {st.get(ek)}")
s = first(f"{w}/eth-s-{dev}.json")
for k, grp, ek in (("fcs_errors", "eth-mac", "FrameCheckSequenceErrors"),
                   ("symbol_errors", "eth-phy", "SymbolErrorDuringCarrier")):
    want = s.get(grp, {}).get(ek)
    if c[k]["total"] != want:
        bad.append(f"{k} {c[k]['total']} vs ethtool -S --groups {want}")
m = re.search(r"Link Down Events: (\d+)", open(f"{w}/eth-i-{dev}.txt").read())
want = int(m.group(1)) if m else int(ldwant) if ldsrc == "debugfs" else None
if c["link_down_events"]["total"] != want:
    bad.append(f"link_down_events {c['link_down_events']['total']} vs {ldsrc} {want}")
if bad:
    sys.exit("; ".join(bad))
print("reported: " + ", ".join(k for k in ("pause_tx_frames", "fcs_errors", "symbol_errors",
                                           "link_down_events") if c[k]["total"] is not None)
      + (", speed" if p["speed_mbps"] else "")
      + f"; link-down count from {ldsrc}")
EOF
}
for d in dcb0 dcbsim1; do
	if out=$(compare_ethtool $d 2>&1); then
		tap_pass "$d: speed, pause, FCS/symbol errors, link-down count agree with ethtool (null where it reports nothing; $out)"
	else
		tap_fail "$d: ethtool agreement" "$out"
	fi
done

# ------------------------------------------------- RDMA agrees with sysfs
compare_rdma() {
	rdma -j statistic show link rxe0/1 > "$W/rdma-stat.json" 2>/dev/null || echo '[]' > "$W/rdma-stat.json"
	rdma -j link show rxe0/1 > "$W/rdma-link.json" || return 1
	python3 - "$J" "$W" <<'EOF'
import json, os, sys
p = {p["netdev"]: p for p in json.load(open(sys.argv[1]))["ports"]}["dcb0"]
w = sys.argv[2]
hw = p["rdma"]["hw_counters"]
d = "/sys/class/infiniband/rxe0/ports/1/hw_counters"
sysfs = {n: int(open(f"{d}/{n}").read()) for n in os.listdir(d) if n != "lifespan"}
bad = []
if hw != sysfs:
    bad.append(f"hw_counters differ from sysfs: {sorted(set(hw.items()) ^ set(sysfs.items()))[:6]}")
st = json.load(open(f"{w}/rdma-stat.json"))
st = st[0] if st else {}
for k, v in st.items():
    if k in hw and isinstance(v, int) and hw[k] != v:
        bad.append(f"{k} {hw[k]} vs rdma statistic {v}")
if not any(k in hw for k in st):
    bad.append(f"rdma statistic show shares no counter with stats: {list(st)[:5]}")
c = p["counters"]
if c["retransmissions"]["total"] != sysfs.get("completer_retry_err"):
    bad.append(f"retransmissions {c['retransmissions']['total']} vs completer_retry_err")
if c["duplicate_requests"]["total"] != sysfs.get("duplicate_request"):
    bad.append("duplicate_requests")
link = json.load(open(f"{w}/rdma-link.json"))[0]
if p["rdma"]["port_state"] != link.get("state"):
    bad.append(f"port_state {p['rdma']['port_state']} vs rdma link {link.get('state')}")
if bad:
    sys.exit("; ".join(bad))
EOF
}
tap_ok "rxe0/1: hw_counters equal sysfs and rdma statistic show; retransmissions and duplicate requests mapped; port state as rdma link show" \
	compare_rdma

check_qps() {
	python3 - "$J" "$have_cc" <<'EOF'
import json, sys
p = {p["netdev"]: p for p in json.load(open(sys.argv[1]))["ports"]}["dcb0"]
if sys.argv[2] == "1":
    lines = [l for l in open("/sys/kernel/config/rocetune/rxe0/ports/1/qp_stats").read().splitlines()[1:] if l.strip()]
    if p["qps"] is None or len(p["qps"]) != len(lines):
        sys.exit(f"qps {p['qps']} vs {len(lines)} qp_stats lines")
elif p["qps"] is not None or "qp_stats" not in p["not_reported"]:
    sys.exit(f"without rocetune.ko: qps {p['qps']}, not_reported {p['not_reported']}")
EOF
}
if ((have_cc)); then
	tap_ok "rxe0/1: one QP entry per line of rocetune.ko's qp_stats" check_qps
else
	tap_ok "rxe0/1 without rocetune.ko: qps null and said not reported" check_qps
fi

tap_ok "dcbsim1 (no RDMA port): RDMA counters null, not 0" python3 -c 'import json,sys
p = {p["netdev"]: p for p in json.load(open(sys.argv[1]))["ports"]}["dcbsim1"]
bad = [k for k in ("ecn_marked_rx", "cnp_sent", "cnp_handled", "retransmissions") if p["counters"][k]["total"] is not None]
sys.exit(f"not null: {bad}" if bad or p["rdma"] is not None else 0)' "$J"

# ---------------------------------------------------------- Prometheus
PROM=$W/textfile/rocetune.prom
mkdir -p "$W/textfile"
echo stale > "$PROM"
"$RT" stats --interval 0 --prometheus "$PROM" > "$W/prom.out" 2>&1
rc=$?
tap_eq "stats --prometheus FILE: exit 0, nothing on stdout, FILE replaced, no temporary left" \
	"0 0 1" "$rc $(wc -c < "$W/prom.out") $(ls "$W/textfile" | wc -l)"
if command -v promtool > /dev/null; then
	tap_ok "promtool check metrics accepts the file" sh -c "promtool check metrics < '$PROM'"
else
	tap_skip "promtool check metrics" "promtool not installed (Debian package prometheus; scripts/install-deps.sh)"
fi
tap_ok "prometheus: PFC enabled on dcb0 priority 3, rxe0 port info names dcb0" \
	sh -c "grep -qx 'rocetune_pfc_enabled{device=\"dcb0\",priority=\"3\"} 1' '$PROM' &&
		grep -qx 'rocetune_rdma_port_info{device=\"rxe0\",port=\"1\",netdev=\"dcb0\"} 1' '$PROM'"
absent_ok() {	# what JSON has as null has no sample
	python3 - "$J" "$PROM" <<'EOF'
import json, sys
ports = json.load(open(sys.argv[1]))["ports"]
prom = open(sys.argv[2]).read()
names = {"pause_tx_frames": "rocetune_link_pause_frames_sent_total",
         "fcs_errors": "rocetune_link_fcs_errors_total",
         "link_down_events": "rocetune_link_down_events_total"}
for p in ports:
    for k, m in names.items():
        has = f'{m}{{device="{p["netdev"]}"}}' in prom
        if has != (p["counters"][k]["total"] is not None):
            sys.exit(f"{p['netdev']} {k}: JSON {p['counters'][k]['total']}, sample {'present' if has else 'absent'}")
if 'device="dcbsim1",port=' in prom:
    sys.exit("an RDMA sample for dcbsim1, which has no RDMA port")
EOF
}
tap_ok "prometheus: a value JSON has as null has no sample (and one it has, has)" absent_ok

# ------------------------------------------ a device vanishing mid-sample
ip link add dcbsim2 type dcbsim && ip link set dcbsim2 up
"$RT" -j stats --interval 2 dev dcbsim2 > "$W/gone.json" 2> "$W/gone.err" & sp=$!
sleep 0.7
ip link del dcbsim2
wait $sp
rc=$?
tap_eq "a device deleted between the samples: exit 0, reported as gone, valid JSON" "0 gone" \
	"$rc $(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ports"][0]["state"])' "$W/gone.json" 2>&1)"
python3 "$SCHEMA" < "$W/gone.json" || tap_diag "the gone document does not validate"

# top on a terminal (tty_screen.py: a pty read through a VT100 emulator),
# with dcbsim1's storm running: curses redraws one frame in place, with
# the keys line at the bottom, the paused port first, and 'n' re-sorting
# by name; 'q' ends it. A terminal curses cannot drive gets plain frames.
top_tty_checks() {
	local tty=(python3 "$here/tty_screen.py" --rows 30 --cols 120 --timeout 10)

	tap_eq "top on a terminal: curses, one frame redrawn in place, keys line at the bottom, dcbsim1 (paused) first, 'n' sorts dcb0 first" \
		"frames 1|sleep 2|headers 1|bottom keys: p sort by pause, b by traffic, n by name, q quit|first dcbsim1|key n|wait 1|first dcb0" \
		"$("${tty[@]}" frames:1 sleep:2 headers bottom first key:n 'wait:sorted by name' first \
			-- "$RT" top --interval 0.5 2> "$W/tty.err" | paste -sd'|')"
	tap_eq "top on a terminal: q quits, exit 0" "key q|exit 0" \
		"$("${tty[@]}" frames:1 key:q exit -- "$RT" top --interval 0.5 2>> "$W/tty.err" | tail -n 2 | paste -sd'|')"
	tap_eq "top, TERM=dumb on a terminal: plain frames one after another, SIGTERM ends it with exit 0" \
		"frames 1|signal TERM|exit 0" \
		"$("${tty[@]}" --term dumb frames:2 signal:TERM exit -- "$RT" top --interval 0.3 2>> "$W/tty.err" | paste -sd'|')"
	# newterm() fails there; the sanitizer build once exited 1 on ncurses' own leak
	tap_eq "top, TERM unknown to terminfo: plain frames, SIGINT ends it with exit 0" \
		"frames 1|signal INT|exit 0" \
		"$("${tty[@]}" --term rocetune-no-such-term frames:2 signal:INT exit -- "$RT" top --interval 0.3 2>> "$W/tty.err" | paste -sd'|')"
	[[ -s $W/tty.err ]] && tap_diag "tty_screen: $(head -c 2000 "$W/tty.err")"
}

# --------------------------------------------------------- a pause storm
IFI=$(cat /sys/class/net/dcbsim1/ifindex)
STORM=$DBG/$IFI/counters/pause_rx_prio5
if [[ ! -d $STORM ]]; then
	for t in "pause storm on dcbsim1 priority 5: a rate on that priority" \
		"top --iterations: the paused port first" "top --sort name: by name" \
		"top -j: every frame validates" "top on a terminal: curses, in place, keys" \
		"top on a terminal: q quits" "top, TERM=dumb: plain frames" \
		"top, TERM unknown to terminfo: plain frames, exit 0"; do
		tap_skip "$t" "rocetune_dcbsim has no injectable pause counters ($STORM; the dcbsim-faults work)"
	done
else
	echo 20000 > "$STORM/rate"
	"$RT" -j stats --interval 1 dev dcbsim1 > "$W/storm.json"
	tap_ok "pause storm on dcbsim1 priority 5 (20000/s received): rate 20000/s +-10% there, 0 elsewhere" \
		python3 -c 'import json,sys
p = json.load(open(sys.argv[1]))["ports"][0]["pfc"]["priorities"]
r = [q["received"]["rate"] for q in p]; t = [q["sent"]["rate"] for q in p]
ok = 18000 <= r[5] <= 22000 and all(x == 0 for i, x in enumerate(r) if i != 5) and not any(t)
sys.exit(0 if ok else f"received/s {r}, sent/s {t}")' "$W/storm.json"
	"$RT" top --iterations 2 --interval 0.5 > "$W/top.txt" 2>&1
	tap_eq "top --iterations 2: two frames, the paused dcbsim1 first in each (dcb0 sorts first by name)" \
		"2 dcbsim1 dcbsim1" \
		"$(awk '/^rocetune top:/ { n++; getline; getline; first[n] = $1 } END { print n, first[1], first[2] }' "$W/top.txt")"
	"$RT" top --iterations 1 --interval 0.5 --sort name > "$W/top-name.txt" 2>&1
	tap_eq "top --sort name: dcb0 first" dcb0 "$(awk '/^rocetune top:/ { getline; getline; print $1; exit }' "$W/top-name.txt")"
	"$RT" -j top --iterations 2 --interval 0.5 > "$W/top.json"
	tap_ok "top -j: two documents, each valid against the schema" \
		sh -c "[ \$(wc -l < '$W/top.json') -eq 2 ] && python3 '$SCHEMA' < '$W/top.json'"
	top_tty_checks
	echo 0 > "$STORM/rate"
fi

# ethtool -S per-priority pause counters (dcbsim names them as mlx5 does),
# where the device has them, against dcbnl's per-priority counters
"$RT" -j stats --interval 0 dev dcbsim1 > "$W/after.json"
ethtool -S dcbsim1 > "$W/ethS.txt" 2>/dev/null	# ethtool 6.1 has no --json for -S alone
if grep -q '_prio[0-7]_pause:' "$W/ethS.txt"; then
	tap_ok "dcbsim1: ethtool -S rx/tx_prio<N>_pause equal stats' received/sent per priority (after the storm)" \
		python3 -c 'import json,re,sys
p = json.load(open(sys.argv[1]))["ports"][0]["pfc"]["priorities"]
s = dict((m.group(1), int(m.group(2))) for m in re.finditer(r"^\s*(\w+): (\d+)$", open(sys.argv[2]).read(), re.M))
bad = [i for i in range(8) if (s.get(f"rx_prio{i}_pause"), s.get(f"tx_prio{i}_pause")) != (p[i]["received"]["total"], p[i]["sent"]["total"])]
sys.exit(f"priorities {bad} differ from ethtool -S" if bad else 0)' "$W/after.json" "$W/ethS.txt"
else
	tap_skip "ethtool -S per-priority pause counters agree" "dcbsim1 has no per-priority pause counters in ethtool -S (the dcbsim-faults work)"
fi

# the driver's PFC storm counters (ethtool -S, mlx5's names; dcbsim has
# them): stats' totals and Prometheus samples equal what ethtool -S shows
SD=$DBG/$IFI/counters
if [[ -d $SD/pause_storm_error_events ]] && grep -q 'tx_pause_storm_error_events:' "$W/ethS.txt"; then
	echo 3 > "$SD/pause_storm_error_events/add"
	echo 2 > "$SD/pause_storm_warning_events/add"
	"$RT" -j stats --interval 0 dev dcbsim1 > "$W/storm-ctr.json"
	"$RT" stats --interval 0 --prometheus "$W/storm.prom" dev dcbsim1 > /dev/null 2>&1
	ethtool -S dcbsim1 > "$W/ethS2.txt" 2>/dev/null
	tap_ok "dcbsim1: pause_storm_{error,warning}_events (3, 2) equal ethtool -S tx_pause_storm_*_events, and their Prometheus samples" \
		python3 -c 'import json,re,sys
c = json.load(open(sys.argv[1]))["ports"][0]["counters"]
s = dict((m.group(1), int(m.group(2))) for m in re.finditer(r"^\s*(\w+): (\d+)$", open(sys.argv[2]).read(), re.M))
prom = open(sys.argv[3]).read()
got = (c["pause_storm_error_events"]["total"], c["pause_storm_warning_events"]["total"])
want = (s.get("tx_pause_storm_error_events"), s.get("tx_pause_storm_warning_events"))
ok = got == want == (3, 2) and "rocetune_link_pause_storm_error_events_total{device=\"dcbsim1\"} 3\n" in prom
sys.exit(0 if ok else "stats %r, ethtool -S %r, Prometheus sample %s" % (got, want, "present" if ok or "_error_events_total{device=\"dcbsim1\"} 3" in prom else "missing"))' \
		"$W/storm-ctr.json" "$W/ethS2.txt" "$W/storm.prom"
else
	tap_skip "dcbsim1: storm counters agree with ethtool -S" "rocetune_dcbsim has no pause-storm counters in ethtool -S"
fi

rdma link delete rxe0 2>/dev/null
ip link del dcb0 2>/dev/null
ip link del dcbsim1 2>/dev/null
rm -rf "$W"
tap_done
