#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The boot-time apply without a kernel: packaging/rocetune-apply-all against
# a stand-in rocetune whose exit statuses and JSON each profile dictates
# (which profiles it applies, how it reads rocetune's exit codes, the
# DEVICE filter of the udev-started instances, which modules it loads),
# and the three systemd units through `systemd-analyze verify`. The real
# thing, on a real rxe device, is in selftests/host/deb.sh.

TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib/tap.sh"

W=$TOP/packaging/rocetune-apply-all
[ -x "$W" ] || tap_skip_all "$W missing"

T=$(mktemp -d "${TMPDIR:-/tmp}/rocetune-boot.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/bin" "$T/etc" "$T/cfs" "$T/sys/class/net/eth1" \
	"$T/sys/class/net/dcb0" "$T/sys/class/infiniband/rxe0"

# The stand-in: "#diff-rc: N", "#diff-json: ..." and "#apply-rc: N" lines
# of the profile say what `rocetune -j diff` and `rocetune apply` do.
cat >"$T/bin/rocetune" <<'STUB'
#!/bin/bash
echo "$*" >>"$STUB_LOG"
get() { sed -n "s/^#$1: //p" "$2"; }
if [ "$1 $2" = "-j diff" ]; then
	get diff-json "$3"
	exit "$(get diff-rc "$3")"
elif [ "$1" = apply ]; then
	exit "$(get apply-rc "$2")"
fi
exit 64
STUB
cat >"$T/bin/modprobe" <<'STUB'
#!/bin/bash
echo "modprobe $*" >>"$STUB_LOG"
STUB
chmod +x "$T/bin/rocetune" "$T/bin/modprobe"

export ROCETUNE=$T/bin/rocetune ROCETUNE_CONFIGFS=$T/cfs ROCETUNE_SYSFS=$T/sys
export STUB_LOG=$T/log PATH=$T/bin:$PATH

# profile NAME DIFF-RC DIFF-JSON APPLY-RC [SECTION...]
profile() {
	local f=$T/etc/$1.conf s
	{
		echo "#diff-rc: $2"
		echo "#diff-json: $3"
		echo "#apply-rc: $4"
		echo "[match]"
		echo "rdma_device = *"
		shift 4
		for s; do echo "[$s]"; done
	} >"$f"
}
RXE='{"devices":[{"netdev":"dcb0","rdma_device":"rxe0","actions":[]}],"result":"changes-pending"}'
ETH1='{"devices": [{"netdev": "eth1", "rdma_device": null}], "result": "unchanged"}'
NODEV='{"diagnostics": [{"severity": "error", "code": "no-device"}], "devices": [], "result": "precondition-failed"}'
BADDEV='{"diagnostics":[{"severity":"error","code":"no-dcb"}],"devices":[{"netdev":"eth1"}],"result":"precondition-failed"}'

# run [DEVICE]: the wrapper on $T/etc; sets RC and APPLIED (the profiles
# it applied, in order) and MODS (the modules it loaded).
run() {
	: >"$STUB_LOG"
	ROCETUNE_PROFILE_DIR=$T/etc "$W" "$@" >"$T/out" 2>&1
	RC=$?
	APPLIED=$(sed -n 's|^apply .*/||p' "$STUB_LOG" | tr '\n' ' ')
	MODS=$(sed -n 's/^modprobe //p' "$STUB_LOG" | tr '\n' ' ')
}

tap_plan 14

run
tap_eq "no profiles: exit 0, nothing run" "0 ''" "$RC '$(cat "$STUB_LOG")'"

profile 10-rxe 2 "$RXE" 2
profile 20-nodev 1 "$NODEV" 1
profile 30-eth1 0 "$ETH1" 0
run
tap_eq "changed (2) and unchanged (0) are success; a profile matching no device is skipped" \
	"0 10-rxe.conf 30-eth1.conf " "$RC $APPLIED"
sed 's/^/#   /' "$T/out"

profile 25-fails 1 "$BADDEV" 1
run
tap_eq "a failed apply (1) fails the run, and later profiles still apply" \
	"1 10-rxe.conf 25-fails.conf 30-eth1.conf " "$RC $APPLIED"

profile 27-partial 2 "$ETH1" 3
run
tap_eq "a rollback that did not complete (3) is the run's status" \
	"3 10-rxe.conf 25-fails.conf 27-partial.conf 30-eth1.conf " "$RC $APPLIED"
rm "$T/etc/25-fails.conf" "$T/etc/27-partial.conf"

profile 40-usage 64 "" 64
run
tap_eq "any other exit status (usage error) is a failure" \
	"1 10-rxe.conf 30-eth1.conf 40-usage.conf " "$RC $APPLIED"
rm "$T/etc/40-usage.conf"

run rxe0
tap_eq "DEVICE rxe0 (an RDMA device): only the profiles matching it" "0 10-rxe.conf " "$RC $APPLIED"
run dcb0
tap_eq "DEVICE dcb0 (its netdev): the same profile" "0 10-rxe.conf " "$RC $APPLIED"
run eth1
tap_eq "DEVICE eth1: only the profile matching eth1" "0 30-eth1.conf " "$RC $APPLIED"
run mlx5_0
tap_eq "DEVICE that no longer exists (renamed): every profile" "0 10-rxe.conf 30-eth1.conf " "$RC $APPLIED"

tap_eq "no [cc] or [rdma_cm]: no module loaded" "" "$MODS"
profile 50-cc 0 "$ETH1" 0 cc rdma_cm
run
tap_eq "[cc] and [rdma_cm] without their configfs: rocetune and rdma_cm loaded once" \
	"rocetune rdma_cm " "$MODS"
mkdir "$T/cfs/rocetune" "$T/cfs/rdma_cm"
run
tap_eq "with their configfs present: nothing loaded" "" "$MODS"

run a b
tap_eq "two arguments: usage error (64)" 64 "$RC"

# The units, against this host's systemd units. verify exits 0 on many
# problems it only prints (an unknown Type= is "ignoring"), so any output
# fails too.
# shellcheck disable=SC2317 # called through tap_ok
verify_units() {
	local R=$T/root out
	command -v systemd-analyze >/dev/null || { echo "no systemd-analyze"; return 1; }
	mkdir -p "$R/lib/systemd/system" "$R/usr/libexec/rocetune" "$R/etc/rocetune" "$R/bin"
	cp -a /lib/systemd/system/. "$R/lib/systemd/system/" || return 1
	cp "$TOP/packaging/rocetune.service" "$TOP/packaging/rocetune@.service" \
		"$TOP/packaging/rocetune-watch.service" "$R/lib/systemd/system/" || return 1
	cp "$W" "$R/usr/libexec/rocetune/" || return 1
	cp /bin/sh "$R/bin/" || return 1	# rocetune-watch.service runs it
	out=$(systemd-analyze verify --man=no --root="$R" \
		rocetune.service rocetune@rxe0.service rocetune@eth0.1.service \
		rocetune-watch.service 2>&1) || {
		printf '%s\n' "$out"; return 1; }
	[ -z "$out" ] || { printf '%s\n' "$out"; return 1; }
}
if command -v systemd-analyze >/dev/null && [ -d /lib/systemd/system ]; then
	tap_ok "systemd-analyze verify rocetune.service, rocetune@.service instances, rocetune-watch.service" verify_units
else
	tap_skip "systemd-analyze verify" "systemd not installed (apt-get install systemd)"
fi
tap_done
