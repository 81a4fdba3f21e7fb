#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One other kernel in make check: build rocetune.ko and rocetune_dcbsim.ko
# W=1 for the installed kernel of SERIES in a copy of the tree
# (build/kernels/<release>/src, so this checkout stays built for its own
# kernel), then run SUITEs (selftests/run_tests.sh patterns) there, in
# guests booting that kernel. Prints TAP: the build, then one point per
# suite program, the suites' own TAP nested behind "# ".
#
#   scripts/kernel-check.sh SERIES SUITE...
#
# selftests/run_tests.sh runs it once per suite of each line of
# selftests/lab/kernels, with RTUNE_RUN_ID set to an id of its run: the
# first of them builds, under a lock, and the others of the same run
# reuse that build and its verdict (build/kernels/<release>/build.stamp)
# instead of copying the tree again under a suite that is running in it.
# Without RTUNE_RUN_ID every call builds.
# The tool is the checkout's build (it does not depend on the kernel).
# A kernel that is not installed skips (exit 4) with the reason; with
# CI=true it fails, since make check installs it (install-deps.sh).
# Needs a built tool (make check builds it) and the lab (run it under the
# lab lock, as every lab run).

set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 1
# shellcheck source=selftests/lib/tap.sh
. selftests/lib/tap.sh

series=${1:-}
[[ $series =~ ^[0-9]+\.[0-9]+$ && $# -ge 2 ]] || {
	echo "usage: $0 SERIES SUITE..." >&2
	exit 2
}
shift
suites=("$@")

rel=$(scripts/kernel.sh --list | awk -v s="$series" \
	'index($1, s ".") == 1 && / headers, image/ { print $1 }' | sort -V | tail -n 1)
if [[ -z $rel ]]; then
	why="kernel $series not installed (scripts/install-deps.sh --kernels $series)"
	if [[ ${CI:-} == true ]]; then
		echo "1..1"
		echo "not ok 1 kernel $series: $why; make check installs it in CI"
		exit 1
	fi
	tap_skip_all "$why"
fi

dir=$TOP/build/kernels/$rel
src=$dir/src
tool=tools/rocetune/rocetune
[[ -x $tool ]] || { echo "kernel-check: $tool not built (make check builds it)" >&2; exit 1; }

# build: copy the tree and build both modules W=1 in it; the build's
# exit status, its warnings and its seconds go to build.stamp after the
# run id.
build() {
	local t0=$SECONDS rc warn
	rm -f "$dir/build.stamp"
	scripts/copy-tree.sh "$src" || return 1
	cp -p "$tool" "$src/$tool"
	(cd "$src" && env -u KDIR -u LAB_KVER -u RTUNE_KERNEL \
		make module KVER="$rel" -j"$(nproc)") >"$dir/build.log" 2>&1
	rc=$?
	warn=$(grep -c 'warning:' "$dir/build.log")
	echo "${RTUNE_RUN_ID:-none} $rc $warn $((SECONDS - t0))" >"$dir/build.stamp"
}

# The plan comes last: a two-host suite gives one point per host.
echo "TAP version 13"
echo "# kernel $rel, suites: ${suites[*]}"
mkdir -p "$dir"
reused=
{
	flock 9
	read -r id rc warn secs _ <"$dir/build.stamp" 2>/dev/null
	if [[ -n ${RTUNE_RUN_ID:-} && ${id:-} == "$RTUNE_RUN_ID" ]]; then
		reused=" by another suite of this run"
	else
		build || exit 1
		read -r id rc warn secs _ <"$dir/build.stamp"
	fi
} 9>"$dir.lock"
n=1
if ((rc == 0 && warn == 0)); then
	echo "ok $n build W=1 for $rel ($secs s$reused)"
else
	grep -E 'error|warning:' "$dir/build.log" | head -n 20 | sed 's/^/# /'
	echo "not ok $n build W=1 for $rel: exit $rc, $warn warning(s); log $dir/build.log"
	echo "1..$n"
	exit 1
fi

# The suites, side by side on this program's cores (run_tests.sh gives it
# RTUNE_TEST_JOBS); the lab's initramfs cache is the checkout's. Their
# TAP goes to a file of their own: other calls may run beside this one.
tap=$dir/suites-$(echo "${suites[*]}" | tr '/. ' '---').tap
(cd "$src" && env -u KDIR -u RTUNE_KERNEL KVER="$rel" LAB_KVER="$rel" \
	LAB_BUILD_DIR="$TOP/build/lab" RTUNE_TEST_OUT="$dir/tests" \
	selftests/run_tests.sh "${suites[@]}") >"$tap" 2>&1
src_rc=$?
sed 's/^/# /' "$tap"
fail=0
while read -r line; do
	n=$((n + 1))
	case $line in
	ok*'# SKIP'*) name=${line#*selftests: }
		echo "ok $n ${name%% # SKIP*} on $rel # SKIP${name#* # SKIP}" ;;
	ok*) echo "ok $n ${line#*selftests: } on $rel" ;;
	*) echo "not ok $n ${line#*selftests: } on $rel"; fail=1 ;;
	esac
done < <(grep -E '^(not )?ok [0-9]+ selftests: ' "$tap")
# Every pattern must have run something: a typo is not a pass.
for s in "${suites[@]}"; do
	grep -qE "^(not )?ok [0-9]+ selftests: .*$s" "$tap" && continue
	n=$((n + 1))
	echo "not ok $n $s on $rel: no such suite ran (run_tests.sh exit $src_rc)"
	fail=1
done
((src_rc == 0)) || fail=1
echo "1..$n"
exit "$fail"
