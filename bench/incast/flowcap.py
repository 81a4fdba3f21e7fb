#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""flowcap.py IFACE SECS OUT: count RoCEv2 (UDP 4791) IPv4 bytes (plus a 14-byte Ethernet
header each, as HTB counts them) per UDP
source port (rxe gives every QP its own) on IFACE for SECS seconds, in
0.5 s bins. On the receiver's ifb0 this is what left the bottleneck.
OUT gets one line per bin and port: "bin_start_s sport bytes packets"
(packets tell a small-message flow from a bulk one by their mean size,
bench/taillat), time from
the first packet seen; OUT.t0 gets that first packet's wall-clock time
(seconds since the epoch), so that other samples can be aligned with the
transfer. Stops early on SIGTERM."""
import signal
import socket
import sys
import time

BIN = 0.5
iface, secs, out = sys.argv[1], float(sys.argv[2]), sys.argv[3]
stop = False


def term(*_):
    global stop
    stop = True


signal.signal(signal.SIGTERM, term)
s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
s.bind((iface, 0))
s.settimeout(0.5)
bins = {}
t0 = None
end = time.monotonic() + secs
while not stop and time.monotonic() < end:
    try:
        fr = s.recv(128)
    except socket.timeout:
        continue
    except InterruptedError:
        continue
    off = 14 if fr[12:14] == b'\x08\x00' else 0
    ip = fr[off:]
    if len(ip) < 28 or ip[0] >> 4 != 4 or ip[9] != 17:
        continue
    ihl = (ip[0] & 15) * 4
    if int.from_bytes(ip[ihl + 2:ihl + 4], 'big') != 4791:
        continue
    now = time.monotonic()
    if t0 is None:
        t0 = now
        with open(out + '.t0', 'w') as f:
            f.write("%.3f\n" % time.time())
    b = int((now - t0) / BIN)
    sport = int.from_bytes(ip[ihl:ihl + 2], 'big')
    c = bins.setdefault((b, sport), [0, 0])
    # Bytes as the bottleneck's HTB counts them: IP length + Ethernet header.
    c[0] += int.from_bytes(ip[2:4], 'big') + 14
    c[1] += 1
with open(out, 'w') as f:
    for (b, sport), (n, p) in sorted(bins.items()):
        f.write(f"{b * BIN:.1f} {sport} {n} {p}\n")
