#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# RoCE against an InfiniBand baseline (Documentation/baselines.rst).
# perftest on the RoCE path: latency (min, p50, p99, p99.9) at 8, 256 and 4096
# bytes, bandwidth at several sizes, jitter (max - min of the p50 over
# repeated runs); each figure compared with a baseline as a ratio against
# the limits the baseline file gives (rtune_baseline.py compare).
#
# Where the baseline comes from:
#   - the hosts also have an active InfiniBand port: the same measurements
#     on the IB path in the same run are the baseline, with the limits of
#     BASELINE_FILE (default ref/ib-hdr-published.baseline);
#   - otherwise BASELINE_FILE, a file of values and limits (captured from a
#     real IB pair with BASELINE_CAPTURE, or a shipped reference of
#     published figures under ref/).
#
# In the QEMU lab (two guests, rxe, no InfiniBand) the IB comparisons are
# skipped with that reason, and the comparator itself is put to the test:
# a baseline is captured from the unimpaired lab path (limits from
# lab-limits.baseline), the same path measured again must pass against
# it, and the path degraded with netem (BASELINE_DELAY, default 5ms, on
# host2's egress) must be flagged: the comparator fails, and with it every
# minimum-latency (t_min) check.
#
# On a node pair (an installed tree): on the peer
#   BASELINE_ROLE=server BASELINE_DEV=mlx5_0 ./ib-vs-roce.sh
# and here
#   BASELINE_PEER=ADDR BASELINE_DEV=mlx5_0 ./ib-vs-roce.sh
# both with the same BASELINE_SET/REPEAT/ITERS. More: BASELINE_GID (RoCE
# GID index; default the first RoCE v2 IPv4 GID of port 1), BASELINE_IB_DEV
# (the InfiniBand device; default the first active IB port, "none" for
# none), BASELINE_FILE, BASELINE_CAPTURE=PATH (record the measured path as
# a baseline file; with an IB port, the IB path), BASELINE_PORT (18600),
# BASELINE_OUT (logs).
#
# Measurement sets (BASELINE_SET): "reduced", the lab's default: ib_write_lat
# at 8, 256 and 4096 B (each x BASELINE_REPEAT, 3), ib_write_bw at 4096 and
# 65536 B; "full", a node's default: ib_write_lat and ib_send_lat at each
# size x BASELINE_REPEAT, ib_write_bw and ib_send_bw at 4096, 65536 and
# 1048576 B. BASELINE_ITERS: latency iterations (lab 300, node 10000);
# BASELINE_BW_SECS: bandwidth duration (lab 2, node 5).
#
# Run on the host:   selftests/baseline/ib-vs-roce.sh [lab-run options]

# shellcheck disable=SC2154 # LAB_* come from /run/lab/env
set -uo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
# On the host, from a source tree, and not a node run: start the lab.
if [[ -z ${LAB_HOST:-} && -z ${BASELINE_ROLE:-}${BASELINE_PEER:-} && -x $here/../lab/lab-run ]]; then
	envs=()
	for v in BASELINE_SET BASELINE_REPEAT BASELINE_ITERS BASELINE_BW_SECS BASELINE_DELAY BASELINE_FILE; do
		[[ -n ${!v:-} ]] && envs+=(--env "$v")
	done
	exec "$here/../lab/lab-run" --hosts 2 --timeout 900 "${envs[@]}" "$@" \
		--script "1,2=$here/ib-vs-roce.sh"
fi

. "$here/../lib/lab-guest.sh"
. "$here/../lib/tap.sh"
. "$here/../lib/kernel.sh"

TOOL=$here/rtune_baseline.py
PORT=${BASELINE_PORT:-18600}

# A node pair is named explicitly (even inside lab guests, which is how
# the node mode itself can be tried there); otherwise the lab's guests.
if [[ ${BASELINE_ROLE:-} == server || -n ${BASELINE_PEER:-} ]]; then
	MODE=node
	ROLE=${BASELINE_ROLE:-client}
	SET=${BASELINE_SET:-full}
	ITERS=${BASELINE_ITERS:-10000}
	BW_SECS=${BASELINE_BW_SECS:-5}
	OUT=${BASELINE_OUT:-}	# default: a new directory, made once the device is known
elif lab_hosts 2; then
	MODE=lab
	ROLE=$( ((LAB_HOST == 1)) && echo server || echo client)
	SET=${BASELINE_SET:-reduced}
	ITERS=${BASELINE_ITERS:-300}
	BW_SECS=${BASELINE_BW_SECS:-2}
	OUT=$LAB_HOST_DIR
else
	tap_skip_all "needs a RoCE peer: BASELINE_PEER=ADDR BASELINE_DEV=IBDEV here and" \
		"BASELINE_ROLE=server on the peer (or the QEMU lab's two guests)"
fi
REPEAT=${BASELINE_REPEAT:-3}
DELAY=${BASELINE_DELAY:-5ms}

tap_header
[[ $(id -u) -eq 0 ]] || tap_skip_all "must run as root"
command -v python3 >/dev/null || tap_skip_all "python3 not installed"
for t in ib_write_lat ib_write_bw; do
	command -v $t >/dev/null || tap_skip_all "perftest not installed ($t)"
done
case $SET in reduced|full) ;; *) tap_bail "BASELINE_SET must be reduced or full, not '$SET'";; esac
[[ $REPEAT =~ ^[1-9][0-9]?$ && $ITERS =~ ^[1-9][0-9]*$ && $BW_SECS =~ ^[1-9][0-9]*$ ]] ||
	tap_bail "BASELINE_REPEAT, BASELINE_ITERS, BASELINE_BW_SECS must be positive integers"

# ---------------------------------------------------------------- devices

# ib_port: the first active InfiniBand port, "DEV PORT"; empty if none.
ib_port() {
	local p dev
	for p in /sys/class/infiniband/*/ports/*; do
		[[ -r $p/link_layer ]] || continue
		[[ $(<"$p/link_layer") == InfiniBand && $(<"$p/state") == *ACTIVE* ]] || continue
		dev=${p%/ports/*}
		echo "${dev##*/} ${p##*/}"
		return 0
	done
}
# link_layers: every RDMA port and its link layer, for the diagnostic.
link_layers() {
	local p dev out=
	for p in /sys/class/infiniband/*/ports/*; do
		[[ -r $p/link_layer ]] || continue
		dev=${p%/ports/*}
		out+=" ${dev##*/}/${p##*/} $(<"$p/link_layer")"
	done
	echo "${out:- none}"
}
# roce_v2_gid DEV: the first RoCE v2 GID of port 1 that is IPv4-mapped.
roce_v2_gid() {
	local port=/sys/class/infiniband/$1/ports/1 f i
	for f in "$port"/gids/*; do
		i=${f##*/}
		[[ $(<"$f") == 0000:0000:0000:0000:0000:ffff:* ]] || continue
		[[ $(<"$port/gid_attrs/types/$i") == "RoCE v2" ]] 2>/dev/null || continue
		echo "$i"
		return 0
	done
	return 1
}

if [[ $MODE == lab ]]; then
	modprobe rdma_rxe || tap_bail "no rdma_rxe"
	kernel_log_mark
	rdma link add rxe0 type rxe netdev eth0 || tap_bail "rdma link add"
	DEV=rxe0
	GID=$(lab_roce_gid_index rxe0 "$LAB_ADDR_eth0") || tap_bail "no GID"
	lab_wait_ping "$LAB_PEER_eth0" 60 || tap_bail "no ping"
	tap_pass "rxe0 on eth0, RoCE v2 GID $GID"
	((LAB_HOST == 2)) && { modprobe sch_netem || tap_bail "no sch_netem"; }
	lab_barrier up 120 || tap_bail "peer not up"
else
	DEV=${BASELINE_DEV:-}
	[[ -n $DEV && -d /sys/class/infiniband/$DEV ]] ||
		tap_skip_all "BASELINE_DEV must name this node's RoCE device (have:$(link_layers))"
	if [[ $(cat "/sys/class/infiniband/$DEV/ports/1/link_layer" 2>/dev/null) == Ethernet ]]; then
		GID=${BASELINE_GID:-$(roce_v2_gid "$DEV")} ||
			tap_skip_all "$DEV: no RoCE v2 IPv4 GID on port 1 (set BASELINE_GID)"
	else
		GID=
	fi
	tap_pass "$DEV$([[ -n $GID ]] && echo ", GID $GID")"
	[[ -n $OUT ]] || OUT=$(mktemp -d "${TMPDIR:-/tmp}/rocetune-baseline.XXXXXX") || tap_bail "mktemp"
fi
mkdir -p "$OUT" || tap_bail "cannot create $OUT"
tap_diag "$MODE mode, $ROLE, set $SET: $ITERS latency iterations, $REPEAT repeats, bandwidth ${BW_SECS}s; logs in $OUT"

# ------------------------------------------------------------- measuring

SEQ=0
# perf NAME CMD...: one perftest run, server on one host and client on the
# other; the client's log is OUT/NAME.log. Lab: lab_perf_run. Node: the
# server runs each command in turn on port PORT+SEQ until it exits; the
# client retries while nobody listens there yet.
perf() {
	local name=$1 port=$((PORT + SEQ)) try rc tmo
	shift
	SEQ=$((SEQ + 1))
	tmo=$((ITERS / 50 + BW_SECS + 120))
	if [[ $MODE == lab ]]; then
		lab_perf_run --calibrated --port "$port" --timeout "$tmo" "$name" -- "$@" -F
		return
	fi
	if [[ $ROLE == server ]]; then
		timeout $((tmo + 120)) "$@" -F -p "$port" >"$OUT/$name.log" 2>&1
		return
	fi
	for ((try = 1; try <= 60; try++)); do
		timeout "$tmo" "$@" -F -p "$port" "$BASELINE_PEER" >"$OUT/$name.log" 2>&1
		rc=$?
		grep -q "Couldn't connect" "$OUT/$name.log" || return $rc
		sleep 1
	done
	return $rc
}

# measure [--lat] TAG DEV GID [PORT]: the set on one path (a RoCE GID
# index, or none for InfiniBand; the device's port, default 1), latency
# only with --lat; on the client, the value lines go to OUT/TAG.meas.
# Returns non-zero if a run failed.
measure() {
	local lat_only=
	[[ $1 == --lat ]] && { lat_only=1; shift; }
	local tag=$1 dev=$2 gid=$3 op s i logs bad=0
	local -a ops=(write) lat_sizes=(8 256 4096) bw_sizes=(4096 65536) g=(-i "${4:-1}")
	[[ -n $gid ]] && g+=(-x "$gid")
	[[ $SET == full ]] && ops=(write send) bw_sizes=(4096 65536 1048576)
	[[ -n $lat_only ]] && bw_sizes=()
	{
		echo "rocetune-baseline 1"
		echo "source $tag $(date -u +%F) perftest $(dpkg-query -W -f '${Version}' perftest 2>/dev/null)," \
			"$tag path, $dev, set $SET, $(uname -n)"
	} >"$OUT/$tag.meas"
	for op in "${ops[@]}"; do
		for s in "${lat_sizes[@]}"; do
			logs=()
			# Every size is repeated: jitter needs repeats, and the
			# smallest minimum over them is the path's floor, which a
			# run starved by the host (seen: 1868 us against 213 us a
			# minute later) cannot raise.
			local n=$REPEAT
			for ((i = 1; i <= n; i++)); do
				perf "$tag-lat-$op-$s-$i" "ib_${op}_lat" -d "$dev" "${g[@]}" -s "$s" -n "$ITERS" ||
					{ bad=1; tap_diag "$tag: ib_${op}_lat -s $s run $i failed"; continue; }
				logs+=("$OUT/$tag-lat-$op-$s-$i.log")
			done
			[[ $ROLE == client && ${#logs[@]} -gt 0 ]] &&
				{ python3 "$TOOL" parse lat "$op" "$s" "$tag" "${logs[@]}" >>"$OUT/$tag.meas" || bad=1; }
		done
		for s in "${bw_sizes[@]}"; do
			if perf "$tag-bw-$op-$s" "ib_${op}_bw" -d "$dev" "${g[@]}" -s "$s" -D "$BW_SECS"; then
				[[ $ROLE == client ]] &&
					{ python3 "$TOOL" parse bw "$op" "$s" "$tag" "$OUT/$tag-bw-$op-$s.log" >>"$OUT/$tag.meas" || bad=1; }
			else
				bad=1
				tap_diag "$tag: ib_${op}_bw -s $s failed"
			fi
		done
	done
	if [[ $ROLE == client ]]; then
		python3 "$TOOL" check "$OUT/$tag.meas" || bad=1
	fi
	return $bad
}

# compare TAG BASELINE MEAS: the comparator's verdict (0 pass, 1 fail,
# 2 bad input, 3 nothing compared); its lines as diagnostics.
compare() {
	local rc
	python3 "$TOOL" compare "$2" "$3" >"$OUT/$1.cmp" 2>&1
	rc=$?
	tap_diag "compare $1 (exit $rc):"
	sed 's/^/#   /' "$OUT/$1.cmp"
	return $rc
}

# ------------------------------------------------------ the InfiniBand path

IB=
if [[ ${BASELINE_IB_DEV:-} == none ]]; then
	IB=
elif [[ -n ${BASELINE_IB_DEV:-} ]]; then
	IB="$BASELINE_IB_DEV 1"
else
	IB=$(ib_port)
fi
REF=${BASELINE_FILE:-}
[[ $MODE == node && -z $REF ]] && REF=$here/ref/ib-hdr-published.baseline

if [[ -z $IB ]]; then
	tap_diag "no InfiniBand port on this host (RDMA ports:$(link_layers)): the RoCE-vs-InfiniBand comparison in one run is skipped"
	tap_skip "RoCE vs InfiniBand measured in the same run" "no InfiniBand port on this host"
fi

if [[ -n $IB ]]; then
	read -r ibdev ibport <<<"$IB"
	tap_diag "InfiniBand port $ibdev/$ibport: measured as the baseline"
	if measure ib "$ibdev" "" "$ibport"; then
		tap_pass "InfiniBand path ($ibdev) measured"
	else
		tap_fail "InfiniBand path ($ibdev) measured"
	fi
fi

if [[ -n ${BASELINE_CAPTURE:-} ]]; then
	# Capture mode: record the IB path (or the given device's path) and stop.
	if [[ -z $IB ]]; then
		if measure capture "$DEV" "$GID"; then tap_pass "$DEV measured"; else tap_fail "$DEV measured"; fi
		src=capture
	else
		src=ib
	fi
	if [[ $ROLE == client ]]; then
		# shellcheck disable=SC2016 # expanded by the inner sh
		tap_ok "baseline captured to $BASELINE_CAPTURE" \
			sh -c 'python3 "$1" capture --limits "$2" "$3" >"$4"' _ "$TOOL" "$REF" "$OUT/$src.meas" "$BASELINE_CAPTURE"
	fi
	tap_done
fi

if [[ $MODE == node ]]; then
	if measure roce "$DEV" "$GID"; then tap_pass "RoCE path ($DEV) measured"; else tap_fail "RoCE path ($DEV) measured"; fi
	if [[ $ROLE == client ]]; then
		if [[ -n $IB ]]; then
			python3 "$TOOL" capture --limits "$REF" "$OUT/ib.meas" >"$OUT/ib.baseline" 2>&1 ||
				tap_diag "$(cat "$OUT/ib.baseline")"
			compare roce-vs-ib "$OUT/ib.baseline" "$OUT/roce.meas"
			tap_eq "RoCE vs InfiniBand measured in the same run, limits of $REF" 0 $?
		fi
		if [[ -n ${BASELINE_FILE:-} || -z $IB ]]; then
			compare roce-vs-file "$REF" "$OUT/roce.meas"
			tap_eq "RoCE vs the baseline file $REF" 0 $?
		fi
	fi
	tap_done
fi

# ----------------------------------------------------------------- the lab

if [[ -n $REF ]]; then
	if ((LAB_HOST == 2)); then
		measure roce rxe0 "$GID" && compare roce-vs-file "$REF" "$OUT/roce.meas"
		tap_eq "RoCE (rxe) vs the baseline file $REF" 0 $?
	else
		measure roce rxe0 "$GID"
		tap_eq "served the measurement against $REF" 0 $?
	fi
else
	tap_skip "RoCE vs a baseline file" "no BASELINE_FILE: the shipped references are hardware figures, and Soft-RoCE under TCG is no RoCE NIC"
fi

# The comparator's own test: a baseline captured from the unimpaired lab
# path, the same path measured again (must pass against it), then the
# path degraded with netem (must be flagged).
phase() { # [--lat] TAG DESCRIPTION
	local lat=()
	[[ $1 == --lat ]] && { lat=(--lat); shift; }
	if measure "${lat[@]}" "$1" rxe0 "$GID"; then tap_pass "$2"; else tap_fail "$2"; fi
}
phase capture "capture: the unimpaired lab path measured"
if ((LAB_HOST == 2)); then
	python3 "$TOOL" capture --limits "$here/lab-limits.baseline" "$OUT/capture.meas" \
		>"$OUT/captured.baseline" 2>"$OUT/captured.err"
	tap_eq "baseline captured (limits from lab-limits.baseline)" 0 $?
	sed 's/^/#   /' "$OUT/captured.err"
fi
lab_barrier captured 300 || tap_bail "peer did not get past the capture"

phase again "the unimpaired lab path measured again"
if ((LAB_HOST == 2)); then
	compare again "$OUT/captured.baseline" "$OUT/again.meas"
	tap_eq "unimpaired path within the captured baseline's limits" 0 $?
	tap_ok "netem delay $DELAY on host2's egress" tc qdisc replace dev eth0 root netem delay "$DELAY"
fi
lab_barrier degraded 300 || tap_bail "peer did not get to the degraded phase"

# Latency only: the checks below are the minimum latencies, and
# ib_write_bw under the delay on a loaded host is where a run stalled
# until its timeout (CI of 10c8d94: degraded-bw-write-4096, exit 124,
# the whole program 809 s against 256 s in the rehearsal before).
phase --lat degraded "the degraded lab path measured, latency (netem delay $DELAY on host2)"
if ((LAB_HOST == 2)); then
	tap_ok "netem removed" tc qdisc del dev eth0 root
	compare degraded "$OUT/captured.baseline" "$OUT/degraded.meas"
	tap_eq "the comparison flags the degraded path (comparator exit 1)" 1 $?
	# Every size's floor must be flagged; the other figures are reported.
	nmin=$(grep -c '^[A-Z]* lat\.[a-z]*\.[0-9]*\.min ' "$OUT/degraded.cmp")
	nfail=$(grep -c '^FAIL lat\.[a-z]*\.[0-9]*\.min ' "$OUT/degraded.cmp")
	tap_eq "every minimum-latency check failed ($nfail of $nmin)" "1 $nmin" "$((nmin > 0)) $nfail"
fi
lab_barrier finished 300 || tap_diag "peer did not finish"
rdma link delete rxe0
tap_ok "kernel log clean" kernel_log_clean
tap_done
