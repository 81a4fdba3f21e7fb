#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Who may change rocetune.ko (issue 9, "Privilege"): every configfs write
# needs CAP_NET_ADMIN. For each writable file (a staged parameter, preset,
# commit, discard, qp_ctl, qp_watch):
#   - an unprivileged user (nobody) is refused by the file's mode;
#   - uid 0 without CAP_NET_ADMIN (setpriv drops it from the bounding set,
#     as a container would) is refused with EPERM;
#   - neither changes anything (staged and active sets, qp_ctl, qp_watch);
#   - root with the capability succeeds (the refusals are not an accident).

. "$(dirname "$0")/lib.sh"

rtune_require
command -v setpriv >/dev/null || tap_skip_all "setpriv (util-linux) not installed"
ND=$(rtune_netdev)
[ -n "$ND" ] || tap_skip_all "no netdev that is up"
rtune_loaded && rtune_unload
rtune_load || tap_bail "insmod rocetune.ko failed"
rdma link add rtpv0 type rxe netdev "$ND" || tap_bail "rdma link add failed"
wait_for test -d "$RT/rtpv0" || tap_bail "device directory did not appear"

PORT=$RT/rtpv0/ports/1
CC=$PORT/cc

# state: everything a write could change, one line each.
state() {
	local f
	for f in "$CC"/staged/* "$CC"/active/* "$CC/commit" "$PORT/qp_ctl" "$PORT/qp_watch"; do
		printf '%s=%s\n' "${f#"$PORT"/}" "$(cat "$f" 2>&1)"
	done
}
nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
no_netadmin() {
	setpriv --inh-caps=-net_admin --bounding-set=-net_admin "$@"
}
# try WHO FILE VALUE: write VALUE to FILE as WHO; prints the shell's error
# (bash's: dash reports any failed write as "I/O error").
try() {
	local who=$1 file=$2 value=$3
	"$who" bash -c 'printf "%s" "$2" >"$1"' bash "$file" "$value" 2>&1
}

# A QP number nobody uses, for qp_ctl (an entry for it is refused, ENOENT,
# when root writes it: that too is a change refused for the right reason).
param=$(ls "$CC/staged" | head -1)
cur=$(cat "$CC/staged/$param")
WRITES=(
	"$CC/staged/$param|$cur"
	"$CC/preset|default"
	"$CC/commit|1"
	"$CC/discard|1"
	"$PORT/qp_ctl|7 rate_cap_kbps=1000"
	"$PORT/qp_watch|7"
)

tap_header
tap_diag "writable files checked: ${#WRITES[@]} (staged parameter: $param)"
before=$(state)
for w in "${WRITES[@]}"; do
	file=${w%%|*} value=${w#*|}
	name=${file#"$PORT"/}
	out=$(try nobody "$file" "$value") && out="write succeeded"
	tap_ok "$name: nobody is refused ($out)" grep -q 'Permission denied' <<<"$out"
	out=$(try no_netadmin "$file" "$value") && out="write succeeded"
	tap_ok "$name: uid 0 without CAP_NET_ADMIN is refused ($out)" \
		grep -q 'Operation not permitted' <<<"$out"
done
tap_eq "the refused writes changed nothing" "$before" "$(state)"

# The capability is what decides: the same writes as root succeed.
t_root() {
	printf '%s' "$cur" >"$CC/staged/$param" && printf 1 >"$CC/discard" &&
		printf 7 >"$PORT/qp_watch" && printf 0 >"$PORT/qp_watch"
}
tap_ok "root with CAP_NET_ADMIN writes staged, discard and qp_watch" t_root
tap_ok "no capability check on reads: nobody reads cc/active/$param" \
	nobody cat "$CC/active/$param"

rdma link delete rtpv0
rtune_unload
tap_ok "kernel log clean" kernel_log_clean
tap_done
