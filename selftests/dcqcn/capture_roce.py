#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""capture_roce.py IFACE TIMEOUT: print, as hex from the IP header on, the
first short IPv4 RoCEv2 (UDP 4791) packet (sent or received: on a receiver,
rxe's ACKs) seen on IFACE within TIMEOUT s."""
import socket
import sys
import time

s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x0003))
s.bind((sys.argv[1], 0))
s.settimeout(1)
end = time.time() + float(sys.argv[2])
while time.time() < end:
    try:
        fr, addr = s.recvfrom(65535)
    except socket.timeout:
        continue
    ip = fr[14:]
    ihl = (ip[0] & 15) * 4
    if ip[9] != 17 or int.from_bytes(ip[ihl + 2:ihl + 4], 'big') != 4791:
        continue
    tot = int.from_bytes(ip[2:4], 'big')
    if tot > 200:
        continue	# a short one (an ACK or a small write) keeps the vector small
    print(ip[:tot].hex())
    sys.exit(0)
sys.exit(1)
