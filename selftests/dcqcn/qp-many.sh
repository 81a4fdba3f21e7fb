#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# qp_stats bulk read with thousands of real QPs: two lab guests with
# rocetune loaded, ib_write_bw -q $QP_MANY (default 2000) between them.
# While the traffic runs, each host reads ports/1/qp_stats once with cat
# and checks that the read is complete (header, one well-formed line per
# tracked QP, larger than one page) and that every RC QP rxe has
# (rdma res show qp) appears exactly once.
#
# Run on the host:   selftests/dcqcn/qp-many.sh [lab-run options]
# Environment: QP_MANY (number of QPs, default 2000).

# shellcheck disable=SC2154 # LAB_* come from /run/lab/env
set -uo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
# On the host, from a source tree: start the lab. An installed tree has
# no lab; there the suite skips below.
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 2 --timeout 600 --mem 1024 \
		--env QP_MANY="${QP_MANY:-2000}" "$@" --script "1,2=$here/qp-many.sh"
fi

. "$here/../lib/lab-guest.sh"
. "$here/../kmod/lib.sh"
lab_hosts 2 || tap_skip_all "$LAB_WHY: 2000 QPs between two guests"
P=$RT/rxe0/ports/1
N=${QP_MANY:-2000}
PORT=18515

tap_header
rtune_require
command -v ib_write_bw >/dev/null || tap_skip_all "perftest not installed"
modprobe sch_fq
lab_rxe_up || tap_bail "rxe0 on eth0 and the peer reachable"
gid=$LAB_GID
rtune_load || tap_bail "insmod rocetune.ko"
wait_for test -d "$P" || tap_bail "no $P"
tap_pass "rocetune loaded"
((LAB_HOST == 2)) && { lab_fq eth0 || tap_bail "fq"; }
lab_barrier up 120 || tap_bail "peer not up"

# -t 4: perftest sizes its CQ as tx depth x QPs; rxe allows 32767 CQEs.
# The traffic runs in the background (lab_perf_start) until both hosts
# have read and stop it; a client creates its N QPs before it connects
# (--connect). -D is only a backstop: at -D 60 a slow guest (6.12 on a
# loaded machine, 104 s to see every QP live) had its client's QPs end
# between the qp_stats read and the qp_watch one.
t0=$SECONDS
lab_perf_start --port "$PORT" --timeout 400 --connect 300 --grace 0 perf -- \
	ib_write_bw -d rxe0 -x "$gid" -s 64 -t 4 -q "$N" -D 200 -u 18 ||
	tap_diag "perftest did not start (see perf.log)"

# Wait until rxe has all N RC QPs and rocetune has seen them all live.
rc_qpns() { rdma res show qp link rxe0/1 2>/dev/null | awk '{for (i=1;i<NF;i++) if ($i=="lqpn") q=$(i+1); if (/type RC/) print q}' | sort; }
live() { awk 'NR>1 && $3=="live"' "$P/qp_stats" | wc -l; }
all_live() { (( $(rc_qpns | wc -l) >= N && $(live) >= N )); }
for _ in $(seq 900); do
	all_live && break
	lab_perf_alive perf || break
	sleep 0.2
done
tap_diag "after $((SECONDS - t0)) s: rxe RC QPs $(rc_qpns | wc -l), rocetune live $(live), dp: $(tr '\n' ' ' <"$P/dp_counters")"
tap_ok "$N RC QPs exist and rocetune tracks them live" all_live

# One read with cat, while the traffic runs; restrack listed before and after.
rc_qpns >"$LAB_HOST_DIR/rc.before"
cat "$P/qp_stats" >"$LAB_HOST_DIR/qp_stats"
rc_qpns >"$LAB_HOST_DIR/rc.after"
comm -12 "$LAB_HOST_DIR/rc.before" "$LAB_HOST_DIR/rc.after" >"$LAB_HOST_DIR/rc.both"
size=$(stat -c %s "$LAB_HOST_DIR/qp_stats")
lines=$(wc -l <"$LAB_HOST_DIR/qp_stats")
tap_diag "qp_stats: $size bytes, $lines lines; RC QPs present throughout: $(wc -l <"$LAB_HOST_DIR/rc.both")"
tap_eq "qp_stats is more than one page" 1 "$((size > 4096))"
tap_eq "qp_stats starts with its header" "qpn" "$(head -1 "$LAB_HOST_DIR/qp_stats" | awk '{print $1}')"
tap_eq "qp_stats ends with a complete line" 1 "$( [[ $(tail -c1 "$LAB_HOST_DIR/qp_stats" | od -An -c | tr -d ' ') == '\n' ]] && echo 1 || echo 0)"
tap_eq "qp_stats has no NUL bytes" 0 "$(tr -cd '\000' <"$LAB_HOST_DIR/qp_stats" | wc -c)"
bad=$(awk 'NR>1 && (NF != 17 || $1 !~ /^[0-9]+$/)' "$LAB_HOST_DIR/qp_stats" | wc -l)
tap_eq "every qp_stats line has 17 fields" 0 "$bad"
dups=$(awk 'NR>1 {print $1}' "$LAB_HOST_DIR/qp_stats" | sort -n | uniq -d | wc -l)
tap_eq "no QP appears twice" 0 "$dups"
awk 'NR>1 {print $1}' "$LAB_HOST_DIR/qp_stats" | sort >"$LAB_HOST_DIR/qp_stats.qpns"
missing=$(comm -23 "$LAB_HOST_DIR/rc.both" "$LAB_HOST_DIR/qp_stats.qpns" | wc -l)
tap_eq "every RC QP rxe has is in qp_stats ($(wc -l <"$LAB_HOST_DIR/rc.both") QPs)" 0 "$missing"
tap_eq "at least $N QPs read" 1 "$(( $(wc -l <"$LAB_HOST_DIR/qp_stats.qpns") >= N ))"
# The same QP through qp_watch agrees (state live).
q=$(tail -1 "$LAB_HOST_DIR/rc.both")
printf '%s' "$q" >"$P/qp_watch"
tap_eq "qp_watch of the last QP ($q) says live" live "$(awk '$1=="state" {print $2}' "$P/qp_watch")"

lab_barrier read-done 300 || tap_diag "peer did not finish reading"
lab_perf_stop perf
rdma link delete rxe0
tap_ok "objects back to zero after device deletion" rtune_objects_zero
tap_ok "rmmod rocetune" rtune_unload
tap_ok "kernel log clean" kernel_log_clean
tap_done
