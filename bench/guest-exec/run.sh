#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark: what one program start costs in a lab guest, per kernel.
# The lab's suites are shell scripts that start thousands of programs
# (rocetune, ip, dcb, rdma, python3), so this cost sets how long a suite
# takes on a kernel; 5.10's suites take about twice as long as 6.1's
# (Documentation/kernels.rst). Per kernel, one guest measures, as the
# median of REPS rounds, the milliseconds of one start of:
#
#   true     /bin/true (dynamic, coreutils) from the 9p/overlay root
#   dd       dd count=1 (coreutils with its locale setup), from the root
#   bb       busybox true (static), from the root
#   bb_tmpfs the same busybox copied into tmpfs: no 9p, no overlay
#   loop     1000 iterations of a bash arithmetic loop (no syscall), per
#            1000, for the CPU alone
#
# and prints each against the first kernel's (the reference, 6.1 by
# default) as a ratio. A guest that measured nothing fails the run.
#
# On the host: bench/guest-exec/run.sh [KVER...] (default: every kernel
# with an image that `scripts/kernel.sh --list` shows, 6.1 first); takes
# the lab lock per guest. Results: TAP diagnostics, and
# bench/guest-exec/results.txt.
set -uo pipefail
here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
top=$(cd "$here/../.." && pwd)
REPS=${REPS:-3}
N=${N:-50}

if [[ -z ${LAB_HOST:-} ]]; then
	kernels=("$@")
	if ((${#kernels[@]} == 0)); then
		mapfile -t kernels < <("$top/scripts/kernel.sh" --list |
			awk '/image/ { print $1 }' | sort -t. -k1,1n -k2,2n |
			awk '/^6\.1\./ { print; next } { rest = rest $0 "\n" } END { printf "%s", rest }')
	fi
	((${#kernels[@]})) || { echo "guest-exec: no kernel with an image" >&2; exit 2; }
	out=$(mktemp -d /tmp/rocetune-bench.XXXXXX)
	lines=()
	for k in "${kernels[@]}"; do
		LAB_KVER=$k flock "${RTUNE_LAB_LOCK:-/tmp/rocetune-lab.lock}" \
			"$top/selftests/lab/lab-run" --hosts 1 --timeout 900 --out "$out/$k" \
			--env "REPS=$REPS" --env "N=$N" --script "1=$here/run.sh" > "$out/$k.log" 2>&1
		tap=$out/$k/share/host1/out.tap
		l=$(grep "^# bench " "$tap" 2>/dev/null)
		if [[ -z $l ]]; then
			echo "guest-exec: $k measured nothing (see $out/$k.log)" >&2
			exit 1
		fi
		lines+=("$l")
	done
	# The ratios against the first kernel, cell by cell.
	res=$(printf '%s\n' "${lines[@]}" | awk '
		{ for (i = 3; i <= NF; i++) { split($i, kv, "="); v[NR, kv[1]] = kv[2]; if (NR == 1) key[i] = kv[1] } line[NR] = $0; n = NR; last = NF }
		END {
			for (r = 1; r <= n; r++) {
				s = line[r]
				if (r > 1) {
					s = s " vs_first:"
					for (i = 4; i <= last; i++)
						s = s sprintf(" %s=%.2f", key[i], v[r, key[i]] / v[1, key[i]])
				}
				print s
			}
		}')
	printf '%s\n' "$res"
	{
		echo "# lab guest program starts: bench/guest-exec/run.sh (REPS=$REPS N=$N), ms per start, median of $REPS rounds"
		echo "# $(date -u +%FT%TZ), one guest at a time (QEMU TCG, 1 vCPU), ratios against the first line"
		printf '%s\n' "$res"
	} > "$here/results.txt"
	exit 0
fi
. "$top/selftests/lib/tap.sh"

# ms of one run of "$@", over N runs
per_start() {
	local t0 t1 i
	t0=$EPOCHREALTIME
	for ((i = 0; i < N; i++)); do "$@" >/dev/null 2>&1; done
	t1=$EPOCHREALTIME
	echo "$t0 $t1" | awk -v n="$N" '{ printf "%.2f", ($2 - $1) * 1000 / n }'
}
loop_ms() {
	local t0 t1 i=0
	t0=$EPOCHREALTIME
	while ((i < 100000)); do ((i++)); done
	t1=$EPOCHREALTIME
	echo "$t0 $t1" | awk '{ printf "%.2f", ($2 - $1) * 1000 / 100 }'
}
median() { sort -n | awk '{ a[NR] = $1 } END { if (NR) print a[int((NR + 1) / 2)] }'; }

BB=$(command -v busybox) || tap_bail "no busybox: nothing to measure"
cp "$BB" /dev/shm/bb || tap_bail "cannot copy busybox into tmpfs"
declare -A S
for ((r = 0; r < REPS; r++)); do
	S[true]+="$(per_start /bin/true)"$'\n'
	S[dd]+="$(per_start dd if=/dev/zero of=/dev/null bs=1 count=1)"$'\n'
	S[bb]+="$(per_start "$BB" true)"$'\n'
	S[bb_tmpfs]+="$(per_start /dev/shm/bb true)"$'\n'
	S[loop]+="$(loop_ms)"$'\n'
done
line="# bench kernel=$(uname -r)"
for k in true dd bb bb_tmpfs loop; do
	m=$(printf '%s' "${S[$k]}" | median)
	if ! [[ $m =~ ^[0-9]+(\.[0-9]+)?$ ]] || ! awk -v m="$m" 'BEGIN { exit !(m > 0) }'; then
		tap_bail "$k: no sample ('$m')"
	fi
	line+=" ${k}_ms=$m"
done
echo "$line"
tap_plan 1
tap_ok "every cell measured" true
