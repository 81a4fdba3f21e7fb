#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/lab/console.sh, which lab-run reads guest consoles with, on
# sample consoles: kernel_splat finds the first kernel splat and nic_stall
# the first virtio transmit-watchdog line (a lab fault) unless a splat came
# first. The samples are shaped like real consoles: 6.1's watchdog line
# (from a stalled run of dcqcn/datapath-guard.sh), 5.10's, serial CRLF
# line ends, and test output that quotes the same words without printk's
# timestamp. Under a second.

# shellcheck disable=SC2317 # the t_* checks run through tap_ok
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib/tap.sh"
. "$TOP/selftests/lab/console.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/rocetune-console.XXXXXX")
trap 'rm -rf "$T"' EXIT

W61='virtio_net virtio2 eth0: NETDEV WATCHDOG: CPU: 0: transmit queue 0 timed out 5148 ms'
cat >"$T/v61" <<EOF
[   65.741038] rdma_rxe: Failed sending ACK
ok 3 - forged CE counted
[   68.789663] $W61
[   68.790257] virtio_net virtio2 eth0: TX timeout on queue: 0, sq: output.0, vq: 0x1, name: output.0, 5148000 usecs ago
[   73.909518] virtio_net virtio2 eth0: NETDEV WATCHDOG: CPU: 0: transmit queue 0 timed out 10268 ms
[  119.739053] Kernel panic - not syncing: kernel: panic_on_warn set ...
EOF
cat >"$T/v510" <<'EOF'
[   40.100000] ------------[ cut here ]------------
[   40.100100] NETDEV WATCHDOG: eth1 (virtio_net): transmit queue 0 timed out
[   40.100200] WARNING: CPU: 0 PID: 0 at net/sched/sch_generic.c:477 dev_watchdog+0x21f/0x230
EOF
cat >"$T/splat-first" <<EOF
[   30.000000] BUG: unable to handle page fault for address: 0000000000000008
[   68.789663] $W61
EOF
cat >"$T/e1000" <<'EOF'
[   68.789663] e1000 0000:00:03.0 eth0: NETDEV WATCHDOG: CPU: 0: transmit queue 0 timed out 5148 ms
EOF
cat >"$T/quoted" <<EOF
# $W61
# WARNING: CPU: 0 (test output)
ok 1 - $W61
EOF
printf '[    1.000000] Linux version 6.1.0-57-amd64\r\n[   68.789663] %s\r\nok 1\r\n' "$W61" >"$T/crlf"
printf '[    1.000000] Linux version 6.1.0-57-amd64\nok 1 - quiet run\n' >"$T/clean"

tap_plan 10
tap_eq "6.1: the first watchdog line is the stall" "[   68.789663] $W61" "$(nic_stall "$T/v61")"
tap_eq "6.1: the panic that followed is the splat" \
	"[  119.739053] Kernel panic - not syncing: kernel: panic_on_warn set ..." "$(kernel_splat "$T/v61")"
tap_eq "5.10: the watchdog line inside its warning is the stall" \
	"[   40.100100] NETDEV WATCHDOG: eth1 (virtio_net): transmit queue 0 timed out" "$(nic_stall "$T/v510")"
t_splat_first() { ! nic_stall "$T/splat-first" >/dev/null && kernel_splat "$T/splat-first" >/dev/null; }
tap_ok "a splat before the watchdog: no lab fault, a splat" t_splat_first
t_e1000() { ! nic_stall "$T/e1000" >/dev/null; }
tap_ok "a watchdog on a NIC that is not virtio is no lab fault" t_e1000
t_quoted() { ! nic_stall "$T/quoted" >/dev/null && ! kernel_splat "$T/quoted" >/dev/null; }
tap_ok "test output quoting the lines, without printk's time, counts for nothing" t_quoted
tap_eq "serial CRLF line ends: the line is found, without its CR" "[   68.789663] $W61" "$(nic_stall "$T/crlf")"
t_clean() { ! nic_stall "$T/clean" >/dev/null && ! kernel_splat "$T/clean" >/dev/null; }
tap_ok "a clean console: neither" t_clean
t_missing() { ! nic_stall "$T/none" >/dev/null && ! kernel_splat "$T/none" >/dev/null; }
tap_ok "a missing console: neither, and no error" t_missing
t_missing_quiet() { [ -z "$(nic_stall "$T/none" 2>&1; kernel_splat "$T/none" 2>&1)" ]; }
tap_ok "a missing console prints nothing" t_missing_quiet
tap_done
