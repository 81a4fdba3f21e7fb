#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Validate rocetune --json output (json_version 1) against the shape
documented in rocetune(8). Reads one document on stdin; exit 1 with a
reason if it does not conform."""
import json
import sys

STR, INT, BOOL, LIST, DICT, NONE = str, int, bool, list, dict, type(None)
RESULTS = {"valid", "invalid-profile", "unchanged", "changed", "changes-pending",
           "precondition-failed", "failed-rolled-back", "failed-not-rolled-back",
           "error", "ok"}
STATUS = {"planned", "applied", "failed", "not-run"}


def need(obj, key, types, where):
    if key not in obj:
        raise ValueError(f"{where}: missing '{key}'")
    if not isinstance(obj[key], types) or (types in (INT, (INT, NONE)) and isinstance(obj[key], bool)):
        raise ValueError(f"{where}.{key}: wrong type {type(obj[key]).__name__}")
    return obj[key]


def check(doc):
    need(doc, "json_version", INT, "$")
    if doc["json_version"] != 1:
        raise ValueError("json_version is not 1")
    need(doc, "tool", STR, "$")
    need(doc, "version", STR, "$")
    cmd = need(doc, "command", STR, "$")
    need(doc, "profile", (STR, NONE), "$")
    need(doc, "dry_run", BOOL, "$")
    if need(doc, "result", STR, "$") not in RESULTS:
        raise ValueError(f"unknown result {doc['result']}")
    code = need(doc, "exit_code", INT, "$")
    if code not in (0, 1, 2, 3):
        raise ValueError("bad exit_code")
    need(doc, "writes", INT, "$")
    for i, d in enumerate(need(doc, "diagnostics", LIST, "$")):
        w = f"$.diagnostics[{i}]"
        if need(d, "severity", STR, w) not in ("error", "warning"):
            raise ValueError(f"{w}.severity")
        need(d, "code", STR, w)
        need(d, "file", (STR, NONE), w)
        need(d, "line", (INT, NONE), w)
        need(d, "section", (STR, NONE), w)
        need(d, "key", (STR, NONE), w)
        need(d, "message", STR, w)
    if cmd == "show":
        for i, dev in enumerate(need(doc, "state", LIST, "$")):
            w = f"$.state[{i}]"
            need(dev, "netdev", STR, w)
            need(dev, "mtu", INT, w)
            need(dev, "rdma_device", (STR, NONE), w)
            dcb = need(dev, "dcb", DICT, w)
            need(dcb, "supported", BOOL, w + ".dcb")
            need(dcb, "dscp_prio", LIST, w + ".dcb")
            rw = need(dcb, "rewrite", (DICT, NONE), w + ".dcb")
            if rw is not None:
                need(rw, "prio_dscp", LIST, w + ".dcb.rewrite")
                need(rw, "prio_pcp", LIST, w + ".dcb.rewrite")
            need(dev, "rdma_cm", (DICT, NONE), w)
            need(dev, "cc", (DICT, NONE), w)
        return
    if cmd == "check":
        return
    for i, dev in enumerate(need(doc, "devices", LIST, "$")):
        w = f"$.devices[{i}]"
        need(dev, "netdev", STR, w)
        need(dev, "rdma_device", (STR, NONE), w)
        need(dev, "port", (INT, NONE), w)
        for n in need(dev, "notes", LIST, w):
            need(n, "severity", STR, w + ".notes")
            need(n, "code", STR, w + ".notes")
            need(n, "message", STR, w + ".notes")
        for a in need(dev, "actions", LIST, w):
            need(a, "object", STR, w + ".actions")
            need(a, "change", STR, w + ".actions")
            if need(a, "status", STR, w + ".actions") not in STATUS:
                raise ValueError(f"{w}: bad status")
            need(a, "error", (STR, NONE), w + ".actions")
    if doc["result"] in ("invalid-profile", "error"):
        return
    need(doc, "host_notes", LIST, "$")
    rb = need(doc, "rollback", DICT, "$")
    need(rb, "attempted", BOOL, "$.rollback")
    need(rb, "complete", BOOL, "$.rollback")
    for a in need(rb, "actions", LIST, "$.rollback"):
        need(a, "netdev", STR, "$.rollback.actions")
        need(a, "object", STR, "$.rollback.actions")
        if need(a, "status", STR, "$.rollback.actions") not in ("restored", "failed"):
            raise ValueError("rollback status")
    need(doc, "saved_state", (STR, NONE), "$")


try:
    check(json.load(sys.stdin))
except (ValueError, json.JSONDecodeError) as e:
    print(f"# json_check: {e}")
    sys.exit(1)
