# SPDX-License-Identifier: GPL-2.0
# Helpers for selftests that load kernel modules (sourced).

# wait_for CMD...: poll CMD up to ~10 s (TCG guests are slow); true as
# soon as it succeeds.
wait_for() {
	local _
	for _ in $(seq 100); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

# kernel_log_mark: kernel_log_clean looks only at what the kernel logs
# after this point. A lab guest's log starts at its boot, but a node's
# holds its whole uptime, other drivers' warnings included. Without
# /dev/kmsg (or once the mark left the ring buffer) the whole log counts.
KERNEL_LOG_MARK=
kernel_log_mark() {
	KERNEL_LOG_MARK="rocetune selftest: ${0##*/} (pid $$) starts"
	{ echo "$KERNEL_LOG_MARK" >/dev/kmsg; } 2>/dev/null || KERNEL_LOG_MARK=
}

# kernel_log_since_mark: the kernel log from the mark on.
kernel_log_since_mark() {
	local log
	log=$(dmesg)
	if [ -n "$KERNEL_LOG_MARK" ] && grep -qF "$KERNEL_LOG_MARK" <<<"$log"; then
		awk -v m="$KERNEL_LOG_MARK" 'seen; index($0, m) { seen = 1 }' <<<"$log"
	else
		printf '%s\n' "$log"
	fi
}

# kernel_log_clean: the kernel log (since kernel_log_mark) has no line that
# means something went wrong (splats, refcount and list corruption, a
# netdev that cannot go away, rocetune's own report of objects not freed at
# rmmod). Prints the offending lines.
kernel_log_clean() {
	! kernel_log_since_mark | grep -E 'BUG:|WARNING:|Oops|general protection|refcount_t|use-after-free|list_del corruption|unregister_netdevice: waiting|rocetune: leaked'
}
