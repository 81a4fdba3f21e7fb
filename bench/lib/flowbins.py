# SPDX-License-Identifier: GPL-2.0
"""The per-QP bins bench/incast/flowcap.py writes ("bin_start_s sport
bytes [packets]" lines, BIN seconds each), read by bench/incast/analyze.py
and bench/taillat/analyze.py."""

BIN = 0.5


def read(path):
    """(bytes, packets): each {sport: {bin index: count}}. Captures made
    before flowcap counted packets have three fields; their packets are
    left out (an empty dict per port)."""
    nbytes, npkts = {}, {}
    with open(path) as f:
        for line in f:
            fields = line.split()
            if len(fields) not in (3, 4):
                raise ValueError('%s: not a flowcap line: %r' % (path, line))
            i, sport = round(float(fields[0]) / BIN), int(fields[1])
            nbytes.setdefault(sport, {})[i] = int(fields[2])
            pk = npkts.setdefault(sport, {})
            if len(fields) == 4:
                pk[i] = int(fields[3])
    return nbytes, npkts
