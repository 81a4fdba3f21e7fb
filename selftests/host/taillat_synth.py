#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""taillat_synth.py DIR [FAULT...]: made-up share directories of a
bench/taillat lab run, 3 repetitions, for selftests/host/taillat.sh:
DIR/good, and DIR/FAULT for each FAULT (one process for all: a Python
start is a noticeable part of the test's time).
Known figures: the small flow's p99 is 1.0, 50 and 1.5 ms (alone, off,
on) times 1.0, 1.1, 0.9 in repetitions 1, 2, 3; the bulk QPs fill
0.999 (off) and 0.95 (on) of the 8 Mbit/s bottleneck; the backlog is 0,
105000 and 5000 bytes. Each FAULT spoils one measurement:
  noresult   on-2's perftest log has no result line
  uncal      alone-1's perftest could not calibrate (inf)
  emptycap   nothing captured on ifb0 in off-1
  nobulk     on-3's capture holds the small flow only
  noqueue    no queue sample in off-2
  lossy      (not refused) RED marked more packets in on-1 than were
             captured"""
import os
import sys

P99 = {'alone': 1.0, 'off': 50.0, 'on': 1.5}
SCALE = {1: 1.0, 2: 1.1, 3: 0.9}
UTIL = {'alone': 0, 'off': 0.999, 'on': 0.95}
QUEUE = {'alone': 0, 'off': 105000, 'on': 5000}
HEAD = (' #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    '
        't_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] \n')


def lat_log(path, p99, name, fault):
    us = p99 * 1000
    with open(path, 'w') as f:
        f.write('-' * 87 + '\n' + ' ' * 20 + 'RDMA_Write Latency Test\n')
        f.write(' local address: LID 0000 QPN 0x0011 PSN 0x5a2b3c RKey 0x000123 VAddr 0x00559a1c2b3000\n')
        f.write(' remote address: LID 0000 QPN 0x0012 PSN 0x1c2d3e RKey 0x000234 VAddr 0x0055d1e2f34000\n')
        f.write('-' * 87 + '\n')
        if fault == 'uncal' and name == 'alone-1':
            f.write('Correlation coefficient r^2: 0.616755 < 0.9\n' + HEAD)
            f.write(' 64       1000          inf            inf          inf      \t       inf         '
                    '\t-nan \t\tinf \t\tinf\n')
            return
        f.write(HEAD + '#, usec\n')
        # 999 exchanges: mostly half the p99, every 100th at the p99.
        for i in range(1, 1000):
            f.write('%d, %g\n' % (i, us if i % 100 == 0 else us / 2))
        if fault == 'noresult' and name == 'on-2':
            return
        f.write(' 64       1000          %.2f         %.2f      %.2f   \t       %.2f      \t%.2f '
                '\t\t%.2f \t\t%.2f\n' % (us / 4, us * 3, us / 2, us / 2, us / 10, us, us * 2))
        f.write('-' * 87 + '\n')


def share(d, fault):
    h1, h2 = os.path.join(d, 'host1'), os.path.join(d, 'host2')
    os.makedirs(h1)
    os.makedirs(h2)
    with open(os.path.join(h1, 'params'), 'w') as f:
        f.write('kernel 6.1.0-synthetic\nbn_mbit 8\nred 30000 90000 600000\nreps 3\nn 4\n'
                'size 64\niters 1000\nwarm 5\nmtu 256\n')
    for rep in (1, 2, 3):
        for kind in ('alone', 'off', 'on'):
            name = '%s-%d' % (kind, rep)
            lat_log(os.path.join(h2, 'lat-%s.log' % name), P99[kind] * SCALE[rep], name, fault)
            # 0.5 s bins: bulk QPs 49153-49156 over bins 0-29, the small flow
            # (64-byte writes and ACKs, 100 bytes a packet) over bins 10-25;
            # alone, the small flow over bins 0-3.
            lines = []
            if kind == 'alone':
                lines += ['%.1f 50000 20000 200' % (i * 0.5) for i in range(4)]
            else:
                per = int(8e6 / 8 * 0.5 * UTIL[kind] / 4)
                for i in range(30):
                    if not (fault == 'nobulk' and name == 'on-3'):
                        lines += ['%.1f %d %d %d' % (i * 0.5, 49153 + q, per, per // 314) for q in range(4)]
                    if 10 <= i <= 25:
                        lines.append('%.1f 50000 2000 20' % (i * 0.5))
            with open(os.path.join(h1, 'flows-' + name), 'w') as f:
                if not (fault == 'emptycap' and name == 'off-1'):
                    f.write(''.join(line + '\n' for line in lines))
            with open(os.path.join(h1, 'flows-%s.t0' % name), 'w') as f:
                f.write('1000.000\n')
            with open(os.path.join(h1, 'q-' + name), 'w') as f:
                if not (fault == 'noqueue' and name == 'off-2'):
                    f.write(''.join('%.2f %d\n' % (1000 + k * 0.05, QUEUE[kind]) for k in range(600)))
            with open(os.path.join(h1, 'red0-' + name), 'w') as f:
                f.write('0 0\n')
            with open(os.path.join(h1, 'red1-' + name), 'w') as f:
                f.write('0 %d\n' % (0 if kind == 'alone' else 10 ** 6 if fault == 'lossy' and name == 'on-1'
                                     else 100))


share(os.path.join(sys.argv[1], 'good'), '')
for fault in sys.argv[2:]:
    share(os.path.join(sys.argv[1], fault), fault)
