#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In-guest tests of `rocetune watch` against rocetune_dcbsim devices and
# rxe: with the lossless profile applied, settings changed behind
# rocetune's back (PFC and APP with dcb, the MTU with ip, a CC parameter
# through rocetune.ko's configfs) are each reported, setting and values,
# within a bounded time, and are back in sync when undone; an undrifted
# host gets no report; --once exits 0 / 1; with --repair each is restored
# (read back with dcb, ip and configfs, not with rocetune); a loop that
# keeps undoing a repair is rate-limited and given up on; a netdev and an
# RDMA device added later are reported and, with --repair, get their
# profile; SIGINT and SIGTERM stop it cleanly; every line is a valid
# version 1 JSON event.
#
# On the host it starts itself in a lab guest (args go to lab-run):
#     selftests/rocetune/watch.sh [--keep] [--out DIR]
# shellcheck disable=SC2317 # helpers run through poll_until and tap_ok

set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 1 --timeout 900 "$@" \
		--script "1=$here/watch.sh"
fi

. "$here/../lib/tap.sh"
. "$here/../lib/tree.sh"
. "$here/../lib/dcb-write.sh"

RT=$RTUNE_TOOL
if [[ -n $RTUNE_SRC ]]; then
	PROFILES=$RTUNE_SRC/profiles
else
	PROFILES=$here/profiles
fi
EV=$here/watch_events.py
DCBSIM=$RTUNE_DCBSIM_KO
RTKO=$RTUNE_KO
CC=/sys/kernel/config/rocetune/rxe0/ports/1/cc
W=$(mktemp -d /run/rocetune-watch.XXXXXX)
have_cc=0
# Bounds: a change seen through rtnetlink notifications, and one seen by
# polling configfs (--interval 1).
T_NL=5
T_POLL=6

[[ -n $DCBSIM ]] ||
	tap_skip_all "needs the rocetune_dcbsim test device, a lab module that an installed tree does not have (DCBSIM_KO=PATH)"
[[ -n $RT && -x $RT ]] || tap_skip_all "rocetune not built (make -C tools/rocetune) or not in PATH"
[[ -f $DCBSIM ]] || tap_skip_all "rocetune_dcbsim.ko not built"

setup() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
	insmod "$DCBSIM" || return 1
	modprobe rdma_rxe && modprobe rdma_cm || return 1
	if [[ -f $RTKO ]]; then
		insmod "$RTKO" && have_cc=1
	fi
	ip link set eth0 up
}

wait_cc() {	# IBDEV: rocetune.ko's tree for it
	((have_cc)) || return 0
	for _ in $(seq 50); do
		[[ -d /sys/kernel/config/rocetune/$1 ]] && return 0
		sleep 0.1
	done
	return 1
}

# dcb0 stacked on eth0 carrying rxe0, dcbsim1 standalone; the profile
# (netdev = dcb*) matches both.
mkdevs() {
	rdma link delete rxe1 2>/dev/null
	rdma link delete rxe0 2>/dev/null
	ip link del dcb1 2>/dev/null
	ip link del dcb0 2>/dev/null
	ip link del dcbsim1 2>/dev/null
	ip link add link eth0 name dcb0 type dcbsim || return 1
	ip link add dcbsim1 type dcbsim || return 1
	ip link set dcb0 up && ip link set dcbsim1 up || return 1
	rdma link add rxe0 type rxe netdev dcb0 || return 1
	wait_cc rxe0
}

# Start a watch (args: its options); $wp its pid, $WJ its output. Waits
# for its start event.
WJ=$W/watch.json
start_watch() {
	: > "$WJ"
	"$RT" -j watch --interval 1 "$@" "$P" > "$WJ" 2> "$W/watch.err" & wp=$!
	if ! python3 "$EV" wait "$WJ" 0 30 'e["event"] == "start"' > /dev/null; then
		tap_diag "watch did not start: $(head -c 500 "$W/watch.err")"
		return 1
	fi
}

stop_watch() {
	kill -TERM "$wp" 2>/dev/null
	wait "$wp" 2>/dev/null
}

mark() { python3 "$EV" lines "$WJ"; }
now() { date +%s.%N; }

# expect_event DESC FROM T0 TIMEOUT EXPR: an event matching EXPR after
# line FROM within TIMEOUT s; the latency since T0 goes to $W/latency.
expect_event() {
	local desc=$1 from=$2 t0=$3 tmo=$4 expr=$5 at
	if at=$(python3 "$EV" wait "$WJ" "$from" "$tmo" "$expr"); then
		tap_pass "$desc"
		awk -v a="$at" -v b="$t0" -v d="$desc" 'BEGIN { printf "%.2f s: %s\n", a - b, d }' >> "$W/latency"
	else
		tap_fail "$desc" "no event matching $expr within ${tmo}s"
		tail -n +"$((from + 1))" "$WJ" | head -20 | sed 's/^/#   /'
	fi
}

drift_expr() {	# NETDEV SETTING [PYTHON CONDITION ON e]
	echo "e['event'] == 'drift' and e['netdev'] == '$1' and e['setting'] == '$2'${3:+ and ($3)}"
}

insync_expr() {	# NETDEV SETTING
	echo "e['event'] == 'in-sync' and e['netdev'] == '$1' and e['setting'] == '$2'"
}

pfc_is() { [ "$(pfc_prios "$1")" = "$2" ]; }
mtu_is() { [ "$(mtu_of "$1")" = "$2" ]; }
no_app() { ! has_app "$@"; }
cc_is() { [ "$(cc_active "$1")" = "$2" ]; }
pfc_prios() { dcb -j pfc show dev "$1" | python3 -c 'import json,sys; print(" ".join(str(i) for i, on in enumerate(json.load(sys.stdin)["prio_pfc"]) if on) or "none")'; }
mtu_of() { cat "/sys/class/net/$1/mtu"; }
has_app() { dcb -j app show dev "$1" | python3 -c 'import json,sys; sys.exit(0 if [int(sys.argv[1]), int(sys.argv[2])] in [[int(x) for x in e] for e in json.load(sys.stdin).get("dscp_prio", [])] else 1)' "$2" "$3"; }
cc_active() { cat "$CC/active/$1"; }
cc_set() {	# PARAM VALUE: stage and commit, as another owner would
	echo "$2" > "$CC/staged/$1" && echo 1 > "$CC/commit"
}
# poll_until TIMEOUT CMD...: CMD succeeds within TIMEOUT s
poll_until() {
	local tmo=$1 t=0
	shift
	while ! "$@" >/dev/null 2>&1; do
		sleep 0.2
		t=$((t + 1))
		((t * 2 > tmo * 10)) && return 1
	done
	return 0
}

if ! setup; then
	tap_skip_all "cannot load dcbsim/rxe/rdma_cm in this guest"
fi
mkdevs || tap_bail "cannot create dcbsim test devices"
((have_cc)) || tap_diag "kmod/rocetune.ko absent: the [cc] checks are skipped"

P=$W/lossless.conf
sed 's/^netdev = .*/netdev = dcb*/' "$PROFILES/lossless-roce.conf" > "$P"
((have_cc)) || sed -i '/^\[cc\]/,$d' "$P"
"$RT" apply "$P" > "$W/apply.out" 2>&1
rc=$?
[[ $rc -eq 2 ]] || { sed 's/^/# /' "$W/apply.out"; tap_bail "apply of the test profile failed (exit $rc)"; }
CCP=rp_alpha_gain_1024ths

# ------------------------------------------------------------------ --once
out=$("$RT" -j watch --once "$P"); rc=$?
tap_eq "--once on a host in the declared state: exit 0, no output" "0 " "$rc $out"
dcb_write pfc set dev dcb0 prio-pfc 3:off
out=$("$RT" -j watch --once "$P"); rc=$?
printf '%s\n' "$out" > "$WJ"
tap_eq "--once with PFC drifted: exit 1, the drift reported" "1 1" \
	"$rc $(python3 "$EV" count "$WJ" 0 "$(drift_expr dcb0 pfc.priorities "e['current'] == 'none' and e['wanted'] == '3'")")"
dcb_write pfc set dev dcb0 prio-pfc 3:on

# ------------------------------------------------------------- monitoring
# What the kernel offers, seen in its symbols rather than asked the way
# the tool asks (RDMA netlink's system attributes): ib_core sends RDMA
# netlink notifications with rdma_nl_notify_event() where it has them
# (Debian's 6.12 and 7.2 do, 6.1 not), else watch polls.
rdma_ev=poll
grep -qw rdma_nl_notify_event /proc/kallsyms && rdma_ev=netlink
start_watch || tap_bail "rocetune watch does not start"
tap_ok "start event: rdma_events $rdma_ev on this kernel, dcb0 and dcbsim1 watched" \
	python3 "$EV" wait "$WJ" 0 1 "e['event'] == 'start' and e['rdma_events'] == '$rdma_ev' and sorted(e['devices']) == ['dcb0', 'dcbsim1']"
sleep 3	# three polls
tap_eq "no report on a host in the declared state (3 s, 3 polls)" 0 \
	"$(python3 "$EV" count "$WJ" 0 "e['event'] not in ('start',)")"

dcb_second_start
m=$(mark); t0=$(now)
dcb pfc set dev dcb0 prio-pfc 3:off
expect_event "PFC off behind rocetune's back: drift pfc.priorities 'none', wanted '3'" "$m" "$t0" $T_NL \
	"$(drift_expr dcb0 pfc.priorities "e['current'] == 'none' and e['wanted'] == '3'")"
dcb_second_start
m=$(mark); t0=$(now)
dcb pfc set dev dcb0 prio-pfc 3:on
expect_event "PFC back on: in-sync pfc.priorities" "$m" "$t0" $T_NL "$(insync_expr dcb0 pfc.priorities)"

dcb_second_start
m=$(mark); t0=$(now)
dcb app add dev dcb0 dscp-prio 10:5
expect_event "APP entry 10:5 added: drift trust.dscp_prio '10:1,5', wanted '10:1'" "$m" "$t0" $T_NL \
	"$(drift_expr dcb0 trust.dscp_prio "e['current'] == '10:1,5' and e['wanted'] == '10:1'")"
dcb_second_start
m=$(mark); t0=$(now)
dcb app del dev dcb0 dscp-prio 26:3
expect_event "APP entry 26:3 deleted: drift trust.dscp_prio '26:none', wanted '26:3'" "$m" "$t0" $T_NL \
	"$(drift_expr dcb0 trust.dscp_prio "e['current'] == '26:none' and e['wanted'] == '26:3'")"
dcb_second_start
t0=$(now)
dcb app del dev dcb0 dscp-prio 10:5
dcb app add dev dcb0 dscp-prio 26:3
expect_event "APP table restored: in-sync trust.dscp_prio" "$m" "$t0" $T_NL "$(insync_expr dcb0 trust.dscp_prio)"

m=$(mark); t0=$(now)
ip link set dcb0 mtu 1500
expect_event "ip link set mtu 1500: drift link.mtu '1500', wanted '4200'" "$m" "$t0" $T_NL \
	"$(drift_expr dcb0 link.mtu "e['current'] == '1500' and e['wanted'] == '4200'")"
ip link set dcb0 mtu 4200

if ((have_cc)); then
	cur=$(cc_active $CCP); new=$((cur + 1))
	m=$(mark); t0=$(now)
	if cc_set $CCP $new; then
		expect_event "configfs commit of $CCP $new: drift cc.$CCP '$new', wanted '$cur' (polled)" "$m" "$t0" $T_POLL \
			"$(drift_expr dcb0 cc.$CCP "e['current'] == '$new' and e['wanted'] == '$cur'")"
	else
		tap_fail "configfs commit of $CCP $new: drift reported" "the commit was refused: $(cat "$CC/last_error")"
	fi
	m=$(mark); t0=$(now)
	cc_set $CCP "$cur"
	expect_event "$CCP back to $cur: in-sync" "$m" "$t0" $T_POLL "$(insync_expr dcb0 cc.$CCP)"
else
	tap_skip "configfs commit of a CC parameter: drift reported" "kmod/rocetune.ko absent"
	tap_skip "CC parameter back: in-sync" "kmod/rocetune.ko absent"
fi

# a netdev and an RDMA device that appear later
m=$(mark); t0=$(now)
ip link add dcb1 type dcbsim && ip link set dcb1 up
expect_event "new netdev dcb1: reported as a new device" "$m" "$t0" $T_NL \
	"e['event'] == 'device' and e['netdev'] == 'dcb1' and e['code'] == 'new'"
expect_event "new netdev dcb1: its unconfigured PFC reported as drift" "$m" "$t0" $T_NL \
	"$(drift_expr dcb1 pfc.priorities "e['wanted'] == '3'")"
m=$(mark); t0=$(now)
rdma link add rxe1 type rxe netdev dcb1
expect_event "rdma link add rxe1 on dcb1: reported (RDMA polled)" "$m" "$t0" $T_POLL \
	"e['event'] == 'device' and e['netdev'] == 'dcb1' and e['rdma_device'] == 'rxe1'"
expect_event "rxe1: its RDMA-CM ToS reported as drift" "$m" "$t0" $T_POLL \
	"$(drift_expr dcb1 rdma_cm.tos "e['wanted'] == '106' and e['rdma_device'] == 'rxe1'")"
tap_eq "monitoring alone writes nothing: dcb1 PFC still off" none "$(pfc_prios dcb1)"

m=$(mark)
t0=$(now)
stop_watch
rc=$?
tap_eq "SIGTERM: exit 0 with a stop event" "0 1" \
	"$rc $(python3 "$EV" count "$WJ" "$m" "e['event'] == 'stop' and 'SIGTERM' in e['message']")"
tap_ok "monitoring: every line is a version 1 watch event" python3 "$EV" check "$WJ"
cp "$WJ" "$W/monitor.json"

# ------------------------------------------------------------------ repair
mkdevs || tap_bail "cannot recreate the test devices"
"$RT" apply "$P" > /dev/null 2>&1
start_watch --repair --repair-interval 1 || tap_bail "rocetune watch --repair does not start"
sleep 2
tap_eq "--repair on a host in the declared state: no report, no repair" 0 \
	"$(python3 "$EV" count "$WJ" 0 "e['event'] != 'start'")"

dcb_write pfc set dev dcb0 prio-pfc 3:off
tap_ok "PFC off: dcb reads priority 3 enabled again (repaired)" poll_until $T_NL pfc_is dcb0 3
tap_ok "PFC: the repair is reported" python3 "$EV" wait "$WJ" 0 $T_NL \
	"e['event'] == 'repair' and e['netdev'] == 'dcb0' and e['result'] == 'repaired' and any(a['object'] == 'pfc' for a in e['actions'])"
sleep 1.2	# the repair interval
dcb_write app add dev dcb0 dscp-prio 10:5
tap_ok "APP entry 10:5 added: dcb shows it removed again (repaired)" poll_until $T_NL no_app dcb0 10 5
sleep 1.2
ip link set dcb0 mtu 1500
tap_ok "MTU 1500: ip reads 4200 again (repaired)" poll_until $T_NL mtu_is dcb0 4200
if ((have_cc)); then
	sleep 1.2
	cur=$(cc_active $CCP)
	cc_set $CCP $((cur + 1))
	tap_ok "CC $CCP committed through configfs: configfs active reads $cur again (repaired)" \
		poll_until $T_POLL cc_is $CCP "$cur"
else
	tap_skip "CC parameter committed through configfs: repaired" "kmod/rocetune.ko absent"
fi
tap_ok "after the repairs dcb0 reads back as declared (dcb, ip, configfs)" \
	python3 "$here/readback.py" "$P" dcb0 rxe0 1

# new devices get their profile
sleep 1.2
ip link add dcb1 type dcbsim && ip link set dcb1 up
tap_ok "new netdev dcb1 gets the profile (read back with dcb and ip)" \
	poll_until $T_NL python3 "$here/readback.py" "$P" dcb1
rdma link add rxe1 type rxe netdev dcb1 && wait_cc rxe1
tap_ok "rdma link add rxe1 on dcb1: its RDMA-CM and CC settings applied (configfs)" \
	poll_until $((T_POLL + 4)) python3 "$here/readback.py" "$P" dcb1 rxe1 1
tap_ok "the new devices' repairs are reported" python3 "$EV" wait "$WJ" 0 1 \
	"e['event'] == 'repair' and e['netdev'] == 'dcb1' and e['result'] == 'repaired'"

# rate limit: another owner keeps turning PFC off
stop_watch
"$RT" apply "$P" > /dev/null 2>&1
start_watch --repair --repair-interval 1 --max-repairs 3 || tap_bail "watch does not start"
m=$(mark)
end=$(( $(date +%s) + 15 ))
while (( $(date +%s) < end )); do
	dcb pfc set dev dcb0 prio-pfc 3:off
	sleep 0.3
done
sleep 1
n=$(python3 "$EV" count "$WJ" "$m" "e['event'] == 'repair' and e['netdev'] == 'dcb0'")
tap_ok "a loop undoing the repair for 15 s: at most 3 repairs (--max-repairs 3), got $n" \
	test "$n" -ge 1 -a "$n" -le 3
gaps=$(python3 "$EV" times "$WJ" "$m" "e['event'] == 'repair' and e['netdev'] == 'dcb0'" |
	awk 'NR > 1 { printf "%.2f ", $1 - p } { p = $1 }')
tap_ok "repairs of dcb0 at least the doubling wait apart (2 s, 4 s): gaps ${gaps:-none}" \
	awk -v g="$gaps" 'BEGIN { n = split(g, a, " "); for (i = 1; i <= n; i++) if (a[i] < 2 ^ i - 0.05) exit 1 }'
tap_eq "one giving-up report (fighting with another owner)" 1 \
	"$(python3 "$EV" count "$WJ" "$m" "e['event'] == 'giving-up' and e['netdev'] == 'dcb0' and e['code'] == 'fighting'")"
tap_ok "some repairs were deferred by the rate limit" python3 "$EV" wait "$WJ" "$m" 0 \
	"e['event'] == 'repair-deferred' and e['netdev'] == 'dcb0'"
sleep 3
tap_eq "after giving up: no further repair, PFC stays as the other owner left it" "$n none" \
	"$(python3 "$EV" count "$WJ" "$m" "e['event'] == 'repair' and e['netdev'] == 'dcb0'") $(pfc_prios dcb0)"
dcb_second_start
m=$(mark); t0=$(now)
dcb pfc set dev dcb0 prio-pfc 3:on
expect_event "PFC put back by hand: repairs resume" "$m" "$t0" $T_NL \
	"e['event'] == 'repair-resumed' and e['netdev'] == 'dcb0'"
sleep 0.5
ip link set dcb0 mtu 1500
tap_ok "after resuming, a new drift is repaired again" poll_until $T_NL mtu_is dcb0 4200

m=$(mark)
kill -INT "$wp"; wait "$wp"; rc=$?
tap_eq "SIGINT: exit 0 with a stop event" "0 1" \
	"$rc $(python3 "$EV" count "$WJ" "$m" "e['event'] == 'stop' and 'SIGINT' in e['message']")"
tap_ok "repair: every line is a version 1 watch event" python3 "$EV" check "$WJ"

# text mode: one line per drift with a timestamp
"$RT" watch --once "$P" > "$W/once.txt"; rc=$?
tap_eq "text --once on a host in the declared state: exit 0, nothing printed" "0 0" "$rc $(wc -l < "$W/once.txt")"
ip link set dcb0 mtu 1500
"$RT" watch --once "$P" > "$W/once.txt"; rc=$?
tap_ok "text --once with the MTU drifted: exit 1, a timestamped drift line" \
	sh -c "[ $rc -eq 1 ] && grep -Eq '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z drift dcb0 \\(rxe0/1\\) link.mtu is .1500., the profile wants .4200.' '$W/once.txt'"

while read -r line; do tap_diag "latency $line"; done < "$W/latency"
rdma link delete rxe1 2>/dev/null
rdma link delete rxe0 2>/dev/null
ip link del dcb1 2>/dev/null
ip link del dcb0 2>/dev/null
ip link del dcbsim1 2>/dev/null
tap_done
