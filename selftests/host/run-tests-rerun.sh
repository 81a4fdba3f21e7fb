#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/run_tests.sh runs a lab suite once more after a lab fault
# (lab-run's exit 3: a guest's emulated NIC stopped transmitting;
# Documentation/testing.rst), and only then. A stand-in lab-run
# (RTUNE_LAB_RUN) plays four suites, named by what it does with them:
# "flaky" faults the first time and passes the second, "stuck" faults
# every time, "failing" fails plainly (exit 1), "passing" passes. Each
# call is counted. Checked: flaky is reported passed, with the first run's
# fault line and where that run is kept, and was run twice; stuck fails
# after exactly two runs; failing and passing run once and keep their
# verdicts; the summary names the programs run again and only them; with
# RTUNE_LAB_RERUN=0 flaky runs once and fails. A few seconds.

# shellcheck disable=SC2317 # the t_* checks run through tap_ok
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib/tap.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/rocetune-rerun.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/calls" "$T/suites"

# The stand-in: lab-run's arguments, a result per host in OUT/share, and
# lab-run's exit status for the behaviour the script's name gives.
cat >"$T/lab-run" <<EOF
#!/bin/bash
hosts= out= script=
while ((\$#)); do
	case \$1 in
	--hosts) hosts=\$2; shift 2;;
	--timeout) shift 2;;
	--out) out=\$2; shift 2;;
	--script) script=\${2#all=}; shift 2;;
	*) shift;;
	esac
done
kind=\$(basename "\$script" .sh)
echo x >>"$T/calls/\$kind"
n=\$(wc -l <"$T/calls/\$kind")
case \$kind:\$n in
flaky:1 | stuck:*) verdict=fault;;
failing:*) verdict=fail;;
*) verdict=pass;;
esac
for ((h = 1; h <= hosts; h++)); do
	mkdir -p "\$out/share/host\$h"
	if [[ \$verdict == pass ]] || ((h == 2)); then
		printf 'TAP version 13\n1..1\nok 1 stand-in\n' >"\$out/share/host\$h/out.tap"
		echo 0 >"\$out/share/host\$h/rc"
	elif [[ \$verdict == fail ]]; then
		printf 'TAP version 13\n1..1\nnot ok 1 stand-in\n' >"\$out/share/host\$h/out.tap"
		echo 1 >"\$out/share/host\$h/rc"
	else
		# A stalled guest that never wrote its status.
		echo 125 >"\$out/share/host\$h/rc"
		echo "host\$h: [   68.78] virtio_net virtio2 eth0: NETDEV WATCHDOG: stand-in \$kind run \$n" >"\$out/lab-fault"
	fi
done
case \$verdict in pass) exit 0;; fail) exit 1;; fault) exit 3;; esac
EOF
chmod +x "$T/lab-run"
for k in flaky stuck failing passing; do
	printf '#!/bin/bash\nexit 0\n' >"$T/suites/$k.sh"
	chmod +x "$T/suites/$k.sh"
	echo "lab 2 60 $T/suites/$k.sh" >>"$T/list"
done

calls() { if [ -f "$T/calls/$1" ]; then wc -l <"$T/calls/$1"; else echo 0; fi; }

runout=$(RTUNE_TEST_LIST=$T/list RTUNE_LAB_RUN=$T/lab-run RTUNE_TEST_OUT=$T/out \
	RTUNE_OTHER_KERNELS=0 RTUNE_TEST_JOBS=2 "$TOP/selftests/run_tests.sh" 2>&1)
rc=$?
printf '%s\n' "$runout" | sed 's/^/#   /'

# result NAME HOST: the program's result line for HOST.
result() { grep -E "^(not )?ok [0-9]+ selftests: $T/suites/$1.sh \[host$2\]" <<<"$runout"; }

tap_plan 11
t_flaky_ok() { result flaky 1 | grep -q '^ok ' && result flaky 2 | grep -q '^ok '; }
tap_ok "a suite that faulted once and then passed is reported passed" t_flaky_ok
tap_eq "and it ran twice" 2 "$(calls flaky)"
t_flaky_said() {
	grep -q "^# lab fault in the first run of $T/suites/flaky.sh (kept in $T/out/[^ ]*\.fault" <<<"$runout" &&
		grep -q '^#   host1: .*NETDEV WATCHDOG: stand-in flaky run 1' <<<"$runout" &&
		grep -q '^#   first run, host1: exit 125' <<<"$runout"
}
tap_ok "its first run's fault line, status and place are printed" t_flaky_said
t_flaky_kept() { ls -d "$T"/out/*flaky*.fault/share/host1 >/dev/null 2>&1; }
tap_ok "the first run is kept" t_flaky_kept
t_stuck_fails() { result stuck 1 | grep -q '^not ok '; }
tap_ok "a suite that faulted twice fails" t_stuck_fails
tap_eq "and ran exactly twice" 2 "$(calls stuck)"
t_plain() {
	result failing 1 | grep -q '^not ok ' && result passing 1 | grep -q '^ok ' &&
		[ "$(calls failing)" = 1 ] && [ "$(calls passing)" = 1 ]
}
tap_ok "a plain failure and a pass run once and keep their verdicts" t_plain
t_summary() {
	local line
	line=$(grep '^# run again after a lab fault:' <<<"$runout") &&
		[[ $line == *flaky.sh* && $line == *stuck.sh* && $line != *failing.sh* && $line != *passing.sh* ]]
}
tap_ok "the summary names the programs run again, and only them" t_summary
tap_eq "the run's exit status is failure (stuck, failing)" 1 "$rc"

rm -rf "$T/calls" "$T/out" && mkdir -p "$T/calls"
echo "lab 2 60 $T/suites/flaky.sh" >"$T/list1"
runout=$(RTUNE_TEST_LIST=$T/list1 RTUNE_LAB_RUN=$T/lab-run RTUNE_TEST_OUT=$T/out \
	RTUNE_OTHER_KERNELS=0 RTUNE_LAB_RERUN=0 "$TOP/selftests/run_tests.sh" 2>&1)
printf '%s\n' "$runout" | sed 's/^/#   /'
t_norerun() { result flaky 1 | grep -q '^not ok ' && ! grep -q '^# run again' <<<"$runout"; }
tap_ok "with RTUNE_LAB_RERUN=0 a faulted suite fails" t_norerun
tap_eq "and ran once" 1 "$(calls flaky)"
tap_done
