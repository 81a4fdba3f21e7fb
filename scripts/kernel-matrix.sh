#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel matrix: for each installed kernel (image and headers), build
# the module W=1 and the tools, run the DKMS test (dkms build/install for
# that kernel, then depmod and modprobe of the installed module in a guest
# on it) and the in-guest suites on that kernel, and print one table, the
# failed programs and the reasons of the skipped test points per kernel.
# Documentation/kernels.rst says what each kernel is expected to pass.
#
#   scripts/kernel-matrix.sh [--kernels "KVER..."] [--suites "PATTERN..."]
#                            [--full] [--no-dkms] [--no-suites]
#
#   --kernels  the releases to test (default: every kernel
#              `scripts/kernel.sh --list` shows with headers and an image)
#   --suites   run_tests.sh patterns (default: the control plane and one
#              DCQCN suite, $DEFAULT_SUITES below)
#   --full     every in-guest suite, and the host tests that boot the
#              kernel under test (kselftest, lab-strict, make-lab), on
#              every kernel; the kernel-independent host tests (unit,
#              fuzz, docs, packaging) are make check's, run once there
#
# Each kernel gets its own copy of the tree, build/matrix/<kver>/src (the
# working tree's files, tracked and untracked but not ignored), so the
# checkout stays built for its own kernel. Logs: build/matrix/<kver>/.
# The lab phases of a kernel (the DKMS guest, then the suites) run under
# one hold of the machine-wide lab lock (RTUNE_LAB_LOCK, default
# /tmp/rocetune-lab.lock; empty: no lock); builds run without it. Do not
# wrap this script in flock yourself. Exit status 0 when every cell passed.

set -uo pipefail
TOP=$(cd "$(dirname "$0")/.." && pwd)
cd "$TOP" || exit 2
DEFAULT_SUITES="kmod/lifecycle kmod/params kmod/counters dcbsim/ rocetune/apply dcqcn/idle-pacing"
LOCK=${RTUNE_LAB_LOCK-/tmp/rocetune-lab.lock}

kernels=
suites=$DEFAULT_SUITES
do_dkms=1
do_suites=1
while (($#)); do
	case $1 in
	--kernels) kernels=$2; shift ;;
	--suites) suites=$2; shift ;;
	--full) suites=FULL ;;
	--no-dkms) do_dkms=0 ;;
	--no-suites) do_suites=0 ;;
	-h | --help) sed -n '3,29p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) echo "kernel-matrix: unknown option $1" >&2; exit 2 ;;
	esac
	shift
done

# The --full set: every registered in-guest suite by its path, plus the
# host tests whose guests boot the kernel under test.
if [[ $suites == FULL ]]; then
	suites="$(selftests/run_tests.sh --list | sed -n 's/ (lab, .*//p' | tr '\n' ' ')"
	suites+="selftests/host/kselftest.sh selftests/host/lab-strict.sh selftests/host/make-lab.sh"
	full=1
else
	full=0
fi

if [[ -z $kernels ]]; then
	kernels=$(scripts/kernel.sh --list | awk '/ headers, image/ { print $1 }')
fi
[[ -n $kernels ]] || { echo "kernel-matrix: no kernel with headers and image" >&2; exit 2; }

# The tree's files as a release would have them, plus untracked work.
copy_tree() { scripts/copy-tree.sh "$1"; }

# tap_counts FILE: "P/F/S" over the TAP test points in FILE (nested TAP
# behind "# " not counted twice: only top-level lines).
tap_counts() {
	local f=$1 p s n
	p=$(grep -cE '^ok [0-9]+' "$f")
	s=$(grep -cE '^ok [0-9]+.*# SKIP' "$f")
	n=$(grep -cE '^not ok [0-9]+' "$f")
	echo "$((p - s))/$n/$s"
}

secs() { echo $((${EPOCHREALTIME/./} / 1000000)); }

declare -A r_build r_dkms r_suites r_wall r_times
status=0
repo=$(git -C "$TOP" rev-parse --show-toplevel 2>/dev/null)
t_start=$(secs)
for k in $kernels; do
	dir=$TOP/build/matrix/$k
	src=$dir/src
	echo "kernel-matrix: === $k (logs in build/matrix/$k/)"
	mkdir -p "$dir"
	copy_tree "$src"
	# host/make-lab (--full) clones a repository: the copy is none, so
	# it clones this tree's repository at HEAD (the committed tree).
	run() { (cd "$src" && env -u LAB_KVER -u KDIR -u RTUNE_KERNEL KVER="$k" \
		${repo:+MAKE_LAB_REPO="$repo"} "$@"); }
	t0=$(secs)

	run make all SANITIZE=1 >"$dir/build.log" 2>&1 &&
		run make -C selftests/unit all >>"$dir/build.log" 2>&1
	rc=$?
	warn=$(grep -c 'warning:' "$dir/build.log")
	if ((rc == 0)); then
		r_build[$k]="PASS ${warn}w"
		((warn == 0)) || status=1
	else
		r_build[$k]="FAIL ${warn}w"
		status=1
		grep -m 3 'error' "$dir/build.log" | sed "s/^/kernel-matrix: $k: /"
	fi
	t1=$(secs)

	# The lab lock is taken once per kernel: by dkms.sh when its guest is
	# about to boot (on this script's descriptor, so it stays held after
	# dkms.sh exits), else just before the suites; it is let go after
	# them. DKMS runs on a pristine copy of its own (dkms.sh packs the
	# tree it is in).
	lockfd=
	[[ -n $LOCK ]] && exec {lockfd}>>"$LOCK"
	if ((do_dkms)); then
		copy_tree "$dir/src-dkms"
		(cd "$dir/src-dkms" && env -u LAB_KVER -u KDIR -u RTUNE_KERNEL KVER="$k" \
			RTUNE_DKMS_LAB_LOCK_FD="$lockfd" selftests/host/dkms.sh) >"$dir/dkms.tap" 2>&1
		drc=$?
		rm -rf "$dir/src-dkms"
		c=$(tap_counts "$dir/dkms.tap")
		if ((drc == 0)); then r_dkms[$k]="PASS $c"; else r_dkms[$k]="FAIL $c"; status=1; fi
	else
		r_dkms[$k]=-
	fi
	t2=$(secs)

	if ((do_suites)) && ((rc == 0)); then
		[[ -n $lockfd ]] && flock "$lockfd"
		# shellcheck disable=SC2086
		run selftests/run_tests.sh $suites >"$dir/suites.tap" 2>&1
		src_rc=$?
		line=$(grep -E '^rocetune: [0-9]+ passed' "$dir/suites.tap" | tail -n 1)
		line=${line#rocetune: }
		if ((src_rc == 0)); then r_suites[$k]="PASS $line"; else r_suites[$k]="FAIL $line"; status=1; fi
	elif ((do_suites)); then
		r_suites[$k]="not run (build failed)"
	else
		r_suites[$k]=-
	fi
	[[ -n $lockfd ]] && exec {lockfd}>&-
	t3=$(secs)
	r_wall[$k]=$((t3 - t0))
	r_times[$k]="build $((t1 - t0))s, dkms $((t2 - t1))s, suites $((t3 - t2))s"
	echo "kernel-matrix: $k: build ${r_build[$k]}, dkms ${r_dkms[$k]}, suites ${r_suites[$k]} (${r_times[$k]})"
done

# skips FILE: the distinct reasons of the skipped test points in a
# run_tests.sh log, nested ones included, with their counts.
skips() {
	sed -n 's/^\(# \)*ok [0-9][0-9]* .*# SKIP *//p' "$1" | sort | uniq -c | sort -rn
}

{
	echo
	if ((full)); then
		echo "suites: every in-guest suite (--full, $(wc -w <<<"$suites") programs)"
	else
		echo "suites: $suites"
	fi
	printf '%-22s %-12s %-15s %-42s %s\n' kernel "build(W=1)" "dkms(p/f/s)" "suites" wall
	for k in $kernels; do
		printf '%-22s %-12s %-15s %-42s %s\n' "$k" "${r_build[$k]}" "${r_dkms[$k]}" \
			"${r_suites[$k]}" "${r_wall[$k]}s (${r_times[$k]})"
	done
	for k in $kernels; do
		f=$TOP/build/matrix/$k/suites.tap
		[[ -f $f ]] || continue
		grep -h '^# failed programs:' "$TOP/build/matrix/$k/dkms.tap" "$f" 2>/dev/null |
			sed "s/^# /$k: /"
		grep -hE '^not ok [0-9]+' "$TOP/build/matrix/$k/dkms.tap" 2>/dev/null |
			sed "s/^/$k: dkms: /"
		skips "$f" | sed "s/^ */$k: skipped /"
	done
	echo "total wall time: $(($(secs) - t_start))s"
} | tee "$TOP/build/matrix/summary.txt"
exit "$status"
