#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""analyze.py [--command CMD] SHARE PLOTDIR: the table of bench/taillat
from a lab run's share directory (host1: params, flows-NAME and its .t0,
q-NAME, red0-NAME, red1-NAME; host2: lat-NAME.log), on stdout; the plot's
data in PLOTDIR (pct.dat, rates-KIND.dat, lat-KIND.dat, queue-KIND.dat,
meta.gp, for plot.gp). NAME is KIND-REP, KIND alone, off or on.

Per scenario, the median and [min-max] over the repetitions of:

p50/p99/p999_ms  the small flow's t_typical, 99 % and 99.9 % percentiles,
                 as perftest printed them (one-way: half the round trip).
                 perftest leaves out the 2 largest of its ITERS-1 samples
                 first, so at 1000 exchanges its p99.9 is one of the three
                 largest: a tail figure, not a statistic of its own.
p99_x            the p99 over the unloaded (alone) p99 of the same
                 repetition (runs interleaved: each pair shares the
                 machine's state).
bulk_util        bytes of the bulk QPs that left the bottleneck (Ethernet +
                 IP, per-QP capture on host1's ifb0) over its rate, while
                 the small flow ran (its first and last 0.5 s bins left
                 out: partial).
small_Mbps       the small flow's own rate through the bottleneck, same
                 window.
q50/q99_ms       the bottleneck's backlog (RED on ifb0, sampled every
                 50 ms) in the same window, as the time it takes to drain
                 at the bottleneck rate: what a small message waits behind.
ce, drops        packets RED marked and dropped during the measurement.
flows            QPs seen on ifb0 (the small flow and the bulk QPs with
                 more than 1 % of the bulk bytes).

A capture that saw fewer packets than RED marked CE lost packets (RED
with ecn marks and does not drop below its limit): the table says which
runs, and their utilisation is then a lower bound. (Few marks prove
nothing: a capture can lose packets without this check seeing it.)

The small flow is the port (rxe gives each QP its own UDP source port)
whose packets are smallest on average: 64-byte writes and ACKs against
full 256-byte packets.

A run that measured nothing is refused, with every reason on stderr and
exit status 1: a missing or unparsable perftest log, a latency of zero,
no capture, no small flow or no bulk traffic in a loaded run, too short
a window, no queue samples. The table never holds a zero for a missing
figure."""
import datetime
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'lib'))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'selftests', 'baseline'))
import flowbins  # noqa: E402 (found through the paths above)
from rtune_baseline import InputError, parse_perftest  # noqa: E402

KINDS = ('alone', 'off', 'on')
BIN = flowbins.BIN
SAMPLE = re.compile(r'^([0-9]+), ([0-9.eE+-]+)$')
# The target of issue 12, with DCQCN.
TARGET_P99_X, TARGET_UTIL = 2.0, 0.90


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
    need = ('kernel', 'bn_mbit', 'red', 'reps', 'n', 'size', 'iters', 'warm', 'mtu')
    missing = [k for k in need if not p.get(k)]
    if missing:
        raise Refused('%s: no %s' % (path, ', '.join(missing)))
    try:
        for k in ('bn_mbit', 'reps', 'n', 'size', 'iters', 'warm', 'mtu'):
            p[k] = float(p[k]) if k == 'bn_mbit' else int(p[k])
    except ValueError:
        raise Refused('%s: %s is not a number' % (path, k)) from None
    if p['bn_mbit'] <= 0 or p['reps'] < 1:
        raise Refused('%s: bottleneck rate or repetitions not positive' % path)
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


def measure(share, name, kind, p):
    """One measurement: its figures and the series for the plot."""
    h1 = os.path.join(share, 'host1')
    figs, samples = latency(os.path.join(share, 'host2', 'lat-%s.log' % name), p['size'])
    fpath = os.path.join(h1, 'flows-' + name)
    try:
        nbytes, npkts = flowbins.read(fpath)
        t0 = float(open(fpath + '.t0').read())
    except (OSError, ValueError) as e:
        raise Refused('%s: no capture of the bottleneck (%s)' % (fpath, e)) from None
    if not nbytes:
        raise Refused('%s: nothing left the bottleneck (empty capture)' % fpath)
    mean = {}
    for s, b in nbytes.items():
        pk = sum(npkts[s].values())
        if pk:
            mean[s] = sum(b.values()) / pk
    if len(mean) != len(nbytes):
        raise Refused('%s: no packet counts (a capture by an older flowcap.py)' % fpath)
    small = min(mean, key=mean.get)
    others = sorted(mean[s] for s in mean if s != small)
    if others and mean[small] > 0.6 * others[len(others) // 2]:
        raise Refused('%s: cannot tell the small flow (%.0f B a packet) from the bulk QPs '
                      '(%.0f B): a message size near the MTU, or two QPs on one port'
                      % (fpath, mean[small], others[len(others) // 2]))
    sb = sorted(nbytes[small])
    if kind == 'alone':
        lo, hi = sb[0], sb[-1] + 1
    else:
        lo, hi = sb[0] + 1, sb[-1]
        if hi - lo < 2:
            raise Refused('%s: the small flow spans %d full bins of %.1f s: no utilisation window'
                          % (fpath, max(hi - lo, 0), BIN))
    cap = p['bn_mbit'] * 1e6 / 8 * BIN
    bulk = [s for s in nbytes if s != small]
    per = {s: sum(nbytes[s].get(i, 0) for i in range(lo, hi)) for s in bulk}
    tot = sum(per.values())
    flows = 1 + sum(1 for s in bulk if tot and per[s] > tot / 100)
    util = tot / (cap * (hi - lo))
    if kind != 'alone' and util <= 0:
        raise Refused('%s: no bulk traffic left the bottleneck while the small flow ran' % fpath)
    small_mbps = sum(nbytes[small].get(i, 0) for i in range(lo, hi)) * 8 / ((hi - lo) * BIN) / 1e6
    q, qt = [], []
    ms = 8e3 / (p['bn_mbit'] * 1e6)  # ms a backlog byte takes to drain
    qpath = os.path.join(h1, 'q-' + name)
    try:
        for line in open(qpath):
            f = line.split()
            if len(f) != 2:
                continue
            t, b = float(f[0]) - t0, int(float(f[1]))
            qt.append((t, b * ms))
            if lo <= t / BIN < hi:
                q.append(b)
    except (OSError, ValueError) as e:
        raise Refused('%s: %s' % (qpath, e)) from None
    if not q:
        raise Refused('%s: no queue sample while the small flow ran' % qpath)
    q.sort()
    try:
        d0, c0 = (int(x) for x in open(os.path.join(h1, 'red0-' + name)).read().split())
        d1, c1 = (int(x) for x in open(os.path.join(h1, 'red1-' + name)).read().split())
    except (OSError, ValueError) as e:
        raise Refused('%s: no RED statistics (%s)' % (name, e)) from None
    # Every packet RED marked left the bottleneck (ecn marks, not drops):
    # a capture that saw fewer lost packets, and its util is a lower bound.
    seen = sum(sum(v.values()) for v in npkts.values())
    r = dict(figs)
    r.update(lossy=seen < c1 - c0, util=util, small_mbps=small_mbps, q50=pct(q, 0.5) * ms, q99=pct(q, 0.99) * ms,
             ce=c1 - c0, drops=d1 - d0, flows=flows, samples=samples, queue_t=qt)
    # Series: Mb/s per port and bin (small flow first), and the samples on
    # the capture's clock, from the small flow's first bin on (each
    # exchange takes twice perftest's one-way figure).
    order = [small] + sorted(bulk, key=lambda s: -sum(nbytes[s].values()))
    last = max(max(v) for v in nbytes.values())
    r['rates'] = [[i * BIN] + [nbytes[s].get(i, 0) * 8 / BIN / 1e6 for s in order]
                  for i in range(0, last + 1)]
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
    res = {k: [] for k in KINDS}
    for rep in range(1, p['reps'] + 1):
        for kind in KINDS:
            try:
                res[kind].append(measure(share, '%s-%d' % (kind, rep), kind, p))
            except Refused as e:
                errors.append(str(e))
    if errors:
        for e in errors:
            print('taillat: %s' % e, file=sys.stderr)
        print('taillat: %d of %d measurements refused: no table' % (len(errors), 3 * p['reps']),
              file=sys.stderr)
        return 1
    for kind in KINDS:
        for r in res[kind]:
            if len(r['samples']) != p['iters'] - 1:
                print('taillat: %s: %d per-exchange samples, not %d: its latency-over-time '
                      'curve is incomplete' % (kind, len(r['samples']), p['iters'] - 1), file=sys.stderr)
    for kind in KINDS:
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
    out += ['# bottleneck: host1 ingress ifb0, HTB %g Mbit/s + RED ecn min %s max %s limit %s B;'
            % (p['bn_mbit'], red[0], red[1], red[2]),
            '# small flow: ib_write_lat -s %d -n %d -U -u 17 -m %d --tclass=2, host2 to host1;'
            % (p['size'], p['iters'], p['mtu']),
            '# bulk: ib_write_bw -s 65536 -q %d -u 17 -m %d --tclass=2 from %d s before it until it ended;'
            % (p['n'], p['mtu'], p['warm']),
            '# with DCQCN (on): the lab preset of selftests/dcqcn/lab-preset.sh on both hosts.',
            '# %d repetitions of (alone, off, on), interleaved; each figure: median [min-max].'
            % p['reps']]
    cols = [('scenario', None, None), ('p50_ms', 'p50', '%.2f'), ('p99_ms', 'p99', '%.2f'),
            ('p999_ms', 'p999', '%.2f'), ('p99_x', 'p99_x', '%.1f'),
            ('bulk_util', 'util', '%.3f'), ('small_Mbps', 'small_mbps', '%.2f'),
            ('q50_ms', 'q50', '%.1f'), ('q99_ms', 'q99', '%.1f'), ('ce', 'ce', '%d'),
            ('drops', 'drops', '%d'), ('flows', 'flows', '%d')]
    rows = [[c[0] for c in cols]]
    for kind in KINDS:
        row = [kind]
        for _, key, f in cols[1:]:
            if kind == 'alone' and key in ('p99_x', 'util'):
                row.append('-')  # 1 by definition; no bulk QPs
            else:
                row.append(spread([r[key] for r in res[kind]], f))
        rows.append(row)
    lossy = ['%s-%d' % (k, i + 1) for k in KINDS for i, r in enumerate(res[k]) if r['lossy']]
    w = [max(len(r[i]) for r in rows) for i in range(len(cols))]
    out += ['  '.join(c.ljust(w[i]) for i, c in enumerate(r)).rstrip() for r in rows]
    if lossy:
        out.append('# bulk_util and small_Mbps are lower bounds, not figures: the capture on ifb0 '
                   'saw fewer packets than RED marked CE in %s' % ', '.join(lossy))
    for kind, what in (('on', 'target (with DCQCN)'), ('off', 'the same criteria without DCQCN')):
        x = med([r['p99_x'] for r in res[kind]])
        u = med([r['util'] for r in res[kind]])
        ok = x <= TARGET_P99_X and u >= TARGET_UTIL
        verdict = 'met' if ok else 'not met'
        if lossy and x <= TARGET_P99_X and u < TARGET_UTIL:
            verdict = 'unknown (utilisation from a lossy capture)'
        out.append('# %s: p99 within %gx of the unloaded p99: %.1fx; bulk keeps >= %.2f '
                   'of the bottleneck: %.3f; %s' % (what, TARGET_P99_X, x, TARGET_UTIL, u, verdict))
    a99 = med([r['p99'] for r in res['alone']])
    out.append('# queue delay at the bottleneck (backlog / rate), median of the q50s: %.1f ms '
               'without DCQCN, %.1f ms with it; unloaded p99 %.2f ms'
               % (med([r['q50'] for r in res['off']]), med([r['q50'] for r in res['on']]), a99))
    return '\n'.join(out)


def plot_data(d, p, res):
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, 'pct.dat'), 'w') as f:
        f.write('# x scenario rep p50_ms p99_ms p999_ms\n')
        for k, kind in enumerate(KINDS):
            for i, r in enumerate(res[kind]):
                x = k + 1 + (i - (p['reps'] - 1) / 2) * 0.1
                f.write('%.2f %s %d %.3f %.3f %.3f\n' % (x, kind, i + 1, r['p50'], r['p99'], r['p999']))
    meta = ['bn = %g' % p['bn_mbit'], 'nbulk = %d' % p['n'], 'reps = %d' % p['reps']]
    for kind in ('off', 'on'):
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
