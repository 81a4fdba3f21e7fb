#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""first_window.py IFACE PEER COUNT TIMEOUT: wait up to TIMEOUT s for the
first COUNT RoCEv2 data packets (UDP to 4791, over 200 bytes at the IP
level, so no ACK or CNP) that IFACE receives from the IPv4 address PEER,
and print "COUNT BYTES SPAN_S MBPS": the IP-level bytes of all of them,
the kernel's receive times from the first to the last, and the rate of
packets 2..COUNT over that span (the first packet only starts the clock).
Exits 1, printing what it saw, when fewer than COUNT came in time."""
import socket
import struct
import sys
import time

SO_TIMESTAMPNS = 35     # asm-generic/socket.h; also SCM_TIMESTAMPNS
PACKET_OUTGOING = 4

iface, peer, count, timeout = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
want = socket.inet_aton(peer)
s = socket.socket(socket.AF_PACKET, socket.SOCK_DGRAM, socket.htons(0x0800))
s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
s.bind((iface, 0))
s.settimeout(0.5)
print('ready', flush=True)
times, sizes = [], []
end = time.monotonic() + timeout
while len(times) < count and time.monotonic() < end:
    try:
        fr, anc, _, addr = s.recvmsg(2048, socket.CMSG_SPACE(16))
    except socket.timeout:
        continue
    if addr[2] == PACKET_OUTGOING or len(fr) < 20 or fr[9] != 17 or fr[12:16] != want:
        continue
    ihl = (fr[0] & 15) * 4
    tot = int.from_bytes(fr[2:4], 'big')
    if len(fr) < ihl + 8 or int.from_bytes(fr[ihl + 2:ihl + 4], 'big') != 4791 or tot <= 200:
        continue
    ts = None
    for level, kind, data in anc:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(data) >= 16:
            sec, nsec = struct.unpack('qq', data[:16])
            ts = sec + nsec / 1e9
    if ts is None:
        sys.exit('no receive timestamp from the kernel')
    times.append(ts)
    sizes.append(tot)
if len(times) < count:
    print(f'{len(times)} {sum(sizes)} - -')
    sys.exit(1)
span = times[-1] - times[0]
mbps = sum(sizes[1:]) * 8 / span / 1e6 if span > 0 else float('inf')
print(f'{count} {sum(sizes)} {span:.4f} {mbps:.2f}')
