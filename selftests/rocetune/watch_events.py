#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Read `rocetune -j watch` output: one JSON object per line.

  watch_events.py wait FILE FROM TIMEOUT EXPR
      wait until a line after line FROM (0-based count of lines to skip)
      is an event for which EXPR (Python, the event as `e`) is true; print
      its time (seconds since the epoch) and exit 0, or exit 1 after
      TIMEOUT seconds.
  watch_events.py count FILE FROM EXPR
      print how many events after line FROM match EXPR.
  watch_events.py times FILE FROM EXPR
      print the time (seconds since the epoch) of each matching event.
  watch_events.py lines FILE
      print the number of lines so far.
  watch_events.py check FILE
      every line is a watch event of json_version 1 with the documented
      fields (rocetune(8), "watch"); exit 1 with the reason if not.
"""
import calendar
import json
import sys
import time

EVENTS = {"start", "drift", "in-sync", "note", "device", "repair", "repair-deferred",
          "repair-blocked", "repair-resumed", "giving-up", "error", "stop"}


def events(path, skip):
    with open(path) as f:
        lines = f.read().split("\n")
    # the last piece is either empty or a line still being written
    out = []
    for ln in lines[skip:-1]:
        out.append(json.loads(ln))
    return out


def stamp(e):
    t, frac = e["time"].rstrip("Z").split(".")
    return calendar.timegm(time.strptime(t, "%Y-%m-%dT%H:%M:%S")) + int(frac) / 1000


def matches(expr, e):
    try:
        return bool(eval(expr, {}, {"e": e}))
    except (KeyError, TypeError):
        return False


def check(path):
    for i, e in enumerate(events(path, 0)):
        w = f"line {i + 1}"
        if e.get("json_version") != 1 or e.get("tool") != "rocetune" or e.get("command") != "watch":
            raise ValueError(f"{w}: not a version 1 watch event: {e}")
        if e.get("event") not in EVENTS:
            raise ValueError(f"{w}: unknown event {e.get('event')}")
        stamp(e)
        ev = e["event"]
        if ev in ("drift", "in-sync"):
            for k in ("netdev", "object", "setting", "current", "wanted"):
                if not isinstance(e.get(k), str):
                    raise ValueError(f"{w}: {ev} without {k}")
        if ev == "repair":
            if e.get("result") not in ("repaired", "failed-rolled-back", "failed-not-rolled-back"):
                raise ValueError(f"{w}: repair result {e.get('result')}")
            if not isinstance(e.get("actions"), list):
                raise ValueError(f"{w}: repair without actions")
        if ev == "start":
            if e.get("rdma_events") not in ("netlink", "poll") or not isinstance(e.get("devices"), list):
                raise ValueError(f"{w}: start without rdma_events/devices")


def main():
    cmd = sys.argv[1]
    if cmd == "lines":
        with open(sys.argv[2]) as f:
            print(f.read().count("\n"))
        return 0
    if cmd == "check":
        try:
            check(sys.argv[2])
        except (ValueError, json.JSONDecodeError) as x:
            print(f"# {x}")
            return 1
        return 0
    path, skip = sys.argv[2], int(sys.argv[3])
    if cmd == "count":
        print(sum(matches(sys.argv[4], e) for e in events(path, skip)))
        return 0
    if cmd == "times":
        for e in events(path, skip):
            if matches(sys.argv[4], e):
                print(f"{stamp(e):.3f}")
        return 0
    if cmd == "wait":
        tmo, expr = float(sys.argv[4]), sys.argv[5]
        t0 = time.monotonic()
        while True:
            hit = [e for e in events(path, skip) if matches(expr, e)]
            if hit:
                print(f"{stamp(hit[0]):.3f}")
                return 0
            if time.monotonic() - t0 > tmo:
                return 1
            time.sleep(0.05)
    return 64


if __name__ == "__main__":
    sys.exit(main())
