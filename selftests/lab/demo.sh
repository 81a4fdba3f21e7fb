#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make lab`: boot the two-host Soft-RoCE lab, load rocetune.ko on both,
# and stream what each host shows (configfs tree, live counters while
# perftest runs) to this terminal.

set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
OUT=$TOP/build/lab/demo
rm -rf "$OUT" "$OUT.log"
# The log sits beside the run directory; on a fresh clone neither exists.
mkdir -p "${OUT%/*}" || exit 1
echo "rocetune lab: booting 2 QEMU guests (TCG, about 15 s), output in $OUT"
"$TOP/selftests/lab/lab-run" --hosts 2 --timeout 600 --out "$OUT" --keep \
	--script all="$TOP/selftests/lab/demo-guest.sh" >"$OUT.log" 2>&1 &
lab=$!
# Follow both hosts' output as it is written into the run's share.
for _ in $(seq 600); do [ -d "$OUT/share/host2" ] && break; sleep 0.1; done
touch "$OUT/share/host1/out.tap" "$OUT/share/host2/out.tap" 2>/dev/null
tail -q -n +1 -F "$OUT/share/host1/out.tap" "$OUT/share/host2/out.tap" 2>/dev/null &
tailer=$!
wait $lab
rc=$?
sleep 1
kill $tailer 2>/dev/null
wait $tailer 2>/dev/null
[ $rc -eq 0 ] || { echo "rocetune lab: failed (exit $rc); log: $OUT.log, consoles in $OUT/"; tail -5 "$OUT.log"; }
exit $rc
