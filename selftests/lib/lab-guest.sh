# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
#
# Helpers for test scripts running inside lab guests (see
# Documentation/lab.rst).  Source it; it changes no shell options.
#
#   lab_hosts N                     true in a lab guest of a run with N or
#                                   more hosts; else LAB_WHY says why not
#   lab_barrier NAME [TIMEOUT]      wait until every host reached NAME
#   lab_put NAME VALUE              publish VALUE under NAME for other hosts
#   lab_get HOST NAME [TIMEOUT]     print HOST's value for NAME, waiting for it
#   lab_wait_ping ADDR [TIMEOUT]    wait until ADDR answers ping
#   lab_addr_ok ADDR                true if ADDR is inside the lab ranges
#   lab_roce_gid_index IBDEV ADDR [TIMEOUT]
#                                   print the RoCE v2 GID index of ADDR on IBDEV
#   lab_rxe_up                      rxe0 on eth0, its GID index in LAB_GID,
#                                   and the peer answering ping
#   lab_fq DEV [FQ OPTIONS...]      fq as DEV's root qdisc, as rocetune's
#                                   pacing needs it
#   lab_perf_start/wait/stop/run ... perftest between host 1 and host 2 (below)
#   lab_perf_result NAME [FIELD]    a perftest run's result line
#   lab_perf_alive NAME             this host's perftest still runs
#   lab_perf_exit NAME              this host's perftest exit status
#   lab_tx_mbps [-t] DEV SECS       IP-level rate DEV sends at, in Mbit/s
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

# lab_hosts N
# For a suite that needs the lab's guests (two hosts joined by a link, a
# bottleneck between them, forged packets): true in a lab guest of a run
# with at least N hosts. Otherwise false, with the reason in LAB_WHY for a
# kselftest skip: on a node (an installed tree, run_kselftest.sh) such a
# suite has nothing to run on.
lab_hosts() {
	LAB_WHY=
	if [[ -z ${LAB_HOST:-} || -z ${LAB_HOSTS:-} ]]; then
		LAB_WHY="runs in the QEMU lab only (a $1-host run), and this is not a lab guest"
	elif ((LAB_HOSTS < $1)); then
		LAB_WHY="needs a $1-host lab run, this one has $LAB_HOSTS"
	fi
	[[ -z $LAB_WHY ]]
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
	local addr=$1 timeout=${2:-60} deadline
	if ! lab_addr_ok "$addr"; then
		_lab_err "refusing to ping $addr: outside 198.18.0.0/15 and 2001:2::/48"
		return 1
	fi
	deadline=$((SECONDS + timeout))
	# iputils ping is not installed everywhere; busybox's is (busybox-static).
	until _lab_ping1 "$addr"; do
		if ((SECONDS >= deadline)); then
			_lab_err "$addr did not answer ping within ${timeout}s"
			return 1
		fi
		# "Unreachable" comes back at once; do not spin.
		sleep "$LAB_POLL"
	done
}

_lab_ping1() { # ADDR: one echo request, wait at most 1 s
	local fam=-4
	[[ $1 == *:* ]] && fam=-6
	if command -v ping >/dev/null 2>&1; then
		ping "$fam" -c 1 -W 1 "$1" >/dev/null 2>&1
	else
		busybox ping "$fam" -c 1 -W 1 "$1" >/dev/null 2>&1
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

# lab_rxe_up
# The two-guest suites' start: Soft-RoCE device rxe0 on eth0, LAB_GID set
# to the RoCE v2 GID index of this guest's eth0 address (perftest's -x),
# and the peer's eth0 answering ping (60 s), so that a QP can connect.
lab_rxe_up() {
	LAB_GID=
	rdma link add rxe0 type rxe netdev eth0 || { _lab_err "rdma link add rxe0 on eth0 failed"; return 1; }
	LAB_GID=$(lab_roce_gid_index rxe0 "$LAB_ADDR_eth0") || return 1
	lab_wait_ping "$LAB_PEER_eth0" 60
}

# lab_fq DEV [FQ OPTIONS...]
# Make fq DEV's root qdisc, the one qdisc that paces by a socket's pacing
# rate, which is how rocetune.ko paces a Soft-RoCE QP (Documentation/
# datapath.rst, "Paced egress"). rxe's QP sockets are not connected, so fq
# puts a QP's packets in the flow of their hash & orphan_mask; the default
# mask (1023) lets two QPs share one flow and one rate, hence the widest.
# FQ OPTIONS (maxrate 2mbit, ...) are added to tc's command line. Every
# suite, bench and demo that paces goes through here.
lab_fq() {
	local dev=$1
	shift
	tc qdisc replace dev "$dev" root fq orphan_mask 4294967295 "$@" ||
		{ _lab_err "tc: fq as root qdisc of $dev failed"; return 1; }
}

# lab_dcb0_up
# The start of the suites that run RDMA over a DCB-capable netdev: the
# rocetune_dcbsim device dcb0 stacked on eth0 takes the lab address (it
# receives every frame eth0 does: Documentation/dcbsim.rst, "Stacked on a
# lower Ethernet device"), rxe0 on dcb0, and the peer answering ping
# (60 s). rocetune_dcbsim must be loaded.
lab_dcb0_up() {
	ip link set eth0 up &&
		ip link add link eth0 name dcb0 type dcbsim &&
		ip addr flush dev eth0 scope global &&
		ip addr add "$LAB_ADDR_eth0/24" dev dcb0 &&
		ip link set dcb0 up || { _lab_err "dcbsim dcb0 on eth0 failed"; return 1; }
	rdma link add rxe0 type rxe netdev dcb0 || { _lab_err "rdma link add rxe0 on dcb0 failed"; return 1; }
	lab_wait_ping "$LAB_PEER_eth0" 60
}

# ---------------------------------------------------------------------------
# perftest between two guests: host 1 runs the server, host 2 the client,
# which connects to $LAB_PEER_eth0.  The same call runs on both hosts.
#
#   lab_perf_start [OPTIONS] NAME -- PERFTEST [ARGS...]
#       Server host: start the server, wait until it listens, tell the
#       client.  Client host: wait for that, start the client, retry while
#       the server refuses the connection, return once it is connected.
#       Both return with perftest still running in the background.
#   lab_perf_wait NAME
#       Client host: wait for the client to end; its verdict (below) goes
#       to the server host.  Server host: wait for that verdict, give the
#       server its grace to end, then kill it.  Both return the verdict.
#   lab_perf_stop NAME
#       As lab_perf_wait, but the client is killed now (traffic that was
#       needed while the caller measured something): the verdict is 0 if
#       it was still running, non-zero if it had already ended.
#   lab_perf_run [OPTIONS] NAME -- PERFTEST [ARGS...]
#       lab_perf_start, then lab_perf_wait.
#   lab_perf_result NAME [FIELD]
#       Print the last result line of NAME's log (or its FIELD-th field,
#       e.g. 4 for ib_*_bw's average); return 1 if there is none.
#   lab_perf_uncalibrated NAME
#       True if this host's log of NAME says perftest could not calibrate
#       its clock and its result has no figures (0.00 MB/s, inf, nan; see
#       --calibrated).
#   lab_perf_alive NAME
#       True while this host's perftest (server or client) runs, e.g. to
#       sample something while the traffic lasts.
#   lab_perf_exit NAME
#       After lab_perf_wait/stop: print this host's own perftest exit
#       status (the server's on host 1, the client's on host 2; a process
#       that had to be killed shows the status of the kill, so non-zero),
#       for a test that asserts on it; "" before.  A failed start prints
#       its error status.
#
# The helper adds "-p PORT" and, on the client, the server's address; the
# caller gives the rest of the command line, the same on both hosts.  Both
# sides run line-buffered under timeout(1) and log stdout and stderr to
# $LAB_HOST_DIR/NAME.log.  NAME is used once per run.  Options:
#
#   --port PORT       default 18515
#   --timeout SECS    the client's limit (default 120); the server's is
#                     SECS + 150, though it is killed sooner (--grace)
#   --grace SECS      how long the server may take to end after the client
#                     ended before it is killed (default 20; perftest's
#                     server can hang in its closing handshake after a
#                     collapse); 0 kills it at once
#   --tolerate-close  a client that printed its result and then failed or
#                     hung in perftest's closing handshake (after a
#                     collapse) has completed; the exit status is reported
#   --tries N         connection attempts, 1 s apart (default 10)
#   --connect SECS    how long one attempt may take to connect (default
#                     60; perftest creates all its QPs first)
#   --calibrated      lab_perf_run only, for a caller that uses perftest's
#                     figures: perftest times with the CPU's cycle
#                     counter, calibrated against the clock when it
#                     starts. In a TCG guest that can fail ("Correlation
#                     coefficient r^2: 0.65 < 0.9"; perftest tries again
#                     later, and when that fails too its result line reads
#                     0.00 MB/s, or inf and -nan). Such a run is run
#                     again on both hosts, up to LAB_PERF_RECAL (2) times
#                     (as NAME-againN on PORT + 500 N; each uncalibrated
#                     log is kept as NAME.uncalN.log, the last run's
#                     becomes NAME.log); if the last cannot calibrate
#                     either, the verdict is 3
#
# The verdict is 0 only if the client connected, exited 0 (see
# --tolerate-close) and printed a result line; anything else returns
# non-zero on both hosts with a "# lab: perftest NAME: ..." reason and the
# end of the log on stderr.  A failure in lab_perf_start is returned
# again by lab_perf_wait/stop, so a caller may check either.  They track
# background processes: call them in the script's own shell, not inside
# $(...) or tap_ok.

LAB_PERF_PORT=18515
_LAB_PERF_NAME=
declare -gA _LAB_PERF_PID=() _LAB_PERF_RC=() _LAB_PERF_TMO=() \
	_LAB_PERF_GRACE=() _LAB_PERF_TOL=() _LAB_PERF_EXIT=() _LAB_PERF_CAL=() \
	_LAB_PERF_PORT=()

_lab_perf_err() { # NAME MESSAGE: reason and the end of NAME's log
	local log=$LAB_HOST_DIR/$1.log
	_lab_err "perftest $1: $2"
	[[ -s $log ]] && tail -n 5 "$log" | sed "s/^/# lab: $1.log: /" >&2
	return 0
}

# _lab_perf_fail NAME RC MESSAGE: record a failure of start; on the client
# host also tell the server host, which would otherwise wait for a verdict.
_lab_perf_fail() {
	_lab_perf_err "$1" "$3"
	_LAB_PERF_RC[$1]=$2 _LAB_PERF_EXIT[$1]=$2
	((LAB_HOST == 2)) && lab_put "perf-done.$1" "$2"
	return "$2"
}

lab_perf_start() {
	local port=$LAB_PERF_PORT tmo=120 grace=20 tol='' tries=10 conn=60 name=''
	_LAB_PERF_NAME=
	while (($#)); do
		case $1 in
		--port) port=$2; shift 2;;
		--timeout) tmo=$2; shift 2;;
		--grace) grace=$2; shift 2;;
		--tolerate-close) tol=1; shift;;
		--tries) tries=$2; shift 2;;
		--connect) conn=$2; shift 2;;
		--) shift; break;;
		-*) _lab_err "lab_perf_start: unknown option $1"; return 2;;
		*) name=$1; shift;;
		esac
	done
	if [[ -z $name || $# -eq 0 ]]; then
		_lab_err "usage: lab_perf_start [OPTIONS] NAME -- PERFTEST [ARGS...]"
		return 2
	fi
	_lab_need_env || return 1
	_lab_name_ok "$name" || return 2
	_LAB_PERF_NAME=$name
	_LAB_PERF_TMO[$name]=$tmo _LAB_PERF_GRACE[$name]=$grace _LAB_PERF_TOL[$name]=$tol
	_LAB_PERF_PORT[$name]=$port
	_LAB_PERF_RC[$name]='' _LAB_PERF_PID[$name]='' _LAB_PERF_EXIT[$name]=''
	case $LAB_HOST in
	1) _lab_perf_server "$name" "$port" "$@";;
	2) _lab_perf_client "$name" "$port" "$tries" "$conn" "$@";;
	*) _lab_err "perftest $name: host $LAB_HOST is neither server (1) nor client (2)"; return 2;;
	esac
}

_lab_perf_server() { # NAME PORT CMD...
	local name=$1 port=$2 log=$LAB_HOST_DIR/$1.log pid rc deadline
	shift 2
	if [[ -n $(ss -Hltn "sport = :$port") ]]; then
		lab_put "perf-ready.$name" "port $port busy"
		_lab_perf_fail "$name" 1 "port $port is already in use"
		return
	fi
	stdbuf -oL timeout $((_LAB_PERF_TMO[$name] + 150)) "$@" -p "$port" >"$log" 2>&1 &
	pid=$!
	_LAB_PERF_PID[$name]=$pid
	deadline=$((SECONDS + 60))
	until [[ -n $(ss -Hltn "sport = :$port") ]]; do
		if ! kill -0 "$pid" 2>/dev/null; then
			wait "$pid"
			rc=$?
			_LAB_PERF_PID[$name]=
			lab_put "perf-ready.$name" "server failed"
			_lab_perf_fail "$name" 1 "server exited ($rc) before listening on port $port"
			return
		fi
		if ((SECONDS >= deadline)); then
			kill "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
			_LAB_PERF_PID[$name]=
			lab_put "perf-ready.$name" "server failed"
			_lab_perf_fail "$name" 1 "server not listening on port $port within 60s"
			return
		fi
		sleep "$LAB_POLL"
	done
	lab_put "perf-ready.$name" ok
}

_lab_perf_client() { # NAME PORT TRIES CONNECT CMD...
	local name=$1 port=$2 tries=$3 conn=$4 log=$LAB_HOST_DIR/$1.log
	local addr=${LAB_PEER_eth0:-} ready pid rc try deadline
	shift 4
	if ! lab_addr_ok "$addr"; then
		_lab_perf_fail "$name" 1 "refusing server address '$addr': outside the lab ranges"
		return
	fi
	# The server waits up to 60 s for its port, after its own start-up.
	if ! ready=$(lab_get 1 "perf-ready.$name" 150); then
		_lab_perf_fail "$name" 1 "the server never reported"
		return
	fi
	if [[ $ready != ok ]]; then
		_lab_perf_fail "$name" 1 "the server did not start: $ready"
		return
	fi
	for ((try = 1; try <= tries; try++)); do
		sleep 1
		stdbuf -oL timeout "${_LAB_PERF_TMO[$name]}" "$@" -p "$port" "$addr" >"$log" 2>&1 &
		pid=$!
		deadline=$((SECONDS + conn))
		# Connected once it printed the server's QP ("remote address:
		# LID ..."); "Couldn't connect" means nobody listened yet.
		while :; do
			if grep -q 'remote address' "$log"; then
				_LAB_PERF_PID[$name]=$pid
				return 0
			fi
			if ! kill -0 "$pid" 2>/dev/null; then
				wait "$pid"
				rc=$?
				grep -q "Couldn't connect" "$log" && break
				_lab_perf_fail "$name" $((rc ? rc : 1)) \
					"client exited ($rc) before connecting to $addr:$port"
				return
			fi
			if ((SECONDS >= deadline)); then
				kill "$pid" 2>/dev/null
				wait "$pid" 2>/dev/null
				_lab_perf_fail "$name" 1 "client not connected to $addr:$port within ${conn}s"
				return
			fi
			sleep "$LAB_POLL"
		done
	done
	_lab_perf_fail "$name" 1 "could not connect to $addr:$port in $tries tries"
}

# _lab_perf_verdict NAME RC: the client's verdict from its exit status RC
# and its log.
_lab_perf_verdict() {
	local name=$1 rc=$2
	if ! lab_perf_result "$name" >/dev/null; then
		_lab_perf_err "$name" "no result line (client exit $rc)"
		return $((rc ? rc : 1))
	fi
	if ((rc == 0)) && [[ -n ${_LAB_PERF_CAL[$name]:-} ]] && lab_perf_uncalibrated "$name"; then
		_lab_perf_err "$name" "perftest could not calibrate its clock, again: its figures are not measurements"
		return 3
	fi
	((rc == 0)) && return 0
	if [[ -n ${_LAB_PERF_TOL[$name]} ]]; then
		_lab_err "perftest $name: client exit $rc after its result (closing handshake), counted as completed"
		return 0
	fi
	_lab_perf_err "$name" "client exit $rc"
	return "$rc"
}

# _lab_perf_end NAME stop|wait
# Before 6.1, rxe's destroy_qp returns while the QP's packets still wait in
# a qdisc or the NIC's ring, the RDMA core frees the QP's CQs at once, and
# rxe's deferred cleanup then uses freed memory (Documentation/kernels.rst,
# "Paced egress on 5.10"). A client killed mid-transfer leaves packets in
# both, so on such a kernel lab_perf_stop pauses it first and stops it once
# the work it had posted has left: eth0 sent nothing for half a second
# (20 s at most). Left is not yet freed: virtio-net frees a sent skb when
# it transmits again (its completion interrupt is delayed), so a QP's last
# packets, each holding the QP, can stay in the ring of either guest after
# the traffic stops. A few pings to the peer make both guests transmit,
# which frees them before the QPs are destroyed.
_lab_old_rxe() {
	local major minor
	IFS=. read -r major minor _ <<<"$(uname -r)"
	((major < 6 || (major == 6 && minor < 1)))
}

_lab_perf_quiesce() {
	local pid=$1 i prev=-1 cur n=0
	kill -STOP "$pid" 2>/dev/null || return 0
	for ((i = 0; i < 40; i++)); do
		cur=$(cat /sys/class/net/eth0/statistics/tx_packets 2>/dev/null) || break
		[[ $cur == "$prev" ]] && break
		prev=$cur
		sleep 0.5
	done
	lab_addr_ok "${LAB_PEER_eth0:-}" || return 0
	for ((i = 0; i < 3; i++)); do
		_lab_ping1 "$LAB_PEER_eth0" && n=$((n + 1))
	done
	echo "# lab: client paused until eth0 was quiet, then $n of 3 pings to the peer answered" >&2
	return 0
}

_lab_perf_end() {
	local name=$1 how=$2 pid rc v i
	if [[ -z ${_LAB_PERF_TMO[$name]+set} ]]; then
		_lab_err "perftest $name: never started"
		return 2
	fi
	pid=${_LAB_PERF_PID[$name]}
	if ((LAB_HOST == 2)); then
		# A failed start already told the server host.
		[[ -n ${_LAB_PERF_RC[$name]} ]] && return "${_LAB_PERF_RC[$name]}"
		if [[ $how == stop ]] && kill -0 "$pid" 2>/dev/null; then
			_lab_old_rxe && _lab_perf_quiesce "$pid"
			kill "$pid" 2>/dev/null
			kill -CONT "$pid" 2>/dev/null
			wait "$pid" 2>/dev/null
			_LAB_PERF_EXIT[$name]=$?
			v=0
		elif [[ $how == stop ]]; then
			# The caller needed the traffic until now.
			wait "$pid"
			v=$?
			_LAB_PERF_EXIT[$name]=$v
			_lab_perf_err "$name" "client had ended (exit $v) before it was stopped"
			v=$((v ? v : 1))
		else
			wait "$pid"
			rc=$?
			_LAB_PERF_EXIT[$name]=$rc
			_lab_perf_verdict "$name" "$rc"
			v=$?
		fi
		_LAB_PERF_RC[$name]=$v _LAB_PERF_PID[$name]=
		lab_put "perf-done.$name" "$v"
		return "$v"
	fi
	if [[ -n ${_LAB_PERF_RC[$name]} ]]; then
		v=${_LAB_PERF_RC[$name]}
	else
		v=$(lab_get 2 "perf-done.$name" $((_LAB_PERF_TMO[$name] + 120))) || v=124
		[[ $v =~ ^[0-9]+$ ]] || v=1
		((v == 0)) || _lab_err "perftest $name: the client's verdict is $v"
	fi
	if [[ -n $pid ]]; then
		for ((i = 0; i < _LAB_PERF_GRACE[$name] * 5; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.2
		done
		if kill -0 "$pid" 2>/dev/null; then
			((_LAB_PERF_GRACE[$name] > 0)) &&
				_lab_err "perftest $name: server still running ${_LAB_PERF_GRACE[$name]}s after the client, killed"
			kill "$pid" 2>/dev/null
		fi
		wait "$pid" 2>/dev/null
		_LAB_PERF_EXIT[$name]=$?
		_LAB_PERF_PID[$name]=
	fi
	_LAB_PERF_RC[$name]=$v
	return "$v"
}

lab_perf_wait() { _lab_perf_end "$1" wait; }
lab_perf_stop() { _lab_perf_end "$1" stop; }

lab_perf_alive() {
	local pid=${_LAB_PERF_PID[$1]:-}
	[[ -n $pid ]] && kill -0 "$pid" 2>/dev/null
}

lab_perf_exit() {
	echo "${_LAB_PERF_EXIT[$1]:-}"
}

lab_perf_uncalibrated() {
	# perftest may try more than once: only a result line of 0.00 MB/s
	# (bandwidth) or inf/nan (latency) after the warning has no figures.
	local log=$LAB_HOST_DIR/$1.log line
	grep -q '^Correlation coefficient r\^2' "$log" 2>/dev/null || return 1
	line=$(lab_perf_result "$1") || return 1
	[[ $line == *inf* || $line == *nan* ]] && return 0
	grep -q 'BW average' "$log" && awk '{exit !($4 + 0 == 0)}' <<<"$line"
}

# How often --calibrated runs a perftest again (after the first run).
LAB_PERF_RECAL=2

lab_perf_run() {
	local -a opts=() cmd=()
	local cal='' name cur rc a n
	# OPTIONS NAME, then -- CMD...; --calibrated is lab_perf_run's own.
	while (($#)) && [[ $1 != -- ]]; do
		[[ $1 == --calibrated ]] && cal=1 || opts+=("$1")
		shift
	done
	cmd=("$@")
	lab_perf_start "${opts[@]}" "${cmd[@]}"
	rc=$?
	name=$_LAB_PERF_NAME
	[[ -n $name ]] || return "$rc"
	lab_perf_wait "$name"
	rc=$?
	[[ -n $cal ]] || return "$rc"
	cur=$name
	for ((n = 1; n <= LAB_PERF_RECAL; n++)); do
		# Again? The client decides, from its log; the server asks it.
		if ((LAB_HOST == 2)); then
			a=0
			((rc == 0)) && lab_perf_uncalibrated "$cur" && a=1
			lab_put "perf-again.$cur" "$a"
		elif ! a=$(lab_get 2 "perf-again.$cur" 60); then
			_lab_err "perftest $cur: the client host never said whether to run again"
			return $((rc ? rc : 1))
		fi
		[[ $a == 1 ]] || break
		_lab_err "perftest $cur: could not calibrate its clock (r^2 < 0.9): running it again"
		mv -f "$LAB_HOST_DIR/$cur.log" "$LAB_HOST_DIR/$name.uncal$n.log"
		cur=$name-again$n
		# The last try's verdict counts a failed calibration (3).
		((n == LAB_PERF_RECAL)) && _LAB_PERF_CAL[$cur]=1
		# lab_perf_start takes the last --port and the last name given.
		lab_perf_start "${opts[@]}" --port $((_LAB_PERF_PORT[$name] + 500 * n)) "$cur" "${cmd[@]}"
		rc=$?
		if [[ -n $_LAB_PERF_NAME ]]; then
			lab_perf_wait "$cur"
			rc=$?
		fi
	done
	if [[ $cur != "$name" ]]; then
		mv -f "$LAB_HOST_DIR/$cur.log" "$LAB_HOST_DIR/$name.log"
		_LAB_PERF_EXIT[$name]=${_LAB_PERF_EXIT[$cur]:-}
	fi
	return "$rc"
}

lab_perf_result() {
	local log=$LAB_HOST_DIR/$1.log line
	[[ -r $log ]] || return 1
	# "#bytes #iterations ..." figures: the first two fields integers.
	line=$(awk '$1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && NF >= 4' "$log" | tail -n 1)
	[[ -n $line ]] || return 1
	if [[ -n ${2:-} ]]; then
		awk -v f="$2" '{print $f}' <<<"$line"
	else
		echo "$line"
	fi
}

# lab_tx_mbps [-t] DEV SECS
# The rate DEV sends at over the next SECS seconds, IP level (its byte
# counter less 14 bytes of Ethernet header per packet), in Mbit/s with two
# decimals: what a paced RoCE sender puts on the wire.  The rate is over
# the time that really passed between the two readings, which in a busy
# guest can be well over SECS; -t prints that time (s, one decimal) after
# the rate.
lab_tx_mbps() {
	local el=0
	[[ $1 == -t ]] && { el=1; shift; }
	local s=/sys/class/net/$1/statistics b0 p0 t0 b1 p1 t1
	b0=$(<"$s/tx_bytes") && p0=$(<"$s/tx_packets") || return 1
	t0=$(date +%s.%N)
	sleep "$2"
	b1=$(<"$s/tx_bytes") && p1=$(<"$s/tx_packets") || return 1
	t1=$(date +%s.%N)
	awk -v b=$((b1 - b0)) -v p=$((p1 - p0)) -v t0="$t0" -v t1="$t1" -v el=$el \
		'BEGIN {printf "%.2f", (b - 14 * p) * 8 / (t1 - t0) / 1e6
			if (el) printf " %.1f", t1 - t0
			printf "\n"}'
}
