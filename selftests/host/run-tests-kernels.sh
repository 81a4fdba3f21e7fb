#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/run_tests.sh's programs for the other kernels
# (Documentation/kernels.rst, "In make check"): a line "SERIES TIMEOUT
# SUITE..." is one program per SUITE, kernel/SERIES/SUITE, with the cores
# that suite's lab line asks for, scheduled with the rest. A stand-in
# kernel-check.sh (RTUNE_KERNEL_CHECK) records its arguments, the run id
# and the cores it was given, and when it started and ended; a stand-in
# lab-run (RTUNE_LAB_RUN) passes 6.1's suites. Checked: one result per
# suite; each call gets exactly
# SERIES and SUITE; every call of a run shares one run id, and the next
# run has another; a two-host and a --smp=2 suite take two cores (they
# overlap nothing) and two one-host suites of different kernels run side
# by side; "kernel/9.8" selects that kernel's programs only, and a suite's
# own name selects 6.1's suite only. A few seconds.

# shellcheck disable=SC2317 # the t_* checks run through tap_ok
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib/tap.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/rocetune-ksplit.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/suites" "$T/log"

# The kernel-check stand-in: "SERIES SUITE" and the environment it got go
# to $T/log/SERIES-SUITE.call, its interval to .start and .end. The suite
# one-a.sh waits (10 s at most) until 9.8's one-b.sh has started.
cat >"$T/kernel-check" <<EOF
#!/bin/bash
n=\$1-\$2
echo "\${EPOCHREALTIME/./}" >"$T/log/\$n.start"
echo "\$# \$* id=\${RTUNE_RUN_ID:-} jobs=\${RTUNE_TEST_JOBS:-}" >"$T/log/\$n.call"
if [[ \$n == 9.9-one-a.sh ]]; then
	for _ in \$(seq 100); do [ -e "$T/log/9.8-one-b.sh.start" ] && break; sleep 0.1; done
fi
sleep 0.6
printf 'TAP version 13\nok 1 build\nok 2 %s on %s\n1..2\n' "\$2" "\$1"
echo "\${EPOCHREALTIME/./}" >"$T/log/\$n.end"
EOF
cat >"$T/lab-run" <<EOF
#!/bin/bash
hosts= out=
while ((\$#)); do
	case \$1 in
	--hosts) hosts=\$2; shift 2;;
	--out) out=\$2; shift 2;;
	*) shift;;
	esac
done
for ((h = 1; h <= hosts; h++)); do
	mkdir -p "\$out/share/host\$h"
	printf 'TAP version 13\n1..1\nok 1 stand-in\n' >"\$out/share/host\$h/out.tap"
	echo 0 >"\$out/share/host\$h/rc"
done
EOF
chmod +x "$T/kernel-check" "$T/lab-run"
for s in one-a one-b two smp; do
	printf '#!/bin/bash\nexit 0\n' >"$T/suites/$s.sh"
	chmod +x "$T/suites/$s.sh"
done
cat >"$T/list" <<EOF
lab 1 60 $T/suites/one-a.sh
lab 1 60 $T/suites/one-b.sh
lab 2 60 $T/suites/two.sh
lab 1 60 $T/suites/smp.sh --smp=2
kernel 9.9 60 one-a.sh two.sh smp.sh
kernel 9.8 60 one-b.sh
EOF

# run PATTERN...: run_tests.sh on the list, 2 jobs; its output in $T/out.
run() {
	rm -rf "$T/log" "$T/tests" && mkdir -p "$T/log"
	RTUNE_TEST_LIST=$T/list RTUNE_LAB_RUN=$T/lab-run RTUNE_KERNEL_CHECK=$T/kernel-check \
		RTUNE_TEST_OUT=$T/tests RTUNE_TEST_JOBS=2 "$TOP/selftests/run_tests.sh" "$@" >"$T/out" 2>&1
	echo $? >"$T/rc"
	sed 's/^/#   /' "$T/out"
}
# programs: the names of the results, in order.
programs() { sed -nE 's/^(not )?ok [0-9]+ selftests: ([^ ]+).*/\2/p' "$T/out" | paste -sd ' '; }
# call N: what the stand-in recorded for program N (SERIES-SUITE).
call() { cat "$T/log/$1.call" 2>/dev/null; }
# overlap A B: the stand-ins A and B ran at the same time.
overlap() {
	local as ae bs be
	read -r as <"$T/log/$1.start" && read -r ae <"$T/log/$1.end" &&
		read -r bs <"$T/log/$2.start" && read -r be <"$T/log/$2.end" &&
		((as < be && bs < ae))
}

tap_plan 11

run kernel/
tap_eq "every kernel program passed (exit 0)" 0 "$(cat "$T/rc")"
# Results come as programs end: compared as a set.
tap_eq "one program per suite, kernel/SERIES/SUITE" \
	"kernel/9.8/one-b.sh kernel/9.9/one-a.sh kernel/9.9/smp.sh kernel/9.9/two.sh" \
	"$(programs | tr ' ' '\n' | sort | paste -sd ' ')"
tap_eq "\"kernel/\" selects the kernel programs only" 4 "$(programs | wc -w)"
id=$(sed -n 's/.* id=\([^ ]*\) .*/\1/p' "$T/log/9.9-one-a.sh.call")
t_args() {
	local want
	[ -n "$id" ] || { echo "no run id"; return 1; }
	want="2 9.8 one-b.sh id=$id jobs=1|2 9.9 one-a.sh id=$id jobs=1|2 9.9 smp.sh id=$id jobs=2|2 9.9 two.sh id=$id jobs=2"
	[ "$(cat "$T"/log/9.8-one-b.sh.call "$T"/log/9.9-*.call | paste -sd '|')" = "$want" ] ||
		{ cat "$T"/log/*.call; return 1; }
}
tap_ok "each call: SERIES and SUITE, one run id, the suite's cores" t_args
t_wide_alone() {
	local w o
	for w in 9.9-two.sh 9.9-smp.sh; do
		for o in 9.9-one-a.sh 9.9-two.sh 9.9-smp.sh 9.8-one-b.sh; do
			[ "$o" = "$w" ] && continue
			overlap "$w" "$o" && { echo "$w overlapped $o"; return 1; }
		done
	done
	return 0
}
tap_ok "a two-host and a --smp=2 suite take both cores" t_wide_alone
tap_ok "one-host suites of two kernels run side by side" overlap 9.9-one-a.sh 9.8-one-b.sh

run kernel/
id2=$(sed -n 's/.* id=\([^ ]*\) .*/\1/p' "$T/log/9.8-one-b.sh.call")
t_new_id() { [ -n "$id2" ] && [ "$id2" != "$id" ]; }
tap_ok "the next run has another run id" t_new_id

run kernel/9.8
tap_eq "\"kernel/9.8\" selects that kernel's programs only" "kernel/9.8/one-b.sh" "$(programs)"

run one-b.sh
tap_eq "a suite's name selects 6.1's suite only" "$T/suites/one-b.sh" "$(programs)"
t_no_call() { ! ls "$T"/log/*.call >/dev/null 2>&1; }
tap_ok "... and no kernel-check ran" t_no_call

run
tap_eq "with no pattern: 6.1's suites (5 results) and the kernel programs (4)" 9 \
	"$(grep -cE '^(not )?ok [0-9]+ selftests: ' "$T/out")"
tap_done
