#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `rocetune verify` between two lab guests. Each has a dcbsim device dcb0
# stacked on eth0 carrying rxe0, rocetune.ko, and profiles/soft-roce-lab.conf
# applied (the lab address moved from eth0 to dcb0). host1 runs `rocetune -j verify --listen`, once per case; host2
# runs `rocetune -j verify --peer` to it:
#   same       both as applied: pass, exit 0, equal fingerprints
#   then one setting changed on host2 with iproute2 or configfs (not with
#   rocetune), verified, and the profile applied again:
#   trust      PCP trust. With an APP trust table (Linux 6.2+) the table
#              set to PCP alone (dcbsim/dcbnl.py; Debian 12's dcb has no
#              apptrust): the table as show prints it (dcb.apptrust) and
#              the trust in effect (dcb.trust); without one (6.1) every
#              DSCP APP entry deleted, since trust is nothing but those
#              entries there: dcb.trust and dcb.dscp_prio
#   dscpmap    DSCP 26 mapped to priority 5 instead of 3 (dcb.dscp_prio)
#   mtu        dcb0's MTU 1400 (mtu)
#   tos        rdma_cm default_roce_tos 104 (rdma_cm.tos)
#   cnpdscp    rocetune.ko np_cnp_dscp 46 (cc.active.np_cnp_dscp)
#   ecnoff     rocetune.ko ecn_enabled_prios none (cc.active.ecn_enabled_prios)
#   Each is one check on host2 that fails unless exactly that setting is
#   named (exit 1, result "fail", host2's changed value reported), and one
#   on host1 that its listener saw the same.
#   wrongkey   host2 with another key: refused (exit 4); the listener,
#              under strace, made no netlink socket and opened nothing
#              between accepting that connection and the next one, kept
#              listening, and served the right key after it.
#
# Run on the host:   selftests/rocetune/verify.sh [lab-run options]
# Needs: tools/rocetune/rocetune, kmod/rocetune.ko,
# kmod/dcbsim/rocetune_dcbsim.ko; strace for the wrong-key check.

# shellcheck disable=SC2154 # LAB_* come from /run/lab/env
set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 2 --timeout 900 "$@" \
		--script "1,2=$here/verify.sh"
fi

. "$here/../lib/lab-guest.sh"
. "$here/../lib/tap.sh"
. "$here/../lib/tree.sh"
. "$here/../lib/dcb-write.sh"
lab_hosts 2 || tap_skip_all "$LAB_WHY: two hosts to verify against each other"

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
[[ -n $RTKO && -f $RTKO ]] || tap_skip_all "rocetune.ko not built: the CNP DSCP and ECN cases need it"

CC=/sys/kernel/config/rocetune/rxe0/ports/1/cc
CM=/sys/kernel/config/rdma_cm/rxe0
W=$(mktemp -d /run/rocetune-verify.XXXXXX)
export ROCETUNE_STATE_DIR=$W/state
PORT=4793
CASES="same trust dscpmap mtu tos cnpdscp ecnoff"

tap_header
tap_diag "host$LAB_HOST: eth0 $LAB_ADDR_eth0, peer $LAB_PEER_eth0"
lab_addr_ok "$LAB_PEER_eth0" || tap_bail "peer address $LAB_PEER_eth0 outside the lab range"

mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
insmod "$DCBSIM" || tap_bail "insmod $DCBSIM"
{ modprobe rdma_rxe && modprobe rdma_cm; } || tap_bail "no rdma_rxe / rdma_cm"
insmod "$RTKO" || tap_bail "insmod $RTKO"
# dcb0 on eth0 with the lab address, rxe0 on it, the peer pingable
lab_dcb0_up || tap_bail "dcb0 and rxe0 on eth0, and a ping to $LAB_PEER_eth0"
for _ in $(seq 50); do [[ -d $CC ]] && break; sleep 0.1; done
[[ -d $CC ]] || tap_bail "rocetune.ko did not take rxe0"

# The shared key: host1 makes it; each host keeps a private 0600 copy.
if ((LAB_HOST == 1)); then
	head -c 32 /dev/urandom | base64 >"$LAB_RUN_DIR/verify.key"
	lab_put key-ready 1
fi
lab_get 1 key-ready >/dev/null || tap_bail "no key from host1"
(umask 077 && cp "$LAB_RUN_DIR/verify.key" "$W/key" &&
	head -c 32 /dev/urandom | base64 >"$W/wrong.key") || tap_bail "key files"

# apply: the lab profile, exit 0 (nothing to do) or 2 (changed)
apply() {
	local rc
	"$RT" apply "$PROFILE" >"$W/apply.out" 2>&1
	rc=$?
	((rc == 0 || rc == 2)) || { sed 's/^/# apply: /' "$W/apply.out"; return 1; }
}
apply || tap_bail "rocetune apply $PROFILE"
lab_barrier applied || tap_bail "barrier applied"

# summary FILE [LINE]: "EXIT RESULT SETTING... | LOCAL-VALUE-OF-FIRST" of a verify
# JSON document (line LINE of FILE counting from 0, default the last)
summary() {
	python3 - "$@" <<'PY'
import json, sys
lines = [l for l in open(sys.argv[1]) if l.strip()]
d = json.loads(lines[int(sys.argv[2]) if len(sys.argv) > 2 else -1])
diff = d["differences"]
print(d["exit_code"], d["result"], *[x["setting"] for x in diff],
      "|", diff[0]["local"] if diff else "-")
PY
}

# What each case names, and host2's value of the first setting.
declare -A EXPECT=(
	[same]="0 pass | -"
	[trust]="1 fail dcb.dscp_prio dcb.trust | none"
	[dscpmap]="1 fail dcb.dscp_prio |"
	[mtu]="1 fail mtu | 1400"
	[tos]="1 fail rdma_cm.tos | 104"
	[cnpdscp]="1 fail cc.active.np_cnp_dscp | 46"
	[ecnoff]="1 fail cc.active.ecn_enabled_prios | 0"
)
# dcbsim has the APP trust ops where the kernel has the trust table
APPTRUST=0
grep -qx apptrust /sys/kernel/debug/rocetune_dcbsim/features 2>/dev/null && APPTRUST=1
((APPTRUST)) && EXPECT[trust]="1 fail dcb.apptrust dcb.trust | pcp"
tap_diag "APP trust table: $( ((APPTRUST)) && echo "yes, the trust case sets it" || echo "no (Linux < 6.2), the trust case deletes the DSCP entries")"

# cc_set PARAM VALUE: stage and commit one rocetune.ko parameter
cc_set() {
	echo 1 >"$CC/discard" && echo "$2" >"$CC/staged/$1" && echo 1 >"$CC/commit"
}

# mismatch CASE: change host2's setting behind rocetune's back
mismatch() {
	local made=0 e
	case $1 in
	same) ;;
	trust)
		if ((APPTRUST)); then
			python3 "$here/../dcbsim/dcbnl.py" apptrust dcb0 pcp
			return
		fi
		# every DSCP entry, as "DSCP:PRIO" words
		e=$(dcb -j app show dev dcb0 | python3 -c '
import json, sys
print(" ".join("%d:%d" % (int(x[0]), int(x[1])) for x in json.load(sys.stdin).get("dscp_prio", [])))')
		[[ -n $e ]] || return 1
		# shellcheck disable=SC2086 # one word per entry
		dcb_write app del dev dcb0 dscp-prio $e ;;
	dscpmap) dcb_write app replace dev dcb0 dscp-prio 26:5 ;;
	mtu) ip link set dcb0 mtu 1400 ;;
	tos)
		[[ -d $CM ]] || { mkdir "$CM" && made=1; }
		e=0
		echo 104 >"$CM/ports/1/default_roce_tos" || e=1
		((made)) && rmdir "$CM"
		return $e ;;
	cnpdscp) cc_set np_cnp_dscp 46 ;;
	ecnoff) cc_set ecn_enabled_prios none ;;
	esac
}

# peer KEYFILE OUT: verify against host1, again while it is not listening yet
peer() {
	local rc
	for _ in $(seq 40); do
		"$RT" -j verify --peer "$LAB_PEER_eth0" --port $PORT --key "$1" --timeout 30 >"$2"
		rc=$?
		grep -q '"reason":"connect to' "$2" || return $rc
		sleep 0.5
	done
	return $rc
}

if ((LAB_HOST == 1)); then
	tap_plan 10
	for c in $CASES; do
		timeout 300 "$RT" -j verify --listen --port $PORT --key "$W/key" --timeout 30 \
			>"$W/l-$c.json" 2>"$W/l-$c.err" &
		pid=$!
		lab_put "listening-$c" 1
		wait $pid
		exp=${EXPECT[$c]}
		got=$(summary "$W/l-$c.json" 2>&1)
		# the listener's "local" is host1: the value shown is the profile's
		tap_eq "$c: the listener names the same (host1's view)" "${exp%%|*}" "${got%%|*}"
		lab_barrier "done-$c" || tap_bail "barrier done-$c"
	done
	# the wrong key, then the right one, to one listener under strace
	# (LeakSanitizer, in an ASan build, cannot run under ptrace)
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=accept4,socket,openat -o "$W/strace" timeout 300 "$RT" -j verify --listen --port $PORT --key "$W/key" --timeout 30 \
		>"$W/l-wrongkey.json" 2>"$W/l-wrongkey.err" &
	pid=$!
	lab_put listening-wrongkey 1
	lab_get 2 wrongkey-sent 120 >/dev/null
	sleep 1
	if kill -0 $pid 2>/dev/null; then
		tap_pass "wrongkey: the listener still listens after refusing a connection"
	else
		tap_fail "wrongkey: the listener still listens after refusing a connection" "it exited"
	fi
	lab_put wrongkey-listening 1
	wait $pid
	rc=$?
	got="$rc $(summary "$W/l-wrongkey.json" 1 2>&1)"
	tap_eq "wrongkey: the refused connection, then the right key passes, exit 0" \
		"0 0 pass | -" "$got"
	cat >"$W/nowork.py" <<'PY'
import json, re, sys
calls = [l.rstrip() for l in open(sys.argv[1])
         if re.search(r"\b(accept4|socket|openat)\(|<\.\.\. accept4 resumed>", l)]
# the accepts that returned a connection ("= 5"), whether or not resumed
acc = [i for i, l in enumerate(calls) if "accept4" in l and re.search(r"= \d+$", l)]
assert len(acc) >= 2, "expected two accepted connections in %r" % calls
between = calls[acc[0] + 1:acc[1]]
work = [l for l in between if "AF_NETLINK" in l or re.search(r'openat\(.*"/(sys|proc|etc)/', l)]
assert not work, "work before authentication: %r" % work
after = calls[acc[1] + 1:]
assert any("AF_NETLINK" in l for l in after), \
    "the check cannot see work: no netlink socket after the good connection: %r" % after
first = json.loads(open(sys.argv[2]).readline())
assert first["result"] == "refused" and first["local"] == {} and \
    "settings" not in first["remote"], first
print("%d calls between the two connections, none of them work" % len(between))
PY
	tap_ok "wrongkey: between the refused connection and the next, no netlink socket and nothing under /sys, /proc or /etc opened; local state never read" \
		python3 "$W/nowork.py" "$W/strace" "$W/l-wrongkey.json"
	sed 's/^/# strace: /' "$W/strace" | tail -n 40
	tap_done
fi

# host2: the peer
tap_plan 10
for c in $CASES; do
	if ! mismatch "$c"; then
		tap_fail "$c: host2 changed" "could not introduce the $c mismatch"
	fi
	lab_get 1 "listening-$c" 120 >/dev/null || tap_bail "host1 never listened for $c"
	peer "$W/key" "$W/p-$c.json"
	exp=${EXPECT[$c]}
	got=$(summary "$W/p-$c.json" 2>&1)
	if [[ $c == dscpmap ]]; then
		# the value is the whole map: it must hold 26:5, not 26:3
		[[ $got == "${exp}"*" 26:5 "* ]] && got=$exp
	fi
	if [[ $c == same ]]; then
		tap_eq "same profile on both: pass, exit 0, nothing named" "$exp" "$got"
		tap_ok "same profile on both: equal fingerprints" python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["local"]["fingerprint"] == d["remote"]["fingerprint"], d
assert d["local"]["settings"]["mtu"] == "1500", d["local"]["settings"]
' "$W/p-$c.json"
	else
		tap_eq "$c mismatch on host2: exactly ${exp#* fail } named" "$exp" "$got"
	fi
	apply || tap_fail "$c: the profile applies again" "apply failed"
	lab_barrier "done-$c" || tap_bail "barrier done-$c"
done
lab_get 1 listening-wrongkey 120 >/dev/null || tap_bail "host1 never listened for wrongkey"
peer "$W/wrong.key" "$W/p-wrongkey.json"
rc=$?
tap_ok "wrongkey: refused, exit 4, nothing of the listener's settings received (rc $rc)" \
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert int(sys.argv[2]) == 4 and d["exit_code"] == 4 and d["result"] == "refused", d
assert "settings" not in d["remote"] and not d["differences"], d
' "$W/p-wrongkey.json" "$rc"
lab_put wrongkey-sent 1
lab_get 1 wrongkey-listening 120 >/dev/null || tap_bail "host1 gone after wrongkey"
peer "$W/key" "$W/p-rightkey.json"
got=$(summary "$W/p-rightkey.json" 2>&1)
tap_eq "wrongkey: the same listener then passes the right key" "0 pass | -" "$got"
tap_done
