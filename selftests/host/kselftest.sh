#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kselftest install (Documentation/testing.rst, "Running the suites on
# a node"): `make -C selftests install INSTALL_PATH=DIR` lays out
# run_kselftest.sh, kselftest/runner.sh, kselftest-list.txt (exactly the
# suites the lab-suites files register), the helpers and one directory per
# collection with its settings; the runner's semantics on stand-in
# programs (pass, fail, skip with a reason, timeout from settings, -l, -t,
# -c, -S, -s, -o, -f, exit statuses); the installed tree run here, where
# no module can load and no lab runs (every suite skips, with a reason,
# and nothing starts QEMU); gen_tar's tarball. Then, in a lab guest made a
# node (selftests/kselftest/in-guest.sh): the tarball's run_kselftest.sh,
# with rocetune.ko from the build installed for modprobe (-S leaves out
# kmod:params.sh, the longest node suite, which the lab runs anyway).

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib/tap.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/rocetune-ksft.XXXXXX")
trap 'rm -rf "$T"' EXIT
D=$T/install

tap_plan 14

t_install() {
	make -s -C "$TOP/selftests" install INSTALL_PATH="$D" >"$T/install.log" 2>&1 ||
		{ cat "$T/install.log"; return 1; }
}
tap_ok "make -C selftests install INSTALL_PATH=DIR" t_install

t_layout() {
	local f
	[ -x "$D/run_kselftest.sh" ] || { echo "run_kselftest.sh not executable"; return 1; }
	for f in kselftest/runner.sh kselftest-list.txt lib/tap.sh lib/kernel.sh \
		lib/tree.sh lib/lab-guest.sh; do
		[ -f "$D/$f" ] || { echo "missing $f"; return 1; }
	done
	cmp "$TOP/VERSION" "$D/VERSION"
}
tap_ok "layout: run_kselftest.sh, kselftest/runner.sh, the list, lib/, VERSION" t_layout

# The registration, read by run_tests.sh (an independent reader of the
# lab-suites files): "selftests/PART/PROG (lab, N host(s))".
t_list() {
	local want
	want=$(cd "$TOP" && selftests/run_tests.sh --list |
		sed -n 's|^selftests/\([^/]*\)/\([^ ]*\) (lab, .*|\1:\2|p' | awk '!seen[$0]++')
	[ -n "$want" ] || { echo "run_tests.sh lists no lab suite"; return 1; }
	diff <(echo "$want") "$D/kselftest-list.txt"
}
tap_ok "kselftest-list.txt is every lab-suites program, in run_tests.sh's order" t_list

t_progs() {
	local e c
	while IFS= read -r e; do
		[ -f "$D/${e%%:*}/${e#*:}" ] && [ -x "$D/${e%%:*}/${e#*:}" ] ||
			{ echo "$e: not installed or not executable"; return 1; }
	done <"$D/kselftest-list.txt"
	for c in $(cut -d: -f1 "$D/kselftest-list.txt" | sort -u); do
		grep -Eqx 'timeout=[1-9][0-9]*' "$D/$c/settings" ||
			{ echo "$c/settings: no timeout=SECONDS"; return 1; }
	done
}
tap_ok "every listed program installed and executable, settings with a timeout" t_progs

# A stand-in install: the real runner, collection "t" of stand-in programs.
S=$T/stub
mkdir -p "$S/kselftest" "$S/t"
cp "$D/run_kselftest.sh" "$S/" && cp "$D/kselftest/runner.sh" "$S/kselftest/"
printf '#!/bin/sh\necho "TAP version 13"; echo 1..1; echo "ok 1 fine"\n' >"$S/t/pass.sh"
printf '#!/bin/sh\necho "not ok 1 broken"\nexit 1\n' >"$S/t/fail.sh"
printf '#!/bin/sh\necho "1..0 # SKIP no widget here"\nexit 4\n' >"$S/t/skip.sh"
printf '#!/bin/sh\nsleep 30 &\nwait\n' >"$S/t/slow.sh"
chmod +x "$S"/t/*.sh
printf 't:pass.sh\nt:fail.sh\nt:skip.sh\nt:slow.sh\n' >"$S/kselftest-list.txt"
printf '# a comment\ntimeout=2\n' >"$S/t/settings"

t_runner() {
	local out rc t0 want
	t0=$SECONDS
	out=$("$S/run_kselftest.sh" 2>&1)
	rc=$?
	want='TAP version 13
1..4
ok 1 selftests: t: pass.sh
not ok 2 selftests: t: fail.sh # exit=1
ok 3 selftests: t: skip.sh # SKIP no widget here
not ok 4 selftests: t: slow.sh # TIMEOUT 2 seconds
# Totals: pass:1 fail:2 xfail:0 xpass:0 skip:1 error:0'
	diff <(echo "$want") <(awk '!/^#/ || /^# Totals:/' <<<"$out") || return 1
	grep -qx '# ok 1 fine' <<<"$out" || { echo "pass.sh's TAP not nested"; return 1; }
	[ "$rc" -eq 1 ] || { echo "exit $rc, not 1"; return 1; }
	((SECONDS - t0 < 20)) || { echo "took $((SECONDS - t0)) s: the timeout did not stop slow.sh"; return 1; }
}
tap_ok "runner: pass, fail (exit=1), SKIP with the reason, TIMEOUT from settings; exit 1" t_runner

t_select() {
	local out
	[ "$("$S/run_kselftest.sh" -l)" = "$(cat "$S/kselftest-list.txt")" ] || { echo "-l"; return 1; }
	out=$("$S/run_kselftest.sh" -t t:pass.sh -t t:skip.sh) || { echo "-t: exit $?"; return 1; }
	grep -c '^ok' <<<"$out" | grep -qx 2 && grep -qx '1..2' <<<"$out" || { echo "-t: $out"; return 1; }
	out=$("$S/run_kselftest.sh" -c t -S t:slow.sh -S t:fail.sh) || { echo "-c -S: exit $?"; return 1; }
	grep -qx '1..2' <<<"$out" || { echo "-c -S: $out"; return 1; }
	"$S/run_kselftest.sh" -t t:nosuch.sh >/dev/null 2>&1
	[ $? -eq 2 ] || { echo "-t of an unknown test: not exit 2"; return 1; }
	"$S/run_kselftest.sh" -c nosuch >/dev/null 2>&1
	[ $? -eq 2 ] || { echo "-c of an unknown collection: not exit 2"; return 1; }
	"$S/run_kselftest.sh" -f -t t:fail.sh >/dev/null || { echo "-f: not exit 0"; return 1; }
}
tap_ok "runner: -l, -t, -c, -S select; unknown names exit 2; -f exits 0" t_select

t_summary() {
	local out
	out=$("$S/run_kselftest.sh" -s -t t:pass.sh -t t:skip.sh) || return 1
	! grep -q '^# ok 1 fine' <<<"$out" || { echo "nested output on stdout with -s"; return 1; }
	grep -qx 'ok 2 selftests: t: skip.sh # SKIP no widget here' <<<"$out" || { echo "$out"; return 1; }
	grep -qx '# ok 1 fine' "$S/output.log" || { echo "output.log lacks the nested TAP"; return 1; }
}
tap_ok "runner: -s prints results only, the programs' output in output.log" t_summary

t_override() {
	printf '#!/bin/sh\nsleep 3\n' >"$S/t/pass.sh"
	"$S/run_kselftest.sh" -t t:pass.sh -o 1 | grep -qx 'not ok 1 selftests: t: pass.sh # TIMEOUT 1 seconds' &&
	"$S/run_kselftest.sh" -t t:pass.sh -o 10 | grep -qx 'ok 1 selftests: t: pass.sh'
}
tap_ok "runner: -o overrides the settings timeout" t_override

# The real install, run on this host as a node's CI would start it. The
# host cannot load modules and is no lab guest: each suite must skip with
# its reason, and none may start the lab.
t_here() {
	local out rc bad
	out=$(cd / && env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root "$D/run_kselftest.sh" 2>&1)
	rc=$?
	printf '%s\n' "$out" >"$T/here.out"
	[ "$rc" -eq 0 ] || { echo "exit $rc"; tail -20 <<<"$out"; return 1; }
	bad=$(grep -E '^(not )?ok [0-9]+ ' <<<"$out" | grep -vE '^ok [0-9]+ selftests: [^ ]+ [^ ]+ # SKIP .')
	[ -z "$bad" ] || { echo "not a SKIP with a reason: $bad"; return 1; }
	[ "$(grep -cE '^ok [0-9]+ ' <<<"$out")" -eq "$(wc -l <"$D/kselftest-list.txt")" ] ||
		{ echo "not one result per list entry"; return 1; }
	# lab-run's messages start with "lab-run:".
	! grep -E 'lab-run:|qemu-system|No such file|command not found' <<<"$out"
}
if [ -e /proc/modules ]; then
	tap_skip "installed tree on this host: every suite skips" "this host has kernel modules: suites could run here"
else
	tap_ok "installed tree on this host: every suite skips with a reason, no lab started" t_here
fi

t_tar() {
	make -s -C "$TOP/selftests" gen_tar INSTALL_PATH="$T/tar" >"$T/tar.log" 2>&1 ||
		{ cat "$T/tar.log"; return 1; }
	tar -tzf "$T/tar.tar.gz" | grep -qx './run_kselftest.sh' &&
	tar -tzf "$T/tar.tar.gz" | grep -qx './kmod/lifecycle.sh'
}
tap_ok "make -C selftests gen_tar: DIR.tar.gz holds the install" t_tar

# In a lab guest made a node (in-guest.sh says how).
KO=$TOP/kmod/rocetune.ko
TOOL=$TOP/tools/rocetune/rocetune
if [ ! -x "$TOP/selftests/lab/lab-run" ] || [ ! -f "$KO" ] || [ ! -x "$TOOL" ] ||
	[ ! -f "$T/tar.tar.gz" ]; then
	for _ in 1 2 3 4; do
		tap_skip "run_kselftest.sh in a lab guest" "lab harness, build (make) or tarball missing"
	done
	tap_done
fi
g0=$(date +%s)
"$TOP/selftests/lab/lab-run" --hosts 1 --link 1:0 --link 1:0 --timeout 900 --out "$T/lab" \
	--script 1="$TOP/selftests/kselftest/in-guest.sh" "$T/tar.tar.gz" "$KO" "$TOOL" \
	>"$T/lab.log" 2>&1
rc=$?
tap_diag "guest: $(($(date +%s) - g0)) s"
G=$T/lab/share/host1/out.tap
sed 's/^/#   /' "$G" 2>/dev/null
[ "$rc" -eq 0 ] || tail -5 "$T/lab.log" | sed "s/^/#   lab: /"
grep -q '^ok [0-9]* exit status 0' "$G" 2>/dev/null
tap_eq "in a guest: run_kselftest.sh exits 0" 0 $?
grep -q '^ok [0-9]* the suites for a node passed' "$G" 2>/dev/null
tap_eq "in a guest: the kmod suites pass against the modprobe'd module" 0 $?
grep -q '^ok [0-9]* lab-only suites skip' "$G" 2>/dev/null
tap_eq "in a guest: lab-only suites SKIP with the reason" 0 $?
tap_eq "in a guest: every check passed (lab exit)" 0 "$rc"
tap_done
