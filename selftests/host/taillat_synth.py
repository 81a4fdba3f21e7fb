#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""taillat_synth.py DIR [FAULT...]: made-up share directories of a
bench/taillat lab run, 3 repetitions, for selftests/host/taillat.sh:
DIR/good, and DIR/FAULT for each FAULT (one process for all: a Python
start is a noticeable part of the test's time).
Known figures: the small flow's p99 is 1.0, 50 and 1.5 ms (alone, off,
on) times 1.0, 1.1, 0.9 in repetitions 1, 2, 3. The small flow's window
is 1005.02 to 1012.47 s (host1's marks 1003 and 1014 s), cut at the
samples of 1005.00 and 1012.50 (7.5 s); RED's
counter grows by 0.999 (off) and 0.95 (on) of the 8 Mbit/s bottleneck
for the bulk QPs and by the small flow's 1000 x (138 + 62) bytes between
1006 and 1011 s; the capture saw every byte (cap_frac 1), the small flow
at 0.32 Mb/s; the backlog is 0, 105000 and 5000 bytes. Each FAULT spoils
one measurement:
  noresult   on-2's perftest log has no result line
  uncal      alone-1's perftest could not calibrate (inf)
  emptycap   nothing captured on ifb0 in off-1
  nobulk     on-3's counter grows by the small flow's bytes only
  capnobulk  on-3's capture holds the small flow only
  noqueue    no queue sample in off-2
  nowin      no marks of host1's window for off-3
  nomarks    no end mark of the small flow in alone-2
  outside    on-3's small flow marks begin before host1's window
  nosent     on-2's queue samples have no sent counters (qsample.py
             without --sent)
  stuck      off-1's counter does not move
  gap        on-1's samples end at 1009.95 s (the reads failed after)
  backwards  off-3's counter falls inside the window
  lossy      (not refused) RED marked more packets in on-1 than were
             captured
  capshort   (not refused) on-1's capture saw 80 % of the bulk bytes
  fixed      (not refused) a run with the fixed-rate scenario as well
             (params fixed_kbps 1840): its p99 2.5 ms, bulk 0.92 of the
             bottleneck, backlog 1000 bytes
  fixedgone  the same, but fixed-2 left no perftest log"""
import os
import sys

P99 = {'alone': 1.0, 'off': 50.0, 'on': 1.5, 'fixed': 2.5}
SCALE = {1: 1.0, 2: 1.1, 3: 0.9}
UTIL = {'alone': 0, 'off': 0.999, 'on': 0.95, 'fixed': 0.92}
QUEUE = {'alone': 0, 'off': 105000, 'on': 5000, 'fixed': 1000}
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
        f.write('kernel 6.1.0-synthetic\nbn_mbit 8\nred 30000 90000 600000\nred_burst 45\nreps 3\n'
                'n 4\nsize 64\niters 1000\nwarm 5\nmtu 256\n')
        if fault == 'codel':
            # Marked by CoDel's ce_threshold (3 ms, 560 packets).
            f.write('aqm codel 3 560\n')
        kinds = ('alone', 'off', 'on')
        if fault.startswith('fixed'):
            f.write('fixed_kbps 1840\n')
            kinds += ('fixed',)
        if fault == 'kinds':
            # TAILLAT_KINDS="alone on": two scenarios, no others' logs.
            kinds = ('alone', 'on')
            f.write('kinds alone on\n')
        if fault == 'badkinds':
            f.write('kinds alone on of\n')
    for rep in (1, 2, 3):
        for kind in kinds:
            name = '%s-%d' % (kind, rep)
            if not (fault == 'fixedgone' and name == 'fixed-2'):
                lat_log(os.path.join(h2, 'lat-%s.log' % name), P99[kind] * SCALE[rep], name, fault)
            # 0.5 s bins from 1000.000 s: bulk QPs 49153-49156 over bins
            # 0-29, the small flow (64-byte writes and ACKs, 100 bytes a
            # packet) over bins 12-21.
            bulk = 0 if kind == 'alone' else int(8e6 / 8 * UTIL[kind])  # bytes a second
            lines = []
            for i in range(30):
                if kind != 'alone' and not (fault == 'capnobulk' and name == 'on-3'):
                    per = bulk // 2 // 4
                    if fault == 'capshort' and name == 'on-1':
                        per = per * 8 // 10
                    lines += ['%.1f %d %d %d' % (i * 0.5, 49153 + q, per, per // 314) for q in range(4)]
                if 12 <= i <= 21:
                    lines.append('%.1f 50000 20000 200' % (i * 0.5))
            with open(os.path.join(h1, 'flows-' + name), 'w') as f:
                if not (fault == 'emptycap' and name == 'off-1'):
                    f.write(''.join(line + '\n' for line in lines))
            with open(os.path.join(h1, 'flows-%s.t0' % name), 'w') as f:
                f.write('1000.000\n')
            if not (fault == 'nowin' and name == 'off-3'):
                with open(os.path.join(h1, 'win-' + name), 'w') as f:
                    f.write('1003.000000\n1014.000000\n')
            with open(os.path.join(h1, 'marks-' + name), 'w') as f:
                f.write('start %s\n' % ('1002.500000' if fault == 'outside' and name == 'on-3' else '1005.020000'))
                if not (fault == 'nomarks' and name == 'alone-2'):
                    f.write('end 1012.470000\n')
            # Samples every 50 ms from 1000 s: RED's cumulative bytes, the
            # small flow's 2000 bytes a sample from 1006.05 to 1011.00 s.
            smallk = 2000
            if fault == 'nobulk' and name == 'on-3':
                bulk = 0
            cum, pk, qs = 0, 0, []
            for k in range(600):
                if k:
                    cum += bulk // 20 + (smallk if 121 <= k <= 220 else 0)
                    pk += bulk // 20 // 314 + (smallk // 100 if 121 <= k <= 220 else 0)
                if fault == 'stuck' and name == 'off-1':
                    cum, pk = 123456, 400
                if fault == 'gap' and name == 'on-1' and k >= 200:
                    break
                b = cum - (10 ** 6 if fault == 'backwards' and name == 'off-3' and k == 150 else 0)
                if fault == 'nosent' and name == 'on-2':
                    qs.append('%.2f %d\n' % (1000 + k * 0.05, QUEUE[kind]))
                else:
                    qs.append('%.2f %d %d %d\n' % (1000 + k * 0.05, QUEUE[kind], b, pk))
            with open(os.path.join(h1, 'q-' + name), 'w') as f:
                if not (fault == 'noqueue' and name == 'off-2'):
                    f.write(''.join(qs))
            with open(os.path.join(h1, 'red0-' + name), 'w') as f:
                f.write('0 0\n')
            with open(os.path.join(h1, 'red1-' + name), 'w') as f:
                f.write('0 %d\n' % (0 if kind == 'alone' else 10 ** 6 if fault == 'lossy' and name == 'on-1'
                                     else 100))


share(os.path.join(sys.argv[1], 'good'), '')
for fault in sys.argv[2:]:
    share(os.path.join(sys.argv[1], fault), fault)
