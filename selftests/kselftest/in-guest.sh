#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The in-guest half of selftests/host/kselftest.sh, which starts it in a
# one-host lab guest as
#     in-guest.sh TARBALL ROCETUNE.ko ROCETUNE-TOOL
# The guest (two NICs, no peers) is made a node: rocetune.ko from the
# build goes where DKMS puts a module (/lib/modules/RELEASE/updates/), so
# that modprobe finds it; the tool goes to /usr/local/sbin; the tarball
# of `make -C selftests gen_tar` is unpacked in /opt; rxe0 on eth1 is the
# node's RoCE device (the suites add theirs on eth0, the first netdev). Then DIR/run_kselftest.sh runs as a node's
# CI starts it: as root, with a clean environment, and in a mount
# namespace where neither the source tree nor the lab's share and
# environment (/run/lab) can be seen. Its TAP is checked: the plan covers
# the list less kmod:params.sh (left out with -S), the suites that apply to a node (kmod) pass with their own
# plans complete, kmod:devices.sh checked the node's device, every other one is a SKIP with its reason
# (baseline:ib-vs-roce.sh's: no BASELINE_PEER given; kmod:init-fail.sh
# passes when the module is a test build, else skips saying it is not),
# the totals and the exit status agree.

set -u
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
top=$(cd "$here/../.." && pwd)
. "$here/../lib/tap.sh"

[ -n "${LAB_HOST:-}" ] || tap_skip_all "runs in a lab guest (selftests/host/kselftest.sh starts it)"
[ $# -eq 3 ] || tap_bail "usage: $0 TARBALL ROCETUNE.ko ROCETUNE-TOOL"
TARBALL=$1 KO=$2 TOOL=$3
K=$(uname -r)
DIR=/opt/rocetune-kselftest
OUT=$LAB_HOST_DIR/run_kselftest.out

# What a node with rocetune.ko installed must pass; the other
# suites need the lab's two hosts or its test device. LAB_ONLY skip with
# a reason that names the lab, DCBSIM_ONLY one that names the device.
MUST_PASS="kmod:lifecycle.sh kmod:churn.sh kmod:devices.sh kmod:privilege.sh kmod:counters-rate.sh"
# Left out with the runner's -S, as an operator leaves out what they do
# not want: params.sh is the longest node suite (about 90 s of this
# guest's 228) and runs in the lab on every make check anyway.
LEFT_OUT="kmod:params.sh"
LAB_ONLY="kmod:counters.sh dcbsim:stacked.sh dcqcn:ecn-bottleneck.sh
	dcqcn:qp-many.sh dcqcn:rmmod-traffic.sh dcqcn:idle-pacing.sh dcqcn:first-window.sh
	dcqcn:datapath-guard.sh dcqcn:gro-fraglist.sh dcqcn:commit-race.sh dcqcn:qp-table.sh dcqcn:storm.sh dcqcn:teardown.sh lab:smoke-1host.sh lab:smoke-2host.sh rocetune:verify.sh
	rocetune:verify_probe.sh rocetune:qp-counters.sh"
DCBSIM_ONLY="dcbsim:lifecycle.sh dcbsim:dcb.sh dcbsim:fault.sh dcbsim:counters.sh dcbsim:devlink.sh
	rocetune:apply.sh rocetune:apply-kill.sh rocetune:watch.sh rocetune:stats.sh rocetune:doctor.sh"
HWSIM_ONLY="hwsim:mlx5.sh hwsim:bnxt_re.sh hwsim:mlx5_ofed.sh hwsim:irdma.sh hwsim:bnxt_re_oot.sh
	hwsim:mstconfig.sh hwsim:ionic.sh"
# Needs a peer node (or the lab's two guests); skips naming BASELINE_PEER.
PEER_ONLY="baseline:ib-vs-roce.sh"
# Need the test build's fault knobs (make SANITIZE=1, as make check builds):
# they must pass when the installed module is one, else skip saying it is
# not a test build. Neither way is a skip counted as a pass.
TEST_BUILD="kmod:init-fail.sh kmod:counters-page.sh kmod:no-backend.sh"
if modinfo -p "$KO" 2>/dev/null | grep -q '^fail_init_ms:'; then
	KO_KIND="a test build"
	MUST_PASS="$MUST_PASS $TEST_BUILD"
	TEST_BUILD_ONLY=
else
	KO_KIND="not a test build"
	TEST_BUILD_ONLY=$TEST_BUILD
fi

tap_plan 17

t_node() {
	install -D -m 644 "$KO" "/lib/modules/$K/updates/rocetune.ko" &&
	depmod -a "$K" &&
	install -D -m 755 "$TOOL" /usr/local/sbin/rocetune &&
	mkdir -p "$DIR" && tar -xzf "$TARBALL" -C "$DIR" &&
	modprobe rdma_rxe && rdma link add rxe0 type rxe netdev eth1
}
tap_ok "node set up: rocetune.ko in updates/, tool, tarball, rxe0 on eth1" t_node
tap_eq "modprobe finds the installed rocetune.ko" \
	"/lib/modules/$K/updates/rocetune.ko" "$(modinfo -n rocetune 2>&1)"

# The node's view: no source tree, no lab. The tree is the parent of
# this script's directory; /run/lab holds the lab's env file and share.
t0=$(date +%s)
# shellcheck disable=SC2016 # expanded by the inner sh
# shellcheck disable=SC2046 # -S ENTRY, a pair per entry
unshare -m --propagation private sh -c '
	mount -t tmpfs none "$1" && mount -t tmpfs none /run/lab || exit 99
	dir=$2
	shift 2
	cd / && exec env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		HOME=/root LANG=C.UTF-8 "$dir/run_kselftest.sh" "$@"' _ "$top" "$DIR" \
	$(printf -- '-S %s ' $LEFT_OUT) >"$OUT" 2>&1
rc=$?
tap_diag "run_kselftest.sh: exit $rc after $(($(date +%s) - t0)) s; its output:"
sed 's/^/#   /' "$OUT"

# The list less what -S left out.
mapfile -t LIST < <(grep -vxF -f <(tr ' ' '\n' <<<"$LEFT_OUT") "$DIR/kselftest-list.txt")
N=${#LIST[@]}
tap_eq "exit status 0 (nothing failed)" 0 "$rc"
tap_eq "TAP version 13, then the plan 1..$N (the list)" \
	"TAP version 13|1..$N" "$(head -n 2 "$OUT" | paste -sd '|')"

# result LINE: "ok"/"not ok" lines at the top level, in order.
results() { grep -E '^(not )?ok [0-9]+ ' "$OUT"; }
t_one_per_entry() {
	local i=0 line e
	mapfile -t R < <(results)
	[ "${#R[@]}" -eq "$N" ] || { echo "${#R[@]} results for $N entries"; return 1; }
	for e in "${LIST[@]}"; do
		line=${R[i]}
		i=$((i + 1))
		[[ $line =~ ^(not\ )?ok\ $i\ selftests:\ ${e%%:*}:\ ${e#*:}( |$) ]] ||
			{ echo "result $i is '$line', expected $e"; return 1; }
	done
}
tap_ok "one result per list entry, numbered 1..$N in list order" t_one_per_entry

# nested ENTRY: the output a program printed, without the "# " nesting.
nested() {
	awk -v h="# selftests: ${1%%:*}: ${1#*:}" '
		$0 == h { on = 1; next }
		on && /^(not )?ok [0-9]+ selftests: / { exit }
		on { sub(/^# /, ""); print }' "$OUT"
}

# A suite that applies passed, and its own TAP is complete: a plan of M,
# M test points, none failed.
t_passed() {
	local e m n bad
	for e in $MUST_PASS; do
		results | grep -Eq "^ok [0-9]+ selftests: ${e%%:*}: ${e#*:}$" ||
			{ echo "$e: $(results | grep " ${e%%:*}: ${e#*:}")"; return 1; }
		m=$(nested "$e" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p' | head -n 1)
		n=$(nested "$e" | grep -cE '^(not )?ok [0-9]+')
		bad=$(nested "$e" | grep -cE '^not ok [0-9]+')
		[ -n "$m" ] && [ "$m" -gt 0 ] && [ "$n" -eq "$m" ] && [ "$bad" -eq 0 ] ||
			{ echo "$e: plan '${m:-none}', $n test points, $bad failed"; return 1; }
	done
}
tap_ok "the suites for a node passed, plans complete: $MUST_PASS" t_passed
t_left_out() {
	local e
	for e in $LEFT_OUT; do
		grep -qx "$e" "$DIR/kselftest-list.txt" || { echo "$e is not in the list"; return 1; }
		! grep -q " selftests: ${e%%:*}: ${e#*:}" "$OUT" || { echo "$e ran"; return 1; }
	done
}
tap_ok "-S left out $LEFT_OUT: listed, and not run" t_left_out

# skipped PATTERN ENTRY...: each is "ok N ... # SKIP REASON", REASON
# matching PATTERN, and the program's own plan was "1..0 # SKIP".
skipped() {
	local pat=$1 e line
	shift
	for e in "$@"; do
		line=$(results | grep -E " selftests: ${e%%:*}: ${e#*:}( |$)")
		[[ $line =~ ^ok\ [0-9]+\ selftests:\ [^#]*\ \#\ SKIP\ (.+)$ ]] ||
			{ echo "$e: '$line' is not a SKIP with a reason"; return 1; }
		[[ ${BASH_REMATCH[1]} =~ $pat ]] ||
			{ echo "$e: reason '${BASH_REMATCH[1]}' does not match '$pat'"; return 1; }
		nested "$e" | grep -q '^1\.\.0 # SKIP ' ||
			{ echo "$e: no '1..0 # SKIP' plan"; return 1; }
	done
}
# shellcheck disable=SC2086 # lists of entries
tap_ok "lab-only suites skip, saying they need the lab" skipped 'QEMU lab' $LAB_ONLY
# shellcheck disable=SC2086
tap_ok "dcbsim suites skip, saying they need the test device" skipped rocetune_dcbsim $DCBSIM_ONLY
# shellcheck disable=SC2086
tap_ok "hwsim suites skip, saying they need the test module" skipped rocetune_hwsim $HWSIM_ONLY
# shellcheck disable=SC2086
tap_ok "peer suites skip, saying they need BASELINE_PEER" skipped BASELINE_PEER $PEER_ONLY
if [ -n "$TEST_BUILD_ONLY" ]; then
	# shellcheck disable=SC2086
	tap_ok "test-build suites skip, saying the module is not a test build" \
		skipped 'not a test build' $TEST_BUILD_ONLY
else
	tap_skip "test-build suites skip on a module that is not one" \
		"$KO is $KO_KIND: $TEST_BUILD must pass (above)"
fi

t_node_device() {
	nested kmod:devices.sh | grep -Eq '^ok [0-9]+ rxe0/1: rocetune show' &&
	! nested kmod:devices.sh | grep -q 'stands in'
}
tap_ok "kmod:devices.sh checked the node's own device, rxe0" t_node_device

t_all_known() {
	local e
	while read -r e; do
		[[ " $MUST_PASS $LEFT_OUT $LAB_ONLY $DCBSIM_ONLY $HWSIM_ONLY $PEER_ONLY $TEST_BUILD " == *[[:space:]]"${e}"[[:space:]]* ]] ||
			{ echo "$e: new suite, add it to this test's lists"; return 1; }
	done <"$DIR/kselftest-list.txt"
}
tap_ok "every listed suite is one this test expects" t_all_known

npass=$(wc -w <<<"$MUST_PASS")
tap_eq "totals: $npass passed, none failed, $((N - npass)) skipped" \
	"# Totals: pass:$npass fail:0 xfail:0 xpass:0 skip:$((N - npass)) error:0" \
	"$(grep '^# Totals:' "$OUT")"
t_no_tree() {
	! grep -F "$top" "$OUT"
}
tap_ok "nothing in the output names the source tree ($top)" t_no_tree
t_log() {
	dmesg | grep -q 'kselftest: Running tests in kmod' &&
	dmesg | grep -q 'rocetune selftest: lifecycle.sh'
}
tap_ok "the kernel log marks the collections and suites" t_log
tap_done
