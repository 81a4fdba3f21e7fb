#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Pick one value out of a tool's output, JSON or text.

    CMD | toolout.py KEY [INDEX]

JSON (ethtool --json, dcb -j): the value of the first KEY found, depth
first, in any object; with INDEX, element INDEX of it (a list, or an
object keyed by the index). Text ("Key: value" lines, as ethtool prints):
the value after the first "KEY:" (or "GROUP-KEY:"). Prints the value (JSON booleans as
true/false); exits 1 if KEY is not there, so a missing counter cannot
pass for a zero.
"""

import json
import re
import sys


def find(node, key):
    if isinstance(node, dict):
        if key in node:
            return True, node[key]
        node = list(node.values())
    if isinstance(node, list):
        for item in node:
            ok, val = find(item, key)
            if ok:
                return ok, val
    return False, None


def show(val):
    if isinstance(val, bool):
        return "true" if val else "false"
    return str(val)


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit("usage: toolout.py KEY [INDEX]")
    key = sys.argv[1]
    text = sys.stdin.read()
    try:
        doc = json.loads(text)
    except ValueError:
        doc = None
    if doc is not None:
        ok, val = find(doc, key)
        if not ok:
            sys.exit(1)
        if len(sys.argv) == 3:
            idx = sys.argv[2]
            if isinstance(val, list) and int(idx) < len(val):
                val = val[int(idx)]
            elif isinstance(val, dict) and idx in val:
                val = val[idx]
            else:
                sys.exit(1)
        print(show(val))
        return
    # ethtool's text prefixes a standard group's counters with the group
    # ("eth-phy-SymbolErrorDuringCarrier: 0").
    m = re.search(r"^\s*(?:[\w-]+-)?" + re.escape(key) + r":\s*(.*?)\s*$",
                  text, re.M)
    if not m:
        sys.exit(1)
    print(m.group(1))


if __name__ == "__main__":
    main()
