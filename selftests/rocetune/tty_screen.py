#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run a full-screen program on a pseudo-terminal and read its screen.

stats.sh uses it for `rocetune top` in curses mode, which only starts on
a terminal. The program's output goes through pyte (a VT100 emulator,
Debian's python3-pyte), so the checks read what a user would see, not
the escape sequences that drew it.

    tty_screen.py [--rows R] [--cols C] [--term T] [--timeout S] STEP... -- CMD...

Steps run in order; each prints one line, "NAME VALUE":
    wait:REGEX   until a screen line matches REGEX     -> "wait 1" (or exit 1)
    first        the first word of the row under the NETDEV header
                                                        -> "first dcb0"
    bottom       the last screen row, stripped         -> "bottom keys: ..."
    headers      how many "rocetune top:" lines the screen shows -> "headers 1"
    frames:N     until the screen shows N of them       -> "frames 1" (or exit 1)
    sleep:S      read the output for S seconds          -> "sleep S"
    key:C        send the character C                  -> "key C"
    signal:NAME  send the signal (TERM, INT)           -> "signal TERM"
    exit         wait for the program to end           -> "exit CODE"
A step that times out prints "NAME timeout" and the screen on stderr,
and the script exits 1: a test reading its output then fails.
"""

import argparse
import fcntl
import os
import re
import select
import signal
import struct
import sys
import termios
import time

try:
    import pyte
except ImportError:
    sys.exit("tty_screen.py: python3-pyte is not installed (scripts/install-deps.sh)")


class Tty:
    def __init__(self, cmd, rows, cols, term):
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.status = None
        pid, fd = os.forkpty()
        if pid == 0:
            os.environ["TERM"] = term
            os.environ["LINES"] = str(rows)
            os.environ["COLUMNS"] = str(cols)
            try:
                os.execvp(cmd[0], cmd)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

    def pump(self, secs):
        """Read what the program wrote for up to @secs; False at EOF."""
        r, _, _ = select.select([self.fd], [], [], secs)
        if not r:
            return True
        try:
            data = os.read(self.fd, 65536)
        except OSError:		# EIO: the slave side is closed
            data = b""
        if not data:
            return False
        self.stream.feed(data)
        return True

    def until(self, pred, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if pred():
                return True
            if not self.pump(0.05) and not pred():
                return False
        return pred()

    def lines(self):
        return [l.rstrip() for l in self.screen.display]

    def reap(self, timeout):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.pump(0.05)
            pid, st = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(st)
                return True
        return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=30)
    ap.add_argument("--cols", type=int, default=120)
    ap.add_argument("--term", default="xterm")
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument("rest", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    if "--" not in a.rest:
        ap.error("steps, then --, then the command")
    cut = a.rest.index("--")
    steps, cmd = a.rest[:cut], a.rest[cut + 1:]
    if not cmd:
        ap.error("no command")

    t = Tty(cmd, a.rows, a.cols, a.term)

    def fail(what):
        print(what, flush=True)
        sys.stderr.write("tty_screen.py: %s; the screen:\n" % what)
        sys.stderr.write("\n".join(t.lines()).rstrip() + "\n")
        if t.status is None:
            os.kill(t.pid, signal.SIGKILL)
            os.waitpid(t.pid, 0)
        sys.exit(1)

    def headers():
        return sum(1 for l in t.lines() if l.startswith("rocetune top:"))

    for s in steps:
        name, _, arg = s.partition(":")
        if name == "wait":
            rx = re.compile(arg)
            if not t.until(lambda: any(rx.search(l) for l in t.lines()), a.timeout):
                fail("wait timeout")
            print("wait 1")
        elif name == "first":
            ls = t.lines()
            hdr = [i for i, l in enumerate(ls) if l.startswith("NETDEV ")]
            if not hdr or hdr[0] + 1 >= len(ls) or not ls[hdr[0] + 1].split():
                fail("first none")
            print("first", ls[hdr[0] + 1].split()[0])
        elif name == "bottom":
            print("bottom", t.lines()[-1].strip())
        elif name == "headers":
            print("headers", headers())
        elif name == "frames":
            if not t.until(lambda: headers() >= int(arg), a.timeout):
                fail("frames timeout")
            print("frames 1")
        elif name == "sleep":
            t.until(lambda: False, float(arg))
            print("sleep", arg)
        elif name == "key":
            os.write(t.fd, arg.encode())
            print("key", arg)
        elif name == "signal":
            os.kill(t.pid, getattr(signal, "SIG" + arg))
            print("signal", arg)
        elif name == "exit":
            if not t.reap(a.timeout):
                fail("exit timeout")
            print("exit", t.status)
        else:
            ap.error("unknown step %r" % s)
        sys.stdout.flush()
    if t.status is None:
        os.kill(t.pid, signal.SIGKILL)
        os.waitpid(t.pid, 0)


if __name__ == "__main__":
    main()
