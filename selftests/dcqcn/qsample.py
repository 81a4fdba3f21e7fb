#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""qsample.py [--sent] IFACE KIND PERIOD_S OUT: every PERIOD_S seconds,
append "epoch_s backlog_bytes" of IFACE's qdisc of KIND (e.g. red) to OUT,
until SIGTERM. With --sent each line also has the qdisc's cumulative
"bytes packets" sent (the counters "tc -s qdisc" shows as "Sent"), so that
what left the qdisc between two samples is known to the sample's own time
(bench/taillat). One rtnetlink dump per sample: forking tc for each sample
takes most of a second in a TCG guest, too slow to see a queue move, and
too imprecise a clock for a window of a few seconds."""
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
TCA_STATS_BASIC, TCA_STATS_QUEUE = 1, 3

sent = sys.argv[1:2] == ['--sent']
if sent:
    del sys.argv[1]
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
    """The time of the dump and (backlog, bytes sent, packets sent) of the
    first qdisc of KIND on the interface, or None (the sent counters None
    if the kernel gave none)."""
    tcm = struct.pack('=BxxxiIII', socket.AF_UNSPEC, ifindex, 0, 0, 0)
    hdr = struct.pack('=IHHII', 16 + len(tcm), RTM_GETQDISC, NLM_F_REQUEST | NLM_F_DUMP, seq, 0)
    sock.send(hdr + tcm)
    # The kernel fills the first part of a dump within send(): the
    # counters are those of this moment.
    now = time.time()
    found = None
    while True:
        data = sock.recv(65536)
        off = 0
        while off + 16 <= len(data):
            ln, typ, _, _, _ = struct.unpack_from('=IHHII', data, off)
            if ln < 16 or typ in (NLMSG_DONE, NLMSG_ERROR):
                return now, found
            msg = data[off + 16:off + ln]
            if len(msg) >= 20 and struct.unpack_from('=i', msg, 4)[0] == ifindex:
                a = dict(attrs(msg[20:]))
                if a.get(TCA_KIND, b'').rstrip(b'\0') == kind and TCA_STATS2 in a:
                    st = dict(attrs(a[TCA_STATS2]))
                    q, b = st.get(TCA_STATS_QUEUE), st.get(TCA_STATS_BASIC)
                    if q and len(q) >= 8 and found is None:
                        # struct gnet_stats_basic: __u64 bytes, __u32 packets
                        found = (struct.unpack_from('=II', q, 0)[1],) + \
                            (struct.unpack_from('=QI', b, 0) if b and len(b) >= 12 else (None, None))
            off += (ln + 3) & ~3


signal.signal(signal.SIGTERM, term)
s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
s.bind((0, 0))
seq = 0
with open(out, 'w') as f:
    while not stop:
        seq += 1
        now, b = backlog(s, seq)
        if b is not None and not sent:
            f.write("%.3f %d\n" % (now, b[0]))
            f.flush()
        elif b is not None and b[1] is not None:
            # A sample without counters is left out: the reader finds the
            # gap and refuses the window rather than count nothing.
            f.write("%.3f %d %d %d\n" % (now, b[0], b[1], b[2]))
            f.flush()
        time.sleep(period)
