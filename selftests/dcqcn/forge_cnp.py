#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""forge_cnp.py SRC DST DQPN [COUNT]: send COUNT (default 10) RoCEv2 CNPs
naming QP DQPN from SRC to DST over a raw IPv4 socket, with a correct
ICRC (so a receiver must reject them for who sent them or what they name,
not for corruption). Only lab addresses (198.18.0.0/15) are accepted."""
import ipaddress
import socket
import struct
import sys
import zlib


def icrc(pkt):
    b = bytearray(pkt)
    ihl = (b[0] & 15) * 4
    b[1] = 0xff
    b[8] = 0xff
    b[10] = b[11] = 0xff
    b[ihl + 6] = b[ihl + 7] = 0xff
    b[ihl + 12] = 0xff
    return struct.pack('<I', zlib.crc32(b'\xff' * 8 + bytes(b)) & 0xffffffff)


def cnp(src, dst, dqpn, ident):
    bth = bytes([0x81, 0, 0xff, 0xff]) + struct.pack('>I', 0x40000000 | dqpn) + bytes(4)
    l4len = 8 + 12 + 16 + 4
    udp = struct.pack('>HHHH', 0xc123, 4791, l4len, 0)
    ip = struct.pack('>BBHHHBBH4s4s', 0x45, 0xc0, 20 + l4len, ident, 0x4000, 64, 17, 0,
                     src.packed, dst.packed)
    pkt = ip + udp + bth + bytes(16)
    return pkt + icrc(pkt)


def main():
    src, dst = ipaddress.ip_address(sys.argv[1]), ipaddress.ip_address(sys.argv[2])
    lab = ipaddress.ip_network('198.18.0.0/15')
    if src not in lab or dst not in lab:
        sys.exit('forge_cnp: only 198.18.0.0/15 addresses')
    dqpn = int(sys.argv[3], 0)
    count = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    s = socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_RAW)
    s.setsockopt(socket.IPPROTO_IP, socket.IP_HDRINCL, 1)
    for i in range(count):
        # A non-zero ID: the kernel would pick one for 0, after the ICRC.
        s.sendto(cnp(src, dst, dqpn, 0x1000 + i), (str(dst), 0))


if __name__ == '__main__':
    main()
