# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Readers of one rxe port's datapath files for the DCQCN suites, sourced
# after kmod/lib.sh. The caller sets P to the port's configfs directory
# ($RT/<device>/ports/<N>). qp_stats' first line names its columns, so a
# field is found by name and the suites do not depend on column order.
# col and qcol read QP_STATS instead when it is set: a copy of qp_stats
# taken in one read, for a QP that may end while the suite looks.

# col FIELD [QPN]: FIELD of the first live QP in qp_stats, or of live QP
# QPN; empty when there is none.
col() {
	awk -v f="$1" -v q="${2:-}" 'NR==1 {for (i=1;i<=NF;i++) c[$i]=i; next}
		$3=="live" && (q=="" || $1==q) {print $c[f]; exit}' "${QP_STATS:-$P/qp_stats}"
}

# qcol QPN FIELD: FIELD of QP QPN whatever its state; empty when the
# table has no such QP.
qcol() {
	awk -v q="$1" -v f="$2" 'NR==1 {for (i=1;i<=NF;i++) c[$i]=i; next}
		$1==q {print $c[f]; exit}' "${QP_STATS:-$P/qp_stats}"
}

# dpc NAME: a dp_counters value (0 if the module has no such counter).
dpc() { awk -v n="$1" '$1==n {v=$2} END {print v+0}' "$P/dp_counters"; }

# live_qpn: print the first live QP's number once there is one; fails
# after 30 s without.
live_qpn() {
	local q _
	for _ in $(seq 300); do
		q=$(col qpn)
		[[ -n $q ]] && { echo "$q"; return 0; }
		sleep 0.1
	done
	return 1
}

# since FIELD BASE [QPN]: how much the live QP's FIELD grew since BASE.
# Prints "QP not live" and fails when there is no live QP to read, so a
# "+0" check cannot pass on a QP that ended (empty minus BASE is -BASE,
# which is 0 when BASE was).
since() {
	local v
	v=$(col "$1" "${3:-}")
	[[ -n $v && -n $2 ]] || { echo "QP not live"; return 1; }
	echo $((v - $2))
}

# qp_suite_up: the start the two-host perftest suites share: the TAP
# header, the module (rtune_require), perftest, fq's module, and rxe0 on
# eth0 with the peer answering; sets gid to rxe0's RoCEv2 GID index.
qp_suite_up() {
	tap_header
	rtune_require
	command -v ib_write_bw >/dev/null || tap_skip_all "perftest not installed"
	modprobe sch_fq
	lab_rxe_up || tap_bail "rxe0 on eth0 and the peer reachable"
	# shellcheck disable=SC2034 # read by the suite
	gid=$LAB_GID
}
