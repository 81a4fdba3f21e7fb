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

# kernel_log_clean: the kernel log has no line that means something went
# wrong (splats, refcount and list corruption, a netdev that cannot go
# away, rocetune's own report of objects not freed at rmmod). Prints the
# offending lines.
kernel_log_clean() {
	! dmesg | grep -E 'BUG:|WARNING:|Oops|general protection|refcount_t|use-after-free|list_del corruption|unregister_netdevice: waiting|rocetune: leaked'
}
