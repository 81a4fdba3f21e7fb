#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check with iproute2 alone (dcb, ip) and configfs that a netdev is in the
state a rocetune.conf(5) profile declares. Independent of rocetune's own
parser and reader on purpose. Prints one line per mismatch; exit 1 if any.

usage: readback.py PROFILE NETDEV [IBDEV PORT]
"""
import configparser
import json
import os
import subprocess
import sys


def sh_json(*cmd):
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out) if out.strip() else {}


def prio_mask(text):
    if text.strip() == "none":
        return set()
    s = set()
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        s.update(range(int(lo), int(hi or lo) + 1))
    return s


def dscp_map(text):
    m = {}
    for tok in text.split():
        if tok == "default":
            m.update({d: d >> 3 for d in range(64)})
            continue
        d, p = tok.split(":")
        lo, _, hi = d.partition("-")
        for x in range(int(lo), int(hi or lo) + 1):
            m[x] = int(p)
    return m


def main():
    prof, dev = sys.argv[1], sys.argv[2]
    ibdev = sys.argv[3] if len(sys.argv) > 3 else None
    port = sys.argv[4] if len(sys.argv) > 4 else "1"
    cp = configparser.ConfigParser(inline_comment_prefixes=("#",), interpolation=None)
    cp.read(prof)
    bad = []

    def want(sec, key):
        return cp.get(sec, key) if cp.has_option(sec, key) else None

    mtu = want("link", "mtu")
    if mtu:
        got = sh_json("ip", "-j", "link", "show", "dev", dev)[0]["mtu"]
        if got != int(mtu):
            bad.append(f"mtu: ip link says {got}, profile {mtu}")
    pfc = want("pfc", "priorities")
    if pfc:
        j = sh_json("dcb", "-j", "pfc", "show", "dev", dev)
        got = {i for i, on in enumerate(j["prio_pfc"]) if on}
        if got != prio_mask(pfc):
            bad.append(f"pfc: dcb says {sorted(got)}, profile {pfc}")
    delay = want("pfc", "delay")
    if delay:
        j = sh_json("dcb", "-j", "pfc", "show", "dev", dev)
        if j["delay"] != int(delay):
            bad.append(f"pfc delay: dcb says {j['delay']}, profile {delay}")
    mode = want("trust", "mode")
    if mode:
        j = sh_json("dcb", "-j", "app", "show", "dev", dev)
        got = {}
        for e in j.get("dscp_prio", []):
            got.setdefault(int(e[0]), set()).add(int(e[1]))
        exp = dscp_map(want("trust", "dscp_prio") or "") if mode == "dscp" else {}
        exp = {d: {p} for d, p in exp.items()}
        if got != exp:
            diff = sorted((d, sorted(got.get(d, ())), sorted(exp.get(d, ())))
                          for d in set(got) | set(exp) if got.get(d) != exp.get(d))[:6]
            bad.append(f"dscp-prio: dcb app differs from profile, e.g. {diff}")
    if cp.has_section("ets"):
        j = sh_json("dcb", "-j", "ets", "show", "dev", dev)
        for key, jkey in (("prio_tc", "prio_tc"), ("bw", "tc_bw"), ("tsa", "tc_tsa")):
            exp = want("ets", key).split()
            got = [str(x) for x in j[jkey]]
            if got != exp:
                bad.append(f"ets {key}: dcb says {got}, profile {exp}")
    if ibdev and cp.has_section("rdma_cm"):
        d = f"/sys/kernel/config/rdma_cm/{ibdev}"
        made = not os.path.isdir(d)
        if made:
            os.mkdir(d)
        try:
            m = open(f"{d}/ports/{port}/default_roce_mode").read().strip()
            t = open(f"{d}/ports/{port}/default_roce_tos").read().strip()
        finally:
            if made:
                os.rmdir(d)
        if want("rdma_cm", "roce_mode") and m != {"v2": "RoCE v2", "v1": "IB/RoCE v1"}[want("rdma_cm", "roce_mode")]:
            bad.append(f"roce_mode: configfs says {m!r}")
        if want("rdma_cm", "tos") and int(t) != int(want("rdma_cm", "tos")):
            bad.append(f"tos: configfs says {t}")
    if ibdev and cp.has_section("cc"):
        d = f"/sys/kernel/config/rocetune/{ibdev}/ports/{port}/cc"
        for key, val in cp.items("cc"):
            if key == "preset":
                continue
            got = open(f"{d}/active/{key}").read().strip()
            if key.endswith("_prios"):
                ok = prio_mask(got) == prio_mask(val)
            else:
                ok = got == val
            if not ok:
                bad.append(f"cc {key}: configfs says {got}, profile {val}")
    for b in bad:
        print(f"# {dev}: {b}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
