#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run.sh SECONDS HARNESS...: for each harness, replay its regression inputs
# (regress/<h>/), then fuzz it for SECONDS (0: replay only) from its seeds.
# Prints one line per harness for selftests/host/fuzz.sh:
#   RESULT <h> ok|fail <executions> <regression inputs> <seconds> [why]
# and exits 1 if any harness failed. Run from selftests/fuzz (make does).

T=$1
shift
B=build
fail=0

seeds() {	# the seed directories of harness $1
	case $1 in
	profile) echo ../../profiles ../unit/data/profiles ../unit/data/profiles/bad ;;
	*) [ -d "corpus/$1" ] && echo "corpus/$1" ;;
	esac
}

for h in "$@"; do
	bin=$B/fuzz_$h
	log=$B/$h.log
	start=$(date +%s)
	mkdir -p "$B/corpus/$h"
	: >"$log"
	why=
	nreg=0
	if [ -d "regress/$h" ] && [ -n "$(ls -A "regress/$h")" ]; then
		nreg=$(ls -A "regress/$h" | wc -l)
		"$bin" -runs=1 "regress/$h"/* >>"$log" 2>&1 ||
			why="a regression input fails again (see $log)"
	fi
	execs=0
	if [ -z "$why" ] && [ "$T" -gt 0 ]; then
		# shellcheck disable=SC2046
		"$bin" -max_total_time="$T" -timeout=10 -rss_limit_mb=2048 \
			-print_final_stats=1 -artifact_prefix="$B/crash-$h-" \
			"$B/corpus/$h" $(seeds "$h") >>"$log" 2>&1 ||
			why="crash or leak found: $(ls "$B"/crash-"$h"-* "$B"/leak-"$h"-* \
				"$B"/timeout-"$h"-* "$B"/oom-"$h"-* 2>/dev/null | tail -1) (see $log)"
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
		[ -n "$why" ] || [ -n "$execs" ] || why="no execution count in $log"
	fi
	secs=$(($(date +%s) - start))
	if [ -n "$why" ]; then
		echo "RESULT $h fail ${execs:-0} $nreg $secs $why"
		fail=1
	else
		echo "RESULT $h ok ${execs:-0} $nreg $secs"
	fi
done
exit $fail
