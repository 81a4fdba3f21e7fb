#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""qsample.py IFACE KIND PERIOD_S OUT: every PERIOD_S seconds, append
"epoch_s backlog_bytes" of IFACE's qdisc of KIND (e.g. red) to OUT, until
SIGTERM. One rtnetlink dump per sample: forking tc for each sample takes
most of a second in a TCG guest, too slow to see a queue move."""
import os
import signal
import socket
import struct
import sys
import time

RTM_GETQDISC = 38
NLM_F_REQUEST, NLM_F_DUMP = 1, 0x300
NLMSG_DONE, NLMSG_ERROR = 3, 2
TCA_KIND, TCA_STATS2 = 1, 7
TCA_STATS_QUEUE = 3

iface, kind, period, out = sys.argv[1], sys.argv[2].encode(), float(sys.argv[3]), sys.argv[4]
ifindex = socket.if_nametoindex(iface)
stop = False


def term(*_):
    global stop
    stop = True


def attrs(buf):
    """(type, payload) of each netlink attribute in buf."""
    off = 0
    while off + 4 <= len(buf):
        ln, typ = struct.unpack_from('=HH', buf, off)
        if ln < 4 or off + ln > len(buf):
            return
        yield typ & 0x3fff, buf[off + 4:off + ln]
        off += (ln + 3) & ~3


def backlog(sock, seq):
    """The backlog of the first qdisc of KIND on the interface, or None."""
    tcm = struct.pack('=BxxxiIII', socket.AF_UNSPEC, ifindex, 0, 0, 0)
    hdr = struct.pack('=IHHII', 16 + len(tcm), RTM_GETQDISC, NLM_F_REQUEST | NLM_F_DUMP, seq, 0)
    sock.send(hdr + tcm)
    found = None
    while True:
        data = sock.recv(65536)
        off = 0
        while off + 16 <= len(data):
            ln, typ, _, _, _ = struct.unpack_from('=IHHII', data, off)
            if ln < 16:
                return found
            if typ in (NLMSG_DONE, NLMSG_ERROR):
                return found
            msg = data[off + 16:off + ln]
            if len(msg) >= 20 and struct.unpack_from('=i', msg, 4)[0] == ifindex:
                a = dict(attrs(msg[20:]))
                if a.get(TCA_KIND, b'').rstrip(b'\0') == kind and TCA_STATS2 in a:
                    q = dict(attrs(a[TCA_STATS2])).get(TCA_STATS_QUEUE)
                    if q and len(q) >= 8 and found is None:
                        found = struct.unpack_from('=II', q, 0)[1]
            off += (ln + 3) & ~3


signal.signal(signal.SIGTERM, term)
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
s.bind((0, 0))
seq = 0
with open(out, 'w') as f:
    while not stop:
        seq += 1
        b = backlog(s, seq)
        if b is not None:
            f.write("%.3f %d\n" % (time.time(), b))
            f.flush()
        time.sleep(period)
