#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the dcbsim selftests in lab guests (selftests/lab/lab-run), from the
# host, after building the module:
#
#   make -C /lib/modules/<release>/build M=$PWD/kmod/dcbsim
#   selftests/dcbsim/run.sh [TEST...]
#
# TEST is lifecycle, dcb, fault, counters (one guest each) or stacked (two
# guests); the default is all five. LAB_ARGS adds lab-run options (e.g. --keep).
# Exit status: 0 if every test passed (or skipped), 1 otherwise.

set -u

here=$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")" && pwd)
lab=$here/../lab/lab-run
tests=("$@")
((${#tests[@]})) || tests=(lifecycle dcb fault counters stacked)

failed=()
for t in "${tests[@]}"; do
	case $t in
	lifecycle | dcb | fault | counters) hosts=1 ;;
	stacked) hosts=2 ;;
	*) echo "run.sh: unknown test '$t'" >&2; exit 2 ;;
	esac
	echo "# dcbsim: $t ($hosts guest(s))"
	# shellcheck disable=SC2086 # LAB_ARGS is a list of options
	"$lab" --hosts $hosts --timeout 600 ${LAB_ARGS:-} \
		--script "all=$here/$t.sh"
	rc=$?
	((rc == 0 || rc == 4)) || failed+=("$t")
done

if ((${#failed[@]})); then
	echo "# dcbsim: FAILED: ${failed[*]}"
	exit 1
fi
echo "# dcbsim: all passed"
