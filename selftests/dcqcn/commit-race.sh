#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A commit racing a QP entry's creation (issue 9, finding 11, cc74cd1;
# Documentation/datapath.rst, "Parameters"): the entry must end up on the
# new parameters. Two lab guests with two vCPUs each (lab-run --smp 2: on
# one vCPU the commit can never run inside the softirq's window); needs a
# test build (make SANITIZE=1), whose debugfs create_delay_ms
# (kmod/fault.c) makes rtune_qp_create() busy-wait between reading the
# parameters and inserting the entry. host1 commits rp_max_rate_kbps=40000,
# stages 20000, sets create_delay_ms and steers its interrupts (so the
# softirq that creates the entry) to CPU 0; a watcher on CPU 1 commits as
# soon as create_delaying says a creation is in the window. ib_write_bw
# -q 1 from host2 then makes host1 create its QP's entry. After the
# window, the entry's rate_kbps and target_kbps must be 20000; without
# the re-read of cc74cd1 they stay 40000.
#
# Run on the host:   selftests/dcqcn/commit-race.sh [lab-run options]

# shellcheck disable=SC2154 # LAB_* come from /run/lab/env
set -uo pipefail

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
if [[ -z ${LAB_HOST:-} && -x $here/../lab/lab-run ]]; then
	exec "$here/../lab/lab-run" --hosts 2 --smp 2 --timeout 240 "$@" \
		--script "1,2=$here/commit-race.sh"
fi

. "$here/../lib/lab-guest.sh"
. "$here/../kmod/lib.sh"
. "$here/qp-lib.sh"
lab_hosts 2 || tap_skip_all "$LAB_WHY: a QP between two guests"
P=$RT/rxe0/ports/1
PORT=18541
DBG=/sys/kernel/debug/rocetune
OLD=40000
NEW=20000
DELAY_MS=200	# create_delay_ms's cap

tap_header
rtune_require
KO=${RTUNE_KO:-rocetune}
modinfo -p "$KO" | grep -q '^fail_init_ms:' ||
	tap_skip_all "$KO is not a test build (make SANITIZE=1): no create_delay_ms"
(($(nproc) >= 2)) ||
	tap_skip_all "one vCPU: the commit cannot run inside the creation's window (lab-run --smp 2)"
command -v ib_write_bw >/dev/null || tap_skip_all "perftest not installed"
command -v taskset >/dev/null || tap_skip_all "taskset not installed"
lab_rxe_up || tap_bail "rxe0 on eth0 and the peer reachable"
gid=$LAB_GID
tap_ok "insmod rocetune.ko" rtune_load
wait_for test -d "$P" || tap_bail "no configfs tree"

commit() { printf 1 >"$P/cc/commit"; }

if ((LAB_HOST == 1)); then
	mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
	[[ -w $DBG/create_delay_ms ]] || tap_bail "no $DBG/create_delay_ms in a test build"
	{ printf %s "$OLD" >"$P/cc/staged/rp_max_rate_kbps" && commit; } ||
		tap_bail "commit rp_max_rate_kbps=$OLD: $(cat "$P/cc/last_error")"
	printf %s "$NEW" >"$P/cc/staged/rp_max_rate_kbps" ||
		tap_bail "stage rp_max_rate_kbps=$NEW"
	# Every interrupt (eth0's receive softirq) on CPU 0; the watcher on
	# CPU 1, so a creation busy-waiting on CPU 0 does not hold it up.
	for f in /proc/irq/*/smp_affinity; do
		echo 1 >"$f"
	done 2>/dev/null
	echo "$DELAY_MS" >"$DBG/create_delay_ms" || tap_bail "create_delay_ms"
	tap_eq "no entry before the traffic" "" "$(tail -n +2 "$P/qp_stats")"
	# The watcher: builtins only (no fork) between seeing the creation
	# in the window and the commit.
	# shellcheck disable=SC2016
	taskset -c 1 bash -c '
		n=0
		while ((SECONDS < 120)); do
			read -r n <"$1"
			((n > 0)) && break
		done
		((n > 0)) || { echo "never"; exit 1; }
		printf 1 >"$2" || { echo "commit failed"; exit 1; }
		read -r d <"$3"
		echo "committed with $n creation(s) in the window, $d done after the commit"
	' watcher "$DBG/create_delaying" "$P/cc/commit" "$DBG/create_delays" \
		>"$LAB_HOST_DIR/watcher.log" 2>&1 &
	watcher=$!
fi
lab_barrier up 120 || tap_bail "peer not up"

lab_perf_start --port "$PORT" --timeout 60 --grace 0 \
	perf -- ib_write_bw -d rxe0 -x "$gid" -s 4096 -q 1 -D 8 -F -u 18 ||
	tap_fail "ib_write_bw started"

if ((LAB_HOST == 1)); then
	wait "$watcher"
	wrc=$?
	tap_diag "watcher: $(cat "$LAB_HOST_DIR/watcher.log")"
	tap_eq "a commit was made while a creation was in the window" 0 "$wrc"
	# Out of the window, inserted, and (with the fix) re-fitted.
	for _ in $(seq 100); do
		read -r n <"$DBG/create_delaying"
		((n == 0)) && [[ -n $(col qpn) ]] && break
		sleep 0.1
	done
	sleep 0.5
	echo 0 >"$DBG/create_delay_ms"
	# One read: the QP may end (and its entry go) while we look.
	after=$LAB_HOST_DIR/qp_stats.after
	cat "$P/qp_stats" >"$after"
	tap_diag "create_delays $(cat "$DBG/create_delays"); qp_stats:"
	while read -r l; do tap_diag "  $l"; done <"$after"
	tap_eq "the commit took (cc/active rp_max_rate_kbps)" "$NEW" \
		"$(cat "$P/cc/active/rp_max_rate_kbps")"
	tap_eq "the entry created in the window has the new rate" "$NEW" "$(QP_STATS=$after col rate_kbps)"
	tap_eq "... and the new target rate" "$NEW" "$(QP_STATS=$after col target_kbps)"
fi
lab_perf_wait perf
tap_diag "ib_write_bw: verdict $? (not asserted)"

tap_ok "rmmod rocetune" rtune_unload
tap_ok "kernel log clean" kernel_log_clean
tap_done
