# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for test scripts running inside lab guests (see
# Documentation/lab.rst).  Source it; it changes no shell options.
#
#   lab_barrier NAME [TIMEOUT]      wait until every host reached NAME
#   lab_put NAME VALUE              publish VALUE under NAME for other hosts
#   lab_get HOST NAME [TIMEOUT]     print HOST's value for NAME, waiting for it
#   lab_wait_ping ADDR [TIMEOUT]    wait until ADDR answers ping
#   lab_addr_ok ADDR                true if ADDR is inside the lab ranges
#   lab_roce_gid_index IBDEV ADDR [TIMEOUT]
#                                   print the RoCE v2 GID index of ADDR on IBDEV
#
# All of them talk through the run's share (/run/lab/share), the same host
# directory in every guest.  Timeouts are in seconds (default 120; 60 for
# ping).  On failure they print a "# lab: ..." diagnostic on stderr and
# return 1; they never exit the caller.

# Outside a guest started by lab-stage2 the environment may be missing;
# /run/lab/env has it.
if [[ -z ${LAB_HOST:-} && -r /run/lab/env ]]; then
	set -a
	# shellcheck source=/dev/null
	. /run/lab/env
	set +a
fi

: "${LAB_RUN_DIR:=/run/lab/share}"

# Polling interval: every poll is a 9p round trip through TCG, so not too
# fast; barriers are rare enough that 0.2 s does not matter.
LAB_POLL=${LAB_POLL:-0.2}

_lab_err() { echo "# lab: $*" >&2; }

_lab_need_env() {
	if [[ -z ${LAB_HOST:-} || -z ${LAB_HOSTS:-} || ! -d $LAB_RUN_DIR ]]; then
		_lab_err "not in a lab guest (no LAB_HOST/LAB_HOSTS or no $LAB_RUN_DIR)"
		return 1
	fi
}

_lab_name_ok() {
	if [[ ! $1 =~ ^[A-Za-z0-9_.-]+$ ]]; then
		_lab_err "bad name '$1' (use letters, digits, '_', '.', '-')"
		return 1
	fi
}

# lab_barrier NAME [TIMEOUT]
# Every host touches barrier.NAME.hostN in the share, then waits until all
# hosts 1..LAB_HOSTS have (override the set with LAB_BARRIER_HOSTS="1 2",
# e.g. to leave out a switch guest).  Each NAME is good for one use per run.
lab_barrier() {
	local name=$1 timeout=${2:-120} h missing deadline
	_lab_need_env || return 1
	_lab_name_ok "$name" || return 1
	: >"$LAB_RUN_DIR/barrier.$name.host$LAB_HOST" || return 1
	deadline=$((SECONDS + timeout))
	while :; do
		missing=
		for h in ${LAB_BARRIER_HOSTS:-$(seq 1 "$LAB_HOSTS")}; do
			[[ -e $LAB_RUN_DIR/barrier.$name.host$h ]] || missing+=" $h"
		done
		[[ -z $missing ]] && return 0
		if ((SECONDS >= deadline)); then
			_lab_err "barrier '$name': host(s)$missing did not arrive within ${timeout}s"
			return 1
		fi
		sleep "$LAB_POLL"
	done
}

# lab_put NAME VALUE
# Written to a temporary name and renamed, so a reader never sees half a
# value.  Putting the same NAME again replaces the value.
lab_put() {
	local name=$1 value=$2 dir
	_lab_need_env || return 1
	_lab_name_ok "$name" || return 1
	dir=$LAB_RUN_DIR/host$LAB_HOST/kv
	mkdir -p "$dir" || return 1
	printf '%s\n' "$value" >"$dir/.$name.tmp" && mv -f "$dir/.$name.tmp" "$dir/$name"
}

# lab_get HOST NAME [TIMEOUT]
# Prints the value HOST put under NAME, waiting up to TIMEOUT for it.
lab_get() {
	local host=$1 name=$2 timeout=${3:-120} f deadline
	_lab_need_env || return 1
	_lab_name_ok "$name" || return 1
	f=$LAB_RUN_DIR/host$host/kv/$name
	deadline=$((SECONDS + timeout))
	until [[ -e $f ]]; do
		if ((SECONDS >= deadline)); then
			_lab_err "host$host did not put '$name' within ${timeout}s"
			return 1
		fi
		sleep "$LAB_POLL"
	done
	cat "$f"
}

# lab_addr_ok ADDR
# Guests may only talk to 198.18.0.0/15 and 2001:2::/48 (RFC 2544 / RFC 5180
# benchmarking ranges).  A cheap textual check, good enough to catch typos.
lab_addr_ok() {
	local a=${1,,}
	[[ $a =~ ^198\.1[89]\.[0-9]{1,3}\.[0-9]{1,3}$ ]] && return 0
	[[ $a == 2001:2::* || $a =~ ^2001:0*2:0{1,4}: ]] && return 0
	return 1
}

# lab_wait_ping ADDR [TIMEOUT]
# Also proves ARP/ND and the link work before a test starts its traffic.
lab_wait_ping() {
	local addr=$1 timeout=${2:-60} deadline fam=-4
	if ! lab_addr_ok "$addr"; then
		_lab_err "refusing to ping $addr: outside 198.18.0.0/15 and 2001:2::/48"
		return 1
	fi
	[[ $addr == *:* ]] && fam=-6
	deadline=$((SECONDS + timeout))
	# iputils ping is not installed everywhere; busybox's is (busybox-static).
	until _lab_ping1 "$fam" "$addr"; do
		if ((SECONDS >= deadline)); then
			_lab_err "$addr did not answer ping within ${timeout}s"
			return 1
		fi
		# "Unreachable" comes back at once; do not spin.
		sleep "$LAB_POLL"
	done
}

_lab_ping1() { # -4|-6 ADDR: one echo request, wait at most 1 s
	if command -v ping >/dev/null 2>&1; then
		ping "$1" -c 1 -W 1 "$2" >/dev/null 2>&1
	else
		busybox ping "$1" -c 1 -W 1 "$2" >/dev/null 2>&1
	fi
}

# _lab_gid_of ADDR: ADDR as the GID string sysfs shows (8 groups of 4 hex
# digits); an IPv4 address becomes its IPv4-mapped IPv6 form.
_lab_gid_of() {
	local a=${1,,} head tail g grp=() hn tn i
	if [[ $a =~ ^([0-9]+)\.([0-9]+)\.([0-9]+)\.([0-9]+)$ ]]; then
		printf '0000:0000:0000:0000:0000:ffff:%02x%02x:%02x%02x\n' \
			"${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" "${BASH_REMATCH[3]}" "${BASH_REMATCH[4]}"
		return 0
	fi
	[[ $a == *:* ]] || return 1
	if [[ $a == *::* ]]; then
		head=${a%%::*} tail=${a#*::}
	else
		head=$a tail=
	fi
	local -a hg=() tg=()
	[[ -n $head ]] && IFS=: read -ra hg <<<"$head"
	[[ -n $tail ]] && IFS=: read -ra tg <<<"$tail"
	hn=${#hg[@]} tn=${#tg[@]}
	((hn + tn <= 8)) || return 1
	grp=("${hg[@]}")
	for ((i = hn + tn; i < 8; i++)); do grp+=(0); done
	grp+=("${tg[@]}")
	for i in "${!grp[@]}"; do
		[[ ${grp[i]} =~ ^[0-9a-f]{1,4}$ ]] || return 1
		printf -v g '%04x' "$((16#${grp[i]}))"
		grp[i]=$g
	done
	(IFS=:; echo "${grp[*]}")
}

# lab_roce_gid_index IBDEV ADDR [TIMEOUT]
# Prints the index of the RoCE v2 GID for ADDR (IPv4 or IPv6) on port 1 of
# IBDEV, e.g. for perftest's -x.  The GID table fills in asynchronously after
# "rdma link add" or an address change, hence the wait (default 30 s).
lab_roce_gid_index() {
	local dev=$1 want timeout=${3:-30} deadline f i
	local port=/sys/class/infiniband/$dev/ports/1
	want=$(_lab_gid_of "$2") || { _lab_err "bad address '$2'"; return 1; }
	deadline=$((SECONDS + timeout))
	while :; do
		for f in "$port"/gids/*; do
			[[ -e $f ]] || continue
			i=${f##*/}
			[[ $(<"$f") == "$want" ]] || continue
			[[ $(<"$port/gid_attrs/types/$i") == "RoCE v2" ]] 2>/dev/null || continue
			echo "$i"
			return 0
		done
		if ((SECONDS >= deadline)); then
			_lab_err "$dev: no RoCE v2 GID for $2 within ${timeout}s"
			return 1
		fi
		sleep "$LAB_POLL"
	done
}
