#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""virtio-queues.py SOCKET [ROUNDS [GAP]]: what QEMU holds in a guest's
virtio-net queues, read over its QMP socket.

lab-run calls it when a guest's kernel reports a transmit timeout on a
virtio NIC (lab.rst, "Lab faults"), to tell which side holds the ring: for
each virtio-net device and each of its queues, QEMU's own indices
(x-query-virtio-queue-status: last-avail-idx, the next descriptor the
device will take; used-idx, the next it will hand back) and the guest's
avail and used rings as they are in guest memory
(x-query-virtio-queue-element). If the guest has made descriptors
available (avail.idx) that the device has not taken (last-avail-idx), the
device stopped; if the device handed everything back (used.idx) and the
guest's queue is still stopped, the guest missed the completion. ROUNDS
reads (default 2), GAP seconds apart (default 2), show whether anything
moves. One JSON document per round on stdout; a QMP error is printed in
place of the answer it replaced, never raised, since this runs beside a
failing test and must not become its failure.
"""

import json
import socket
import sys
import time


class Qmp:
    """One QMP connection: greeting and capabilities done on open."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.settimeout(10)
        self.sock.connect(path)
        self.f = self.sock.makefile('rw')
        self.read()
        self.cmd('qmp_capabilities')

    def read(self):
        while True:
            line = self.f.readline()
            if not line:
                raise EOFError('QMP socket closed')
            msg = json.loads(line)
            if 'event' not in msg:
                return msg

    def cmd(self, name, **args):
        req = {'execute': name}
        if args:
            req['arguments'] = args
        self.f.write(json.dumps(req) + '\n')
        self.f.flush()
        reply = self.read()
        if 'error' in reply:
            return {'error': reply['error'].get('desc', str(reply['error']))}
        return reply.get('return')


def snapshot(q):
    devs = q.cmd('x-query-virtio')
    if not isinstance(devs, list):
        return {'x-query-virtio': devs}
    out = []
    for dev in devs:
        if dev.get('name') != 'virtio-net':
            continue
        path = dev['path']
        entry = {'path': path, 'queues': []}
        status = q.cmd('x-query-virtio-status', path=path)
        if isinstance(status, dict):
            entry['status'] = status.get('status')
            entry['broken'] = status.get('broken')
            entry['started'] = status.get('started')
            entry['queues-max'] = status.get('num-vqs')
        for idx in range(int(entry.get('queues-max') or 3)):
            qs = q.cmd('x-query-virtio-queue-status', path=path, queue=idx)
            if isinstance(qs, dict) and 'error' in qs:
                break
            elem = q.cmd('x-query-virtio-queue-element', path=path, queue=idx)
            if isinstance(elem, dict) and 'error' not in elem:
                elem = {'avail': elem.get('avail'), 'used': elem.get('used'),
                        'head-index': elem.get('index')}
            entry['queues'].append({'index': idx, 'status': qs, 'element': elem})
        out.append(entry)
    net = q.cmd('human-monitor-command', **{'command-line': 'info network'})
    return {'time': time.time(), 'virtio-net': out, 'info network': net}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    gap = float(sys.argv[3]) if len(sys.argv) > 3 else 2.0
    try:
        q = Qmp(sys.argv[1])
        for r in range(rounds):
            if r:
                time.sleep(gap)
            print(json.dumps(snapshot(q), indent=1), flush=True)
    except (OSError, EOFError, ValueError) as e:
        print(json.dumps({'error': f'{sys.argv[1]}: {e}'}))
        sys.exit(1)


if __name__ == '__main__':
    main()
