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

cat >"$T/guest.sh" <<'EOF'
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
chmod +x "$T/guest.sh"

labout=$("$LAB" --hosts 2 --timeout 300 --out "$T/run" --script all="$T/guest.sh" 2>&1)
rc=$?
printf '%s\n' "$labout" | sed 's/^/#   /'

tap_plan 5
tap_eq "lab-run exits 1 when a guest's kernel logged a splat" 1 "$rc"
t_host1_pass() { grep -q '^lab-run: host1: PASS rc=0' <<<"$labout"; }
tap_ok "host1 (panic_on_warn, panic_on_oops, splat words in test output only) passes" t_host1_pass
t_host2_fail() { grep -E '^lab-run: host2: FAIL rc=1 .*kernel logged: .*BUG: lab-strict self-test splat' <<<"$labout"; }
tap_ok "host2 (exit 0, but a BUG: line in its kernel log) fails, naming the line" t_host2_fail
tap_eq "host2's status file says failed" 1 "$(cat "$T/run/share/host2/rc" 2>/dev/null)"
t_console_kept() { [ -s "$T/run/host2.console" ]; }
tap_ok "host2's console log is kept" t_console_kept
tap_done
