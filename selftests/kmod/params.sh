#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The CC control plane: every parameter's range edges are accepted and read
# back; values just outside the range, negative, overflowing, garbage and
# empty writes fail with EINVAL and leave the value unchanged; staging
# never touches the active set; a commit applies the whole staged set or
# none of it and says why; presets and discard.

. "$(dirname "$0")/lib.sh"

rtune_require
ND=$(rtune_netdev)
[ -n "$ND" ] || tap_skip_all "no netdev that is up"
rtune_loaded && rtune_unload
rtune_load || tap_bail "insmod rocetune.ko failed"
rdma link add rtp0 type rxe netdev "$ND" || tap_bail "rdma link add failed"
wait_for test -d "$RT/rtp0" || tap_bail "device directory did not appear"

CC=$RT/rtp0/ports/1/cc
S=$CC/staged
A=$CC/active

# snapshot DIR: every parameter file's value, one "name=value" a line.
snapshot() {
	local f
	for f in "$1"/*; do
		printf '%s=%s\n' "${f##*/}" "$(cat "$f")"
	done
}

# The parameter table: name unit kind min max default.
mapfile -t TABLE <<<"$(tail -n +2 "$CC/params")"
NPARAMS=${#TABLE[@]}

tap_header
tap_diag "$NPARAMS parameters"

t_table_matches_dirs() {
	local names files
	names=$(printf '%s\n' "${TABLE[@]}" | awk '{print $1}' | sort)
	files=$(ls "$S" | sort)
	[ "$names" = "$files" ] && [ "$(ls "$A" | sort)" = "$files" ] &&
		[ "$NPARAMS" -ge 20 ]
}
tap_ok "params table lists exactly the staged/ and active/ files" t_table_matches_dirs

t_defaults() {
	local line name def
	for line in "${TABLE[@]}"; do
		read -r name _ _ _ _ def <<<"$line"
		[ "$(cat "$S/$name")" = "$def" ] || { echo "$name: $(cat "$S/$name") != $def"; return 1; }
		[ "$(cat "$A/$name")" = "$def" ] || { echo "active $name differs"; return 1; }
	done
}
tap_ok "fresh port: staged and active equal the documented defaults" t_defaults

# expect_reject FILE VALUE: the write fails with EINVAL, value unchanged.
expect_reject() {
	local before after err
	before=$(cat "$1")
	err=$( { printf '%s' "$2" >"$1"; } 2>&1 ) && { echo "accepted '$2'"; return 1; }
	case $err in *"Invalid argument"*) ;; *) echo "wrong error for '$2': $err"; return 1;; esac
	after=$(cat "$1")
	[ "$before" = "$after" ] || { echo "'$2' changed $before -> $after"; return 1; }
}

# expect_accept FILE VALUE SHOWN: the write succeeds and reads back SHOWN.
expect_accept() {
	rtune_write "$1" "$2" || { echo "rejected '$2'"; return 1; }
	[ "$(cat "$1")" = "$3" ] || { echo "'$2' reads back '$(cat "$1")', want '$3'"; return 1; }
}

for line in "${TABLE[@]}"; do
	read -r name unit kind min max def <<<"$line"
	f=$S/$name
	if [ "$kind" = prio_list ]; then
		t_edges() {
			expect_accept "$f" "none" none &&
			expect_accept "$f" "0-7" 0-7 &&
			expect_accept "$f" $'3\n' 3 &&
			expect_accept "$f" "0,3-5" 0,3-5 &&
			expect_accept "$f" "7,0" 0,7 &&
			expect_accept "$f" "$def" "$def"
		}
		t_bad() {
			local v
			for v in 8 "3-1" "3," ",3" "a" "-1" " 3" "3 " "0-8" $'\n' "0x3" "3,,4"; do
				expect_reject "$f" "$v" || return 1
			done
		}
	else
		t_edges() {
			expect_accept "$f" "$min" "$min" &&
			expect_accept "$f" "$max" "$max" &&
			expect_accept "$f" "$min"$'\n' "$min" &&
			expect_accept "$f" "$def" "$def"
		}
		t_bad() {
			local v
			[ "$min" -gt 0 ] && { expect_reject "$f" $((min - 1)) || return 1; }
			[ "$max" -lt 4294967295 ] && { expect_reject "$f" $((max + 1)) || return 1; }
			for v in -1 4294967296 99999999999999999999 abc 12abc "" $'\n' " 1" "1 " "0x1" "+1" "1.5" $'1\n\n'; do
				[ -z "$v" ] && continue	# no write(2) happens at all
				expect_reject "$f" "$v" || return 1
			done
		}
	fi
	tap_ok "$name: range edges $min..$max accepted and read back" t_edges
	tap_ok "$name: out of range, negative, overflow, garbage, empty rejected, value unchanged" t_bad
done

act_before=$(snapshot "$A")
gen0=$(cat "$CC/commit")

t_staging_leaves_active() {
	rtune_write "$S/rp_additive_increase_kbps" 7000 &&
	rtune_write "$S/np_cnp_dscp" 26 &&
	[ "$(snapshot "$A")" = "$act_before" ]
}
tap_ok "staging changes nothing in active/" t_staging_leaves_active

# A staged set that is valid value by value but inconsistent as a whole:
# several good changes plus min rate above max rate.
rtune_write "$S/rp_rate_increase_timer_us" 300
rtune_write "$S/rp_fast_recovery_stages" 2
rtune_write "$S/rp_max_rate_kbps" 100000
rtune_write "$S/rp_min_rate_kbps" 200000
t_commit_refused() {
	local err
	err=$( { echo 1 >"$CC/commit"; } 2>&1 ) && { echo "commit accepted"; return 1; }
	case $err in *"Invalid argument"*) ;; *) echo "wrong error: $err"; return 1;; esac
}
tap_ok "inconsistent commit fails with EINVAL" t_commit_refused
tap_eq "refused commit changed nothing in active/" "$act_before" "$(snapshot "$A")"
tap_eq "refused commit left the generation" "$gen0" "$(cat "$CC/commit")"
t_last_error() { grep -q "rp_min_rate_kbps" "$CC/last_error" && grep -q rp_max_rate_kbps "$CC/last_error"; }
tap_ok "last_error names the conflicting parameters" t_last_error

rtune_write "$S/rp_min_rate_kbps" 10000
staged_now=$(snapshot "$S")
tap_ok "consistent commit succeeds" rtune_write "$CC/commit" 1
tap_eq "active/ equals the whole staged set after commit" "$staged_now" "$(snapshot "$A")"
tap_eq "generation advanced by one" $((gen0 + 1)) "$(cat "$CC/commit")"
tap_eq "last_error cleared by a good commit" "" "$(cat "$CC/last_error")"
tap_notok "commit takes only '1'" rtune_write "$CC/commit" 2
tap_notok "active/ files are read-only" rtune_write "$A/np_cnp_dscp" 10

# Test-only fault injection (debugfs fail_next_commit): the next commit on
# any port is refused with that errno before it changes anything, and the
# knob disarms itself.
mountpoint -q /sys/kernel/debug || mount -t debugfs none /sys/kernel/debug
FNC=/sys/kernel/debug/rocetune/fail_next_commit
if [ -w "$FNC" ]; then
	rtune_write "$S/np_cnp_dscp" 30
	rtune_write "$S/rp_fast_recovery_stages" 3
	act_before=$(snapshot "$A") gen0=$(cat "$CC/commit")
	staged_before=$(snapshot "$S")
	t_injected_commit() {
		local err
		rtune_write "$FNC" 5 || { echo "cannot arm $FNC"; return 1; }
		err=$( { echo 1 >"$CC/commit"; } 2>&1 ) && { echo "commit accepted"; return 1; }
		case $err in *"Input/output error"*) ;; *) echo "wrong error: $err"; return 1;; esac
	}
	tap_ok "fail_next_commit=5: the next commit fails with EIO" t_injected_commit
	tap_eq "injected failure: active/ and generation unchanged" \
		"$act_before gen $gen0" "$(snapshot "$A") gen $(cat "$CC/commit")"
	tap_eq "injected failure: staged/ kept, last_error says so" \
		"$staged_before injected failure" "$(snapshot "$S") $(cat "$CC/last_error")"
	tap_eq "fail_next_commit is back to 0" 0 "$(cat "$FNC")"
	tap_notok "fail_next_commit above MAX_ERRNO (4096) refused" rtune_write "$FNC" 4096
	staged_now=$(snapshot "$S")
	tap_ok "the following commit succeeds" rtune_write "$CC/commit" 1
	tap_eq "... and applies the staged set" "$staged_now gen $((gen0 + 1))" \
		"$(snapshot "$A") gen $(cat "$CC/commit")"
else
	for t in "fail_next_commit=5: the next commit fails with EIO" \
		 "injected failure: active/ and generation unchanged" \
		 "injected failure: staged/ kept, last_error says so" \
		 "fail_next_commit is back to 0" \
		 "fail_next_commit above MAX_ERRNO (4096) refused" \
		 "the following commit succeeds" "... and applies the staged set"; do
		tap_skip "$t" "no $FNC (debugfs unavailable)"
	done
fi

# Presets stage a whole documented set (values from Documentation/configfs.rst).
t_preset() {
	rtune_write "$CC/preset" connectx &&
	[ "$(cat "$S/rp_rate_increase_timer_us")" = 300 ] &&
	[ "$(cat "$S/rp_fast_recovery_stages")" = 1 ] &&
	[ "$(cat "$S/rp_byte_counter_bytes")" = 32767 ] &&
	[ "$(cat "$S/np_min_cnp_interval_us")" = 4 ] &&
	rtune_write "$CC/preset" paper &&
	[ "$(cat "$S/rp_alpha_gain_1024ths")" = 4 ] &&
	[ "$(cat "$S/rp_byte_counter_bytes")" = 10000000 ] &&
	[ "$(cat "$S/rp_hyper_increase_kbps")" = 200000 ]
}
tap_ok "presets connectx and paper stage their documented values" t_preset
t_bad_preset() {
	local before
	before=$(snapshot "$S")
	expect_reject "$CC/preset" "bogus" && [ "$(snapshot "$S")" = "$before" ]
}
tap_ok "unknown preset rejected, staged unchanged" t_bad_preset
t_discard() {
	rtune_write "$CC/discard" 1 && [ "$(snapshot "$S")" = "$(snapshot "$A")" ]
}
tap_ok "discard resets staged/ to active/" t_discard

rdma link delete rtp0
rtune_unload
tap_ok "kernel log has no BUG/WARNING/Oops" kernel_log_clean
tap_done
