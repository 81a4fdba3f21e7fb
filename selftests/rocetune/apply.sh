#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# In-guest tests of `rocetune apply` against rocetune_dcbsim test devices:
# every example profile applies and reads back exactly through iproute2
# (dcb, ip) and configfs; a second apply sends no write; every bad profile
# fails with its own error and changes nothing; failures injected at each
# step (DCB, MTU, RDMA-CM, CC) roll back to the exact previous state;
# concurrent applies do not interleave; a running lldpad and LLD-managed
# DCBX are detected; the JSON validates; [pfc] delay is applied, read back
# and rolled back; so is [pfc] storm_prevention (an ethtool tunable), whose
# values outside the driver's range are refused; [rewrite] (Linux 6.3+) likewise, and refused with a
# named reason, nothing written, where the kernel has no rewrite table.
#
# On the host it starts itself in a lab guest (args go to lab-run):
#     selftests/rocetune/apply.sh [--keep] [--out DIR]
# Needs: tools/rocetune/rocetune built (make -C tools/rocetune),
# kmod/dcbsim/rocetune_dcbsim.ko; kmod/rocetune.ko for the CC checks.
# Installed (make -C selftests install), it needs DCBSIM_KO=PATH, the
# rocetune tool in PATH and, for the CC checks, an installed rocetune.ko
# (see lib/tree.sh); it skips without the test module.

set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
# On the host, from a source tree: start the lab. An installed tree has
# no lab; there it runs where it is, and skips below without dcbsim.
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 1 --timeout 900 "$@" \
		--script "1=$here/apply.sh"
fi

. "$here/../lib/tap.sh"
. "$here/../lib/tree.sh"

RT=$RTUNE_TOOL
DCBSIM=$RTUNE_DCBSIM_KO
RTKO=$RTUNE_KO
# The example profiles and the bad-profile corpus: the tree's, or the
# copies `make install` puts beside this script.
if [[ -n $RTUNE_SRC ]]; then
	PROFILES=$RTUNE_SRC/profiles
	BAD=$RTUNE_SRC/selftests/unit/data/profiles/bad
else
	PROFILES=$here/profiles
	BAD=$here/bad-profiles
fi
DBG=/sys/kernel/debug/rocetune_dcbsim
# dcbsim's raw dcbnl client: beside this collection, in the tree and installed
DCBNL=$here/../dcbsim/dcbnl.py
FNC=/sys/kernel/debug/rocetune/fail_next_commit
CM=/sys/kernel/config/rdma_cm/rxe0
W=$(mktemp -d /run/rocetune-test.XXXXXX)
export ROCETUNE_STATE_DIR=$W/state
have_cc=0

[[ -n $DCBSIM ]] ||
	tap_skip_all "needs the rocetune_dcbsim test device, a lab module that an installed tree does not have (DCBSIM_KO=PATH)"
[[ -n $RT && -x $RT ]] || tap_skip_all "rocetune not built (make -C tools/rocetune) or not in PATH"
[[ -f $DCBSIM ]] || tap_skip_all "rocetune_dcbsim.ko not built"

setup() {
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	mountpoint -q /sys/kernel/config || mount -t configfs none /sys/kernel/config
	insmod "$DCBSIM" || return 1
	modprobe rdma_rxe && modprobe rdma_cm || return 1
	if [[ -n $RTKO ]]; then
		[[ -f $RTKO ]] && insmod "$RTKO" && have_cc=1
	else
		modprobe rocetune 2>/dev/null && have_cc=1
	fi
	ip link set eth0 up
	return 0
}

# Fresh devices: dcb0 stacked on eth0 carrying rxe0, dcbsim1 standalone.
mkdevs() {
	rdma link delete rxe0 2>/dev/null
	ip link del dcb0 2>/dev/null
	ip link del dcbsim1 2>/dev/null
	ip link add link eth0 name dcb0 type dcbsim || return 1
	ip link add dcbsim1 type dcbsim || return 1
	ip link set dcb0 up && ip link set dcbsim1 up || return 1
	rdma link add rxe0 type rxe netdev dcb0 || return 1
	if ((have_cc)); then
		local i
		for i in $(seq 50); do
			[[ -d /sys/kernel/config/rocetune/rxe0 ]] && break
			sleep 0.1
		done
	fi
}

dbgdir() { echo "$DBG/$(cat /sys/class/net/"$1"/ifindex)"; }

# The rewrite table of a device as the kernel reports it: [[SEL, PRIO,
# VALUE]...] sorted (PCP is 255), None where the kernel has none (< 6.3).
rewr_of() {
	python3 "$DCBNL" show "$1" | jfield 'd.get("rewr")'
}

# The PFC storm prevention timeout in ms, as ethtool reads the tunable.
storm_of() {
	ethtool --get-tunable "$1" pfc-prevention-tout 2>&1 | awk '{v = $NF} END {print v}'
}

# Driver calls that reached dcbsim on both devices (any kind).
calls() { cat "$DBG"/*/calls_* 2>/dev/null | awk '{s += $1} END {print s + 0}'; }

# Everything an apply may change, read with iproute2 and configfs only;
# the APP trust table (6.2+) and the rewrite table (6.3+), which iproute2
# 6.1 cannot show, with the dcbsim tests' own dcbnl reader.
snapshot() {
	local d
	for d in dcb0 dcbsim1; do
		echo "== $d mtu $(cat /sys/class/net/$d/mtu)"
		dcb -j pfc show dev $d
		dcb -j ets show dev $d
		dcb -j app show dev $d
		if grep -qsx apptrust "$DBG/features"; then
			echo "apptrust $(python3 "$DCBNL" show $d |
				jfield 'd.get("apptrust", [])')"
		fi
		echo "rewr $(rewr_of $d)"
		echo "pfc-storm $(storm_of $d)"
	done
	mkdir -p /sys/kernel/config/rdma_cm/rxe0
	cat /sys/kernel/config/rdma_cm/rxe0/ports/1/default_roce_mode \
	    /sys/kernel/config/rdma_cm/rxe0/ports/1/default_roce_tos
	rmdir /sys/kernel/config/rdma_cm/rxe0
	if ((have_cc)); then
		grep -r . /sys/kernel/config/rocetune/rxe0/ports/1/cc/active \
			/sys/kernel/config/rocetune/rxe0/ports/1/cc/staged
	fi
}

# What a [cc] check reports when rocetune.ko is absent.
NOCC="kmod/rocetune.ko absent: [cc] not tested"

# failed_checks DESC BEFORE RC JSON OBJ WHY: an apply that failed at OBJ on
# dcb0 (error containing WHY) reports it, reports what it restored, and
# left the host exactly as BEFORE.
failed_checks() {
	local desc=$1 before=$2 rc=$3 out=$4 obj=$5 why=$6 res
	res=$(printf '%s' "$out" | jfield 'd["result"]')
	tap_eq "$desc: apply fails and rolls back (exit 1)" "1 failed-rolled-back" "$rc $res"
	tap_eq "$desc: the host is back in its exact previous state" "$before" "$(snapshot)"
	printf '%s' "$out" > "$W/failed.json"
	tap_ok "$desc: the failed step (dcb0 $obj: ...$why...) is reported" \
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
f = [(x["netdev"], a["object"], a["error"]) for x in d["devices"]
     for a in x["actions"] if a["status"] == "failed"]
assert len(f) == 1 and f[0][:2] == ("dcb0", sys.argv[2]) and sys.argv[3] in f[0][2], f
' "$W/failed.json" "$obj" "$why"
	tap_ok "$desc: the restore is reported, every step restored" \
		python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
rb = d["rollback"]
done = {a["object"] for x in d["devices"] for a in x["actions"]
	if x["netdev"] == "dcb0" and a["status"] == "applied"}
got = {a["object"] for a in rb["actions"] if a["netdev"] == "dcb0"}
assert rb["attempted"] and rb["complete"], rb
assert all(a["status"] == "restored" for a in rb["actions"]), rb
# every object applied before the failure was put back (APP adds by
# deletes and the reverse)
flip = {"app-add": "app-del", "app-del": "app-add"}
want = {flip.get(o, o) for o in done}
assert want and want <= got, (want, got)
' "$W/failed.json"
	python3 "$here/json_check.py" < "$W/failed.json" ||
		tap_diag "$desc: JSON did not validate"
}

# A copy of an example profile that matches the test devices.
testprofile() {
	local src=$1 dst=$W/$(basename "$1")
	sed 's/^netdev = .*/netdev = dcb*/' "$src" > "$dst"
	((have_cc)) || sed -i '/^\[cc\]/,$d' "$dst"
	echo "$dst"
}

jfield() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }

if ! setup; then
	tap_skip_all "cannot load dcbsim/rxe/rdma_cm in this guest"
fi
mkdevs || tap_bail "cannot create dcbsim test devices"
((have_cc)) || tap_diag "kmod/rocetune.ko absent: [cc] is left out of the tests"

# ---------------------------------------------------------------- examples
for ex in "$PROFILES"/*.conf; do
	name=$(basename "$ex" .conf)
	mkdevs
	p=$(testprofile "$ex")
	out=$("$RT" apply "$p" 2>&1); rc=$?
	if [[ $rc -eq 2 ]]; then tap_pass "$name: apply changes the host (exit 2)"
	else tap_fail "$name: apply changes the host (exit 2)" "rc=$rc"; printf '%s\n' "$out" | sed 's/^/#   /'; fi
	for dev in dcb0 dcbsim1; do
		args=()
		[[ $dev == dcb0 ]] && args=(rxe0 1)
		if [[ $name == soft-roce-lab && $dev == dcbsim1 ]]; then
			continue	# no rxe on dcbsim1: not matched by rdma_device
		fi
		tap_ok "$name: iproute2/configfs read back $dev as declared" \
			python3 "$here/readback.py" "$p" "$dev" "${args[@]}"
	done
	if ((!have_cc)) && grep -q '^\[cc\]' "$ex"; then
		tap_skip "$name: [cc] applied and read back from rocetune configfs" "$NOCC"
	fi
	c0=$(calls)
	out=$("$RT" --json apply "$p"); rc=$?
	tap_eq "$name: second apply exits 0 (no change)" 0 "$rc"
	tap_eq "$name: second apply sends no write" 0 "$(printf '%s' "$out" | jfield 'd["writes"]')"
	tap_eq "$name: no driver call reached dcbsim on the second apply" "$c0" "$(calls)"
	printf '%s' "$out" > "$W/out.json"
	tap_ok "$name: apply --json output validates" \
		sh -c "python3 '$here/json_check.py' < '$W/out.json'"
	tap_ok "$name: diff shows nothing to do" "$RT" diff "$p"
done

# The lossless profile drives the rest.
LL=$(testprofile "$PROFILES/lossless-roce.conf")

# ------------------------------------------------------------ bad profiles
mkdevs
"$RT" apply "$(testprofile "$PROFILES/lossy-roce-ecn.conf")" >/dev/null 2>&1
before=$(snapshot); c0=$(calls)
nbad=0; badfail=0
for f in "$BAD"/*.conf; do
	code=$(head -1 "$f" | awk '{print $3}')
	out=$("$RT" --json apply "$f"); rc=$?
	got=$(printf '%s' "$out" | jfield '[x["code"] for x in d["diagnostics"] if x["severity"]=="error"][0]' 2>/dev/null)
	nbad=$((nbad + 1))
	if [[ $rc -ne 1 || $got != "$code" ]]; then
		badfail=$((badfail + 1))
		tap_diag "$(basename "$f"): rc=$rc first error '$got', expected '$code'"
	fi
done
tap_eq "bad profiles: all $nbad fail (exit 1) with their specific error" 0 "$badfail"
tap_eq "bad profiles: no driver call reached dcbsim" "$c0" "$(calls)"
tap_eq "bad profiles: the host state is unchanged" "$before" "$(snapshot)"

# --------------------------------------------------------- injected faults
fault_case() {	# DESC DEV KNOB VALUE [PROFILE [PRIOR-PROFILE]]
	local desc=$1 dev=$2 knob=$3 val=$4 prof=${5:-$LL} prior=${6:-} before out rc res
	mkdevs
	[[ -n $prior ]] && "$RT" apply "$prior" >/dev/null 2>&1
	before=$(snapshot)
	echo "$val" > "$(dbgdir "$dev")/$knob"
	out=$("$RT" --json apply "$prof"); rc=$?
	echo 0 > "$(dbgdir "$dev")/$knob" 2>/dev/null
	res=$(printf '%s' "$out" | jfield 'd["result"]')
	tap_eq "$desc: apply fails and rolls back (exit 1)" "1 failed-rolled-back" "$rc $res"
	tap_eq "$desc: the host is back in its exact previous state" "$before" "$(snapshot)"
	printf '%s' "$out" | python3 "$here/json_check.py" ||
		tap_diag "$desc: JSON did not validate"
}
fault_case "ETS set fails on dcb0" dcb0 fail_next_ets 5
fault_case "PFC set fails on dcb0" dcb0 fail_next_pfc 5
fault_case "APP set fails on dcb0" dcb0 fail_next_app 22
fault_case "PFC fails on dcbsim1 after dcb0 fully applied" dcbsim1 fail_next_pfc 16
fault_case "dcbsim1 ignores PFC (acknowledged, not kept)" dcbsim1 ignore_pfc Y
fault_case "dcb0 ignores APP entries" dcb0 ignore_app Y
sed 's/^mtu = 4200/mtu = 9600/' "$LL" > "$W/mtu9600.conf"
fault_case "MTU 9600 refused by dcbsim1 (max 9000), last step" dcbsim1 fail_next_dcbx 0 "$W/mtu9600.conf"
# from a configured (not fresh) state: what is restored is that state
SRL=$(testprofile "$PROFILES/soft-roce-lab.conf")
fault_case "from soft-roce-lab state, ETS fails on dcbsim1" dcbsim1 fail_next_ets 5 "$LL" "$SRL"
fault_case "from soft-roce-lab state, MTU refused last" dcbsim1 fail_next_dcbx 0 "$W/mtu9600.conf" "$SRL"

# RDMA-CM: the kernel's rdma_cm configfs has no fault knob. An external,
# genuine refusal: in a private mount namespace, default_roce_tos is bind-
# mounted onto itself read-only, so rocetune's write gets EROFS from the
# VFS while reads still come from the kernel's attribute.
cm_fault() {	# DESC [PRIOR-PROFILE]
	local desc=$1 prior=${2:-} before out rc
	mkdevs
	[[ -n $prior ]] && "$RT" apply "$prior" >/dev/null 2>&1
	before=$(snapshot)
	mkdir "$CM" || { tap_bail "cannot create $CM"; }
	out=$(unshare -m bash -c '
		f=$1/ports/1/default_roce_tos; shift
		mount --bind "$f" "$f" && mount -o remount,bind,ro "$f" || exit 99
		exec "$@"' _ "$CM" "$RT" --json apply "$LL"); rc=$?
	for _ in $(seq 50); do rmdir "$CM" 2>/dev/null && break; sleep 0.1; done
	if [[ $rc -eq 99 ]]; then
		tap_fail "$desc: read-only bind mount over default_roce_tos" "mount failed"
		return
	fi
	failed_checks "$desc" "$before" "$rc" "$out" roce-tos "Read-only file system"
}
cm_fault "RDMA-CM ToS write refused (read-only mount)"
# every example profile has tos = 106: start from a configured ToS of 104
sed 's/^tos = 106/tos = 104/' "$SRL" > "$W/srl-tos104.conf"
cm_fault "from soft-roce-lab state (ToS 104), RDMA-CM ToS write refused" "$W/srl-tos104.conf"

# CC: rocetune.ko's test-only debugfs knob refuses the next commit.
cc_fault() {	# DESC [PRIOR-PROFILE]
	local desc=$1 prior=${2:-} before out rc
	mkdevs
	[[ -n $prior ]] && "$RT" apply "$prior" >/dev/null 2>&1
	before=$(snapshot)
	echo 5 > "$FNC"
	out=$("$RT" --json apply "$LL"); rc=$?
	tap_eq "$desc: the injected failure was used up" 0 "$(cat "$FNC")"
	echo 0 > "$FNC"
	failed_checks "$desc" "$before" "$rc" "$out" cc "injected failure"
}
cc_descs=("CC commit refused (injected), last step"
	  "from soft-roce-lab state, CC commit refused")
if ((have_cc)) && [[ -w $FNC ]]; then
	cc_fault "${cc_descs[0]}"
	cc_fault "${cc_descs[1]}" "$SRL"
else
	why=$NOCC
	((have_cc)) && why="no $FNC (debugfs)"
	for d in "${cc_descs[@]}"; do
		for t in "the injected failure was used up" "apply fails and rolls back (exit 1)" \
			 "the host is back in its exact previous state" \
			 "the failed step (dcb0 cc: ...injected failure...) is reported" \
			 "the restore is reported, every step restored"; do
			tap_skip "$d: $t" "$why"
		done
	done
fi

# --------------------------------------------------------------- messages
mkdevs
echo 5 > "$(dbgdir dcb0)/fail_next_pfc"
out=$("$RT" apply "$LL" 2>&1); rc=$?
echo 0 > "$(dbgdir dcb0)/fail_next_pfc"
tap_ok "failure output names the failed step and the restore" \
	sh -c "printf '%s' \"\$1\" | grep -q '^FAILED: dcb0: pfc' && printf '%s' \"\$1\" | grep -q 'rollback: complete'" _ "$out"
if ((have_cc)) && [[ -w $FNC ]]; then
	mkdevs
	echo 5 > "$FNC"
	out=$("$RT" apply "$LL" 2>&1); rc=$?
	echo 0 > "$FNC"
	tap_ok "CC failure output gives the kernel's reason and each restore" \
		sh -c "printf '%s' \"\$1\" | grep -q '^FAILED: dcb0: cc.*commit refused: Input/output error: injected failure' &&
		       printf '%s' \"\$1\" | grep -q 'rollback: complete' &&
		       printf '%s' \"\$1\" | grep -q 'dcb0: \[restored\] mtu'" _ "$out"
else
	tap_skip "CC failure output gives the kernel's reason and each restore" "$NOCC"
fi

# ------------------------------------------------------------ concurrency
mkdevs
sed 's/^mtu = 4200/mtu = 4400/' "$(testprofile "$PROFILES/lossy-roce-ecn.conf")" > "$W/lossy4400.conf"
"$RT" apply "$LL" > "$W/a.out" 2>&1 & pa=$!
"$RT" apply "$W/lossy4400.conf" > "$W/b.out" 2>&1 & pb=$!
wait $pa; ra=$?; wait $pb; rb=$?
tap_eq "two concurrent applies both succeed" "2 2" "$ra $rb"
if "$RT" diff "$LL" >/dev/null 2>&1 || "$RT" diff "$W/lossy4400.conf" >/dev/null 2>&1; then
	tap_pass "after concurrent applies the host matches one profile entirely"
else
	tap_fail "after concurrent applies the host matches one profile entirely" "interleaved state"
	snapshot | sed 's/^/#   /' | head -20
fi

# ---------------------------------------------------------- conflicting owner
mkdevs
cp /bin/sleep "$W/lldpad"
"$W/lldpad" 60 & plldp=$!
before=$(snapshot)
out=$("$RT" --json apply "$LL"); rc=$?
tap_eq "a running lldpad is reported and nothing is written" \
	"1 conflict-lldpad" "$rc $(printf '%s' "$out" | jfield '[n["code"] for n in d["host_notes"]][0]')"
tap_eq "lldpad conflict: host unchanged" "$before" "$(snapshot)"
"$RT" --force apply "$LL" >/dev/null 2>&1; rc=$?
tap_eq "--force applies despite lldpad" 2 "$rc"
kill "$plldp" 2>/dev/null; wait "$plldp" 2>/dev/null

# DCBX not host-managed (LLD-managed) on one device: dcbsim's dcbx_mode
# knob makes getdcbx report DCB_CAP_DCBX_LLD_MANAGED without the host bit.
mkdevs
if [[ -w $(dbgdir dcbsim1)/dcbx_mode ]]; then
	echo lld > "$(dbgdir dcbsim1)/dcbx_mode"
	before=$(snapshot); c0=$(calls)
	out=$("$RT" --json apply "$LL"); rc=$?
	tap_eq "DCBX not managed by the host is reported and nothing is written" \
		"1 conflict-dcbx dcbsim1" "$rc $(printf '%s' "$out" | jfield '" ".join([n["code"] + " " + x["netdev"] for x in d["devices"] for n in x["notes"] if n["severity"]=="error"])')"
	tap_eq "DCBX conflict: host unchanged, no driver call" "$before calls $c0" "$(snapshot) calls $(calls)"
	out=$("$RT" apply "$LL" 2>&1); rc=$?
	tap_ok "DCBX conflict: the message names the device, the owner and --force" \
		sh -c "[ $rc -eq 1 ] && printf '%s' \"\$1\" | grep -q 'dcbsim1: DCBX is managed by an LLDP agent (dcbx 0x0a), not the host.*--force'" _ "$out"
	out=$("$RT" --json --force apply "$LL"); rc=$?
	tap_eq "--force applies despite LLD-managed DCBX, the conflict as a warning" \
		"2 conflict-dcbx:warning" "$rc $(printf '%s' "$out" | jfield '" ".join([n["code"] + ":" + n["severity"] for x in d["devices"] for n in x["notes"] if n["code"]=="conflict-dcbx"])')"
	tap_ok "--force: the host then matches the profile" "$RT" --force diff "$LL"
	echo host > "$(dbgdir dcbsim1)/dcbx_mode"
else
	for t in "DCBX not managed by the host is reported and nothing is written" \
		 "DCBX conflict: host unchanged, no driver call" \
		 "DCBX conflict: the message names the device, the owner and --force" \
		 "--force applies despite LLD-managed DCBX, the conflict as a warning" \
		 "--force: the host then matches the profile"; do
		tap_skip "$t" "rocetune_dcbsim has no dcbx_mode knob"
	done
fi
out=$("$RT" --json apply "$BAD/unknown-key.conf")
printf '%s' "$out" > "$W/bad.json"
tap_ok "invalid-profile JSON validates" sh -c "python3 '$here/json_check.py' < '$W/bad.json'"

# --------------------------------------------------------------- show/json
mkdevs
"$RT" apply "$LL" >/dev/null 2>&1
tap_ok "show --json validates" sh -c "'$RT' --json show | python3 '$here/json_check.py'"
tap_ok "show dev dcb0 lists PFC" sh -c "'$RT' show dev dcb0 | grep -q 'pfc: priorities 3'"
tap_ok "dry-run plans without writing" sh -c \
	"ip link set dcb0 mtu 1500; c=\$(cat $DBG/*/calls_* | awk '{s+=\$1} END {print s}'); '$RT' apply --dry-run '$LL' | grep -q 'mtu 1500 -> 4200'; r=\$?; [ \$r -eq 0 ] && [ \"\$(cat /sys/class/net/dcb0/mtu)\" = 1500 ]"

# --------------------------------------------------------------- pfc delay
# [pfc] delay: written with the enable bitmap in one PFC set, read back by
# iproute2, idempotent, and restored by a rollback.
mkdevs
sed '/^priorities = 3/a delay = 4096' "$LL" > "$W/delay.conf"
out=$("$RT" apply "$W/delay.conf" 2>&1); rc=$?
tap_eq "pfc delay: apply changes the host (exit 2)" 2 "$rc"
tap_ok "pfc delay: iproute2 reads back delay 4096 and the rest of the profile" \
	python3 "$here/readback.py" "$W/delay.conf" dcb0 rxe0 1
c0=$(calls)
out=$("$RT" --json apply "$W/delay.conf"); rc=$?
tap_eq "pfc delay: a second apply exits 0 with no write and no driver call" \
	"0 0 $c0" "$rc $(printf '%s' "$out" | jfield 'd["writes"]') $(calls)"
sed 's/^mtu = 4200/mtu = 9600/' "$W/delay.conf" > "$W/delay9600.conf"
fault_case "pfc delay: MTU refused last, the delay is restored" dcbsim1 fail_next_dcbx 0 "$W/delay9600.conf"

# ------------------------------------------------------ pfc storm prevention
# [pfc] storm_prevention: the ethtool tunable pfc-prevention-tout (dcbsim:
# mlx5's rules, 0 off, 80..8000 ms, auto = 100 ms, 8000 at creation),
# written by ioctl after the PFC set, read back with ethtool, idempotent,
# restored by a rollback; a value the parser refuses writes nothing, one
# the driver refuses rolls the apply back.
mkdevs
sed '/^priorities = 3/a storm_prevention = 500' "$LL" > "$W/storm.conf"
out=$("$RT" apply "$W/storm.conf" 2>&1); rc=$?
tap_eq "storm prevention: apply changes the host (exit 2)" 2 "$rc"
tap_eq "storm prevention: ethtool reads back 500 ms on dcb0 and dcbsim1" "500 500" \
	"$(storm_of dcb0) $(storm_of dcbsim1)"
tap_ok "storm prevention: show prints it, show --json has pfc_storm_prevention_ms 500" sh -c \
	"'$RT' show dev dcb0 | grep -q 'pfc-storm-prevention 500 ms' &&
	 '$RT' --json show dev dcb0 | python3 -c 'import json,sys; assert json.load(sys.stdin)[\"state\"][0][\"pfc_storm_prevention_ms\"] == 500'"
out=$("$RT" --json apply "$W/storm.conf"); rc=$?
tap_eq "storm prevention: a second apply exits 0 with no write" "0 0" \
	"$rc $(printf '%s' "$out" | jfield 'd["writes"]')"
ethtool --set-tunable dcb0 pfc-prevention-tout 8000
out=$("$RT" diff "$W/storm.conf" 2>&1); rc=$?
tap_ok "storm prevention: an outside change is planned by diff (exit 2, 8000 -> 500, dcb0 only)" \
	sh -c "[ $rc -eq 2 ] && [ \"\$(printf '%s' \"\$1\" | grep -c 'pfc storm_prevention 8000 -> 500')\" = 1 ]" _ "$out"
"$RT" apply "$W/storm.conf" >/dev/null 2>&1
tap_eq "storm prevention: apply repairs it" "500 500" "$(storm_of dcb0) $(storm_of dcbsim1)"

# auto: met by any timeout on (drivers report the ms it stands for), so
# written only where storm prevention is off
mkdevs
ethtool --set-tunable dcbsim1 pfc-prevention-tout 0
sed '/^priorities = 3/a storm_prevention = auto' "$LL" > "$W/storm-auto.conf"
"$RT" apply "$W/storm-auto.conf" >/dev/null 2>&1
tap_eq "storm prevention auto: dcbsim1 (off) gets dcbsim's auto 100 ms, dcb0 keeps 8000" \
	"8000 100" "$(storm_of dcb0) $(storm_of dcbsim1)"
out=$("$RT" --json apply "$W/storm-auto.conf"); rc=$?
tap_eq "storm prevention auto: a second apply exits 0 with no write" "0 0" \
	"$rc $(printf '%s' "$out" | jfield 'd["writes"]')"

# out of range for the tunable (a u16, 65535 meaning auto): the parser
# refuses it before anything is read or written
mkdevs
sed '/^priorities = 3/a storm_prevention = 70000' "$LL" > "$W/storm-range.conf"
before=$(snapshot); c0=$(calls)
out=$("$RT" --json apply "$W/storm-range.conf"); rc=$?
tap_eq "storm prevention 70000: refused (exit 1, bad-value on storm_prevention), no write" \
	"1 bad-value storm_prevention 0" \
	"$rc $(printf '%s' "$out" | jfield '" ".join([x["code"] + " " + x["key"] for x in d["diagnostics"] if x["severity"]=="error"])') $(printf '%s' "$out" | jfield 'd["writes"]')"
tap_eq "storm prevention 70000: no driver call, the host unchanged" "$before calls $c0" \
	"$(snapshot) calls $(calls)"

# in the tunable's range, below the driver's (dcbsim, like mlx5: 80 ms):
# the driver refuses it after ETS and PFC were written; all restored
mkdevs
sed '/^priorities = 3/a storm_prevention = 50' "$LL" > "$W/storm50.conf"
before=$(snapshot)
out=$("$RT" --json apply "$W/storm50.conf"); rc=$?
failed_checks "storm prevention 50 ms refused by the driver" "$before" "$rc" "$out" \
	pfc-storm EINVAL
sed 's/^mtu = 4200/mtu = 9600/' "$W/storm.conf" > "$W/storm9600.conf"
fault_case "storm prevention: MTU refused last, the timeout is restored" dcbsim1 fail_next_dcbx 0 "$W/storm9600.conf"

# ----------------------------------------------------------- rewrite table
# [rewrite]: the RoCE priority 3 rewritten to the RoCE DSCP 26, the CNP
# priority 6 to the CNP DSCP 48, PCP 3 and 6 to themselves, on the
# lossless profile. The kernel's table is read with dcbnl.py: iproute2
# 6.1 has no `dcb rewr`.
RW=$W/rewrite.conf
{ cat "$LL"; printf '[rewrite]\nprio_dscp = 3:26 6:48\nprio_pcp = 3:3 6:6\n'; } > "$RW"
RWT="[[5, 3, 26], [5, 6, 48], [255, 3, 3], [255, 6, 6]]"
# a configured table to start from: other entries to delete and restore
{ cat "$LL"; printf '[rewrite]\nprio_dscp = 1:10 3:26\nprio_pcp = 5:5\n'; } > "$W/rw-prior.conf"
sed 's/^mtu = 4200/mtu = 9600/' "$RW" > "$W/rw9600.conf"
rw_points=("rewrite: apply changes the host (exit 2)"
	"rewrite: the kernel's tables of dcb0 and dcbsim1 are the declared ones"
	"rewrite: show prints the table"
	"rewrite: a second apply exits 0 with no write and no driver call"
	"rewrite: an outside change (3 -> DSCP 24) is planned by diff as delete then add"
	"rewrite: apply repairs it, the tables read back as declared")
rw_faults=("rewrite: the rewrite add fails on dcb0 (EIO)"
	"rewrite: dcb0 ignores rewrite sets (acknowledged, not kept)"
	"rewrite: MTU refused last, the empty tables are restored"
	"rewrite: from other entries, MTU refused last, they are restored")
rw_refused=("rewrite: without a rewrite table the profile is refused (exit 1, no-rewrite, Linux < 6.3)"
	"rewrite: refused: no driver call, the host unchanged")
mkdevs
if [[ $(rewr_of dcb0) != None ]]; then
	out=$("$RT" apply "$RW" 2>&1); rc=$?
	tap_eq "${rw_points[0]}" 2 "$rc"
	tap_eq "${rw_points[1]}" "$RWT/$RWT" "$(rewr_of dcb0)/$(rewr_of dcbsim1)"
	tap_ok "${rw_points[2]}" sh -c \
		"'$RT' show dev dcb0 | grep -q 'rewrite: prio-dscp 3:26 6:48; prio-pcp 3:3 6:6'"
	c0=$(calls)
	out=$("$RT" --json apply "$RW"); rc=$?
	tap_eq "${rw_points[3]}" "0 0 $c0" \
		"$rc $(printf '%s' "$out" | jfield 'd["writes"]') $(calls)"
	python3 "$DCBNL" rewr-add dcb0 dscp:3:24
	out=$("$RT" diff "$RW" 2>&1); rc=$?
	tap_ok "${rw_points[4]}" sh -c "[ $rc -eq 2 ] &&
		printf '%s' \"\$1\" | grep -A1 'rewrite del prio-dscp 3:24' | grep -q 'rewrite add prio-dscp 3:26'" _ "$out"
	"$RT" apply "$RW" >/dev/null 2>&1
	tap_eq "${rw_points[5]}" "$RWT/$RWT" "$(rewr_of dcb0)/$(rewr_of dcbsim1)"
	fault_case "${rw_faults[0]}" dcb0 fail_next_rewr 5 "$RW"
	fault_case "${rw_faults[1]}" dcb0 ignore_rewr Y "$RW"
	fault_case "${rw_faults[2]}" dcbsim1 fail_next_dcbx 0 "$W/rw9600.conf"
	fault_case "${rw_faults[3]}" dcbsim1 fail_next_dcbx 0 "$W/rw9600.conf" "$W/rw-prior.conf"
	for d in "${rw_refused[@]}"; do
		tap_skip "$d" "the kernel has the rewrite table (Linux 6.3+)"
	done
else
	why="kernel has no DCB rewrite table (DCB_ATTR_DCB_REWR_TABLE, Linux < 6.3)"
	for d in "${rw_points[@]}"; do
		tap_skip "$d" "$why"
	done
	for d in "${rw_faults[@]}"; do
		tap_skip "$d: apply fails and rolls back (exit 1)" "$why"
		tap_skip "$d: the host is back in its exact previous state" "$why"
	done
	before=$(snapshot); c0=$(calls)
	out=$("$RT" --json apply "$RW"); rc=$?
	tap_eq "${rw_refused[0]}" "1 no-rewrite no-rewrite" \
		"$rc $(printf '%s' "$out" | jfield '" ".join([n["code"] for x in d["devices"] for n in x["notes"] if n["severity"]=="error" and "Linux < 6.3" in n["message"]])')"
	tap_eq "${rw_refused[1]}" "$before calls $c0" "$(snapshot) calls $(calls)"
fi

rdma link delete rxe0 2>/dev/null
ip link del dcb0 2>/dev/null
ip link del dcbsim1 2>/dev/null
tap_done
