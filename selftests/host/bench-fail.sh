#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A bench that fails in a lab guest ends that guest at once
# (bench_fail in bench/lib/lab-bench.sh). lab-stage2 pipes the bench's
# output through tee into the share, and tee ends only when every process
# holding that output has closed it: the samplers a bench starts in the
# background (bench/incast's queue sampler, capture and QP-rate loop) once
# kept host1 of a failed bench/incast run waiting until the guest's
# timeout, 39 minutes. Here a "bench" on the host sources lab-bench.sh,
# starts such samplers and fails; its output goes through a pipe, as in
# the guest, and the pipe must close within seconds.

# shellcheck disable=SC2016 # the bench's text is expanded by its own shell
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib/tap.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/rocetune-bench-fail.XXXXXX")
trap 'pkill -f "$T/" 2>/dev/null; rm -rf "$T"' EXIT
mkdir -p "$T/share/host1"

# The bench: a loop like the QP-rate monitor, a long sleep like a
# sampler, then a failure. The samplers are named by $T, so that this
# test can find (and clean up) whatever survives.
cat >"$T/bench.sh" <<EOF2
#!/bin/bash
export LAB_HOST=1 LAB_HOSTS=2 LAB_RUN_DIR=$T/share LAB_HOST_DIR=$T/share/host1
. "$TOP/bench/lib/lab-bench.sh"
( while :; do sleep 0.25; done ) &
bash -c 'exec -a "$T/sampler" sleep 300' &
sleep 0.5
bench_fail "perftest run on-16-3 failed"
EOF2
chmod +x "$T/bench.sh"

tap_plan 3

# The guest's pipeline: the bench, its output through a pipe to a file.
# The file of its exit status appears when the pipe has closed.
t0=$SECONDS
bash -c '"$1" </dev/null 2>&1 | cat >"$2"; echo "${PIPESTATUS[0]}" >"$3"' \
	_ "$T/bench.sh" "$T/out" "$T/rc" &
for _ in $(seq 100); do
	[[ -s $T/rc ]] && break
	sleep 0.1
done
secs=$((SECONDS - t0))
rc=$(cat "$T/rc" 2>/dev/null || echo "none: its output was still open")

if grep -qx 'not ok 1 bench: perftest run on-16-3 failed' "$T/out" && [[ $rc == 1 ]]; then
	tap_pass "the failed bench says why and exits 1"
else
	tap_fail "the failed bench says why and exits 1 (exit status $rc; output: $(tr '\n' '|' <"$T/out"))"
fi
if [[ -s $T/rc ]]; then
	tap_pass "its output closed within ${secs} s"
else
	tap_fail "its output was still open after ${secs} s: background samplers outlived bench_fail"
fi
if pgrep -f "$T/sampler" >/dev/null; then
	tap_fail "the sampler still runs after bench_fail"
else
	tap_pass "no sampler outlives bench_fail"
fi
tap_done
