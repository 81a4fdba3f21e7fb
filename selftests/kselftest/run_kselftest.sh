#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Run the installed rocetune selftests, kselftest style. Installed by
#     make -C selftests install INSTALL_PATH=DIR
# as DIR/run_kselftest.sh, beside DIR/kselftest-list.txt (the
# COLLECTION:PROG entries) and DIR/kselftest/runner.sh. Run it as root on
# the node; suites that need the QEMU lab or hardware the node lacks skip
# with the reason. See Documentation/testing.rst.

set -u
BASE_DIR=$(dirname "$(readlink -f "$0")")
LIST=$BASE_DIR/kselftest-list.txt
# shellcheck source=runner.sh
. "$BASE_DIR/kselftest/runner.sh"

usage() {
	cat <<EOF
Usage: $0 [OPTIONS]
  -s | --summary                Print only the result lines; every program's
                                output goes to $BASE_DIR/output.log
  -t | --test COLLECTION:TEST   Run TEST from COLLECTION (repeatable)
  -S | --skip COLLECTION:TEST   Do not run TEST from COLLECTION (repeatable)
  -c | --collection COLLECTION  Run every test of COLLECTION (repeatable)
  -l | --list                   List the available COLLECTION:TEST entries
  -d | --dry-run                List what would run, run nothing
  -o | --override-timeout SECS  Time limit of every test, not settings'
  -f | --no-error-on-fail       Exit 0 even when tests failed
  -h | --help                   This help
Exit status: 0 when no test failed (skips are not failures), 1 otherwise,
2 on a usage error.
EOF
	exit "$1"
}

need_arg() { (($# >= 2)) || { echo "$0: $1 needs an argument" >&2; usage 2 >&2; }; }

tests=() collections=() skips=()
list='' dry='' error_on_fail=1
while (($#)); do
	case $1 in
	-s | --summary)
		KSFT_LOGFILE=$BASE_DIR/output.log
		: >"$KSFT_LOGFILE" || exit 2
		shift ;;
	-t | --test) need_arg "$@"; tests+=("$2"); shift 2 ;;
	-S | --skip) need_arg "$@"; skips+=("$2"); shift 2 ;;
	-c | --collection) need_arg "$@"; collections+=("$2"); shift 2 ;;
	-l | --list) list=1; shift ;;
	-d | --dry-run) dry=1; shift ;;
	-o | --override-timeout) need_arg "$@"; KSFT_TIMEOUT=$2; shift 2 ;;
	-f | --no-error-on-fail) error_on_fail=; shift ;;
	-h | --help) usage 0 ;;
	*) echo "$0: unknown option '$1'" >&2; usage 2 >&2 ;;
	esac
done

if [[ ! -r $LIST ]]; then
	echo "$0: no list of tests ($LIST): install with make -C selftests install" >&2
	exit 2
fi
available=()
while IFS= read -r line; do
	[[ -n $line ]] && available+=("$line")
done <"$LIST"

if [[ -n $list ]]; then
	printf '%s\n' "${available[@]}"
	exit 0
fi

# The selection keeps the list's order (kmod first: if the module's own
# basics fail, the rest means little).
declare -A want=()
ok=1
for c in "${collections[@]}"; do
	found=
	for a in "${available[@]}"; do
		[[ $a == "$c":* ]] && { want[$a]=1; found=1; }
	done
	[[ -n $found ]] || { echo "$0: no such collection '$c'" >&2; ok=; }
done
for t in "${tests[@]}"; do
	found=
	for a in "${available[@]}"; do
		[[ $a == "$t" ]] && { want[$a]=1; found=1; }
	done
	[[ -n $found ]] || { echo "$0: no such test '$t'" >&2; ok=; }
done
[[ -n $ok ]] || exit 2
for s in "${skips[@]}"; do
	want[$s]=0
done
selected=()
for a in "${available[@]}"; do
	if ((${#collections[@]} + ${#tests[@]})); then
		[[ ${want[$a]:-} == 1 ]] || continue
	else
		[[ ${want[$a]:-} != 0 ]] || continue
	fi
	selected+=("$a")
done

if [[ -n $dry ]]; then
	printf '%s\n' "${selected[@]}"
	exit 0
fi

ksft_run_many "${selected[@]}"
if [[ -n $error_on_fail ]] && ((KSFT_CNT_FAIL)); then
	exit "$KSFT_FAIL"
fi
exit "$KSFT_PASS"
