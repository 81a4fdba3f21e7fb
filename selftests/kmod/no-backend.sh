#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A device rocetune.ko attaches to but runs no DCQCN for: a hardware NIC
# (backend "none", Documentation/configfs.rst "Backends"). The tree must
# never claim a state the device does not have: active/ and commit fail
# with EOPNOTSUPP, commit says why in last_error and leaves the
# generation at 0, the datapath files say there is no datapath, and
# staged/ keeps working as scratch space. rocetune then refuses a [cc]
# profile for the device with no-cc-backend, naming the driver, and
# writes nothing; show claims no active value.
#
# A guest has no such NIC, so a test build's attach_as_hardware
# (kmod/fault.c) attaches rxe as rocetune.ko attaches one. About 30 s.

. "$(dirname "$0")/lib.sh"

DEV=rtnb0
CC=$RT/$DEV/ports/1/cc

rtune_require
ND=$(rtune_netdev)
[ -n "$ND" ] || tap_skip_all "no netdev that is up"
rtune_require_test_build attach_as_hardware
rtune_loaded && rtune_unload
rdma link delete $DEV 2>/dev/null

W=$(mktemp -d)
cleanup() {
	rdma link delete $DEV 2>/dev/null
	rtune_loaded && rtune_unload
	rm -rf "$W"
}
trap cleanup EXIT

tap_plan 21

tap_ok "load rocetune.ko with attach_as_hardware=1" rtune_load attach_as_hardware=1
rtune_objects_mark
rdma link add $DEV type rxe netdev "$ND" || tap_bail "rdma link add $DEV"
wait_for test -d "$CC" || tap_bail "no $CC"

tap_eq "backend is none" none "$(cat "$RT/$DEV/backend" 2>&1)"
tap_eq "driver is still named (rxe)" rxe "$(cat "$RT/$DEV/driver" 2>&1)"

# cat's message carries the errno's text: EOPNOTSUPP, not a value.
tap_eq "active/rp_max_rate_kbps: EOPNOTSUPP, no value" \
	"Operation not supported" \
	"$(cat "$CC/active/rp_max_rate_kbps" 2>&1 >/dev/null | sed 's/.*: //')"
n=0
for f in "$CC"/active/*; do cat "$f" >/dev/null 2>&1 && n=$((n + 1)); done
tap_eq "no file of active/ gives a value" 0 "$n"

tap_eq "pacing: unsupported (no datapath)" unsupported "$(cat "$RT/$DEV/ports/1/pacing" 2>&1)"
tap_eq "dp_counters: empty" "" "$(cat "$RT/$DEV/ports/1/dp_counters" 2>&1)"
tap_eq "qp_stats: empty" 0 "$(wc -c <"$RT/$DEV/ports/1/qp_stats" 2>&1)"
tap_notok "qp_ctl read: refused" cat "$RT/$DEV/ports/1/qp_ctl"
tap_notok "qp_watch write: refused" rtune_write "$RT/$DEV/ports/1/qp_watch" 7

# staged/ is scratch space, as on any device.
tap_ok "staged write accepted" rtune_write "$CC/staged/rp_max_rate_kbps" 1000000
tap_eq "staged value reads back" 1000000 "$(cat "$CC/staged/rp_max_rate_kbps" 2>&1)"
tap_notok "commit refused" rtune_write "$CC/commit" 1
tap_eq "last_error says why" \
	"no congestion-control backend for driver rxe: values are staged only" \
	"$(cat "$CC/last_error" 2>&1)"
tap_eq "generation still 0" 0 "$(cat "$CC/commit" 2>&1)"
tap_ok "the driver's counters are there" test -s "$RT/$DEV/ports/1/counters"

# rocetune: show claims nothing, apply refuses before writing.
if [ -n "$RTUNE_TOOL" ] && [ -x "$RTUNE_TOOL" ]; then
	"$RTUNE_TOOL" --json show >"$W/show.json" 2>"$W/show.err"
	tap_ok "rocetune show: backend none, no active value" python3 - "$W/show.json" "$DEV" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
e = [s for s in d["state"] if s.get("rdma_device") == sys.argv[2]]
if len(e) != 1:
    sys.exit(f"{len(e)} entries for {sys.argv[2]}")
cc = e[0].get("cc")
if not cc or cc.get("backend") != "none" or cc.get("active"):
    sys.exit(f"cc is {cc}")
EOF
	printf '[match]\nnetdev = %s\n[cc]\nrp_max_rate_kbps = 2000000\n' "$ND" >"$W/cc.conf"
	for f in "$CC"/staged/*; do printf '%s %s\n' "${f##*/}" "$(cat "$f")"; done >"$W/staged.before"
	"$RTUNE_TOOL" --json apply "$W/cc.conf" >"$W/apply.json" 2>"$W/apply.err"
	rc=$?
	tap_ok "rocetune apply: exit 1 with no-cc-backend naming rxe (exit $rc)" \
		python3 - "$W/apply.json" "$rc" <<'EOF'
import json, sys
if sys.argv[2] != "1":
    sys.exit(f"exit {sys.argv[2]}")
d = json.load(open(sys.argv[1]))
n = [x for v in d["devices"] for x in v["notes"] if x["code"] == "no-cc-backend"]
if len(n) != 1 or "driver rxe" not in n[0]["message"]:
    sys.exit(f"notes: {n}")
if any(a["status"] != "not-run" for v in d["devices"] for a in v["actions"]):
    sys.exit("an action ran")
EOF
	for f in "$CC"/staged/*; do printf '%s %s\n' "${f##*/}" "$(cat "$f")"; done >"$W/staged.after"
	tap_ok "apply wrote nothing: staged/ and the generation unchanged" \
		eval 'cmp -s "$W/staged.before" "$W/staged.after" && [ "$(cat "$CC/commit")" = 0 ]'
else
	tap_skip "rocetune show" "no rocetune tool (ROCETUNE=PATH or rocetune in PATH)"
	tap_skip "rocetune apply" "no rocetune tool (ROCETUNE=PATH or rocetune in PATH)"
	tap_skip "rocetune apply wrote nothing" "no rocetune tool"
fi

rdma link delete $DEV
wait_for test ! -e "$RT/$DEV"
tap_ok "every object freed after the device is gone" rtune_objects_zero
rtune_unload
tap_ok "kernel log has no BUG/WARNING/Oops" kernel_log_clean
tap_done
