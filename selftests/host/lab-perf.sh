#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The lab's perftest helper (lab_perf_* in selftests/lib/lab-guest.sh)
# fails loudly: run on the host, with two "guests" as two shell processes
# sharing a directory, and a stand-in for perftest that really listens and
# connects (TCP on 127.0.0.1 only) and then behaves as the case needs.
# A client against a port where nothing listens, a server that never
# listens, a client that fails, prints no result or hangs must all be an
# error on both hosts, never a success with no figure; a good run, a
# tolerated hang in the closing handshake, a hung server and a stopped
# client must succeed, each within its limits. lab_perf_alive and
# lab_perf_exit report each host's own perftest, a server that had to be
# killed included. With --calibrated, a run whose perftest could not
# calibrate its clock is run again once, and fails if it still cannot.

# shellcheck disable=SC2030,SC2031,SC2317 # subshells are the guests
set -uo pipefail
TOP=$(cd "$(dirname "$0")/../.." && pwd)
. "$TOP/selftests/lib/tap.sh"

command -v python3 >/dev/null || tap_skip_all "python3 not installed"
command -v ss >/dev/null || tap_skip_all "ss (iproute2) not installed"
command -v stdbuf >/dev/null || tap_skip_all "stdbuf (coreutils) not installed"

T=$(mktemp -d "${TMPDIR:-/tmp}/rocetune-lab-perf.XXXXXX")
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$T"' EXIT
SHARE=$T/share
mkdir -p "$SHARE/host1" "$SHARE/host2"

# The stand-in: "fakeperf ... -p PORT [ADDR]". A server (no ADDR, mode
# FAKE_SERVER) listens on 127.0.0.1:PORT; a client (mode FAKE_CLIENT)
# connects there whatever ADDR says and prints what perftest would.
cat >"$T/fakeperf" <<'EOF'
#!/bin/bash
port= addr=
while (($#)); do
	case $1 in -p) port=$2; shift 2;; 198.18.*) addr=$1; shift;; *) shift;; esac
done
if [[ -z $addr ]]; then
	[[ ${FAKE_SERVER:-ok} == die ]] && { echo "Couldn't listen to port $port"; exit 1; }
	exec python3 - "$port" "${FAKE_SERVER:-ok}" <<'PY'
import socket, sys, time
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(1)
print("Waiting for client to connect...", flush=True)
c, _ = s.accept()
print(" remote address: LID 0000 QPN 0x0011 PSN 0x1", flush=True)
while c.recv(100):
    pass
if sys.argv[2] == "hang":
    time.sleep(1000)
PY
fi
if ! exec 3<>"/dev/tcp/127.0.0.1/$port"; then
	echo "Couldn't connect to $addr:$port"
	exit 1
fi 2>/dev/null
echo " local address: LID 0000 QPN 0x0012 PSN 0x2"
echo " remote address: LID 0000 QPN 0x0011 PSN 0x1"
mode=${FAKE_CLIENT:-ok}
# latewarn: the warning, then whole figures (perftest's later try worked).
[[ $mode == latewarn ]] && { echo "Correlation coefficient r^2: 0.81 < 0.9"; mode=ok; }
# uncalonce: the first run (no FAKE_STATE file yet) cannot calibrate.
if [[ $mode == uncal || ($mode == uncalonce && ! -e $FAKE_STATE) ]]; then
	: >"$FAKE_STATE"
	echo " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]"
	echo "Correlation coefficient r^2: 0.647096 < 0.9"
	echo " 65536      228              0.00               0.00   		   0.000000"
	exit 0
fi
[[ $mode == uncalonce ]] && mode=ok
case $mode in
ok|hang)
	echo " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]"
	echo " 65536      1200             0.00               0.05 		   0.000095"
	[[ $FAKE_CLIENT == hang ]] && exec sleep 1000
	exit 0;;
noresult) exit 0;;
fail) echo " Failed to complete run_iter_bw function successfully"; exit 1;;
running) exec sleep 1000;;
esac
EOF
chmod +x "$T/fakeperf"

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# as HOST CMD...: run CMD in a shell that is lab host HOST (in the
# background); its exit status goes to $T/rc.HOST, its stderr to $T/err.HOST.
as() {
	local h=$1
	shift
	(
		export LAB_HOST=$h LAB_HOSTS=2 LAB_RUN_DIR=$SHARE LAB_HOST_DIR=$SHARE/host$h
		export LAB_PEER_eth0=198.18.1.$((3 - h)) LAB_POLL=0.1
		. "$TOP/selftests/lib/lab-guest.sh"
		"$@"
		echo $? >"$T/rc.$h"
	) 2>"$T/err.$h" &
}

# runexit OPTS... NAME -- CMD...: lab_perf_run, then this host's own
# perftest exit status to $T/exit.HOST.
runexit() {
	local name rc a
	for a; do [[ $a == -- ]] && break; name=$a; done
	lab_perf_run "$@"
	rc=$?
	lab_perf_exit "$name" >"$T/exit.$LAB_HOST"
	return "$rc"
}

# both NAME OPTS...: lab_perf_run on both hosts, wait for them; sets rc1,
# rc2, ex1, ex2 (each host's lab_perf_exit) and secs (wall time).
both() {
	local name=$1 port t0=$SECONDS
	shift
	port=$(free_port)
	rm -f "$T/rc.1" "$T/rc.2" "$T/exit.1" "$T/exit.2"
	as 1 runexit --port "$port" "$@" "$name" -- "$T/fakeperf" -s 65536
	as 2 runexit --port "$port" "$@" "$name" -- "$T/fakeperf" -s 65536
	wait
	rc1=$(cat "$T/rc.1" 2>/dev/null || echo none)
	rc2=$(cat "$T/rc.2" 2>/dev/null || echo none)
	ex1=$(cat "$T/exit.1" 2>/dev/null || echo none)
	ex2=$(cat "$T/exit.2" 2>/dev/null || echo none)
	secs=$((SECONDS - t0))
	tap_diag "$name: host1 rc $rc1, host2 rc $rc2, ${secs}s"
	sed 's/^/  host1: /' "$T/err.1" | while read -r l; do tap_diag "$l"; done
	sed 's/^/  host2: /' "$T/err.2" | while read -r l; do tap_diag "$l"; done
}
failed() { [[ $1 =~ ^[0-9]+$ ]] && (($1 != 0)); }
failed2() { failed "$1" && failed "$2"; }

tap_plan 28

export FAKE_SERVER=ok FAKE_CLIENT=ok
both good
tap_eq "a good run succeeds on both hosts" "0 0" "$rc1 $rc2"
tap_eq "... and each host's own perftest exited 0 (lab_perf_exit)" "0 0" "$ex1 $ex2"
(
	export LAB_HOST_DIR=$SHARE/host2
	. "$TOP/selftests/lib/lab-guest.sh"
	lab_perf_result good 4
) >"$T/avg"
tap_eq "lab_perf_result reads the client's average" 0.05 "$(cat "$T/avg")"

# The case of the dead link: the server side said it was ready, nobody
# listens on the port.
port=$(free_port)
rm -f "$T/rc.2"
t0=$SECONDS
as 2 lab_perf_run --port "$port" --tries 3 noserver -- "$T/fakeperf"
(
	export LAB_HOST=1 LAB_HOSTS=2 LAB_RUN_DIR=$SHARE LAB_HOST_DIR=$SHARE/host1
	. "$TOP/selftests/lib/lab-guest.sh"
	lab_put perf-ready.noserver ok
)
wait
tap_diag "noserver: host2 rc $(cat "$T/rc.2"), $((SECONDS - t0))s; $(tr '\n' ' ' <"$T/err.2")"
tap_ok "a client against a port where nothing listens fails" failed "$(cat "$T/rc.2")"
tap_eq "... and gives up after its tries (3, 1 s apart)" 1 "$((SECONDS - t0 < 15))"
tap_ok "... and tells the server host" failed "$(cat "$SHARE/host2/kv/perf-done.noserver")"

FAKE_SERVER=die both nolisten
tap_ok "a server that never listens fails both hosts" failed2 "$rc1" "$rc2"
# (Bounds far below the waits they rule out, 150 s and the server's
# timeout, since make check runs this beside loaded guests: 21 s seen
# for a good run.)
tap_eq "... at once, the client does not wait for it" 1 "$((secs < 60))"

FAKE_CLIENT=fail both clientfail
tap_ok "a client that exits non-zero fails both hosts" failed2 "$rc1" "$rc2"
tap_eq "... lab_perf_exit: the server ended by itself, the client with 1" "0 1" "$ex1 $ex2"

FAKE_CLIENT=noresult both noresult
tap_ok "a client with no result line fails both hosts" failed2 "$rc1" "$rc2"

FAKE_CLIENT=hang both hang --timeout 3
tap_eq "a client hung after its result fails both hosts (timeout)" "124 124" "$rc1 $rc2"

FAKE_CLIENT=hang both hangok --timeout 3 --tolerate-close
tap_eq "... unless the closing handshake is tolerated" "0 0" "$rc1 $rc2"

FAKE_SERVER=hang both hungserver --grace 1
tap_eq "a server hung after the client is killed after its grace" "0 0" "$rc1 $rc2"
tap_eq "... within a minute, not the server's timeout" 1 "$((secs < 60))"
tap_ok "... and lab_perf_exit on the server host says it was killed ($ex1)" failed "$ex1"

# --calibrated: perftest's clock calibration failed (as under TCG).
nfiles() { local f n=0; for f; do [[ -e $f ]] && n=$((n + 1)); done; echo "$n"; }
export FAKE_STATE=$T/calibrated
FAKE_CLIENT=uncalonce both recal --calibrated
tap_eq "--calibrated: a run that could not calibrate is run again, which succeeds" "0 0" "$rc1 $rc2"
tap_ok "... NAME.log is the second run's (a result, no calibration warning)" \
	awk '/Correlation coefficient/ {exit 1} $1 == 65536 && $4 == "0.05" {ok = 1} END {exit !ok}' \
	"$SHARE/host2/recal.log"
tap_ok "... the first is kept as NAME.uncal1.log" grep -q 'Correlation coefficient' \
	"$SHARE/host2/recal.uncal1.log"
FAKE_CLIENT=uncal both uncal2 --calibrated
tap_eq "--calibrated: when the last of 3 runs cannot calibrate either, both hosts fail (3)" \
	"3 3 2" "$rc1 $rc2 $(nfiles "$SHARE"/host2/uncal2.uncal[12].log)"
FAKE_CLIENT=latewarn both latewarn --calibrated
tap_eq "--calibrated: the warning followed by whole figures is a result (not run again)" \
	"0 0 0" "$rc1 $rc2 $(nfiles "$SHARE"/host2/latewarn.uncal*.log)"
rm -f "$FAKE_STATE"
FAKE_CLIENT=uncal both uncalok
tap_eq "without --calibrated the run is not repeated (only completion counts)" "0 0 0" \
	"$rc1 $rc2 $(nfiles "$SHARE"/host2/uncalok.uncal*.log)"

# lab_perf_stop: the client still runs; stopped, it has done its job.
port=$(free_port)
export FAKE_CLIENT=running
rm -f "$T/rc.1" "$T/rc.2"
stopper() {
	local a=0 b=0
	lab_perf_start --port "$port" stopped -- "$T/fakeperf" || return
	sleep 1
	lab_perf_alive stopped && a=1
	lab_perf_stop stopped || return
	lab_perf_alive stopped && b=1
	echo "$a $b" >"$T/alive.$LAB_HOST"
}
as 1 stopper
as 2 stopper
wait
tap_eq "a client stopped while it runs succeeds on both hosts" "0 0" \
	"$(cat "$T/rc.1" 2>/dev/null) $(cat "$T/rc.2" 2>/dev/null)"
tap_eq "lab_perf_alive: true while it runs, false once stopped (both hosts)" "1 0 1 0" \
	"$(cat "$T/alive.1" 2>/dev/null) $(cat "$T/alive.2" 2>/dev/null)"

# ... but a client that ended before it was stopped ran short.
port=$(free_port)
export FAKE_CLIENT=ok
rm -f "$T/rc.1" "$T/rc.2"
stopper() { lab_perf_start --port "$port" ended -- "$T/fakeperf" && sleep 2 && lab_perf_stop ended; }
as 1 stopper
as 2 stopper
wait
tap_ok "a client that ended before it was stopped fails both hosts" \
	failed2 "$(cat "$T/rc.1" 2>/dev/null)" "$(cat "$T/rc.2" 2>/dev/null)"

# lab_tx_mbps: a figure, or an error (never "0.00") without a device.
. "$TOP/selftests/lib/lab-guest.sh"
m=$(lab_tx_mbps lo 1)
tap_ok "lab_tx_mbps prints a rate in Mbit/s ($m)" grep -qE '^[0-9]+\.[0-9]{2}$' <<<"$m"
tap_notok "lab_tx_mbps fails on a missing device" lab_tx_mbps rtune-none0 0
m=$(lab_tx_mbps -t lo 1)
# shellcheck disable=SC2016 # awk's own $1, $2
tap_ok "lab_tx_mbps -t adds the seconds that passed ($m)" \
	awk '{exit !(NF == 2 && $1 ~ /^[0-9]+\.[0-9][0-9]$/ && $2 >= 1 && $2 < 3)}' <<<"$m"
tap_done
