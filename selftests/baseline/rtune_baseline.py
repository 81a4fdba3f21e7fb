#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""rtune_baseline.py: perftest figures, baseline files and the ratio checks
of the IB-vs-RoCE selftest (Documentation/baselines.rst has the format).

  rtune_baseline.py parse lat|bw OP SIZE SRC LOG...
        perftest logs of one measurement (repeated runs of one command) as
        "value" lines: lat gives min/p50/p99/p999 (t_min, t_typical and
        the two percentiles, each the median over the runs) and, with two
        or more runs, jitter (max - min of the runs' p50); bw gives the
        median of the runs' BW average.
  rtune_baseline.py check FILE...
        parse and validate; nothing else.
  rtune_baseline.py capture --limits LIMITS MEASURED
        a baseline file: MEASURED's sources and values, LIMITS' limits.
  rtune_baseline.py compare BASELINE MEASURED
        each measured value against the baseline's value for the same
        metric, as a ratio against the baseline's limit for it: one
        PASS/FAIL/SKIP line per metric and a summary line.

Exit status: 0 success (compare: every compared metric within its limit,
at least one compared); 1 compare: some metric outside its limit; 2 bad
input (each error as FILE:LINE: message on stderr) or usage; 3 compare:
nothing could be compared.

Every input is untrusted: the parser takes ASCII lines of known keywords
only and says where it stopped.
"""
import datetime
import os
import re
import sys

VERSION = 1
MAX_FILE = 1 << 20
MAX_LINE = 512
MAX_ERRORS = 20

OPS = ('write', 'send')
STATS = ('min', 'p50', 'p99', 'p999')
METRIC_RE = re.compile(
    r'^(?:lat\.(?P<lop>write|send)\.(?P<lsize>[1-9][0-9]{0,9})\.(?P<stat>min|p50|p99|p999)'
    r'|(?P<fam>bw|jitter)\.(?P<op>write|send)\.(?P<size>[1-9][0-9]{0,9}))$')
NUMBER_RE = re.compile(r'^(0|[1-9][0-9]{0,11})(\.[0-9]{1,6})?$')
SRC_ID_RE = re.compile(r'^[a-z0-9][a-z0-9_-]{0,31}$')
DATE_RE = re.compile(r'^[0-9]{4}-[0-9]{2}-[0-9]{2}$')
PATTERN_RE = re.compile(r'^[a-z0-9.*]{1,64}$')
UNITS = {'lat': 'us', 'jitter': 'us', 'bw': 'MB/s'}
# Which way a metric is better decides which kind of limit fits it.
LIMIT_KIND = {'lat': 'max_ratio', 'jitter': 'max_ratio', 'bw': 'min_ratio'}


class InputError(Exception):
    """One or more FILE:LINE: messages."""

    def __init__(self, errors):
        super().__init__('\n'.join(errors))
        self.errors = errors


def family(metric):
    return metric.split('.', 1)[0]


def parse_number(tok):
    if not NUMBER_RE.match(tok):
        return None
    return float(tok)


class Baseline:
    """A parsed file: sources, values and limits, each with its line."""

    def __init__(self, name):
        self.name = name
        self.sources = {}   # id -> (date, text, line)
        self.values = {}    # metric -> (number, src, line)
        self.order = []     # metrics in file order
        self.limits = []    # (pattern, kind, ratio, floor, line)

    def where(self, line):
        return '%s:%d' % (self.name, line)

    def limit_for(self, metric):
        """The last limit line whose pattern matches (later lines refine)."""
        found = None
        for lim in self.limits:
            if glob_match(lim[0], metric):
                found = lim
        return found


def glob_match(pattern, text):
    """'*' matches any run of characters, '.' included; nothing else is
    special."""
    rx = '^' + '.*'.join(re.escape(p) for p in pattern.split('*')) + '$'
    return re.match(rx, text) is not None


def _read_lines(name, data):
    if len(data) > MAX_FILE:
        raise InputError(['%s: larger than %d bytes' % (name, MAX_FILE)])
    if data and not data.endswith(b'\n'):
        raise InputError(['%s:%d: no newline at the end of the file'
                          % (name, data.count(b'\n') + 1)])
    lines = data.split(b'\n')[:-1] if data else []
    out = []
    for n, raw in enumerate(lines, 1):
        if len(raw) > MAX_LINE:
            raise InputError(['%s:%d: line longer than %d bytes' % (name, n, MAX_LINE)])
        for b in raw:
            if b > 126 or (b < 32 and b != 9):
                raise InputError(['%s:%d: byte 0x%02x is not printable ASCII' % (name, n, b)])
        out.append((n, raw.decode('ascii')))
    return out


def parse_baseline(name, data):
    """Parse the bytes of one baseline or measurement file."""
    b = Baseline(name)
    errors = []
    seen_header = False
    uses = []  # (src, line)

    def err(line, msg):
        errors.append('%s:%d: %s' % (name, line, msg))

    for n, text in _read_lines(name, data):
        tok = text.split()
        if not tok or tok[0].startswith('#'):
            continue
        if not seen_header:
            if tok[0] != 'rocetune-baseline':
                err(n, "expected 'rocetune-baseline %d' before anything else" % VERSION)
                break
            if len(tok) != 2 or tok[1] != str(VERSION):
                err(n, "unsupported format '%s' (this reads 'rocetune-baseline %d')"
                    % (' '.join(tok[1:]), VERSION))
                break
            seen_header = True
            continue
        kw = tok[0]
        if kw == 'rocetune-baseline':
            err(n, 'a second header line')
        elif kw == 'source':
            if len(tok) < 4:
                err(n, "'source' needs ID DATE TEXT")
                continue
            sid, date = tok[1], tok[2]
            if not SRC_ID_RE.match(sid):
                err(n, "bad source id '%s' (a-z, 0-9, '_', '-'; at most 32)" % sid)
                continue
            if not DATE_RE.match(date):
                err(n, "bad date '%s' (YYYY-MM-DD)" % date)
                continue
            try:
                datetime.date.fromisoformat(date)
            except ValueError:
                err(n, "no such date '%s'" % date)
                continue
            if sid in b.sources:
                err(n, "source '%s' already defined at line %d" % (sid, b.sources[sid][2]))
                continue
            b.sources[sid] = (date, ' '.join(tok[3:]), n)
        elif kw == 'value':
            if len(tok) != 5:
                err(n, "'value' needs METRIC NUMBER UNIT src=ID (%d fields given)" % (len(tok) - 1))
                continue
            metric, num, unit, src = tok[1:]
            if not METRIC_RE.match(metric):
                err(n, "unknown metric '%s'" % metric)
                continue
            v = parse_number(num)
            if v is None:
                err(n, "'%s' is not a plain decimal number" % num)
                continue
            want = UNITS[family(metric)]
            if unit != want:
                err(n, "%s is in %s, not '%s'" % (metric, want, unit))
                continue
            if not src.startswith('src=') or not SRC_ID_RE.match(src[4:]):
                err(n, "expected src=ID, got '%s'" % src)
                continue
            if metric in b.values:
                err(n, "%s already given at line %d" % (metric, b.values[metric][2]))
                continue
            b.values[metric] = (v, src[4:], n)
            b.order.append(metric)
            uses.append((src[4:], n))
        elif kw == 'limit':
            if len(tok) not in (4, 6):
                err(n, "'limit' needs PATTERN max_ratio|min_ratio NUMBER [floor NUMBER]")
                continue
            pat, kind, num = tok[1:4]
            if not PATTERN_RE.match(pat):
                err(n, "bad metric pattern '%s' (a-z, 0-9, '.', '*')" % pat)
                continue
            if kind not in ('max_ratio', 'min_ratio'):
                err(n, "unknown limit '%s' (max_ratio or min_ratio)" % kind)
                continue
            r = parse_number(num)
            if r is None or r == 0:
                err(n, "ratio '%s' is not a positive decimal number" % num)
                continue
            floor = None
            if len(tok) == 6:
                if tok[4] != 'floor':
                    err(n, "expected 'floor', got '%s'" % tok[4])
                    continue
                if kind != 'max_ratio':
                    err(n, "'floor' only goes with max_ratio")
                    continue
                floor = parse_number(tok[5])
                if floor is None or floor == 0:
                    err(n, "floor '%s' is not a positive decimal number" % tok[5])
                    continue
            b.limits.append((pat, kind, r, floor, n))
        else:
            err(n, "unknown keyword '%s'" % kw)
        if len(errors) >= MAX_ERRORS:
            break
    if not seen_header and not errors:
        errors.append("%s: empty: no 'rocetune-baseline %d' line" % (name, VERSION))
    for sid, n in uses:
        if sid not in b.sources:
            err(n, "source '%s' is not defined in this file" % sid)
    if errors:
        raise InputError(errors[:MAX_ERRORS])
    return b


def load(path):
    try:
        with open(path, 'rb') as f:
            data = f.read(MAX_FILE + 1)
    except OSError as e:
        raise InputError(['%s: %s' % (path, e.strerror)]) from None
    return parse_baseline(path, data)


# ---------------------------------------------------------------- perftest

# perftest prints every figure %.2f.
FLOAT2 = re.compile(r'[0-9]+\.[0-9]{2}')


def parse_perftest(name, data, kind, size):
    """The result line of one perftest run: for lat a dict min/p50/p99/p999
    (t_min, t_typical and the two percentiles, usec), for bw the BW
    average."""
    lines = _read_lines(name, data if data.endswith(b'\n') or not data else data + b'\n')
    header = None
    found = None
    uncal = None
    for n, text in lines:
        # perftest could not calibrate its cycle counter against the
        # clock (seen in TCG guests). It tries more than once: a run
        # whose last try failed prints 0.00 MB/s, or inf and -nan
        # latencies; one whose figures are whole got a calibration.
        if text.startswith('Correlation coefficient r^2'):
            uncal = (n, text.strip())
            continue
        if kind == 'lat' and 't_typical' in text:
            if '99.9% percentile' not in text:
                raise InputError(['%s:%d: no percentiles in this perftest header '
                                  '(perftest 4.x prints them with -n, not -D)' % (name, n)])
            header = n
            continue
        if kind == 'bw' and 'BW average' in text:
            if 'MB/sec' not in text:
                raise InputError(['%s:%d: BW not in MB/sec (drop --report_gbits)' % (name, n)])
            header = n
            continue
        if header is None:
            continue
        tok = text.split()
        if not tok or not tok[0].isdigit():
            continue
        if found is not None:
            raise InputError(['%s:%d: a second result line (the first at line %d); '
                              'one size per run' % (name, n, found[0])])
        found = (n, text)
    if header is None:
        raise InputError(['%s: no perftest %s result header' % (name, 'latency' if kind == 'lat' else 'bandwidth')])
    if found is None:
        raise InputError(['%s:%d: no result line after the header' % (name, header)])
    n, text = found
    tok = text.split()
    if len(tok) < 2 or not tok[1].isdigit():
        raise InputError(['%s:%d: malformed result line' % (name, n)])
    if int(tok[0]) != size:
        raise InputError(['%s:%d: result for %s bytes, expected %d' % (name, n, tok[0], size)])
    # Each figure is printed %-7.2f; wide ones can run into the next
    # (rxe's "2465.901216.65"), so take the figures by their two decimals.
    rest = text.split(None, 2)[2] if len(tok) > 2 else ''
    if uncal and (re.search(r'\b(-?inf|-?nan)\b', rest) or
                  (kind == 'bw' and len(rest.split()) == 3 and rest.split()[1] == '0.00')):
        raise InputError(['%s:%d: perftest could not calibrate its clock (line %d: %s): '
                          'its figures are not measurements' % (name, n, uncal[0], uncal[1])])
    figs = FLOAT2.findall(rest)
    if kind == 'lat':
        if len(figs) != 7 or FLOAT2.sub('', rest).strip():
            raise InputError(['%s:%d: expected 7 figures (min max typical avg stdev 99%% 99.9%%), '
                              'got %r' % (name, n, rest.strip())])
        vals = [float(f) for f in figs]
        return {'min': vals[0], 'p50': vals[2], 'p99': vals[5], 'p999': vals[6]}
    # BW peak and average %.2f, the message rate %.6f, blank-separated.
    figs = rest.split()
    if len(figs) != 3 or not all(re.match(r'^[0-9]+\.[0-9]+$', f) for f in figs):
        raise InputError(['%s:%d: expected 3 figures (peak average msgrate), got %r'
                          % (name, n, rest.strip())])
    return float(figs[1])


def median(xs):
    s = sorted(xs)
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


def fmt(v):
    return ('%.6f' % v).rstrip('0').rstrip('.') if v != int(v) else '%d' % v


def cmd_parse(args):
    if len(args) < 5 or args[0] not in ('lat', 'bw') or args[1] not in OPS \
            or not re.match(r'^[1-9][0-9]{0,9}$', args[2]) or not SRC_ID_RE.match(args[3]):
        return usage()
    kind, op, size, src = args[0], args[1], int(args[2]), args[3]
    runs = []
    for path in args[4:]:
        try:
            with open(path, 'rb') as f:
                data = f.read(MAX_FILE + 1)
        except OSError as e:
            raise InputError(['%s: %s' % (path, e.strerror)]) from None
        runs.append(parse_perftest(path, data, kind, size))
    out = []
    if kind == 'lat':
        # min is the path's floor: the smallest over the runs, so one run
        # starved by the host cannot raise it; the others are medians.
        for st in STATS:
            vals = [r[st] for r in runs]
            out.append(('lat.%s.%d.%s' % (op, size, st), min(vals) if st == 'min' else median(vals), 'us'))
        if len(runs) > 1:
            p50 = [r['p50'] for r in runs]
            out.append(('jitter.%s.%d' % (op, size), max(p50) - min(p50), 'us'))
    else:
        out.append(('bw.%s.%d' % (op, size), median(runs), 'MB/s'))
    for metric, v, unit in out:
        print('value %s %.2f %s src=%s' % (metric, v, unit, src))
    return 0


def cmd_check(args):
    if not args:
        return usage()
    for p in args:
        load(p)
    return 0


def cmd_capture(args):
    if len(args) != 3 or args[0] != '--limits':
        return usage()
    lim, meas = load(args[1]), load(args[2])
    if not meas.values:
        raise InputError(['%s: no values to capture' % meas.name])
    if not lim.limits:
        raise InputError(['%s: no limits' % lim.name])
    print('rocetune-baseline %d' % VERSION)
    print('# captured by rtune_baseline.py from %s, limits from %s'
          % (os.path.basename(meas.name)[:100], os.path.basename(lim.name)[:100]))
    for sid, (date, text, _) in meas.sources.items():
        print('source %s %s %s' % (sid, date, text))
    for m in meas.order:
        v, src, _ = meas.values[m]
        print('value %s %s %s src=%s' % (m, fmt(v), UNITS[family(m)], src))
    for pat, kind, r, floor, _ in lim.limits:
        print('limit %s %s %s%s' % (pat, kind, fmt(r), '' if floor is None else ' floor ' + fmt(floor)))
    return 0


def cmd_compare(args):
    if len(args) != 2:
        return usage()
    base, meas = load(args[0]), load(args[1])
    npass = nfail = nskip = 0
    errors = []
    for m in meas.order:
        v = meas.values[m][0]
        unit = UNITS[family(m)]
        if m not in base.values:
            print('SKIP %s measured %s %s: no baseline value' % (m, fmt(v), unit))
            nskip += 1
            continue
        bv, src, bline = base.values[m]
        lim = base.limit_for(m)
        if lim is None:
            print('SKIP %s measured %s %s: no limit in %s' % (m, fmt(v), unit, base.name))
            nskip += 1
            continue
        pat, kind, r, floor, lline = lim
        if kind != LIMIT_KIND[family(m)]:
            errors.append('%s: %s limit %s matches %s, which needs %s'
                          % (base.where(lline), kind, pat, m, LIMIT_KIND[family(m)]))
            continue
        ref = bv if floor is None else max(bv, floor)
        if ref == 0:
            # A measured 0 is a result (perftest printed 0.00 MB/s); a
            # baseline of 0 leaves nothing to divide by.
            errors.append('%s: %s has baseline 0%s: no ratio'
                          % (base.where(bline), m, '' if kind == 'min_ratio' else
                             ' and the limit at %s has no floor' % base.where(lline)))
            continue
        ratio = v / ref
        ok = ratio <= r if kind == 'max_ratio' else ratio >= r
        margin = (r / ratio if ratio else float('inf')) if kind == 'max_ratio' else ratio / r
        print('%s %s measured %s %s baseline %s %s%s ratio %.3f %s %s margin x%.2f (src=%s, limit %s)'
              % ('PASS' if ok else 'FAIL', m, fmt(v), unit, fmt(bv), unit,
                 '' if floor is None or bv >= floor else ' (floor %s)' % fmt(floor),
                 ratio, '<=' if kind == 'max_ratio' else '>=', fmt(r), margin,
                 src, base.where(lline)))
        if ok:
            npass += 1
        else:
            nfail += 1
    if errors:
        raise InputError(errors)
    print('compared %d: %d passed, %d failed, %d not compared'
          % (npass + nfail, npass, nfail, nskip))
    if nfail:
        return 1
    return 0 if npass else 3


def usage():
    sys.stderr.write(__doc__.split('\n\n', 1)[1].split('\n\nExit')[0] + '\n')
    return 2


def main(argv):
    cmds = {'parse': cmd_parse, 'check': cmd_check, 'capture': cmd_capture,
            'compare': cmd_compare}
    if len(argv) < 2 or argv[1] not in cmds:
        return usage()
    try:
        return cmds[argv[1]](argv[2:])
    except InputError as e:
        for line in e.errors:
            sys.stderr.write('rtune_baseline: %s\n' % line)
        return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))
