# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Reading a lab guest's serial console (sourced by lab-run and by
# selftests/host/lab-console.sh, which checks it on sample consoles).
# Only kernel lines count: printk's "[ seconds.micro] " prefix. The console
# also carries the test script's TAP, which may quote anything.

# Kernel lines that fail a run whatever the script said: the ones that do
# not panic under panic_on_warn (RCU stalls, hung tasks, lockdep,
# sanitizers) as well as the ones that do.
SPLAT_RE='^\[ *[0-9]+\.[0-9]+\] .*(Kernel panic|BUG:|Oops|WARNING: CPU|general protection fault|detected stall|blocked for more than [0-9]+ seconds|UBSAN:|KASAN:|possible circular locking|inconsistent lock state|possible recursive locking|suspicious RCU usage|soft lockup|hard LOCKUP|kernel BUG at)'

# The transmit watchdog on one of the lab's virtio NICs: the emulated
# device stopped giving transmit buffers back. 6.1 and later print
# "virtio_net virtio2 eth0: NETDEV WATCHDOG: CPU: 0: transmit queue 0
# timed out 5148 ms"; 5.10 prints "NETDEV WATCHDOG: eth0 (virtio_net):
# transmit queue 0 timed out" inside a warning. Documentation/testing.rst,
# "The stuck link of bench/incast", has what is known of the cause.
NIC_STALL_RE='^\[ *[0-9]+\.[0-9]+\] .*virtio_net.*NETDEV WATCHDOG|^\[ *[0-9]+\.[0-9]+\] .*NETDEV WATCHDOG: .*\(virtio_net\): transmit queue'

# console_lines FILE: the console without the serial line's carriage
# returns; nothing for a missing file.
console_lines() {
	[[ -f $1 ]] || return 0
	tr -d '\r' <"$1"
}

# kernel_splat FILE: print the first splat line of console FILE; false if
# there is none.
kernel_splat() {
	console_lines "$1" | grep -m1 -aE "$SPLAT_RE"
}

# nic_stall FILE: print the first virtio transmit-watchdog line of console
# FILE when no splat came before it (a kernel that broke first may well
# have stalled the NIC itself); false otherwise.
nic_stall() {
	# Through the environment: awk -v would take the backslashes as escapes.
	console_lines "$1" | SPLAT_RE=$SPLAT_RE NIC_STALL_RE=$NIC_STALL_RE awk '
		$0 ~ ENVIRON["NIC_STALL_RE"] { print; found = 1; exit }
		$0 ~ ENVIRON["SPLAT_RE"] { exit }
		END { exit !found }'
}
