#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""analyze.py [--command CMD] SHARE PLOTDIR: the table of bench/taillat
from a lab run's share directory (host1: params, win-NAME, marks-NAME,
q-NAME, flows-NAME and its .t0, red0-NAME, red1-NAME; host2:
lat-NAME.log), on stdout; the plot's data in PLOTDIR (pct.dat,
rates-KIND.dat, total-KIND.dat, lat-KIND.dat, queue-KIND.dat, meta.gp,
for plot.gp). NAME is KIND-REP, KIND alone, off, on or fixed (the
last only if params has a fixed_kbps above 0: runs before it had none).
fixed is a reference: the bulk QPs paced by rocetune at fixed_kbps each,
which no congestion control moves, the latency of a perfect, steady
allocation at that utilisation in this lab.

The window of a measurement is the small flow's own, on host1's clock:
marks.py times the lines of its server's log, the header perftest prints
just before the first exchange and the samples it prints after the last
(marks-NAME). It must lie inside host1's own marks (win-NAME): after the
bulk QPs' warm-up, before the server started; after it ended, before
the bulk QPs were stopped. It is cut at the last counter sample
(qsample.py --sent, every 50 ms, each on the time of its own read) at or
before its start and the first at or after its end.

Per scenario, the median and [min-max] over the repetitions of:

p50/p99/p999_ms  the small flow's t_typical, 99 % and 99.9 % percentiles,
                 as perftest printed them (one-way: half the round trip).
                 perftest leaves out the 2 largest of its ITERS-1 samples
                 first, so at 1000 exchanges its p99.9 is one of the three
                 largest: a tail figure, not a statistic of its own.
p99_x            the p99 over the unloaded (alone) p99 of the same
                 repetition (runs interleaved: each pair shares the
                 machine's state).
bulk_util        the bytes the bottleneck sent in the window by its own
                 counter (the marking qdisc on ifb0, CoDel or RED: "Sent"
                 in tc -s: Ethernet + IP, as
                 HTB counts them against its rate), less the small flow's
                 (ITERS exchanges, each one SIZE-byte write from host2 and
                 host2's ACK of host1's write; a perftest run again after
                 a failed calibration runs after the window, which is the
                 first run's), over the rate times the window.
                 Retransmitted bytes count: they left the bottleneck.
win_s            the window's length.
small_Mbps       the small flow's own rate through the bottleneck while it
                 ran (the per-QP capture on host1's ifb0; its first and
                 last 0.5 s bins left out when loaded: partial).
cap_frac         the bytes the capture saw over the bytes the counter
                 counted, in the capture's whole bins inside the window.
q50/q99_ms       the bottleneck's backlog (the same samples) in the
                 window, as the time it takes to drain at the bottleneck
                 rate: what a small message waits behind.
ce, drops        packets the qdisc marked and dropped during the
                 measurement.
flows            QPs the capture saw (the small flow and the bulk QPs
                 with more than 1 % of the bulk bytes).

The capture is only for per-QP detail (small_Mbps, flows, the plot's
rates). One that saw less than 95 % of the counted bytes, or fewer
packets than the qdisc marked CE (either marks and does not drop below
its limit), lost packets: the table says which runs, and their per-QP figures
are then lower bounds. bulk_util does not depend on it. The alone runs
check the small flow's byte count: the qdisc's counter over it (1.000 if every
exchange crossed once and nothing else did) is printed.

The small flow is the port (rxe gives each QP its own UDP source port)
whose packets are smallest on average: 64-byte writes and ACKs against
full 256-byte packets.

A run that measured nothing is refused, with every reason on stderr and
exit status 1: a missing or unparsable perftest log, a latency of zero,
no window marks or marks out of order, no counter sample (a failed read)
within 1 s before the window's start or after its end, counters that did
not move or went backwards, no bulk bytes beyond the small flow's in a
loaded run, no capture, no small flow or no bulk QP in a loaded capture.
The table never holds a zero for a missing figure."""
import datetime
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'lib'))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'selftests', 'baseline'))
import flowbins  # noqa: E402 (found through the paths above)
from rtune_baseline import InputError, parse_perftest  # noqa: E402

KINDS = ('alone', 'off', 'on')
FIXED = 'fixed'
BIN = flowbins.BIN
SAMPLE = re.compile(r'^([0-9]+), ([0-9.eE+-]+)$')
# The target of issue 12, with DCQCN.
TARGET_P99_X, TARGET_UTIL = 2.0, 0.90
# A counter sample must be this close (s) before each end of the window.
EDGE = 1.0
# A capture that saw less than this part of the counted bytes lost some.
CAP_OK = 0.95
# Header bytes as the bottleneck counts a RoCEv2 packet (IPv4, no VLAN).
ETH, IP4, UDP, BTH, RETH, AETH, ICRC = 14, 20, 8, 12, 16, 4, 4


class Refused(Exception):
    pass


def read_params(path):
    try:
        lines = open(path).read().splitlines()
    except OSError as e:
        raise Refused('%s: %s (did the lab run start?)' % (path, e.strerror)) from None
    p = {}
    for line in lines:
        k, _, v = line.partition(' ')
        p[k] = v
    need = ('kernel', 'bn_mbit', 'red', 'red_burst', 'reps', 'n', 'size', 'iters', 'warm', 'mtu')
    missing = [k for k in need if not p.get(k)]
    if missing:
        raise Refused('%s: no %s' % (path, ', '.join(missing)))
    p.setdefault('fixed_kbps', '0')
    try:
        for k in ('bn_mbit', 'reps', 'n', 'size', 'iters', 'warm', 'mtu', 'fixed_kbps'):
            p[k] = float(p[k]) if k == 'bn_mbit' else int(p[k])
    except ValueError:
        raise Refused('%s: %s is not a number' % (path, k)) from None
    if p['bn_mbit'] <= 0 or p['reps'] < 1 or p['fixed_kbps'] < 0:
        raise Refused('%s: bottleneck rate or repetitions not positive, or a negative fixed rate' % path)
    # The scenarios this run measured, in the order it interleaved them
    # (TAILLAT_KINDS); a run from before that option measured all three,
    # and fixed if it had a rate.
    if 'kinds' in p:
        kinds = tuple(p['kinds'].split())
        known = KINDS + (FIXED,)
        if (any(k not in known for k in kinds) or len(set(kinds)) != len(kinds)
                or 'alone' not in kinds or len(kinds) < 2
                or (FIXED in kinds) != bool(p['fixed_kbps'])):
            raise Refused('%s: kinds "%s": not alone and other scenarios of %s, each once'
                          ' (fixed with a rate)' % (path, p['kinds'], ', '.join(known)))
        p['kinds'] = kinds
    else:
        p['kinds'] = KINDS + ((FIXED,) if p['fixed_kbps'] else ())
    return p


def latency(log, size):
    """perftest's figures (ms) and its per-exchange samples (-U, ms, in
    the order they were taken)."""
    try:
        data = open(log, 'rb').read()
    except OSError as e:
        raise Refused('%s: %s' % (log, e.strerror)) from None
    try:
        figs = parse_perftest(log, data, 'lat', size)
    except InputError as e:
        raise Refused(str(e)) from None
    figs = {k: v / 1000 for k, v in figs.items()}
    if min(figs.values()) <= 0:
        raise Refused('%s: a latency of zero (%s): not a measurement' % (log, figs))
    samples, on = [], False
    for line in data.decode('ascii', 'replace').splitlines():
        if line.strip() == '#, usec':
            if samples:
                break  # a second list is the sorted one (-H)
            on = True
            continue
        m = SAMPLE.match(line.strip()) if on else None
        if m:
            samples.append(float(m.group(2)) / 1000)
        elif on and samples:
            break
    return figs, samples


def pct(sorted_vals, q):
    return sorted_vals[int((len(sorted_vals) - 1) * q)]


def frame_bytes(size, mtu):
    """Bytes of one RDMA write of SIZE and of its ACK as the bottleneck
    counts them (Ethernet + IPv4 + UDP + BTH [+ RETH on the first packet]
    + payload padded to 4 + ICRC; AETH on the ACK)."""
    w, left, first = 0, max(size, 0), True
    while True:
        pay = min(left, mtu)
        w += ETH + IP4 + UDP + BTH + (RETH if first else 0) + pay + (-pay) % 4 + ICRC
        left -= pay
        first = False
        if left <= 0:
            break
    return w, ETH + IP4 + UDP + BTH + AETH + ICRC


def window(h1, name):
    """The small flow's window on host1's clock: its server log's marks
    (marks.py: the header, printed just before the first exchange, and
    the samples, printed after the last), inside host1's own marks around
    it (after the bulk QPs' warm-up, before the server started; after it
    ended, before the bulk QPs were stopped). Epoch seconds: (outer
    start, start, end, outer end)."""
    wpath, mpath = os.path.join(h1, 'win-' + name), os.path.join(h1, 'marks-' + name)
    try:
        w = [float(x) for x in open(wpath).read().split()]
        m = dict(line.split() for line in open(mpath).read().splitlines())
        m = {k: float(v) for k, v in m.items()}
    except (OSError, ValueError) as e:
        raise Refused('%s: no window marks (%s)' % (name, e)) from None
    if len(w) != 2 or 'start' not in m or 'end' not in m:
        raise Refused('%s: the window marks are incomplete (%s: %s, %s: %s)' % (name, wpath, w, mpath, m))
    if not w[0] <= m['start'] < m['end'] <= w[1]:
        raise Refused('%s: the small flow\'s marks %.3f-%.3f are not inside host1\'s %.3f-%.3f'
                      % (mpath, m['start'], m['end'], w[0], w[1]))
    return w[0], m['start'], m['end'], w[1]


def counters(qpath):
    """The queue samples of qsample.py --sent: [(epoch, backlog, bytes,
    packets)], in time order."""
    rows = []
    try:
        for n, line in enumerate(open(qpath), 1):
            f = line.split()
            if len(f) != 4:
                raise Refused('%s:%d: not "time backlog bytes packets" (qsample.py without '
                              '--sent, or a cut line): %r' % (qpath, n, line))
            rows.append((float(f[0]), int(f[1]), int(f[2]), int(f[3])))
    except (OSError, ValueError) as e:
        raise Refused('%s: %s' % (qpath, e)) from None
    if not rows:
        raise Refused('%s: no queue sample (no read of the bottleneck succeeded)' % qpath)
    return rows


def at(rows, t):
    """RED's bytes sent at time t, interpolated between the samples."""
    for a, b in zip(rows, rows[1:]):
        if a[0] <= t <= b[0]:
            return a[2] + (b[2] - a[2]) * ((t - a[0]) / (b[0] - a[0]) if b[0] > a[0] else 0)
    return None


def measure(share, name, kind, p):
    """One measurement: its figures and the series for the plot."""
    h1 = os.path.join(share, 'host1')
    h2 = os.path.join(share, 'host2')
    figs, samples = latency(os.path.join(h2, 'lat-%s.log' % name), p['size'])
    r = dict(figs)
    # What left the bottleneck, from its own counters: RED's bytes sent
    # (qsample.py --sent, every 50 ms on the time of its read) at the last
    # sample before each of host1's window marks. The bulk QPs run over
    # the whole window; the small flow lies inside it.
    w0, t0, t1, w1 = window(h1, name)
    qpath = os.path.join(h1, 'q-' + name)
    rows = counters(qpath)
    # The last sample at or before the start, the first at or after the
    # end: the small flow lies inside, and both within host1's marks,
    # where the bulk QPs ran.
    before = [x for x in rows if x[0] <= t0]
    after = [x for x in rows if x[0] >= t1]
    if not before or t0 - before[-1][0] > EDGE:
        raise Refused('%s: no counter sample within %g s before the small flow\'s start (%.3f): '
                      'a failed read of the bottleneck' % (qpath, EDGE, t0))
    if not after or after[0][0] - t1 > EDGE or after[0][0] > w1:
        raise Refused('%s: no counter sample within %g s after the small flow\'s end (%.3f) and '
                      'before the bulk QPs were stopped: a failed read of the bottleneck' % (qpath, EDGE, t1))
    if before[-1][0] < w0:
        raise Refused('%s: the last counter sample before the small flow\'s start is older than '
                      'host1\'s mark: the warm-up is in the window' % qpath)
    (s0, _, b0, k0), (s1, _, b1, k1) = before[-1], after[0]
    inside = [x for x in rows if s0 <= x[0] <= s1]
    if any(b[2] < a[2] or b[3] < a[3] for a, b in zip(inside, inside[1:])):
        raise Refused('%s: RED\'s counters went backwards inside the window' % qpath)
    if s1 <= s0 or b1 <= b0 or k1 <= k0:
        raise Refused('%s: the bottleneck sent nothing in the window (%d bytes, %d packets in %.2f s): '
                      'not a measurement' % (qpath, b1 - b0, k1 - k0, s1 - s0))
    # The small flow's own bytes: every exchange is one write from host2
    # and host2's ACK of host1's write. (A perftest run again after a
    # failed calibration runs after the window: the marks are the first
    # run's.)
    w, a = frame_bytes(p['size'], p['mtu'])
    small = p['iters'] * (w + a)
    rate = p['bn_mbit'] * 1e6 / 8  # bytes a second
    if kind == 'alone':
        r['small_ratio'] = (b1 - b0) / small
        util = None
    else:
        if b1 - b0 <= small:
            raise Refused('%s: no bulk traffic left the bottleneck while the small flow ran '
                          '(%d bytes sent, the small flow\'s own %d)' % (qpath, b1 - b0, small))
        util = (b1 - b0 - small) / (rate * (s1 - s0))
    ms = 8e3 / (p['bn_mbit'] * 1e6)  # ms a backlog byte takes to drain
    q = sorted(x[1] for x in inside)
    r.update(util=util, win_s=s1 - s0, q50=pct(q, 0.5) * ms, q99=pct(q, 0.99) * ms)
    try:
        d0, c0 = (int(x) for x in open(os.path.join(h1, 'red0-' + name)).read().split())
        d1, c1 = (int(x) for x in open(os.path.join(h1, 'red1-' + name)).read().split())
    except (OSError, ValueError) as e:
        raise Refused('%s: no RED statistics (%s)' % (name, e)) from None
    r.update(ce=c1 - c0, drops=d1 - d0)

    # The capture: per-QP detail only (the small flow's rate, the QPs
    # seen, the plot's rates), which a lossy capture makes lower bounds.
    fpath = os.path.join(h1, 'flows-' + name)
    try:
        nbytes, npkts = flowbins.read(fpath)
        tc0 = float(open(fpath + '.t0').read())
    except (OSError, ValueError) as e:
        raise Refused('%s: no capture of the bottleneck (%s)' % (fpath, e)) from None
    if not nbytes:
        raise Refused('%s: nothing left the bottleneck (empty capture)' % fpath)
    mean = {}
    for sp, b in nbytes.items():
        pk = sum(npkts[sp].values())
        if pk:
            mean[sp] = sum(b.values()) / pk
    if len(mean) != len(nbytes):
        raise Refused('%s: no packet counts (a capture by an older flowcap.py)' % fpath)
    smallp = min(mean, key=mean.get)
    others = sorted(mean[sp] for sp in mean if sp != smallp)
    if others and mean[smallp] > 0.6 * others[len(others) // 2]:
        raise Refused('%s: cannot tell the small flow (%.0f B a packet) from the bulk QPs '
                      '(%.0f B): a message size near the MTU, or two QPs on one port'
                      % (fpath, mean[smallp], others[len(others) // 2]))
    bulk = [sp for sp in nbytes if sp != smallp]
    if kind != 'alone' and not bulk:
        raise Refused('%s: the capture holds no bulk QP in a loaded run' % fpath)
    sb = sorted(nbytes[smallp])
    if kind == 'alone':
        lo, hi = sb[0], sb[-1] + 1
    else:
        lo, hi = sb[0] + 1, sb[-1]
        if hi - lo < 2:
            raise Refused('%s: the small flow spans %d full bins of %.1f s: no rate of its own'
                          % (fpath, max(hi - lo, 0), BIN))
    r['small_mbps'] = sum(nbytes[smallp].get(i, 0) for i in range(lo, hi)) * 8 / ((hi - lo) * BIN) / 1e6
    per = {sp: sum(nbytes[sp].values()) for sp in bulk}
    tot = sum(per.values())
    r['flows'] = 1 + sum(1 for sp in bulk if per[sp] > tot / 100)
    # How much of what the counters saw leave the bottleneck the capture
    # saw, over its whole bins inside the window.
    i0, i1 = math.ceil((s0 - tc0) / BIN - 1e-9), math.floor((s1 - tc0) / BIN + 1e-9)
    r['cap_frac'] = None
    if i1 > i0:
        kb = at(rows, tc0 + i1 * BIN) - at(rows, tc0 + i0 * BIN)
        cb = sum(v.get(i, 0) for v in nbytes.values() for i in range(i0, i1))
        r['cap_frac'] = cb / kb if kb > 0 else None
    # Every packet RED marked left the bottleneck (ecn marks, not drops):
    # a capture that saw fewer, or less than CAP_OK of the bytes the
    # counters counted, lost packets.
    seen = sum(sum(v.values()) for v in npkts.values())
    r['lossy'] = seen < r['ce'] or (r['cap_frac'] is not None and r['cap_frac'] < CAP_OK)
    r['samples'] = samples
    r['queue_t'] = [(x[0] - tc0, x[1] * ms) for x in rows]
    # Series: Mb/s per port and bin (small flow first), and the samples on
    # the capture's clock, from the small flow's first bin on (each
    # exchange takes twice perftest's one-way figure).
    order = [smallp] + sorted(bulk, key=lambda sp: -per[sp])
    last = max(max(v) for v in nbytes.values())
    r['rates'] = [[i * BIN] + [nbytes[sp].get(i, 0) * 8 / BIN / 1e6 for sp in order]
                  for i in range(0, last + 1)]
    # What the counter says left the bottleneck in the same bins: the
    # plot shows how much of it the capture saw.
    r['total'] = []
    for i in range(math.floor((rows[0][0] - tc0) / BIN) + 1, math.ceil((rows[-1][0] - tc0) / BIN) - 1):
        a, b = at(rows, tc0 + i * BIN), at(rows, tc0 + (i + 1) * BIN)
        if a is not None and b is not None:
            r['total'].append((i * BIN, (b - a) * 8 / BIN / 1e6))
    t, r['lat_t'] = sb[0] * BIN, []
    for v in samples:
        t += 2 * v / 1000
        r['lat_t'].append((t, v))
    return r


def med(xs):
    s = sorted(xs)
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


def spread(xs, f):
    return '%s [%s-%s]' % (f % med(xs), f % min(xs), f % max(xs))


def main(argv):
    cmd = None
    if argv[:1] == ['--command']:
        if len(argv) < 2:
            return usage()
        cmd, argv = argv[1], argv[2:]
    if len(argv) != 2:
        return usage()
    share, plotdir = argv
    errors = []
    try:
        p = read_params(os.path.join(share, 'host1', 'params'))
    except Refused as e:
        print('taillat: %s' % e, file=sys.stderr)
        return 1
    kinds = p['kinds']
    res = {k: [] for k in kinds}
    for rep in range(1, p['reps'] + 1):
        for kind in kinds:
            try:
                res[kind].append(measure(share, '%s-%d' % (kind, rep), kind, p))
            except Refused as e:
                errors.append(str(e))
    if errors:
        for e in errors:
            print('taillat: %s' % e, file=sys.stderr)
        print('taillat: %d of %d measurements refused: no table'
              % (len(errors), len(kinds) * p['reps']), file=sys.stderr)
        return 1
    for kind in kinds:
        for r in res[kind]:
            if len(r['samples']) != p['iters'] - 1:
                print('taillat: %s: %d per-exchange samples, not %d: its latency-over-time '
                      'curve is incomplete' % (kind, len(r['samples']), p['iters'] - 1), file=sys.stderr)
    for kind in kinds:
        for r, a in zip(res[kind], res['alone']):
            r['p99_x'] = r['p99'] / a['p99']
    print(table(p, res, cmd))
    plot_data(plotdir, p, res)
    return 0


def table(p, res, cmd):
    out = ['# rocetune tail-latency benchmark, %s, kernel %s, 2 TCG guests (1 vCPU each)'
           % (datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d'), p['kernel'])]
    if cmd:
        out.append('# command: %s' % cmd)
    red = p['red'].split()
    aqm = p.get('aqm', 'red').split()
    qd = 'CoDel' if aqm[0] == 'codel' else 'RED'  # whose counters these are
    if aqm[0] == 'codel':
        bn = ('# bottleneck: host1 ingress ifb0, HTB %g Mbit/s + CoDel ce_threshold %s ms'
              ' (marks at dequeue), limit %s packets;' % (p['bn_mbit'], aqm[1], aqm[2]))
    else:
        bn = ('# bottleneck: host1 ingress ifb0, HTB %g Mbit/s + RED ecn min %s max %s limit %s B burst %s;'
              % (p['bn_mbit'], red[0], red[1], red[2], p['red_burst']))
    out += [bn,
            '# small flow: ib_write_lat -s %d -n %d -U -u 17 -m %d --tclass=2, host2 to host1;'
            % (p['size'], p['iters'], p['mtu']),
            '# bulk: ib_write_bw -s 65536 -q %d -u 17 -m %d --tclass=2 from %d s before it until it ended;'
            % (p['n'], p['mtu'], p['warm']),
            '# with DCQCN (on): the lab preset of selftests/dcqcn/lab-preset.sh on both hosts.']
    if p['fixed_kbps']:
        out.append('# fixed: the preset with every bulk QP held at %d kb/s (rp_min_rate_kbps = '
                   'rp_max_rate_kbps), no congestion control at work: a reference'
                   % p['fixed_kbps'])
    out.append('# %d repetitions of (%s), interleaved; each figure: median [min-max].'
               % (p['reps'], ', '.join(p['kinds'])))
    cols = [('scenario', None, None), ('p50_ms', 'p50', '%.2f'), ('p99_ms', 'p99', '%.2f'),
            ('p999_ms', 'p999', '%.2f'), ('p99_x', 'p99_x', '%.1f'),
            ('bulk_util', 'util', '%.3f'), ('win_s', 'win_s', '%.1f'),
            ('small_Mbps', 'small_mbps', '%.2f'), ('cap_frac', 'cap_frac', '%.2f'),
            ('q50_ms', 'q50', '%.1f'), ('q99_ms', 'q99', '%.1f'), ('ce', 'ce', '%d'),
            ('drops', 'drops', '%d'), ('flows', 'flows', '%d')]
    rows = [[c[0] for c in cols]]
    kinds = p['kinds']
    for kind in kinds:
        row = [kind]
        for _, key, f in cols[1:]:
            vals = [r[key] for r in res[kind] if r[key] is not None]
            if kind == 'alone' and key in ('p99_x', 'util'):
                row.append('-')  # 1 by definition; no bulk QPs
            elif not vals:
                row.append('-')  # cap_frac: no whole capture bin in the window
            else:
                row.append(spread(vals, f))
        rows.append(row)
    lossy = ['%s-%d' % (k, i + 1) for k in kinds for i, r in enumerate(res[k]) if r['lossy']]
    w = [max(len(r[i]) for r in rows) for i in range(len(cols))]
    out += ['  '.join(c.ljust(w[i]) for i, c in enumerate(r)).rstrip() for r in rows]
    wb, ab = frame_bytes(p['size'], p['mtu'])
    out.append('# bulk_util: bytes %s on ifb0 sent in the window (its own counter) less the small '
               'flow\'s %d x (%d + %d) B, over %g Mbit/s x win_s'
               % (qd, p['iters'], wb, ab, p['bn_mbit']))
    out.append('# the small flow alone through the bottleneck, %s\'s counter over those bytes: %s'
               % (qd, spread([r['small_ratio'] for r in res['alone']], '%.3f')))
    if lossy:
        out.append('# small_Mbps, flows and the plot\'s per-QP rates are lower bounds: the capture on '
                   'ifb0 lost packets (cap_frac < %.2f, or fewer packets than %s marked CE) in %s'
                   % (CAP_OK, qd, ', '.join(lossy)))
    verdicts = [('on', 'target (with DCQCN)'), ('off', 'the same criteria without DCQCN')]
    if FIXED in kinds:
        verdicts.append((FIXED, 'the same criteria for the fixed allocation (reference)'))
    for kind, what in verdicts:
        if kind not in kinds:
            continue
        x = med([r['p99_x'] for r in res[kind]])
        u = med([r['util'] for r in res[kind]])
        ok = x <= TARGET_P99_X and u >= TARGET_UTIL
        out.append('# %s: p99 within %gx of the unloaded p99: %.1fx; bulk keeps >= %.2f '
                   'of the bottleneck: %.3f; %s' % (what, TARGET_P99_X, x, TARGET_UTIL, u,
                                                    'met' if ok else 'not met'))
    a99 = med([r['p99'] for r in res['alone']])
    qs = ['%.1f ms %s' % (med([r['q50'] for r in res[k]]), what)
          for k, what in (('off', 'without DCQCN'), ('on', 'with DCQCN'), (FIXED, 'fixed')) if k in kinds]
    out.append('# queue delay at the bottleneck (backlog / rate), median of the q50s: %s; '
               'unloaded p99 %.2f ms' % (', '.join(qs), a99))
    return '\n'.join(out)


def plot_data(d, p, res):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'pct.dat'), 'w') as f:
        f.write('# x scenario rep p50_ms p99_ms p999_ms\n')
        for k, kind in enumerate(p['kinds']):
            for i, r in enumerate(res[kind]):
                x = k + 1 + (i - (p['reps'] - 1) / 2) * 0.1
                f.write('%.2f %s %d %.3f %.3f %.3f\n' % (x, kind, i + 1, r['p50'], r['p99'], r['p999']))
    names = {'alone': 'alone (unloaded)', 'off': '+ bulk, without DCQCN',
             'on': '+ bulk, with DCQCN', FIXED: '+ bulk at a fixed rate (reference)'}
    xtics = ', '.join('"%s" %d' % (names[kind], k + 1) for k, kind in enumerate(p['kinds']))
    loaded = [kind for kind in ('off', 'on') if kind in p['kinds']]
    meta = ['bn = %g' % p['bn_mbit'], 'nbulk = %d' % p['n'], 'reps = %d' % p['reps'],
            'nkinds = %d' % len(p['kinds']), "xtics = '(%s)'" % xtics,
            'npanels = %d' % (1 + len(loaded))]
    for kind in loaded:
        # The repetition whose p99 is the median one: a typical run.
        byp99 = sorted(range(len(res[kind])), key=lambda i: res[kind][i]['p99'])
        i = byp99[(len(byp99) - 1) // 2]
        r = res[kind][i]
        ncol = max(len(row) for row in r['rates'])
        with open(os.path.join(d, 'rates-%s.dat' % kind), 'w') as f:
            f.write('t "small flow"' + ''.join(' "bulk QP %d"' % j for j in range(1, ncol - 1)) + '\n')
            for row in r['rates']:
                row = row + [0] * (ncol - len(row))
                f.write(' '.join('%.3f' % v for v in row) + '\n')
        with open(os.path.join(d, 'lat-%s.dat' % kind), 'w') as f:
            f.write('# s since the first packet, one-way latency ms\n')
            for t, v in r['lat_t']:
                f.write('%.4f %.4f\n' % (t, v))
        with open(os.path.join(d, 'total-%s.dat' % kind), 'w') as f:
            f.write('# s since the first packet, Mb/s RED on ifb0 sent (its counter)\n')
            for t, v in r['total']:
                f.write('%.1f %.3f\n' % (t, v))
        with open(os.path.join(d, 'queue-%s.dat' % kind), 'w') as f:
            f.write('# s since the first packet, backlog / bottleneck rate in ms\n')
            for t, v in r['queue_t']:
                f.write('%.2f %.2f\n' % (t, v))
        meta += ['rep_%s = %d' % (kind, i + 1), 'ncol_%s = %d' % (kind, ncol),
                 'p99_%s = %.3f' % (kind, r['p99'])]
    with open(os.path.join(d, 'meta.gp'), 'w') as f:
        f.write('\n'.join(meta) + '\n')


def usage():
    print(__doc__.split('\n\n')[0], file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
