#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lab fails a run on a kernel splat, whatever the test script said:
# one boot of two guests, both scripts exit 0.
# - host1 checks that its kernel runs with panic_on_warn and panic_on_oops
#   (a WARN ends the guest, which then never writes its status), and
#   prints splat-like words as test output, which must not count: only
#   kernel lines do;
# - host2 logs a "BUG:" line through /dev/kmsg, as the kernel would, and
#   exits 0: lab-run must report host2 failed, naming the line, and exit 1.
# Then a second boot, for the lab fault (selftests/lab/console.sh):
# host1 logs a virtio transmit-watchdog line as the kernel would and fails,
# host2 passes; lab-run must exit 3 and name host1's line in OUT/lab-fault,
# and still report each host's own verdict.
#
# Boots the QEMU lab: run it under the lab lock, like every lab suite.
#
# cores: 2
# (for selftests/run_tests.sh: two guests)

# shellcheck disable=SC2317 # the t_* checks run through tap_ok
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib/tap.sh"

LAB=$TOP/selftests/lab/lab-run
[ -x "$LAB" ] || tap_skip_all "lab harness not available"
command -v qemu-system-x86_64 >/dev/null || tap_skip_all "qemu-system-x86_64 not installed"

T=$(mktemp -d "${TMPDIR:-/tmp}/rocetune-lab-strict.XXXXXX")
trap 'rm -rf "$T"' EXIT

# boot NAME: run $T/NAME.sh on two guests, output in $T/NAME; lab-run's
# messages go to $T/NAME.out and, as diagnostics, to stdout. Returns
# lab-run's exit status.
boot() {
	local rc
	chmod +x "$T/$1.sh"
	"$LAB" --hosts 2 --timeout 300 --out "$T/$1" --script all="$T/$1.sh" >"$T/$1.out" 2>&1
	rc=$?
	sed 's/^/#   /' "$T/$1.out"
	return "$rc"
}

cat >"$T/run.sh" <<'EOF'
#!/bin/bash
echo "TAP version 13"
echo "1..2"
if [[ $LAB_HOST == 1 ]]; then
	w=$(cat /proc/sys/kernel/panic_on_warn) o=$(cat /proc/sys/kernel/panic_on_oops)
	echo "# panic_on_warn=$w panic_on_oops=$o"
	[[ $w == 1 ]] && echo "ok 1 panic_on_warn" || echo "not ok 1 panic_on_warn"
	[[ $o == 1 ]] && echo "ok 2 panic_on_oops" || echo "not ok 2 panic_on_oops"
	# Test output that names splats is not a splat.
	echo "# BUG: WARNING: CPU: 0 Oops: Kernel panic (test output, not the kernel's)"
	exit 0
fi
echo "<3>BUG: lab-strict self-test splat" >/dev/kmsg && echo "ok 1 wrote to kmsg" ||
	echo "not ok 1 wrote to kmsg"
sleep 1
echo "ok 2 exits 0"
exit 0
EOF
boot run
rc=$?
labout=$(<"$T/run.out")

cat >"$T/stall.sh" <<'EOF'
#!/bin/bash
echo "TAP version 13"
echo "1..1"
if [[ $LAB_HOST == 1 ]]; then
	echo "<2>virtio_net virtio2 eth0: NETDEV WATCHDOG: CPU: 0: transmit queue 0 timed out 5000 ms (lab-strict)" >/dev/kmsg
	echo "not ok 1 the link carried nothing"
	exit 1
fi
echo "ok 1 host2 passes"
exit 0
EOF
boot stall
stallrc=$?
stallout=$(<"$T/stall.out")

tap_plan 8
tap_eq "lab-run exits 1 when a guest's kernel logged a splat" 1 "$rc"
t_host1_pass() { grep -q '^lab-run: host1: PASS rc=0' <<<"$labout"; }
tap_ok "host1 (panic_on_warn, panic_on_oops, splat words in test output only) passes" t_host1_pass
t_host2_fail() { grep -E '^lab-run: host2: FAIL rc=1 .*kernel logged: .*BUG: lab-strict self-test splat' <<<"$labout"; }
tap_ok "host2 (exit 0, but a BUG: line in its kernel log) fails, naming the line" t_host2_fail
tap_eq "host2's status file says failed" 1 "$(cat "$T/run/share/host2/rc" 2>/dev/null)"
t_console_kept() { [ -s "$T/run/host2.console" ]; }
tap_ok "host2's console log is kept" t_console_kept
tap_eq "lab-run exits 3 (lab fault) when a failing run's guest logged a virtio watchdog" 3 "$stallrc"
t_fault_named() {
	grep -q '^host1: \[ *[0-9.]*\] virtio_net virtio2 eth0: NETDEV WATCHDOG: .*(lab-strict)' "$T/stall/lab-fault" &&
		! grep -q '^host2' "$T/stall/lab-fault"
}
tap_ok "OUT/lab-fault names host1's watchdog line, and only it" t_fault_named
t_verdicts_stand() {
	grep -q '^lab-run: host1: FAIL rc=1 ' <<<"$stallout" && grep -q '^lab-run: host2: PASS rc=0' <<<"$stallout"
}
tap_ok "each host's own verdict is still reported" t_verdicts_stand
tap_done
