# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Reading the JSON that `rocetune -j apply` and `rocetune -j diff` print
# (rocetune(8), the global -j), for the suites that check the tool's plan
# and its outcome. Source it; it defines one function:
#
#   rtune_jget FILE QUERY
#     QUERY "actions": how many actions were planned, over every device;
#     "has:CODE": yes or no, whether a note or diagnostic has that code;
#     "rb:": the rollback's actions, "OBJECT=STATUS" separated by spaces;
#     any other: that top-level field (writes, exit_code, ...).
#     Prints nothing for a file that is not JSON.

rtune_jget() {
	python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))
q = sys.argv[2]
if q.startswith("has:"):
    c = q[4:]
    hit = any(n.get("code") == c for d in j.get("devices", []) for n in d.get("notes", []))
    hit |= any(n.get("code") == c for n in j.get("diagnostics", []))
    print("yes" if hit else "no")
elif q.startswith("rb:"):
    rb = j.get("rollback", {})
    print(" ".join(a.get("object", "?") + "=" + a.get("status", "?") for a in rb.get("actions", [])))
elif q == "actions":
    print(sum(len(d.get("actions", [])) for d in j.get("devices", [])))
else:
    print(j.get(q))' "$1" "$2" 2>/dev/null
}
