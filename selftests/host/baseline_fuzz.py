#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""baseline_fuzz.py SEEDDIR N: mutate the seed files (baseline files and
perftest logs) N times each, deterministically, and feed every mutant to
rtune_baseline's parsers. Any outcome but a result or an InputError (a
FILE:LINE message) is a failure: an exception escaping the parser, or an
error message without the file's name. Prints the number of inputs run."""
import os
import random
import sys
import traceback

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'baseline'))
import rtune_baseline as rb  # noqa: E402

TOKENS = [b'value ', b'limit ', b'source ', b'rocetune-baseline 1\n', b'src=', b'*', b'.',
          b'lat.write.8.p50', b'bw.send.4096', b'jitter.write.256', b' us', b' MB/s',
          b'max_ratio', b'min_ratio', b'floor', b'99.9% percentile', b't_typical',
          b'BW average[MB/sec]', b'\n', b'\t', b'\r', b'\0', b'\xff', b'0', b'1e9',
          b'2026-02-29', b'9999999999999', b'.00', b'#']


def mutate(rng, data):
    b = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        op = rng.randrange(5)
        pos = rng.randint(0, len(b))
        if op == 0 and b:
            del b[pos:pos + rng.randint(1, 16)]
        elif op == 1:
            b[pos:pos] = rng.choice(TOKENS)
        elif op == 2 and b:
            b[min(pos, len(b) - 1)] = rng.randrange(256)
        elif op == 3 and b:
            s = rng.randint(0, len(b) - 1)
            b[pos:pos] = b[s:s + rng.randint(1, 64)]
        else:
            b = b[:pos]
    return bytes(b)


def main():
    seeddir, n = sys.argv[1], int(sys.argv[2])
    rng = random.Random(12)
    seeds = []
    for root, _, files in os.walk(seeddir):
        for f in sorted(files):
            with open(os.path.join(root, f), 'rb') as fh:
                seeds.append((f, fh.read()))
    runs = 0
    for name, data in seeds:
        for _ in range(n):
            m = mutate(rng, data)
            runs += 1
            for target in ('baseline', 'lat', 'bw'):
                try:
                    if target == 'baseline':
                        rb.parse_baseline('in', m)
                    else:
                        rb.parse_perftest('in', m, target, 8)
                except rb.InputError as e:
                    if not e.errors or not all(x.startswith('in:') or x.startswith('in ') for x in e.errors):
                        print('bad message from %s on a mutant of %s: %r' % (target, name, e.errors))
                        return 1
                except Exception:  # noqa: BLE001 - any escape is the finding
                    print('%s escaped on a mutant of %s: %r' % (target, name, m[:200]))
                    traceback.print_exc(file=sys.stdout)
                    return 1
    print(runs)
    return 0


if __name__ == '__main__':
    sys.exit(main())
