#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# On a real RoCE node (not in the lab): the [devlink] section against the
# NIC's own devlink instance, for each netdev whose devlink port belongs to
# an instance with the generic enable_roce or enable_iwarp parameter (mlx5,
# ice), or the netdev named. iproute2's devlink is the independent reader:
#
#   1. the tool reads every value iproute2 reads (parameter and cmode);
#   2. a profile of those values applies with no write (exit 0);
#   3. `rocetune diff` of the other RoCE setting names exactly the changes
#      it needs (and the reload a driverinit value needs);
#   4. ... and changed nothing;
#   5. with HWNODE_CHANGE=1 only: that profile applied, iproute2 reads it;
#   6. with HWNODE_CHANGE=1 only: the values read in 1 applied again, and
#      iproute2 reads every value as in 1.
#
# Steps 5 and 6 change whether the NIC does RoCE: on mlx5 only the
# driverinit value (in effect at the next `devlink dev reload`, which this
# test never runs), on ice at once (irdma's RDMA device goes and comes
# back, with every QP on it). Without HWNODE_CHANGE=1 they are TAP skips
# that say so. TAP; skips (exit 4) with the reason when the node has no
# such netdev, when not root, or without the tools.
#
#     selftests/hwnode/devlink-roce.sh [NETDEV]
#     HWNODE_CHANGE=1 selftests/hwnode/devlink-roce.sh ens1f0np0

set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
. "$here/../lib/tap.sh"
. "$here/../lib/tree.sh"
. "$here/../lib/apply-json.sh"

RT=$RTUNE_TOOL
DEVLINK=${HWNODE_DEVLINK:-devlink}
PARAMS="enable_roce enable_iwarp"

command -v "$DEVLINK" >/dev/null 2>&1 || tap_skip_all "iproute2's devlink missing"
command -v python3 >/dev/null || tap_skip_all "python3 missing"

# NETDEV HANDLE per line: every netdev on a devlink port whose instance
# has one of $PARAMS (or the one named).
targets() {
	"$DEVLINK" -j port show 2>/dev/null | python3 -c '
import json, sys
try:
    ports = json.load(sys.stdin).get("port", {})
except ValueError:
    sys.exit()
want = sys.argv[1]
for name, p in sorted(ports.items()):
    nd = p.get("netdev")
    if nd and (not want or nd == want):
        print(nd, name.rsplit("/", 1)[0])' "${1:-}" |
	while read -r nd dl; do
		local p
		for p in $PARAMS; do
			if "$DEVLINK" dev param show "$dl" name "$p" >/dev/null 2>&1; then
				echo "$nd $dl"
				break
			fi
		done
	done
}

found=$("$DEVLINK" port show 2>/dev/null | sed -n 's/.* netdev \([^ ]*\).*/\1/p' | sort | paste -sd ' ')
mapfile -t DEVS < <(targets "$@")
[[ ${#DEVS[@]} -gt 0 ]] ||
	tap_skip_all "no netdev${1:+ named $1} on a devlink instance with enable_roce or enable_iwarp (netdevs on devlink ports: ${found:-none})"
[[ $(id -u) -eq 0 ]] || tap_skip_all "must run as root (devlink parameters are root's)"
[[ -n $RT && -x $RT ]] || tap_skip_all "rocetune not built (make -C tools/rocetune) or not in PATH"

W=$(mktemp -d /run/rocetune-hwnode.XXXXXX)
trap 'rm -rf "$W"' EXIT

# ipr HANDLE: iproute2's values, "PARAM.CMODE=true|false" sorted, one line
ipr() {
	local p
	for p in $PARAMS; do
		"$DEVLINK" -j dev param show "$1" name "$p" 2>/dev/null
		echo
	done | python3 -c '
import json, sys
out = []
for line in sys.stdin:
    if not line.strip():
        continue
    for ps in json.loads(line).get("param", {}).values():
        for p in ps:
            for v in p.get("values", []):
                out.append("%s.%s=%s" % (p["name"], v["cmode"], str(bool(v["value"])).lower()))
print(" ".join(sorted(out)))'
}

# tool NETDEV: the tool's values, the same form, from `rocetune -j show`
tool() {
	"$RT" -j show dev "$1" 2>/dev/null | python3 -c '
import json, sys
def find(o):
    if isinstance(o, dict):
        if isinstance(o.get("devlink"), dict):
            return o["devlink"]
        o = list(o.values())
    if isinstance(o, list):
        for v in o:
            r = find(v)
            if r is not None:
                return r
    return None
dl = find(json.load(sys.stdin)) or {}
out = []
for p in sys.argv[1].split():
    for cm, v in sorted((dl.get(p) or {}).items()):
        if isinstance(v, bool):
            out.append("%s.%s=%s" % (p, cm, str(v).lower()))
print(" ".join(sorted(out)))' "$PARAMS"
}

# declared VALUES: what a profile declares for each parameter: the
# driverinit value where there is one (that is what rocetune writes), else
# runtime. "enable_roce=true enable_iwarp=false"
declared() {
	python3 -c '
import sys
v = dict(kv.split("=") for kv in sys.argv[1].split())
out = []
for p in ("enable_roce", "enable_iwarp"):
    x = v.get(p + ".driverinit", v.get(p + ".runtime"))
    if x is not None:
        out.append("%s=%s" % (p, x))
print(" ".join(out))' "$1"
}

# other DECLARED: RoCE switched the other way; iWARP off when RoCE goes on
# (ice refuses both), on when it was on and RoCE goes off is left as is.
other() {
	python3 -c '
import sys
v = dict(kv.split("=") for kv in sys.argv[1].split())
flip = "false" if v["enable_roce"] == "true" else "true"
v["enable_roce"] = flip
if flip == "true" and v.get("enable_iwarp") == "true":
    v["enable_iwarp"] = "false"
print(" ".join("%s=%s" % kv for kv in v.items()))' "$1"
}

# ndiff A B: how many parameters differ between two declared sets
ndiff() {
	python3 -c '
import sys
a, b = (dict(kv.split("=") for kv in s.split()) for s in sys.argv[1:3])
print(sum(1 for k in a if a[k] != b.get(k)))' "$1" "$2"
}

profile() {	# profile FILE NETDEV DECLARED
	{
		printf '[match]\nnetdev = %s\n[devlink]\n' "$2"
		local kv
		for kv in $3; do
			printf '%s = %s\n' "${kv%%=*}" "${kv#*=}"
		done
	} >"$1"
}

# settles HANDLE WANT: iproute2 reads WANT within 10 s (ice re-plugs irdma)
settles() {
	local i
	for ((i = 0; i < 20; i++)); do
		[[ $(ipr "$1") == "$2" ]] && return 0
		sleep 0.5
	done
	echo "iproute2 reads '$(ipr "$1")', want '$2'"
	return 1
}

# applied RCS RC ERRFILE HANDLE WANT: apply's exit RC is one of RCS (2: it
# changed something, 0: nothing to change) and iproute2 reads WANT
# shellcheck disable=SC2317 # run through tap_ok
applied() {
	if [[ " $1 " != *" $2 "* ]]; then
		echo "apply exit $2:"
		cat "$3"
		return 1
	fi
	settles "$4" "$5"
}

tap_plan $((6 * ${#DEVS[@]}))

for e in "${DEVS[@]}"; do
	nd=${e%% *}
	dl=${e#* }
	before=$(ipr "$dl")
	tap_diag "$nd on $dl: $before"
	tap_eq "$nd: the tool reads what iproute2 reads" "$before" "$(tool "$nd")"

	cur=$(declared "$before")
	profile "$W/$nd.cur.conf" "$nd" "$cur"
	"$RT" -j apply "$W/$nd.cur.conf" >"$W/$nd.a1.json" 2>"$W/$nd.a1.err"
	rc=$?
	tap_eq "$nd: a profile of the values read ($cur) applies with no write" \
		"0 0" "$rc $(rtune_jget "$W/$nd.a1.json" writes)"
	[[ $rc -eq 0 ]] || sed 's/^/#   /' "$W/$nd.a1.err"

	oth=$(other "$cur")
	n=$(ndiff "$cur" "$oth")
	profile "$W/$nd.oth.conf" "$nd" "$oth"
	"$RT" -j diff "$W/$nd.oth.conf" >"$W/$nd.d.json" 2>/dev/null
	want_reload=no
	[[ $before == *enable_roce.driverinit=* ]] && want_reload=yes
	tap_eq "$nd: diff of '$oth': $n change(s), reload needed: $want_reload" \
		"$n $want_reload" "$(rtune_jget "$W/$nd.d.json" actions) $(rtune_jget "$W/$nd.d.json" has:devlink-reload)"
	tap_eq "$nd: ... and the diff changed nothing" "$before" "$(ipr "$dl")"

	if [[ ${HWNODE_CHANGE:-0} != 1 ]]; then
		why="changes whether $nd does RoCE: run with HWNODE_CHANGE=1 on a node out of service"
		tap_skip "$nd: '$oth' applied" "$why"
		tap_skip "$nd: the values read first restored" "$why"
		continue
	fi
	"$RT" -j apply "$W/$nd.oth.conf" >"$W/$nd.a2.json" 2>"$W/$nd.a2.err"
	rc=$?
	# exit 2: applied, something changed
	want=$(python3 -c '
import sys
b = dict(kv.split("=") for kv in sys.argv[1].split())
o = dict(kv.split("=") for kv in sys.argv[2].split())
for k in list(b):
    p, cm = k.split(".")
    # what rocetune writes: driverinit where the parameter has it
    if cm == "driverinit" or (cm == "runtime" and p + ".driverinit" not in b):
        b[k] = o.get(p, b[k])
print(" ".join("%s=%s" % kv for kv in sorted(b.items())))' "$before" "$oth")
	tap_ok "$nd: '$oth' applied (exit $rc), iproute2 reads it" \
		applied 2 "$rc" "$W/$nd.a2.err" "$dl" "$want"
	"$RT" -j apply "$W/$nd.cur.conf" >"$W/$nd.a3.json" 2>"$W/$nd.a3.err"
	rc=$?
	tap_ok "$nd: the values read first applied again (exit $rc), iproute2 reads them" \
		applied "0 2" "$rc" "$W/$nd.a3.err" "$dl" "$before"
done
tap_done
