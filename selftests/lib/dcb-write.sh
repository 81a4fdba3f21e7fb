# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Changing DCB state with iproute2's dcb from a test, where dcb is the
# independent writer. Source it; it defines two functions:
#
#   dcb_second_start
#     Returns within the first 0.3 s of a wall-clock second (sleeps until
#     the next one if need be). A suite that times what follows a dcb
#     write calls it before taking its start time, then plain dcb.
#   dcb_write ARGS...
#     dcb_second_start, then `dcb ARGS`; its exit status is dcb's.
#
# Why: Debian 12's dcb (iproute2 6.1) reads an object before it writes it,
# asks the kernel to ACK that read (NLM_F_ACK), leaves the ACK unread, and
# numbers its requests with time(NULL). When the read and the write fall in
# two different seconds, the write's reply loop meets the read's ACK first,
# under a sequence number not its own, and dcb fails with "Attribute write:
# Protocol error" although the kernel applied the write
# (Documentation/dcbsim.rst, "iproute2's dcb and the second boundary").
# Within one second the write's loop takes the read's ACK (error 0) for its
# own answer, so dcb's exit status never says what the kernel did: a suite
# that depends on the value reads it back.

dcb_second_start() {
	local ns
	ns=$(date +%N)
	((10#$ns < 300000000)) || sleep "0.$(printf '%09d' $((1000000000 - 10#$ns)))"
}

dcb_write() {
	dcb_second_start
	dcb "$@"
}
