#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run every rocetune test and report in TAP: host unit tests, host-side
# tests (DKMS), and the in-guest selftests, each booted in the QEMU lab
# with the topology it needs. Nested TAP of each program is printed
# behind "# ", kselftest-runner style; the last line is the total
# "N passed, N failed, N skipped" over every test point.
#
#   selftests/run_tests.sh              everything
#   selftests/run_tests.sh PATTERN...   only programs whose name matches
#   selftests/run_tests.sh --list       list the programs
#
# Assumes a built tree (make all SANITIZE=1); `make check` does both.
# Programs run side by side on the machine's cores (RTUNE_TEST_JOBS, see
# "running them, in lanes" below).
#
# A lab suite whose run ends in a lab fault (lab-run's exit 3: a guest's
# emulated NIC stopped transmitting, Documentation/testing.rst) runs once
# more; the first run's verdict and where it is kept are printed with the
# program's result, and the summary names every program that was run
# again. RTUNE_LAB_RERUN=0 turns that off.
#
# RTUNE_TEST_LIST=FILE runs the programs FILE names instead of the
# registered ones: one host program per line, run as a host test,
# "lab HOSTS TIMEOUT SCRIPT [ARGS]" for a lab suite, or "kernel SERIES
# TIMEOUT SUITE..." for another kernel ('#' comments and blank lines
# skipped); RTUNE_LAB_RUN=PATH runs PATH in place of lab-run and
# RTUNE_KERNEL_CHECK=PATH in place of scripts/kernel-check.sh.
# host/run-tests-lanes.sh and host/run-tests-rerun.sh test the scheduler
# and the rerun with them on stand-in programs. RTUNE_TEST_OUT=DIR puts
# the programs' output in DIR instead of build/tests.

set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
LAB=${RTUNE_LAB_RUN:-selftests/lab/lab-run}
KERNEL_CHECK=${RTUNE_KERNEL_CHECK:-scripts/kernel-check.sh}
OUT=${RTUNE_TEST_OUT:-$TOP/build/tests}

# The in-guest suites, registered by each part in selftests/PART/lab-suites:
# one line per program, "HOSTS TIMEOUT SCRIPT [ARGS]" ('#' comments and
# blank lines skipped). A suite with two hosts runs the same script on both
# (it branches on LAB_HOST). Leading ARGS of the form --smp=N are
# lab-run's options (vCPUs per guest), the rest the script's. kmod's run first: if the module's own basics
# fail, the other suites' failures mean little.
LAB_SUITES=()
HOST_TESTS=()
KERNEL_RUNS=()
if [ -n "${RTUNE_TEST_LIST:-}" ]; then
	[ -r "$RTUNE_TEST_LIST" ] || { echo "run_tests: RTUNE_TEST_LIST: cannot read $RTUNE_TEST_LIST" >&2; exit 2; }
	while read -r line; do
		case $line in
		''|'#'*) continue;;
		'lab '*) LAB_SUITES+=("${line#lab }");;
		'kernel '*) KERNEL_RUNS+=("${line#kernel }");;
		*) HOST_TESTS+=("$line");;
		esac
	done <"$RTUNE_TEST_LIST"
else
	SUITE_FILES=(selftests/kmod/lab-suites)
	for f in selftests/*/lab-suites; do
		[ "$f" = "${SUITE_FILES[0]}" ] || SUITE_FILES+=("$f")
	done
	for f in "${SUITE_FILES[@]}"; do
		[ -f "$f" ] || continue
		while read -r line; do
			case $line in ''|'#'*) continue;; esac
			LAB_SUITES+=("$line")
		done <"$f"
	done

	# The other kernels (selftests/lab/kernels): a line per kernel,
	# "SERIES TIMEOUT SUITE...", and one program per SUITE, run by
	# scripts/kernel-check.sh (the module built for that kernel once per
	# run, the suite in guests booting it). RTUNE_OTHER_KERNELS=0 leaves
	# them out.
	if [ "${RTUNE_OTHER_KERNELS:-1}" != 0 ] && [ -f selftests/lab/kernels ]; then
		while read -r line; do
			case $line in ''|'#'*) continue;; esac
			KERNEL_RUNS+=("$line")
		done <selftests/lab/kernels
	fi

	for f in selftests/unit/test_*; do
		[ -x "$f" ] && [ ! -d "$f" ] && case $f in *.c|*.o|*.d) ;; *) HOST_TESTS+=("$f");; esac
	done
	for f in selftests/host/*.sh; do
		[ -x "$f" ] && HOST_TESTS+=("$f")
	done
fi

# selected NAME [PREFIX]: no pattern was given, or one that starts with
# PREFIX matches NAME. A kernel program (kernel/SERIES/SUITE) is asked for
# with PREFIX kernel/: only a pattern that names the other kernels
# ("kernel/", "kernel/6.12", ...) selects it, and "kmod/params.sh" alone
# means 6.1's suite, not every kernel's.
selected() {
	local p
	[ ${#PATTERNS[@]} -eq 0 ] && return 0
	for p in "${PATTERNS[@]}"; do
		[[ $p == "${2:-}"* && $1 == *$p* ]] && return 0
	done
	return 1
}

PATTERNS=()
LIST=
for a in "$@"; do
	case $a in
	--list) LIST=1;;
	*) PATTERNS+=("$a");;
	esac
done

if [ -n "$LIST" ]; then
	printf '%s\n' "${HOST_TESTS[@]}"
	for s in "${LAB_SUITES[@]}"; do
		read -r h _ path _ <<<"$s"
		echo "$path (lab, $h host$([ "$h" -gt 1 ] && echo s))"
	done
	for k in "${KERNEL_RUNS[@]}"; do
		read -r series _ suites <<<"$k"
		for s in $suites; do
			echo "kernel/$series/$s (another kernel: its build, then $s)"
		done
	done
	exit 0
fi

NPROG=0 NPASS=0 NFAIL=0 NSKIP=0 PROG_FAILED=() TIMES=() LAB_FAULTS=()

now() { echo $((${EPOCHREALTIME/./} / 1000000)); }

# account NAME RC FILE SECS: fold one program's TAP (in FILE) into the
# totals; SECS is its wall time, kept for the summary at the end (what
# make check spends its budget on).
account() {
	local name=$1 rc=$2 file=$3 secs=$4 p=0 f=0 s=0 status why
	p=$(grep -cE '^ok [0-9]+' "$file" | head -1)
	s=$(grep -cE '^ok [0-9]+.*# SKIP' "$file" | head -1)
	f=$(grep -cE '^not ok [0-9]+' "$file" | head -1)
	p=$((p - s))
	if grep -qE '^1\.\.0 # SKIP' "$file"; then
		s=$((s + 1))
	fi
	# A program that failed without a failing test point (crash, timeout,
	# plan mismatch) still counts as one failure.
	if [ "$rc" -ne 0 ] && [ "$rc" -ne 4 ] && [ "$f" -eq 0 ]; then
		f=1
	fi
	NPASS=$((NPASS + p)); NFAIL=$((NFAIL + f)); NSKIP=$((NSKIP + s))
	NPROG=$((NPROG + 1))
	sed 's/^/# /' "$file"
	if [ "$rc" -eq 4 ]; then
		# A skipped program's reason is its "1..0 # SKIP reason" plan.
		why=$(sed -n 's/^1\.\.0 # SKIP *//p' "$file" | head -n 1)
		status="ok $NPROG selftests: $name # SKIP${why:+ $why}"
	elif [ "$rc" -eq 0 ] && [ "$f" -eq 0 ]; then
		status="ok $NPROG selftests: $name"
	else
		status="not ok $NPROG selftests: $name # exit=$rc"
		PROG_FAILED+=("$name")
	fi
	echo "$status"
	TIMES+=("$secs $name")
}

# --- running them, in lanes -----------------------------------------------------
# Programs run side by side while their cores fit in RTUNE_TEST_JOBS
# (default: the machine's cores, at most 8). A lab suite needs one core per
# guest vCPU (one, or N with --smp=N on its line); a host test needs one unless its
# header says otherwise with a "# cores: N" line (it builds in parallel or
# boots two guests; 0 counts as 1). A program that needs more than there
# is runs alone.
# Results are reported as programs end, so the order may differ from the
# list; RTUNE_TEST_JOBS=1 runs them one after the other, in list order.
JOBS=${RTUNE_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
[[ $JOBS =~ ^[1-9][0-9]*$ ]] || { echo "run_tests: RTUNE_TEST_JOBS must be a positive number" >&2; exit 2; }
((JOBS > 8)) && JOBS=8

# lab_cores SPEC: the cores of a lab suite's line "HOSTS TIMEOUT SCRIPT
# [ARGS]": one per guest vCPU (--smp=N among its lab-run options: N).
lab_cores() {
	local hosts args smp=1
	read -r hosts _ _ args <<<"$1"
	[[ " $args" =~ \ --smp=([0-9]+) ]] && smp=${BASH_REMATCH[1]}
	echo $((hosts * smp))
}

# The order of the list: the host programs (the longest, the packages'
# and the installs', among them), the other kernels' suites (a build,
# then a suite each), then 6.1's lab suites, many and short, which fill
# the lanes at the end.
J_KIND=() J_SPEC=() J_CORES=()
for t in "${HOST_TESTS[@]}"; do
	selected "$t" || continue
	c=$(sed -n '1,40s/^# cores: \([0-9][0-9]*\)$/\1/p' "$t" 2>/dev/null | head -n 1)
	J_KIND+=(host) J_SPEC+=("$t") J_CORES+=("${c:-1}")
done
# One program per suite of another kernel, with the cores that suite
# takes on 6.1 (its line in a lab-suites file; 1 if none matches, and
# kernel-check.sh then reports that no such suite ran).
for k in "${KERNEL_RUNS[@]}"; do
	read -r series tmo suites <<<"$k"
	for p in $suites; do
		selected "kernel/$series/$p" kernel/ || continue
		c=1
		for s in "${LAB_SUITES[@]}"; do
			read -r _ _ path _ <<<"$s"
			[[ $path == *"$p"* ]] || continue
			n=$(lab_cores "$s")
			((n > c)) && c=$n
		done
		J_KIND+=(kernel) J_SPEC+=("$series $tmo $p") J_CORES+=("$c")
	done
done
for s in "${LAB_SUITES[@]}"; do
	read -r _ _ path _ <<<"$s"
	selected "$path" || continue
	J_KIND+=(lab) J_SPEC+=("$s") J_CORES+=("$(lab_cores "$s")")
done
for i in "${!J_CORES[@]}"; do
	((J_CORES[i] < 1)) && J_CORES[i]=1
	((J_CORES[i] > JOBS)) && J_CORES[i]=$JOBS
done

J_T0=() J_LOG=() J_RUN=()

# start_job I: start program I in the background; its exit status goes to
# a file next to its output, read by finish_job.
start_job() {
	local i=$1 t log tmo v hosts path args name run lopts
	J_T0[i]=$(now)
	if [ "${J_KIND[i]}" = host ]; then
		t=${J_SPEC[i]}
		log="$OUT/$(basename "$t").tap"
		tmo=600
		if [ -f "$(dirname "$t")/settings" ]; then
			v=$(sed -n 's/^timeout=\([0-9][0-9]*\)$/\1/p' "$(dirname "$t")/settings" | tail -n 1)
			[ -n "$v" ] && tmo=$v
		fi
		J_LOG[i]=$log
		(
			cd "$(dirname "$t")" && timeout "$tmo" "./$(basename "$t")"
			echo $? >"$log.rc"
		) >"$log" 2>&1 &
	elif [ "${J_KIND[i]}" = kernel ]; then
		read -r v tmo args <<<"${J_SPEC[i]}"
		log="$OUT/kernel-$v-$(echo "$args" | tr '/.' '--').tap"
		J_LOG[i]=$log
		# RTUNE_RUN_ID: the first of this run's programs for a kernel
		# builds, the others reuse its build (kernel-check.sh).
		(
			RTUNE_RUN_ID=$RUN_ID RTUNE_TEST_JOBS=${J_CORES[i]} RTUNE_OTHER_KERNELS=0 \
				timeout "$tmo" "$KERNEL_CHECK" "$v" "$args"
			echo $? >"$log.rc"
		) >"$log" 2>&1 &
	else
		read -r hosts tmo path args <<<"${J_SPEC[i]}"
		lopts=
		while [[ $args == --smp=* ]]; do
			read -r v args <<<"$args"
			lopts+=" $v"
		done
		name=${path#selftests/}
		run="$OUT/lab-$(echo "$name" | tr '/.' '--')"
		rm -rf "$run" "$run.fault"
		J_RUN[i]=$run
		# $args unquoted: a suite's extra lab-run arguments, split as written.
		# shellcheck disable=SC2086
		(
			lab_once() {
				$LAB --hosts "$hosts" --timeout "$tmo" --out "$run" $lopts \
					--script "all=$path" $args
			}
			lab_once
			labrc=$?
			if [ "$labrc" -eq 3 ] && [ "${RTUNE_LAB_RERUN:-1}" != 0 ]; then
				mv "$run" "$run.fault"
				echo "run_tests: lab fault: running $name once more; the first run is in $run.fault"
				lab_once
				labrc=$?
			fi
			echo $labrc >"$run.labrc"
		) >"$run.log" 2>&1 &
	fi
	J_PID[$!]=$i
}

# finish_job I: fold the results of program I, which has ended.
finish_job() {
	local i=$1 secs rc labrc hosts path name run h tap suffix
	secs=$(($(now) - J_T0[i]))
	if [ "${J_KIND[i]}" = host ]; then
		rc=$(cat "${J_LOG[i]}.rc" 2>/dev/null || echo 125)
		account "${J_SPEC[i]}" "$rc" "${J_LOG[i]}" "$secs"
		return
	fi
	if [ "${J_KIND[i]}" = kernel ]; then
		read -r v _ args <<<"${J_SPEC[i]}"
		rc=$(cat "${J_LOG[i]}.rc" 2>/dev/null || echo 125)
		account "kernel/$v/$args" "$rc" "${J_LOG[i]}" "$secs"
		return
	fi
	read -r hosts _ path _ <<<"${J_SPEC[i]}"
	name=${path#selftests/}
	run=${J_RUN[i]}
	labrc=$(cat "$run.labrc" 2>/dev/null || echo 125)
	if [ -d "$run.fault" ]; then
		# Said before the second run's results, which are the program's.
		echo "# lab fault in the first run of $name (kept in $run.fault; log $run.log):"
		sed 's/^/#   /' "$run.fault/lab-fault" 2>/dev/null
		for h in $(seq 1 "$hosts"); do
			echo "#   first run, host$h: exit $(cat "$run.fault/share/host$h/rc" 2>/dev/null || echo 125)"
		done
		echo "# $name ran once more; its result is the second run's"
		LAB_FAULTS+=("$name")
	fi
	for h in $(seq 1 "$hosts"); do
		tap="$run/share/host$h/out.tap"
		rc=$(cat "$run/share/host$h/rc" 2>/dev/null || echo 125)
		[ -f "$tap" ] || { echo "no output (lab exit $labrc)" >"$run.host$h.missing"; tap="$run.host$h.missing"; }
		if [ "$rc" -ne 0 ] && [ "$rc" -ne 4 ]; then
			echo "# lab log: $run.log; consoles in $run/"
			tail -5 "$run.log" | sed 's/^/# /'
		fi
		suffix=
		[ "$hosts" -gt 1 ] && suffix=" [host$h]"
		account "$name$suffix" "$rc" "$tap" "$secs"
	done
}

stop_jobs() {
	local p
	for p in "${!J_PID[@]}"; do
		pkill -TERM -P "$p" 2>/dev/null
		kill -TERM "$p" 2>/dev/null
	done
	wait
	exit "$1"
}

mkdir -p "$OUT"
echo "TAP version 13"
echo "# $JOBS core(s) for the tests (RTUNE_TEST_JOBS)"

declare -A J_PID=()	# pid of a running program -> its index
trap 'stop_jobs 130' INT
trap 'stop_jobs 143' TERM
T_ALL=$(now)
RUN_ID="$$.$T_ALL"
pending=("${!J_KIND[@]}")
free=$JOBS
while [ ${#pending[@]} -gt 0 ] || [ ${#J_PID[@]} -gt 0 ]; do
	# Start, in list order, every waiting program whose cores are free.
	# With one lane this is strictly the list order.
	left=()
	for i in "${pending[@]}"; do
		if ((J_CORES[i] <= free)) && { ((JOBS > 1)) || [ ${#left[@]} -eq 0 ]; }; then
			start_job "$i"
			free=$((free - J_CORES[i]))
		else
			left+=("$i")
		fi
	done
	pending=("${left[@]}")
	[ ${#J_PID[@]} -gt 0 ] || continue
	done_pid=
	wait -n -p done_pid
	if [ -z "$done_pid" ] || [ -z "${J_PID[$done_pid]:-}" ]; then
		continue
	fi
	i=${J_PID[$done_pid]}
	unset "J_PID[$done_pid]"
	free=$((free + J_CORES[i]))
	finish_job "$i"
done
trap - INT TERM

echo "1..$NPROG"
# Wall time per program, the longest first (a lab suite's hosts share one
# figure: the guests run together).
if [ ${#TIMES[@]} -gt 0 ]; then
	echo "# wall time per program (s):"
	printf '%s\n' "${TIMES[@]}" | sort -rn | head -n 25 | sed 's/^/#   /'
	echo "# wall time of the whole run: $(($(now) - T_ALL)) s on $JOBS core(s)"
fi
if [ ${#LAB_FAULTS[@]} -gt 0 ]; then
	echo "# run again after a lab fault: ${LAB_FAULTS[*]}"
fi
if [ ${#PROG_FAILED[@]} -gt 0 ]; then
	echo "# failed programs: ${PROG_FAILED[*]}"
fi
echo "rocetune: $NPASS passed, $NFAIL failed, $NSKIP skipped"
[ "$NFAIL" -eq 0 ]
