#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bounded libFuzzer run of every harness in selftests/fuzz: replays the
# inputs that once crashed (regress/) and fuzzes each parser for
# FUZZ_TIME seconds (default 12). One TAP line per harness, with its
# execution count. Needs clang with libFuzzer; without it, a skip.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib/tap.sh"
F=$TOP/selftests/fuzz
CLANG=${CLANG:-clang}

command -v "$CLANG" >/dev/null || tap_skip_all "clang not installed (make deps)"
probe=$(mktemp -d "${TMPDIR:-/tmp}/rocetune-fuzz.XXXXXX")
trap 'rm -rf "$probe"' EXIT
printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' >"$probe/p.c"
"$CLANG" -fsanitize=fuzzer,address,undefined -o "$probe/p" "$probe/p.c" >/dev/null 2>&1 ||
	tap_skip_all "$CLANG cannot link -fsanitize=fuzzer (libFuzzer missing: install libclang-rt-14-dev)"

FUZZERS=$(make -s -C "$F" --no-print-directory -f Makefile -f - print-fuzzers <<<'print-fuzzers: ; @echo $(FUZZERS)')
set -- $FUZZERS
tap_plan $(($# + 1))
tap_ok "fuzz harnesses build" make -C "$F" CLANG="$CLANG" all

start=$(date +%s)
out=$(cd "$F" && ./run.sh "${FUZZ_TIME:-12}" "$@" 2>&1)
for h in "$@"; do
	read -r _ _ res execs nreg secs why <<<"$(grep "^RESULT $h " <<<"$out")"
	desc="fuzz_$h: $execs executions in ${secs}s, $nreg regression inputs replayed"
	if [ "$res" = ok ]; then
		tap_pass "$desc"
	else
		tap_fail "fuzz_$h" "${why:-no result from run.sh}"
	fi
done
tap_diag "bounded run took $(($(date +%s) - start))s"
tap_done
