#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# selftests/run_tests.sh's scheduler (Documentation/testing.rst, "Programs
# run side by side"), on stand-in programs that RTUNE_TEST_LIST names
# instead of the registered ones. Each stand-in records when it started
# and ended (bash's EPOCHREALTIME, taken inside the program: a recorded
# interval lies within the one the scheduler gave it, so an overlap seen
# here was real) and prints one TAP test point. Checked: no moment with
# more cores in use than RTUNE_TEST_JOBS; with 2, two 1-core programs run
# together (each waits for the other's start, 10 s at most) and a 2-core
# program (and one asking for 5) overlaps nothing; RTUNE_TEST_JOBS=1 runs
# them one at a time in list order; a failing program makes the exit
# status non-zero and is named in "# failed programs:"; a skipped one's
# result line gives the reason of its "1..0 # SKIP" plan; each program has
# exactly one result line and one line in the wall-time table. A few
# seconds.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib/tap.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/rocetune-lanes.XXXXXX")
trap 'rm -rf "$T"' EXIT

# standin NAME CORES ACTION [ARG]: write $T/progs/NAME, a program with a
# "# cores: CORES" header (none if CORES is empty) that records its start
# in $T/log/NAME.start and its end in NAME.end. ACTION: "sleep SECS";
# "meet PEER": wait until PEER has started (10 s at most); "fail": a
# failing test point and exit 1; "skip": a "1..0 # SKIP" plan with a
# reason and exit 4.
standin() {
	local name=$1 cores=$2 action=$3 arg=${4:-} body
	case $action in
	sleep) body="sleep $arg";;
	meet) body="for _ in \$(seq 100); do [ -e $T/log/$arg.start ] && break; sleep 0.1; done";;
	fail | skip) body="sleep 0.1";;
	esac
	{
		echo '#!/bin/bash'
		[ -n "$cores" ] && echo "# cores: $cores"
		echo "echo \"\${EPOCHREALTIME/./}\" >$T/log/$name.start"
		echo "$body"
		if [ "$action" = skip ]; then
			echo "echo \"\${EPOCHREALTIME/./}\" >$T/log/$name.end"
			echo 'echo "TAP version 13"; echo "1..0 # SKIP stand-in has no widget"; exit 4'
		fi
		echo 'echo "TAP version 13"; echo 1..1'
		if [ "$action" = fail ]; then
			echo 'echo "not ok 1 stand-in failing"'
		else
			echo 'echo "ok 1 stand-in"'
		fi
		echo "echo \"\${EPOCHREALTIME/./}\" >$T/log/$name.end"
		[ "$action" = fail ] && echo 'exit 1'
		echo 'exit 0'
	} >"$T/progs/$name"
	chmod +x "$T/progs/$name"
	echo "$T/progs/$name" >>"$T/list"
}

# run JOBS: run_tests.sh on $T/list; its output in $T/out, status in $T/rc,
# the stand-ins' intervals in $T/iv (below);
# the stand-ins' records are cleared first. A stand-in sleeps 0.6 s: an
# overlap the scheduler allowed is only seen if it outlasts the start-up
# of the program that overlaps (on a loaded machine, a 0.2 s one did
# not, once).
run() {
	rm -rf "$T/log" "$T/tests"
	mkdir -p "$T/log"
	RTUNE_TEST_JOBS=$1 RTUNE_TEST_LIST=$T/list RTUNE_TEST_OUT=$T/tests \
		"$TOP/selftests/run_tests.sh" >"$T/out" 2>&1
	echo $? >"$T/rc"
	sed 's/^/#   /' "$T/out"
	local p n c s e
	while read -r p; do
		n=${p##*/}
		c=$(sed -n 's/^# cores: \([0-9]*\)$/\1/p' "$p")
		c=${c:-1}; ((c < 1)) && c=1; ((c > $1)) && c=$1
		s=-; e=-
		[ -s "$T/log/$n.start" ] && read -r s <"$T/log/$n.start"
		[ -s "$T/log/$n.end" ] && read -r e <"$T/log/$n.end"
		echo "$n $c $s $e"
	done <"$T/list" >"$T/iv"
}

# $T/iv: "NAME CORES START END" per stand-in of the list (microseconds,
# "-" if not recorded), CORES as the scheduler counts them (at least 1, at
# most JOBS).

t_all_ran() {
	local bad
	bad=$(awk '$3 == "-" || $4 == "-" { print $1 }' "$T/iv")
	[ -z "$bad" ] || { echo "no start or end recorded: $bad"; return 1; }
}

# t_max_cores JOBS: at no program's start were the programs running then
# using more than JOBS cores.
t_max_cores() {
	local m
	t_all_ran || return 1
	m=$(awk '
		{ n[NR] = $1; c[NR] = $2; s[NR] = $3; e[NR] = $4 }
		END {
			for (k = 1; k <= NR; k++) {
				u = 0; who = ""
				for (i = 1; i <= NR; i++)
					if (s[i] <= s[k] && s[k] < e[i]) { u += c[i]; who = who " " n[i] }
				if (u > max) { max = u; at = who }
			}
			print max + 0, at
		}' "$T/iv")
	echo "most cores at once: ${m%% *} (${m#* } )"
	[ "${m%% *}" -le "$1" ]
}

# overlaps NAME: the programs whose interval overlaps NAME's.
overlaps() {
	awk -v me="$1" '
		{ n[NR] = $1; s[NR] = $3; e[NR] = $4; if ($1 == me) k = NR }
		END { for (i = 1; i <= NR; i++) if (i != k && s[i] < e[k] && s[k] < e[i]) print n[i] }' "$T/iv"
}
# t_overlap A B: A and B ran at the same time.
t_overlap() {
	t_all_ran || return 1
	overlaps "$1" | grep -qx "$2" || { echo "$1 and $2 did not overlap"; cat "$T/iv"; return 1; }
}
# t_alone NAME...: each NAME overlapped no other program.
t_alone() {
	local n o
	t_all_ran || return 1
	for n in "$@"; do
		o=$(overlaps "$n" | paste -sd ' ')
		[ -z "$o" ] || { echo "$n overlapped: $o"; cat "$T/iv"; return 1; }
	done
}

# Each program of the list: exactly one top-level result line, "ok N
# selftests: PATH" or "not ok N selftests: PATH # exit=RC", numbered 1..N
# under a plan of N, and exactly one line in the wall-time table.
t_results_once() {
	local p n c w
	n=$(wc -l <"$T/list")
	grep -qx "1\.\.$n" "$T/out" || { echo "no plan 1..$n"; return 1; }
	[ "$(grep -cE '^(not )?ok [0-9]+ ' "$T/out")" -eq "$n" ] ||
		{ echo "not $n result lines"; return 1; }
	[ "$(grep -E '^(not )?ok [0-9]+ ' "$T/out" | awk '{ print ($1 == "not") ? $3 : $2 }' | sort -n | paste -sd ' ')" = "$(seq -s ' ' "$n")" ] ||
		{ echo "results not numbered 1..$n"; return 1; }
	while read -r p; do
		c=$(grep -cE "^(not )?ok [0-9]+ selftests: $p( # .*)?$" "$T/out")
		[ "$c" -eq 1 ] || { echo "$p: $c result lines"; return 1; }
		w=$(sed -n '/^# wall time per program/,/^# wall time of the whole run/p' "$T/out" |
			grep -cE "^#   [0-9]+ $p$")
		[ "$w" -eq 1 ] || { echo "$p: $w lines in the wall-time table"; return 1; }
	done <"$T/list"
}

tap_plan 12

# --- two cores ----------------------------------------------------------
mkdir -p "$T/progs"
: >"$T/list"
standin meet-a 1 meet meet-b
standin meet-b "" meet meet-a
standin wide 2 sleep 0.6
standin one-1 1 sleep 0.6
standin failing 1 fail
standin wider 5 sleep 0.6
standin one-2 1 sleep 0.6
standin one-3 "" sleep 0.6
run 2

tap_ok "2 jobs: every stand-in started and ended" t_all_ran
tap_ok "2 jobs: never more than 2 cores in use" t_max_cores 2
tap_ok "2 jobs: two 1-core programs run at the same time" t_overlap meet-a meet-b
tap_ok "2 jobs: a 2-core program and a 5-core one overlap nothing" t_alone wide wider
tap_eq "a failing program: run_tests.sh exits 1" 1 "$(cat "$T/rc")"
tap_eq "a failing program: named in the failed programs line, alone" \
	"# failed programs: $T/progs/failing" "$(grep '^# failed programs:' "$T/out")"
tap_ok "2 jobs: one result line and one wall time per program" t_results_once

# --- one core -----------------------------------------------------------
rm -rf "$T/progs" && mkdir -p "$T/progs"
: >"$T/list"
standin seq-1 1 sleep 0.6
standin seq-2 2 sleep 0.6
standin seq-3 0 sleep 0.6
standin seq-4 "" sleep 0.6
standin skipping 1 skip
run 1

t_one_at_a_time() {
	local o
	t_all_ran || return 1
	o=$(sort -k3,3n "$T/iv" | awk '
		NR > 1 && $3 < end { print prev " still ran when " $1 " started" }
		{ end = $4; prev = $1 }')
	[ -z "$o" ] || { echo "$o"; return 1; }
}
tap_ok "1 job: one at a time (a 2-core and a 0-core program too)" t_one_at_a_time
t_list_order() {
	local want got
	want=$(xargs -n 1 basename <"$T/list" | paste -sd ' ')
	got=$(sort -k3,3n "$T/iv" | cut -d' ' -f1 | paste -sd ' ')
	[ "$want" = "$got" ] || { echo "started: $got; list: $want"; return 1; }
}
tap_ok "1 job: started in list order" t_list_order
tap_eq "all passing: run_tests.sh exits 0" 0 "$(cat "$T/rc")"
tap_eq "a skipped program's result line gives its reason" \
	"ok 5 selftests: $T/progs/skipping # SKIP stand-in has no widget" \
	"$(grep -E '^ok [0-9]+ selftests: .*/skipping( |$)' "$T/out")"
tap_ok "1 job: one result line and one wall time per program" t_results_once
tap_done
