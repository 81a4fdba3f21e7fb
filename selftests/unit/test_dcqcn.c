// SPDX-License-Identifier: GPL-2.0
/*
 * Host unit tests for the DCQCN core (kmod/core/dcqcn.c). Every expected
 * value is worked out by hand from the equations in Documentation/dcqcn.rst
 * (the working is in the comments). Units: rates in kb/s, alpha in Q20
 * (1.0 = 1048576), times in us. "(sT,sB)" are the timer and byte stage
 * counts before a stage; with F stages of fast recovery, a stage is
 *   fast recovery if sT < F and sB < F   RC = ceil((RC + RT) / 2)
 *   hyper         if sT >= F and sB >= F RT += (min(sT,sB) - F + 1) R_HAI
 *   additive      otherwise              RT += R_AI
 * (RT clamped to the max rate before RC is averaged).
 * A cut: RT = RC (per the clamp rules), RC = RC - floor(RC*alpha/2^(20+s)),
 * then alpha = floor(alpha*(1024-g)/1024) + g*1024.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../lib/tap.h"
#include "../../kmod/core/dcqcn.h"

#define ONE DCQCN_ALPHA_ONE

/*
 * Parameters: a preset, a line rate and "name=value" overrides (the
 * configfs names), ending with NULL. Bails out of the whole test on a bad
 * name or value: that is a bug in the test.
 */
static struct dcqcn_params mkp(const char *preset, u32 line_mbps, ...)
{
	const struct rtune_preset *pr = rtune_preset_lookup(preset, strlen(preset));
	struct rtune_param_set set;
	struct dcqcn_params p;
	const char *kv;
	va_list ap;

	if (!pr) {
		printf("Bail out! no preset %s\n", preset);
		exit(1);
	}
	set = pr->set;
	va_start(ap, line_mbps);
	while ((kv = va_arg(ap, const char *))) {
		const char *eq = strchr(kv, '=');
		int id = eq ? rtune_param_lookup(kv, (size_t)(eq - kv)) : -1;

		if (id < 0 || rtune_param_parse(id, eq + 1, strlen(eq + 1), &set.v[id])) {
			printf("Bail out! bad override %s\n", kv);
			exit(1);
		}
	}
	va_end(ap);
	if (dcqcn_params_from_set(&set, line_mbps, &p)) {
		printf("Bail out! parameters rejected\n");
		exit(1);
	}
	return p;
}

static int eq_u(unsigned long long got, unsigned long long want,
		const char *what)
{
	return tap_check(got == want, "%s = %llu (want %llu)", what, got, want);
}

/* Check RC and RT together in one result. */
static int rates(const struct dcqcn_rp *rp, u32 rc, u32 rt, const char *what)
{
	return tap_check(rp->rc_kbps == rc && rp->rt_kbps == rt,
			 "%s: RC %u RT %u (want %u %u)", what, rp->rc_kbps,
			 rp->rt_kbps, rc, rt);
}

static void test_params(void)
{
	struct dcqcn_params p = mkp("paper", 40000, NULL);
	struct rtune_param_set bad = rtune_preset_lookup("paper", 5)->set;
	struct dcqcn_params q;

	tap_check(p.max_rate_kbps == 40000000 && p.min_rate_kbps == 1000 &&
		  p.first_cnp_rate_kbps == 0, "paper: rates 40000000/1000/0 kb/s");
	tap_check(p.g == 4 && p.alpha_init == ONE && p.alpha_period_us == 55 &&
		  p.cut_shift == 1 && p.min_factor_pct == 50 &&
		  p.reduce_period_us == 0, "paper: g 4/1024, alpha 1.0, K 55, shift 1, 50%%, no reduce period");
	tap_check(p.timer_us == 55 && p.byte_counter == 10000000 &&
		  p.fast_recovery == 5 && p.ai_kbps == 40000 &&
		  p.hai_kbps == 200000 && p.np_interval_us == 50 &&
		  p.clamp_target && p.clamp_after_timer,
		  "paper: T 55, B 10 MB, F 5, AI 40000, HAI 200000 kb/s, N 50, clamps on");

	p = mkp("connectx", 100000, NULL);
	/* 1023/1024 in Q20 = 1023 * 1024 = 1047552 */
	tap_check(p.g == 5 && p.alpha_init == 1047552 && p.alpha_period_us == 1 &&
		  p.reduce_period_us == 4 && p.timer_us == 300 &&
		  p.byte_counter == 32767 && p.fast_recovery == 1 &&
		  p.ai_kbps == 5000 && p.hai_kbps == 50000 && p.np_interval_us == 4 &&
		  !p.clamp_target && p.clamp_after_timer,
		  "connectx: firmware defaults in core units");

	p = mkp("paper", 0, NULL);
	eq_u(p.max_rate_kbps, 1600000000, "unknown line rate: max = 1.6 Tb/s");
	p = mkp("paper", 40000, "rp_max_rate_kbps=25000000", NULL);
	eq_u(p.max_rate_kbps, 25000000, "rp_max_rate below line rate wins");
	p = mkp("paper", 40000, "rp_max_rate_kbps=50000000", NULL);
	eq_u(p.max_rate_kbps, 40000000, "line rate below rp_max_rate wins");
	p = mkp("paper", 50, "rp_min_rate_kbps=100000", "rp_rate_on_first_cnp_kbps=200000",
		NULL);
	tap_check(p.min_rate_kbps == 50000 && p.first_cnp_rate_kbps == 50000,
		  "min rate and first-CNP rate above a 50 Mb/s line become 50000");
	/*
	 * The line rate is in Mb/s: its conversion to kb/s must not wrap
	 * (4294968 * 1000 is 704 in 32 bits).
	 */
	p = mkp("paper", 400000, "rp_max_rate_kbps=400000000", NULL);
	eq_u(p.max_rate_kbps, 400000000, "400 Gb/s as rp_max_rate_kbps and line rate");
	p = mkp("paper", 4294968, NULL);
	eq_u(p.max_rate_kbps, 1600000000, "a line rate beyond the cap is capped, not wrapped");
	bad.v[RTUNE_P_RP_MIN_RATE_KBPS] = 100000;
	bad.v[RTUNE_P_RP_MAX_RATE_KBPS] = 50000;
	tap_check(dcqcn_params_from_set(&bad, 40000, &q) == -EINVAL,
		  "a set failing rtune_params_validate is rejected");
}

static void test_first_cnp(void)
{
	struct dcqcn_params p = mkp("paper", 40000, NULL);
	struct dcqcn_rp rp;
	bool cut;

	dcqcn_rp_init(&rp, &p, 0);
	tap_check(rp.rc_kbps == 40000000 && rp.rt_kbps == 40000000 &&
		  rp.alpha == ONE && dcqcn_rp_next_event_us(&rp) == DCQCN_NEVER,
		  "init: RC = RT = line rate, alpha = 1, nothing scheduled");
	/* Before any CNP nothing moves, however long and however much sent. */
	dcqcn_rp_on_tx(&rp, &p, 500, 100000000);
	dcqcn_rp_advance(&rp, &p, 900);
	rates(&rp, 40000000, 40000000, "no CNP yet: no change");

	/*
	 * CNP at 1000 with alpha = 1: RT = RC = 40000000;
	 * RC = 40000000 - 40000000 * 2^20 / 2^21 = 20000000;
	 * alpha = 2^20 * 1020/1024 + 4096 = 1044480 + 4096 = 2^20.
	 */
	cut = dcqcn_rp_on_cnp(&rp, &p, 1000);
	tap_check(cut, "first CNP cuts");
	rates(&rp, 20000000, 40000000, "first CNP halves RC, RT = old RC");
	eq_u(rp.alpha, ONE, "alpha stays 1 (1 - g + g)");
	eq_u(dcqcn_rp_next_event_us(&rp), 1055, "timer and alpha decay due at CNP + 55");

	/*
	 * 1055: timer stage (0,0) fast recovery RC = (20000000 + 40000000)/2
	 * = 30000000; alpha decay 2^20 * 1020/1024 = 1044480.
	 * CNP at 1060: RT = RC = 30000000. The cut uses the alpha before the
	 * update: 30000000 * 1044480 / 2^21 = 14941406.25 -> 14941406,
	 * RC = 15058594. Then alpha = floor(1044480*1020/1024) + 4096 =
	 * 1040400 + 4096 = 1044496.
	 */
	dcqcn_rp_on_cnp(&rp, &p, 1060);
	rates(&rp, 15058594, 30000000, "second CNP: RT = RC, cut by the old alpha");
	eq_u(rp.alpha, 1044496, "alpha after decay and raise");
	eq_u(rp.stats.cnp_handled, 2, "two CNPs handled");
}

static void test_alpha(void)
{
	struct dcqcn_params p = mkp("paper", 40000, "rp_initial_alpha_1024ths=512", NULL);
	struct dcqcn_rp rp, a, b;
	u64 t;

	/*
	 * alpha0 = 0.5 = 524288. Cut: 40000000 * 524288 / 2^21 = 10000000,
	 * RC = 30000000. alpha = 524288*1020/1024 + 4096 = 522240 + 4096 =
	 * 526336 = 0.501953125 = 0.5 * 255/256 + 1/256.
	 */
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	eq_u(rp.rc_kbps, 30000000, "alpha 0.5: cut by a quarter");
	eq_u(rp.alpha, 526336, "alpha after one CNP with g = 1/256 from 0.5");

	p = mkp("paper", 40000, "rp_initial_alpha_1024ths=0", NULL);
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	/* alpha 0: no cut; alpha = 0 + 4*1024 = 4096 = g */
	tap_check(rp.rc_kbps == 40000000 && rp.alpha == 4096,
		  "alpha 0: no cut, alpha becomes g (RC %u alpha %u)", rp.rc_kbps,
		  rp.alpha);

	/*
	 * Decay from 1 after a CNP at 0, every 55 us:
	 *  55: 1048576*1020/1024 = 1044480
	 * 110: 1044480*1020/1024 = 1040400 (exact: 1020*1020)
	 * 165: 1040400*1020/1024 = 1036335.9375 -> 1036335
	 */
	p = mkp("paper", 40000, NULL);
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	dcqcn_rp_advance(&rp, &p, 54);
	eq_u(rp.alpha, ONE, "alpha at 54 us: no decay yet");
	dcqcn_rp_advance(&rp, &p, 55);
	eq_u(rp.alpha, 1044480, "alpha after 1 period");
	dcqcn_rp_advance(&rp, &p, 164);
	eq_u(rp.alpha, 1040400, "alpha after 2 periods");
	dcqcn_rp_advance(&rp, &p, 165);
	eq_u(rp.alpha, 1036335, "alpha after 3 periods (rounded down)");
	eq_u(rp.stats.alpha_decays, 3, "three decays counted");

	/* A CNP restarts the alpha timer: CNPs at 0 and 50, decay at 105. */
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 50);
	dcqcn_rp_advance(&rp, &p, 104);
	eq_u(rp.alpha, ONE, "no decay 55 us after the first of two CNPs");
	dcqcn_rp_advance(&rp, &p, 105);
	eq_u(rp.alpha, 1044480, "decay 55 us after the last CNP");

	/*
	 * Rounding down makes alpha reach exactly 0 (with g = 4 after about
	 * 2400 periods, 132 ms); advancing in one call or period by period
	 * must give the same result, and then nothing stays scheduled.
	 */
	dcqcn_rp_init(&a, &p, 0);
	dcqcn_rp_on_cnp(&a, &p, 0);
	b = a;
	dcqcn_rp_advance(&a, &p, 10000000);
	for (t = 0; t <= 10000000; t += 55)
		dcqcn_rp_advance(&b, &p, t);
	dcqcn_rp_advance(&b, &p, 10000000);
	tap_check(a.alpha == 0 && b.alpha == 0 &&
		  a.stats.alpha_decays == b.stats.alpha_decays,
		  "alpha decays to 0 the same in one call and in steps (%llu decays)",
		  (unsigned long long)a.stats.alpha_decays);
	tap_check(dcqcn_rp_next_event_us(&a) == DCQCN_NEVER &&
		  a.rc_kbps == 40000000 && a.rt_kbps == 40000000,
		  "after 10 s: recovered, alpha 0, nothing scheduled");
}

static void test_fast_recovery(void)
{
	struct dcqcn_params p = mkp("paper", 40000, NULL);
	static const u32 want[] = { 30000000, 35000000, 37500000, 38750000, 39375000 };
	struct dcqcn_rp rp;
	unsigned int i;
	bool ok = true;

	/*
	 * CNP at 0: RC 20000000, RT 40000000. F = 5 timer stages of fast
	 * recovery, each halving the distance to RT:
	 * 55: 30000000, 110: 35000000, 165: 37500000, 220: 38750000,
	 * 275: 39375000.
	 */
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	for (i = 0; i < 5; i++) {
		dcqcn_rp_advance(&rp, &p, 55 * (i + 1) - 1);
		ok &= rp.rc_kbps == (i ? want[i - 1] : 20000000);
		dcqcn_rp_advance(&rp, &p, 55 * (i + 1));
		ok &= rp.rc_kbps == want[i] && rp.rt_kbps == 40000000;
	}
	tap_check(ok, "5 fast-recovery stages at 55 us steps halve the gap to RT (RC %u)",
		  rp.rc_kbps);
	tap_check(rp.stats.fast_recovery == 5 && rp.stats.additive == 0,
		  "5 fast-recovery stages, no additive yet");
	/*
	 * 330: (5,0) additive: RT = min(40000000 + 40000, max) = 40000000 (the
	 * target is clamped), RC = ceil((39375000 + 40000000)/2) = 39687500.
	 */
	dcqcn_rp_advance(&rp, &p, 330);
	rates(&rp, 39687500, 40000000, "6th stage additive, RT clamped at line rate");
	eq_u(rp.stats.additive, 1, "one additive stage");
}

static void test_additive(void)
{
	struct dcqcn_params p = mkp("paper", 1000, "rp_fast_recovery_stages=1",
				    "rp_alpha_update_period_us=1000000", NULL);
	struct dcqcn_rp rp;

	/*
	 * F = 1, K long enough that alpha stays 1.
	 *   0 CNP: RC 500000, RT 1000000.
	 *  55 (0,0) FR: RC 750000.
	 *  60 CNP: RT = 750000, RC = 375000; timer at 115.
	 * 115 (0,0) FR: RC = ceil((375000+750000)/2) = 562500.
	 * 170 (1,0) AI: RT = 790000, RC = ceil((562500+790000)/2) = 676250.
	 * 225 (2,0) AI: RT = 830000, RC = ceil((676250+830000)/2) = 753125.
	 */
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	dcqcn_rp_advance(&rp, &p, 55);
	rates(&rp, 750000, 1000000, "F=1: one fast-recovery stage");
	dcqcn_rp_on_cnp(&rp, &p, 60);
	rates(&rp, 375000, 750000, "second cut lowers the target");
	dcqcn_rp_advance(&rp, &p, 115);
	rates(&rp, 562500, 750000, "fast recovery after the second cut");
	dcqcn_rp_advance(&rp, &p, 170);
	rates(&rp, 676250, 790000, "additive stage adds R_AI = 40000 to RT");
	dcqcn_rp_advance(&rp, &p, 225);
	rates(&rp, 753125, 830000, "second additive stage");
}

static void test_hyper(void)
{
	struct dcqcn_params p = mkp("paper", 10000, "rp_fast_recovery_stages=1",
				    "rp_rate_increase_timer_us=100",
				    "rp_byte_counter_bytes=1000",
				    "rp_alpha_update_period_us=1000000", NULL);
	struct dcqcn_rp rp;

	/*
	 * F = 1, T = 100, B = 1000, R_AI 40000, R_HAI 200000.
	 *   0 CNP: RC 5000000, RT 10000000.
	 *  10 tx 1000, byte (0,0) FR: RC 7500000.
	 *  20 CNP (clamp): RT 7500000, RC 3750000; timer at 120.
	 *  30 byte (0,0) FR: RC = ceil((3750000+7500000)/2) = 5625000.
	 *  40 byte (0,1) AI: RT 7540000, RC = ceil((5625000+7540000)/2) = 6582500.
	 * 120 timer (0,2) AI: RT 7580000, RC = ceil((6582500+7580000)/2) = 7081250.
	 * 130 byte (1,2) hyper i = min(1,2)-1+1 = 1: RT 7780000,
	 *     RC = ceil((7081250+7780000)/2) = 7430625.
	 * 220 timer (1,3) hyper i = 1: RT 7980000,
	 *     RC = ceil((7430625+7980000)/2) = ceil(7705312.5) = 7705313.
	 * 230 byte (2,3) hyper i = 2: RT 8380000,
	 *     RC = ceil((7705313+8380000)/2) = ceil(8042656.5) = 8042657.
	 */
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	dcqcn_rp_on_tx(&rp, &p, 10, 1000);
	rates(&rp, 7500000, 10000000, "byte stage: fast recovery");
	dcqcn_rp_on_cnp(&rp, &p, 20);
	dcqcn_rp_on_tx(&rp, &p, 30, 1000);
	rates(&rp, 5625000, 7500000, "byte stage after second cut: fast recovery");
	dcqcn_rp_on_tx(&rp, &p, 40, 1000);
	rates(&rp, 6582500, 7540000, "byte stage (0,1): additive");
	dcqcn_rp_advance(&rp, &p, 120);
	rates(&rp, 7081250, 7580000, "timer stage (0,2): additive");
	dcqcn_rp_on_tx(&rp, &p, 130, 1000);
	rates(&rp, 7430625, 7780000, "byte stage (1,2): hyper, i = 1");
	dcqcn_rp_advance(&rp, &p, 220);
	rates(&rp, 7705313, 7980000, "timer stage (1,3): hyper, i = 1");
	dcqcn_rp_on_tx(&rp, &p, 230, 1000);
	rates(&rp, 8042657, 8380000, "byte stage (2,3): hyper, i = 2");
	tap_check(rp.stats.fast_recovery == 2 && rp.stats.additive == 2 &&
		  rp.stats.hyper == 3 && rp.stats.byte_stages == 5 &&
		  rp.stats.timer_stages == 2,
		  "stage counters: 2 FR, 2 AI, 3 hyper, 5 byte, 2 timer");
}

static void test_floors_and_ceiling(void)
{
	struct dcqcn_params p = mkp("paper", 1000, "rp_min_rate_kbps=300000", NULL);
	struct dcqcn_rp rp;

	/* 1000000 -> 500000 -> 250000 is below the min rate 300000. */
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	eq_u(rp.rc_kbps, 500000, "cut above the min rate");
	dcqcn_rp_on_cnp(&rp, &p, 1);
	eq_u(rp.rc_kbps, 300000, "cut floored at rp_min_rate_kbps");
	dcqcn_rp_on_cnp(&rp, &p, 2);
	eq_u(rp.rc_kbps, 300000, "stays at the min rate");

	/* rp_max_rate_kbps = 600000 on a 1000 Mb/s link. */
	p = mkp("paper", 1000, "rp_max_rate_kbps=600000", NULL);
	dcqcn_rp_init(&rp, &p, 0);
	rates(&rp, 600000, 600000, "max rate: flow starts at rp_max_rate_kbps");
	dcqcn_rp_on_cnp(&rp, &p, 0);
	rates(&rp, 300000, 600000, "cut from the max rate");
	dcqcn_rp_advance(&rp, &p, 1000000);
	tap_check(rp.rc_kbps == 600000 && rp.rt_kbps == 600000 &&
		  rp.next_timer_us == DCQCN_NEVER,
		  "recovers to exactly the max rate, then the timer stops (RC %u RT %u)",
		  rp.rc_kbps, rp.rt_kbps);

	/*
	 * rp_rate_cut_shift = 0: cut = RC * alpha = all of it with alpha 1,
	 * so rp_min_rate_factor_pct decides: ceil(1000000 * pct / 100).
	 */
	p = mkp("paper", 1000, "rp_rate_cut_shift=0", NULL);
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	eq_u(rp.rc_kbps, 500000, "shift 0, factor 50%: floor at half");
	p = mkp("paper", 1000, "rp_rate_cut_shift=0", "rp_min_rate_factor_pct=70", NULL);
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	eq_u(rp.rc_kbps, 700000, "factor 70%");
	p = mkp("paper", 1000, "rp_rate_cut_shift=0", "rp_min_rate_factor_pct=33", NULL);
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	eq_u(rp.rc_kbps, 330000, "factor 33%");
	p = mkp("paper", 1000, "rp_min_rate_factor_pct=100", NULL);
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	rates(&rp, 1000000, 1000000, "factor 100%: no decrease at all");
	p = mkp("paper", 1000, "rp_rate_cut_shift=0", "rp_min_rate_factor_pct=0", NULL);
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	eq_u(rp.rc_kbps, 1000, "factor 0%: down to the 1 Mb/s min rate");

	/* shift 2: RC (1 - 1/4) = 750000; shift 10: 1000000 - 976 = 999024 */
	p = mkp("paper", 1000, "rp_rate_cut_shift=2", NULL);
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	eq_u(rp.rc_kbps, 750000, "rate_cut_shift 2 cuts alpha/4");
	p = mkp("paper", 1000, "rp_rate_cut_shift=10", NULL);
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	eq_u(rp.rc_kbps, 999024, "rate_cut_shift 10 cuts alpha/1024 (floor 976.5)");
}

static void test_reduce_period(void)
{
	struct dcqcn_params p = mkp("paper", 1000, "rp_rate_reduce_period_us=50", NULL);
	struct dcqcn_rp rp;

	/* Cut at 0; CNPs at 30 and 49 are inside the 50 us: ignored. */
	dcqcn_rp_init(&rp, &p, 0);
	tap_check(dcqcn_rp_on_cnp(&rp, &p, 0), "CNP at 0 cuts");
	tap_check(!dcqcn_rp_on_cnp(&rp, &p, 30), "CNP at 30 is ignored");
	tap_check(!dcqcn_rp_on_cnp(&rp, &p, 49), "CNP at 49 is ignored");
	rates(&rp, 500000, 1000000, "ignored CNPs leave the rates");
	/* 50: RT = RC = 500000, RC = 250000 */
	tap_check(dcqcn_rp_on_cnp(&rp, &p, 50), "CNP 50 us after the cut cuts");
	rates(&rp, 250000, 500000, "second cut");
	tap_check(rp.stats.cnp_handled == 2 && rp.stats.cnp_ignored == 2,
		  "2 handled, 2 ignored");

	/*
	 * An ignored CNP does not restart the increase timer (fast recovery
	 * at 55: 750000) but does count for alpha: decay due 55 us after it.
	 */
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 30);
	dcqcn_rp_advance(&rp, &p, 55);
	tap_check(rp.rc_kbps == 750000 && rp.alpha == ONE,
		  "at 55: timer stage ran, alpha not decayed (RC %u alpha %u)",
		  rp.rc_kbps, rp.alpha);
	dcqcn_rp_advance(&rp, &p, 85);
	eq_u(rp.alpha, 1044480, "alpha decays 55 us after the ignored CNP");

	p = mkp("paper", 1000, NULL);
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	eq_u(rp.rc_kbps, 250000, "reduce period 0: two CNPs at once cut twice");
}

static void test_byte_counter_off(void)
{
	struct dcqcn_params p = mkp("paper", 1000, "rp_fast_recovery_stages=1",
				    "rp_byte_counter_bytes=0",
				    "rp_alpha_update_period_us=1000000", NULL);
	struct dcqcn_rp rp, on;

	/*
	 * As in test_additive, plus 100 MB sent at 10 and 150 that must not
	 * count. 225 (2,0) is additive, not hyper (which would add 200000).
	 */
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	dcqcn_rp_on_tx(&rp, &p, 10, 100000000);
	rates(&rp, 500000, 1000000, "B = 0: bytes sent change nothing");
	dcqcn_rp_advance(&rp, &p, 55);
	dcqcn_rp_on_cnp(&rp, &p, 60);
	dcqcn_rp_advance(&rp, &p, 115);
	dcqcn_rp_on_tx(&rp, &p, 150, 100000000);
	rates(&rp, 562500, 750000, "B = 0: timer stages only");
	dcqcn_rp_advance(&rp, &p, 225);
	rates(&rp, 753125, 830000, "B = 0: additive, never hyper");
	tap_check(rp.stats.byte_stages == 0 && rp.stats.hyper == 0,
		  "no byte stage, no hyper stage");

	/* Control: the same events with B = 1000 do run byte stages. */
	p = mkp("paper", 1000, "rp_fast_recovery_stages=1",
		"rp_byte_counter_bytes=1000", "rp_alpha_update_period_us=1000000", NULL);
	dcqcn_rp_init(&on, &p, 0);
	dcqcn_rp_on_cnp(&on, &p, 0);
	dcqcn_rp_on_tx(&on, &p, 10, 100000000);
	tap_check(on.stats.byte_stages > 0 && on.rc_kbps > 500000,
		  "control: B = 1000 counts the same bytes");
}

static void test_byte_carry(void)
{
	struct dcqcn_params p = mkp("paper", 1000, "rp_byte_counter_bytes=1000",
				    NULL);
	struct dcqcn_rp rp;

	/*
	 * B = 1000, F = 5: every byte stage here is fast recovery.
	 * 0 CNP: RC 500000, RT 1000000.
	 * 1 tx 1500: one stage, RC 750000, 500 bytes carried.
	 * 2 tx 499: 999 bytes, no stage.
	 * 3 tx 1: 1000: stage, RC 875000, nothing carried.
	 * 4 tx 2500: two stages, RC 937500 then 968750, 500 carried.
	 */
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	dcqcn_rp_on_tx(&rp, &p, 1, 1500);
	tap_check(rp.rc_kbps == 750000 && rp.byte_acc == 500,
		  "1500 bytes: one stage, 500 carried (RC %u, %llu carried)",
		  rp.rc_kbps, (unsigned long long)rp.byte_acc);
	dcqcn_rp_on_tx(&rp, &p, 2, 499);
	eq_u(rp.rc_kbps, 750000, "999 bytes: no stage");
	dcqcn_rp_on_tx(&rp, &p, 3, 1);
	eq_u(rp.rc_kbps, 875000, "the 1000th byte completes a stage");
	dcqcn_rp_on_tx(&rp, &p, 4, 2500);
	tap_check(rp.rc_kbps == 968750 && rp.byte_acc == 500 &&
		  rp.stats.byte_stages == 4,
		  "2500 bytes: two stages at once (RC %u, %llu stages)",
		  rp.rc_kbps, (unsigned long long)rp.stats.byte_stages);
}

static void test_byte_cap(void)
{
	struct dcqcn_params p = mkp("paper", 40000, "rp_fast_recovery_stages=1",
				    "rp_byte_counter_bytes=1",
				    "rp_additive_increase_kbps=1000",
				    "rp_alpha_update_period_us=1000000", NULL);
	struct dcqcn_rp rp;

	/*
	 *  0 CNP: RC 20000000, RT 40000000.
	 *  1 tx 1: byte (0,0) FR: RC 30000000.
	 *  2 CNP: RT 30000000, RC 15000000.
	 *  3 tx 1000000: a million stages due, DCQCN_MAX_BYTE_STAGES_PER_TX
	 *    (256) run: one FR, then 255 additive: RT = 30000000 + 255*1000.
	 */
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	dcqcn_rp_on_tx(&rp, &p, 1, 1);
	dcqcn_rp_on_cnp(&rp, &p, 2);
	dcqcn_rp_on_tx(&rp, &p, 3, 1000000);
	tap_check(rp.stats.byte_stages == 1 + DCQCN_MAX_BYTE_STAGES_PER_TX &&
		  rp.rt_kbps == 30255000 && rp.byte_acc == 0,
		  "one tx runs at most %d byte stages (RT %u, %llu stages)",
		  DCQCN_MAX_BYTE_STAGES_PER_TX, rp.rt_kbps,
		  (unsigned long long)rp.stats.byte_stages);
}

static void test_clamp_rules(void)
{
	struct dcqcn_params p = mkp("paper", 1000, "rp_clamp_target_rate=0",
				    "rp_clamp_target_after_timer=1",
				    "rp_alpha_update_period_us=1000000", NULL);
	struct dcqcn_rp rp;

	/*
	 * clamp_target_rate 0, after_timer 1 (mlx5 defaults):
	 *  0 CNP: RC 500000, RT stays 1000000.
	 *  1 CNP: no increase since the cut: RT stays, RC 250000.
	 * 56 timer FR: RC = ceil((250000+1000000)/2) = 625000.
	 * 60 CNP: the timer raised the rate: RT = 625000, RC 312500.
	 */
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 1);
	rates(&rp, 250000, 1000000, "no clamp without an increase since the cut");
	dcqcn_rp_advance(&rp, &p, 56);
	dcqcn_rp_on_cnp(&rp, &p, 60);
	rates(&rp, 312500, 625000, "clamp after a timer increase");

	/*
	 * Both 0: only a byte-counter increase clamps.
	 *  0 CNP: RC 500000. 55 timer FR: 750000.
	 * 60 CNP: RT stays 1000000, RC 375000.
	 * 70 tx 1000 (B 1000): byte FR: RC = ceil((375000+1000000)/2) = 687500.
	 * 80 CNP: RT = 687500, RC = 343750.
	 */
	p = mkp("paper", 1000, "rp_clamp_target_rate=0", "rp_clamp_target_after_timer=0",
		"rp_byte_counter_bytes=1000", "rp_alpha_update_period_us=1000000", NULL);
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	dcqcn_rp_advance(&rp, &p, 55);
	dcqcn_rp_on_cnp(&rp, &p, 60);
	rates(&rp, 375000, 1000000, "no clamp after a timer increase when after_timer=0");
	dcqcn_rp_on_tx(&rp, &p, 70, 1000);
	dcqcn_rp_on_cnp(&rp, &p, 80);
	rates(&rp, 343750, 687500, "clamp after a byte-counter increase");

	/* rp_rate_on_first_cnp_kbps = 200000: set, not cut, on the first CNP. */
	p = mkp("paper", 1000, "rp_rate_on_first_cnp_kbps=200000", NULL);
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	rates(&rp, 200000, 1000000, "first CNP sets RC to rp_rate_on_first_cnp");
	dcqcn_rp_on_cnp(&rp, &p, 1);
	rates(&rp, 100000, 200000, "later CNPs cut as usual");
}

/*
 * Rates below 1 Mb/s, the Soft-RoCE lab case: 16 QPs under an 8 Mb/s
 * bottleneck need a floor below 500 kb/s each.
 */
static void test_sub_mbps(void)
{
	struct dcqcn_params p = mkp("paper", 8, "rp_min_rate_kbps=400",
				    "rp_rate_cut_shift=0", "rp_min_rate_factor_pct=0",
				    "rp_fast_recovery_stages=1", "rp_byte_counter_bytes=0",
				    "rp_additive_increase_kbps=50",
				    "rp_hyper_increase_kbps=50",
				    "rp_alpha_update_period_us=1000000", NULL);
	struct dcqcn_rp rp;

	tap_check(p.max_rate_kbps == 8000 && p.min_rate_kbps == 400 &&
		  p.ai_kbps == 50 && p.hai_kbps == 50,
		  "kb/s parameters reach the core unscaled (8000/400/50/50)");
	/*
	 * alpha 1, shift 0: a cut takes all of RC, the 0 % factor lets it,
	 * the 400 kb/s floor stops it. CNP at 0: RT = 8000, RC = 400.
	 * 55 (0,0) FR: RC = ceil((400 + 8000)/2) = 4200.
	 * CNP at 56: RT = RC = 4200, RC = 400 (alpha still 1: K = 1 s).
	 * 111 (0,0) FR: RC = ceil((400 + 4200)/2) = 2300.
	 * 166 (1,0) additive: RT = 4250, RC = ceil((2300 + 4250)/2) = 3275.
	 */
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	rates(&rp, 400, 8000, "cut down to a 400 kb/s floor");
	dcqcn_rp_on_cnp(&rp, &p, 56);
	rates(&rp, 400, 4200, "second cut: RT = RC 4200, RC at the floor");
	dcqcn_rp_advance(&rp, &p, 166);
	rates(&rp, 3275, 4250, "FR, then a 50 kb/s additive step");

	/* The table's floor is 1 kb/s. */
	p = mkp("paper", 1000, "rp_min_rate_kbps=1", "rp_rate_cut_shift=0",
		"rp_min_rate_factor_pct=0", NULL);
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	eq_u(rp.rc_kbps, 1, "a full cut stops at rp_min_rate_kbps = 1");
}

/* Run @steps timer periods of 1 us one advance() at a time. */
static void step(struct dcqcn_rp *rp, const struct dcqcn_params *p, u64 from,
		 u64 to)
{
	u64 t;

	for (t = from; t <= to; t++)
		dcqcn_rp_advance(rp, p, t);
}

static int same(const struct dcqcn_rp *a, const struct dcqcn_rp *b)
{
	return a->rc_kbps == b->rc_kbps && a->rt_kbps == b->rt_kbps &&
	       a->alpha == b->alpha && a->t_stage == b->t_stage &&
	       a->bc_stage == b->bc_stage && a->byte_acc == b->byte_acc &&
	       a->next_alpha_us == b->next_alpha_us &&
	       a->next_timer_us == b->next_timer_us &&
	       !memcmp(&a->stats, &b->stats, sizeof(a->stats));
}

static void test_long_idle(void)
{
	struct dcqcn_params p = mkp("paper", 100000, "rp_fast_recovery_stages=1",
				    "rp_additive_increase_kbps=1000",
				    "rp_hyper_increase_kbps=1000",
				    "rp_byte_counter_bytes=0",
				    "rp_rate_increase_timer_us=1",
				    "rp_alpha_update_period_us=1000000", NULL);
	struct dcqcn_rp a, b;

	/*
	 * Max 100000000 kb/s, R_AI 1000, T = 1 us.
	 * 0 CNP: RC 50000000. At 1 the timer stage runs before the CNP at 1
	 * (FR: RC 75000000), then the cut: RT 75000000, RC 37500000.
	 * 2 FR: RC = ceil((37500000+75000000)/2) = 56250000, gap 18750000.
	 * From 3 on additive: at 2+k, RT = 75000000 + 1000k, and the gap
	 * d' = floor((d + 1000)/2) goes 18750000, 9375500, 4688250, 2344625,
	 * 1172812, 586906, 293953, 147476, 74238, 37619, 19309, 10154, 5577,
	 * 3288, 2144, 1572, 1286, 1143, 1071, 1035, 1017, 1008, 1004, 1002,
	 * 1001, 1000 and stays 1000. At 10002 (k = 10000): RT 85000000,
	 * RC 84999000.
	 */
	dcqcn_rp_init(&a, &p, 0);
	dcqcn_rp_on_cnp(&a, &p, 0);
	dcqcn_rp_on_cnp(&a, &p, 1);
	rates(&a, 37500000, 75000000, "timer stage due at a CNP's time runs first");
	b = a;
	dcqcn_rp_advance(&a, &p, 10002);
	rates(&a, 84999000, 85000000, "one advance over 10000 additive stages");
	step(&b, &p, 2, 10002);
	tap_check(same(&a, &b), "same state advancing once or every us");
	tap_check(a.stats.fast_recovery == 2 && a.stats.additive == 10000 &&
		  a.stats.timer_stages == 10002, "stage counters");

	/*
	 * RT reaches 100000000 at k = 25000 (t 25002) with gap 1000; then RT
	 * is clamped and the gap halves: 500, 250, 125, 62, 31, 15, 7, 3, 1,
	 * 0, so RC = 99999999 at 25011 and 100000000 at 25012 (10 stages),
	 * when the timer stops.
	 */
	dcqcn_rp_advance(&a, &p, 25002);
	rates(&a, 99999000, 100000000, "RT reaches the line rate at 25002");
	dcqcn_rp_advance(&a, &p, 25011);
	rates(&a, 99999999, 100000000, "gap 1 at 25011");
	tap_check(a.next_timer_us == 25012, "timer still running");
	dcqcn_rp_advance(&a, &p, 5000000);
	tap_check(a.rc_kbps == 100000000 && a.next_timer_us == DCQCN_NEVER &&
		  a.stats.timer_stages == 25012,
		  "recovered at 25012, timer stopped (%llu timer stages)",
		  (unsigned long long)a.stats.timer_stages);
	step(&b, &p, 10003, 30000);
	dcqcn_rp_advance(&b, &p, 5000000);
	tap_check(same(&a, &b), "recovery the same in one call or stepwise");

	/*
	 * Hyper with a constant step: B = 1000, F = 1, R_HAI = R_AI = 1000.
	 * 0 CNP; at 1: timer FR then CNP: RC 37500000, RT 75000000.
	 * 1 tx 1000: byte (0,0) FR: RC 56250000.
	 * 2 timer (0,1) AI: RT 75001000, RC = ceil((56250000+75001000)/2) =
	 *   65625500. From 3 on (sT >= 1 = sB): hyper, i = min(sT,1) = 1,
	 *   RT += 1000 per stage; the gap 9375500 reaches 1000 after 24
	 *   stages. At 20002: RT = 75001000 + 20000*1000 = 95001000,
	 *   RC 95000000.
	 */
	p = mkp("paper", 100000, "rp_fast_recovery_stages=1",
		"rp_additive_increase_kbps=1000", "rp_hyper_increase_kbps=1000",
		"rp_byte_counter_bytes=1000", "rp_rate_increase_timer_us=1",
		"rp_alpha_update_period_us=1000000", NULL);
	dcqcn_rp_init(&a, &p, 0);
	dcqcn_rp_on_cnp(&a, &p, 0);
	dcqcn_rp_on_cnp(&a, &p, 1);
	dcqcn_rp_on_tx(&a, &p, 1, 1000);
	b = a;
	dcqcn_rp_advance(&a, &p, 2);
	rates(&a, 65625500, 75001000, "timer stage (0,1) additive");
	dcqcn_rp_advance(&a, &p, 20002);
	rates(&a, 95000000, 95001000, "20000 hyper stages in one advance");
	step(&b, &p, 2, 20002);
	tap_check(same(&a, &b) && a.stats.hyper == 20000,
		  "same state stepwise (%llu hyper stages)",
		  (unsigned long long)a.stats.hyper);
}

/* Tiny deterministic generator for the event-sequence test. */
static u32 lcg(u32 *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static void test_call_pattern(void)
{
	struct dcqcn_params p = mkp("connectx", 25000, "rp_alpha_update_period_us=7",
				    NULL);
	struct dcqcn_rp a, b, c;
	u32 seed = 1;
	u64 t = 0, u;
	int i, ok = 1, ok2 = 1;

	/*
	 * A pseudo-random mix of CNPs and transmissions. Flow a sees only the
	 * events; flow b also an advance() at every us in between; flow c is a
	 * second run of a. The state after every event must be identical:
	 * lazy timers make the result independent of how often the module
	 * polls, and the core is deterministic.
	 */
	dcqcn_rp_init(&a, &p, 0);
	b = a;
	c = a;
	for (i = 0; i < 3000; i++) {
		u64 next = t + lcg(&seed) % 400;
		bool cnp = lcg(&seed) % 8 == 0;
		u32 bytes = lcg(&seed) % 9000;

		for (u = t; u < next; u++)
			dcqcn_rp_advance(&b, &p, u);
		t = next;
		if (cnp) {
			dcqcn_rp_on_cnp(&a, &p, t);
			dcqcn_rp_on_cnp(&b, &p, t);
			dcqcn_rp_on_cnp(&c, &p, t);
		} else {
			dcqcn_rp_on_tx(&a, &p, t, bytes);
			dcqcn_rp_on_tx(&b, &p, t, bytes);
			dcqcn_rp_on_tx(&c, &p, t, bytes);
		}
		ok &= same(&a, &b);
		ok2 &= same(&a, &c);
	}
	tap_check(ok, "state independent of extra advance() calls (%llu cuts, %llu stages)",
		  (unsigned long long)a.stats.cnp_handled,
		  (unsigned long long)(a.stats.timer_stages + a.stats.byte_stages));
	tap_check(ok2, "same events, same trajectory");
}

static void test_time_and_reparam(void)
{
	struct dcqcn_params p = mkp("paper", 1000, NULL), q;
	struct dcqcn_rp rp;

	/* Times that go backwards are taken as the latest time seen. */
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 100);
	dcqcn_rp_advance(&rp, &p, 10);
	dcqcn_rp_on_tx(&rp, &p, 50, 1000);
	tap_check(rp.now_us == 100 && rp.rc_kbps == 500000 &&
		  rp.next_timer_us == 155, "earlier times do not move the clock back");

	/* A flow never cut follows the new maximum rate and initial alpha. */
	q = mkp("paper", 500, "rp_initial_alpha_1024ths=512", NULL);
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_reparam(&rp, &q, 10);
	tap_check(rp.rc_kbps == 500000 && rp.rt_kbps == 500000 && rp.alpha == 524288,
		  "reparam of an uncut flow: new max rate and initial alpha");

	/* A recovered flow clamped down, then raised again: timer restarts. */
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_on_cnp(&rp, &p, 0);
	dcqcn_rp_advance(&rp, &p, 100000);
	q = mkp("paper", 400, NULL);
	dcqcn_rp_reparam(&rp, &q, 100000);
	tap_check(rp.rc_kbps == 400000 && rp.rt_kbps == 400000 &&
		  rp.next_timer_us == DCQCN_NEVER, "reparam clamps to a lower max");
	dcqcn_rp_reparam(&rp, &p, 200000);
	tap_check(rp.next_timer_us == 200055, "reparam to a higher max restarts the timer");
	/*
	 * 200055 (6,0) additive: RT = 440000, RC = ceil((400000+440000)/2)
	 * = 420000.
	 */
	dcqcn_rp_advance(&rp, &p, 200055);
	rates(&rp, 420000, 440000, "and the flow climbs towards it");
}

/*
 * rp_initial_rate_kbps: a flow starts at it, and until its first CNP each
 * timer period doubles RC = RT, up to the maximum. Paper preset at a
 * 10 Mb/s line: max 10000, min 1000 kb/s, T 55 us, B 10 MB, F 5.
 */
static void test_initial_rate(void)
{
	struct dcqcn_params p = mkp("paper", 10, "rp_initial_rate_kbps=1500", NULL), q;
	struct dcqcn_rp rp;

	eq_u(p.init_rate_kbps, 1500, "initial rate");
	q = mkp("paper", 10, NULL);
	eq_u(q.init_rate_kbps, 10000, "initial rate 0: the maximum");
	q = mkp("paper", 10, "rp_initial_rate_kbps=20000", NULL);
	eq_u(q.init_rate_kbps, 10000, "initial rate above the maximum: the maximum");
	{
		struct rtune_param_set set = rtune_preset_lookup("paper", 5)->set;

		set.v[RTUNE_P_RP_INITIAL_RATE_KBPS] = 500;	/* floor 1000 */
		tap_check(dcqcn_params_from_set(&set, 10, &q) == -EINVAL,
			  "an initial rate below the floor is rejected");
	}

	dcqcn_rp_init(&rp, &p, 0);
	tap_check(rp.rc_kbps == 1500 && rp.rt_kbps == 1500 &&
		  dcqcn_rp_next_event_us(&rp) == 55,
		  "init: RC = RT = 1500, the timer due at 55");
	/* Bytes before the first CNP run no byte stage (B = 10 MB). */
	dcqcn_rp_on_tx(&rp, &p, 10, 25000000);
	dcqcn_rp_advance(&rp, &p, 54);
	tap_check(rp.rc_kbps == 1500 && rp.bc_stage == 0 && rp.byte_acc == 0,
		  "25 MB sent before 55: no stage, no bytes counted");
	/* 55: 3000; 110: 6000; 165: 12000 -> the maximum, timer stopped. */
	dcqcn_rp_advance(&rp, &p, 110);
	rates(&rp, 6000, 6000, "two periods: doubled twice");
	dcqcn_rp_advance(&rp, &p, 165);
	tap_check(rp.rc_kbps == 10000 && rp.rt_kbps == 10000 &&
		  dcqcn_rp_next_event_us(&rp) == DCQCN_NEVER &&
		  rp.stats.start_doublings == 3 && rp.t_stage == 0 &&
		  rp.stats.timer_stages == 0,
		  "third doubling stops at the maximum; no DCQCN stage counted");

	/* A long idle from the start takes a bounded number of doublings. */
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_advance(&rp, &p, 1000000000);
	tap_check(rp.rc_kbps == 10000 && rp.stats.start_doublings == 3 &&
		  dcqcn_rp_next_event_us(&rp) == DCQCN_NEVER,
		  "1000 s idle: at the maximum after 3 doublings");

	/*
	 * The first CNP ends the start-up. 55: 3000. CNP at 60, alpha 1:
	 * RT = RC = 3000, RC = 3000 - 3000 / 2 = 1500. 115: timer stage
	 * (0,0), fast recovery: RC = ceil((1500 + 3000) / 2) = 2250.
	 */
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_advance(&rp, &p, 55);
	dcqcn_rp_on_cnp(&rp, &p, 60);
	rates(&rp, 1500, 3000, "CNP in the start-up cuts from the doubled rate");
	dcqcn_rp_advance(&rp, &p, 115);
	tap_check(rp.rc_kbps == 2250 && rp.rt_kbps == 3000 &&
		  rp.stats.start_doublings == 1 && rp.stats.fast_recovery == 1,
		  "after it, DCQCN's recovery: fast recovery, not a doubling");

	/*
	 * New parameters: a flow with no CNP keeps its rate, raised to the
	 * new initial rate. 55: 3000; a commit at 70 with 4000 raises it,
	 * the start-up timer stays due at 110 (8000).
	 */
	dcqcn_rp_init(&rp, &p, 0);
	dcqcn_rp_advance(&rp, &p, 60);
	q = mkp("paper", 10, "rp_initial_rate_kbps=4000", NULL);
	dcqcn_rp_reparam(&rp, &q, 70);
	tap_check(rp.rc_kbps == 4000 && rp.rt_kbps == 4000 &&
		  dcqcn_rp_next_event_us(&rp) == 110,
		  "reparam of a starting flow: raised to the new initial rate, timer kept");
	dcqcn_rp_advance(&rp, &q, 110);
	rates(&rp, 8000, 8000, "and its start-up goes on");
	q = mkp("paper", 10, NULL);
	dcqcn_rp_reparam(&rp, &q, 120);
	tap_check(rp.rc_kbps == 10000 &&
		  dcqcn_rp_next_event_us(&rp) == DCQCN_NEVER,
		  "reparam to initial rate 0: the maximum, nothing scheduled");
	/* A commit does not throttle a flow that found its rate. */
	dcqcn_rp_reparam(&rp, &p, 130);
	tap_check(rp.rc_kbps == 10000 && rp.rt_kbps == 10000 &&
		  dcqcn_rp_next_event_us(&rp) == DCQCN_NEVER,
		  "a flow at the maximum stays there when an initial rate is committed");
}

/*
 * Flows to one peer share their CNPs (struct dcqcn_path): a CNP to one
 * ends the others' start-up at their next stage. Paper preset at 100 Mb/s
 * (T = 55 us, F = 5, R_AI = 40 Mb/s, B = 10 MB), initial rate 1500 kb/s.
 */
static void test_path_start(void)
{
	struct dcqcn_params p = mkp("paper", 100, "rp_initial_rate_kbps=1500", NULL), q;
	struct dcqcn_path path = { 0 }, other = { 0 };
	struct dcqcn_rp a, b, c;

	dcqcn_rp_init(&a, &p, 0);
	dcqcn_rp_init(&b, &p, 0);
	dcqcn_rp_set_path(&a, &path);
	dcqcn_rp_set_path(&b, &path);
	dcqcn_rp_advance(&a, &p, 110);
	dcqcn_rp_advance(&b, &p, 110);
	rates(&b, 6000, 6000, "path: two flows double together (55, 110)");
	dcqcn_rp_on_cnp(&a, &p, 120);
	tap_check(path.last_cnp_us == 120 && a.rc_kbps == 3000,
		  "path: a CNP to one flow cuts it and is noted on the path");
	dcqcn_rp_advance(&b, &p, 164);
	rates(&b, 6000, 6000, "path: the other flow keeps its rate until its stage");
	/* 165: 165 - 120 < T: the doubling of 110 is undone. */
	dcqcn_rp_advance(&b, &p, 165);
	tap_check(b.rc_kbps == 3000 && b.rt_kbps == 3000 && b.start_ended &&
		  !b.cut_once && b.stats.start_doublings == 2 &&
		  b.stats.start_path_ends == 1 && b.stats.cnp_handled == 0,
		  "path: its stage at 165 ends the start-up, back to 3000, not a cut");
	/* Then as after a cut: F = 5 stages of fast recovery, then R_AI. */
	dcqcn_rp_advance(&b, &p, 440);
	tap_check(b.rc_kbps == 3000 && b.stats.fast_recovery == 5 &&
		  b.stats.start_doublings == 2,
		  "path: fast recovery holds 3000 for five stages, no doubling");
	dcqcn_rp_advance(&b, &p, 495);
	rates(&b, 23000, 43000, "path: then additive increase");
	/* Its bytes now count, as after a cut (B = 10 MB). */
	dcqcn_rp_on_tx(&b, &p, 500, 10000000);
	eq_u(b.bc_stage, 1, "path: bytes count once the start-up has ended");

	/* A CNP older than T says nothing of the period just ended. */
	dcqcn_rp_init(&c, &p, 0);
	dcqcn_rp_set_path(&c, &other);
	dcqcn_rp_advance(&c, &p, 110);
	other.last_cnp_us = 50;
	dcqcn_rp_advance(&c, &p, 165);
	tap_check(c.rc_kbps == 12000 && !c.start_ended,
		  "path: a CNP more than T before the stage does not end the start-up");

	/*
	 * Run late (the flow's next event at 120): the stage of 55 knows of
	 * the CNP of 100 and does not double; none follows.
	 */
	dcqcn_rp_init(&c, &p, 0);
	dcqcn_rp_set_path(&c, &other);
	other.last_cnp_us = 100;
	dcqcn_rp_advance(&c, &p, 120);
	tap_check(c.rc_kbps == 1500 && c.stats.start_doublings == 0 &&
		  c.stats.start_path_ends == 1 && c.stats.fast_recovery == 1,
		  "path: a stage run late sees the CNPs that came after it");

	/* Ended before any doubling: it stays at the initial rate. */
	dcqcn_rp_init(&c, &p, 0);
	dcqcn_rp_set_path(&c, &other);
	other.last_cnp_us = 1;
	dcqcn_rp_advance(&c, &p, 55);
	tap_check(c.rc_kbps == 1500 && c.start_ended,
		  "path: ended at the first stage, the initial rate stays");

	/* Without a path, the same CNP time changes nothing. */
	dcqcn_rp_init(&c, &p, 0);
	dcqcn_rp_advance(&c, &p, 55);
	rates(&c, 3000, 3000, "path: a flow with none doubles on");
	dcqcn_rp_init(&c, &p, 5);
	tap_check(c.path == NULL, "path: init clears it");

	/* A CNP too soon to cut is noted on the path all the same. */
	q = mkp("paper", 100, "rp_initial_rate_kbps=1500",
		"rp_rate_reduce_period_us=1000", NULL);
	dcqcn_rp_init(&a, &q, 0);
	dcqcn_rp_set_path(&a, &path);
	dcqcn_rp_on_cnp(&a, &q, 600);
	tap_check(!dcqcn_rp_on_cnp(&a, &q, 700) && path.last_cnp_us == 700,
		  "path: an ignored CNP is noted too");
}

/*
 * rp_path_share_pct: while the path is congested, a flow more than the
 * share above its path's mean rate takes no increase stage. Paper preset
 * at 100 Mb/s (T = 55 us, F = 5, B = 10 MB, alpha 1: a cut halves).
 */
static void test_path_share(void)
{
	struct dcqcn_params p = mkp("paper", 100, "rp_path_share_pct=10", NULL);
	struct dcqcn_params off = mkp("paper", 100, NULL);
	struct dcqcn_params start = mkp("paper", 100, "rp_initial_rate_kbps=1500",
					"rp_path_share_pct=10", NULL);
	struct dcqcn_params ai = mkp("paper", 100, "rp_path_share_pct=10",
				     "rp_additive_increase_kbps=16", NULL);
	struct dcqcn_path path = { 0 }, other = { 0 };
	struct dcqcn_rp a, b;

	/* The mean: the first sample as it is, then 1/16 of each difference. */
	dcqcn_rp_init(&a, &p, 1000);
	dcqcn_rp_set_path(&a, &path);
	dcqcn_rp_on_cnp(&a, &p, 1000);
	eq_u(path.mean_kbps, 50000, "share: a cut flow's rate is its path's first sample");
	dcqcn_rp_init(&b, &p, 1000);
	dcqcn_rp_set_path(&b, &path);
	dcqcn_rp_advance(&b, &p, 1010);
	eq_u(path.mean_kbps, 50000, "share: a flow that was never cut adds nothing");
	dcqcn_rp_on_cnp(&b, &p, 1010);
	dcqcn_rp_on_cnp(&b, &p, 1020);
	tap_check(b.rc_kbps == 25000 && path.mean_kbps == 48438,
		  "share: each cut adds a sample: 50000 - 25000/16 = 48438 (%u)",
		  path.mean_kbps);

	/*
	 * a (50000) at its stage of 1055, the path's last CNP at 1020 (b's):
	 * a's sample first, 20000 + 30000/16 = 21875, and 50000 is above
	 * 110 % of that: held, no stage counted.
	 */
	path.mean_kbps = 20000;
	dcqcn_rp_advance(&a, &p, 1055);
	tap_check(a.rc_kbps == 50000 && a.rt_kbps == 100000 && a.t_stage == 0 &&
		  a.stats.share_holds == 1 && path.mean_kbps == 21875,
		  "share: above the mean on a congested path, the stage is held");
	/* 1110: the CNP of 1020 is more than T old; the stage runs. */
	dcqcn_rp_advance(&a, &p, 1110);
	tap_check(a.rc_kbps == 75000 && a.t_stage == 1 && a.stats.share_holds == 1,
		  "share: no CNP to the path within T, the stage runs");
	/* 1165, a CNP just before: 75000 is within 110 % of about 70300. */
	path.mean_kbps = 70000;
	path.last_cnp_us = 1160;
	dcqcn_rp_advance(&a, &p, 1165);
	tap_check(a.rc_kbps == 87500 && a.t_stage == 2 && a.stats.share_holds == 1,
		  "share: within the share above the mean, the stage runs");
	/* Off: the same state, the same congestion, nothing held. */
	b = a;
	path.mean_kbps = 20000;
	path.last_cnp_us = 1215;
	dcqcn_rp_advance(&b, &off, 1220);
	tap_check(b.t_stage == 3 && b.stats.share_holds == 1,
		  "share: with rp_path_share_pct=0 nothing is held");
	eq_u(path.mean_kbps, 20000, "share: and nothing is sampled into the mean");
	dcqcn_rp_advance(&a, &p, 1220);
	tap_check(a.t_stage == 2 && a.stats.share_holds == 2,
		  "share: and with 10 the same stage is");

	/* Byte-counter stages are held the same way. */
	dcqcn_rp_on_cnp(&a, &p, 2000);
	path.mean_kbps = 20000;
	dcqcn_rp_on_tx(&a, &p, 2010, 10000000);
	tap_check(a.bc_stage == 0 && a.stats.byte_stages == 0 &&
		  a.stats.share_holds == 3,
		  "share: a byte stage above the mean is held");

	/*
	 * Stages run late (the flow idle from 3000 to 3900) are not held on
	 * a CNP that came more than T after them.
	 */
	dcqcn_rp_on_cnp(&a, &p, 3000);
	path.mean_kbps = 20000;
	path.last_cnp_us = 3900;
	dcqcn_rp_advance(&a, &p, 3800);
	tap_check(a.t_stage > 0 && a.stats.share_holds == 3,
		  "share: a stage run late is not held on later news");

	/*
	 * A run of equal additive steps (R_AI = 16 kb/s, the gap RT - RC at
	 * 16 or 15) is caught up in one go; a held stage is not skipped so.
	 */
	dcqcn_rp_init(&b, &ai, 0);
	dcqcn_rp_set_path(&b, &other);
	dcqcn_rp_on_cnp(&b, &ai, 1000);
	dcqcn_rp_on_cnp(&b, &ai, 1001);
	other.last_cnp_us = 1;
	dcqcn_rp_advance(&b, &ai, 2100);
	tap_check(b.t_stage >= 5 && b.bc_stage == 0 && b.stats.share_holds == 0 &&
		  (b.rt_kbps - b.rc_kbps == 16 || b.rt_kbps - b.rc_kbps == 15),
		  "share: uncongested, the stages run into equal additive steps (%u, %u)",
		  b.rc_kbps, b.rt_kbps);
	other.mean_kbps = 10000;
	other.last_cnp_us = 2140;
	dcqcn_rp_advance(&b, &ai, 2145);
	tap_check(b.stats.share_holds == 1 && b.t_stage == 19,
		  "share: a stage due in such a run is held all the same (%u)",
		  b.t_stage);

	/* A flow in its start-up adds nothing to the mean, and is not held. */
	other = (struct dcqcn_path){ 0 };
	dcqcn_rp_init(&b, &start, 0);
	dcqcn_rp_set_path(&b, &other);
	dcqcn_rp_advance(&b, &start, 110);
	tap_check(other.mean_kbps == 0 && b.rc_kbps == 6000 &&
		  b.stats.share_holds == 0,
		  "share: a start-up doubles on and adds no sample");

	/*
	 * A start-up on a path with a mean (5000) and a CNP 16 T = 880 us
	 * back or less, but not within T: it doubles (10055: 3000) until a
	 * doubling would pass the mean (10110: 6000), takes the mean there
	 * and goes on as after a cut (10165: fast recovery, RT = RC).
	 */
	other = (struct dcqcn_path){ .last_cnp_us = 9500, .mean_kbps = 5000 };
	dcqcn_rp_init(&b, &start, 10000);
	dcqcn_rp_set_path(&b, &other);
	dcqcn_rp_advance(&b, &start, 10110);
	tap_check(b.rc_kbps == 5000 && b.rt_kbps == 5000 && b.start_ended &&
		  !b.cut_once && b.stats.start_doublings == 1 &&
		  b.stats.start_share_ends == 1 && b.stats.start_path_ends == 0,
		  "share: a start-up ends at the path's mean, not past it (%u)",
		  b.rc_kbps);
	dcqcn_rp_advance(&b, &start, 10165);
	tap_check(b.rc_kbps == 5000 && b.stats.fast_recovery == 1,
		  "share: and goes on as after a cut");
	/* The path's last CNP 16 T before the stage: the mean is stale. */
	other = (struct dcqcn_path){ .last_cnp_us = 9000, .mean_kbps = 5000 };
	dcqcn_rp_init(&b, &start, 10000);
	dcqcn_rp_set_path(&b, &other);
	dcqcn_rp_advance(&b, &start, 10110);
	tap_check(b.rc_kbps == 6000 && !b.start_ended &&
		  b.stats.start_share_ends == 0,
		  "share: a mean with no CNP for 16 T does not end a start-up");
}

/* @n packets of @bytes, one every @gap us from @t0 on; returns the next time. */
static u64 send_run(struct dcqcn_rp *rp, const struct dcqcn_params *p,
		    u64 t0, u64 gap, unsigned int n, u32 bytes)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		dcqcn_rp_on_tx(rp, p, t0 + i * gap, bytes);
	return t0 + (u64)n * gap;
}

/*
 * rp_sent_rate_window_us = 100000 (W). Windows: the first packet opens
 * one; the first packet at or after its start + W closes it (its bytes go
 * to the next). 1250 bytes every 1000 us is 10000 kb/s. Paper preset at
 * 40 Gb/s: RC = RT = 40000000, alpha 1, so a cut halves, and RT = RC.
 */
static void test_sent_rate(void)
{
	struct dcqcn_params p = mkp("paper", 40000, "rp_sent_rate_window_us=100000", NULL);
	struct dcqcn_params off = mkp("paper", 40000, NULL), q;
	struct dcqcn_rp rp;

	/*
	 * Packets at 0, 1000, ..., 100000: the one at 100000 closes the
	 * window [0, 100000) with 100 x 1250 bytes: 125000 * 8000 / 100000
	 * = 10000 kb/s. A CNP at 100500 (the window closed 500 us ago):
	 * 10000 < 40000000 / 2, so RC = RT = 10000, then the cut: RC = 5000.
	 */
	dcqcn_rp_init(&rp, &p, 0);
	send_run(&rp, &p, 0, 1000, 101, 1250);
	eq_u(dcqcn_rp_sent_kbps(&rp), 10000, "sent rate of a 100 ms window");
	dcqcn_rp_on_cnp(&rp, &p, 100500);
	rates(&rp, 5000, 10000, "a CNP cuts from the sent rate, and the target follows it");
	eq_u(rp.stats.sent_clamps, 1, "counted as a cut from the sent rate");

	/*
	 * Without rp_clamp_target_rate a first cut keeps RT; the sent rate
	 * lowers it all the same: RT = 10000, not 40000000.
	 */
	q = mkp("paper", 40000, "rp_sent_rate_window_us=100000", "rp_clamp_target_rate=0", NULL);
	dcqcn_rp_init(&rp, &q, 0);
	send_run(&rp, &q, 0, 1000, 101, 1250);
	dcqcn_rp_on_cnp(&rp, &q, 100500);
	rates(&rp, 5000, 10000, "the target follows the sent rate even without the target clamp");

	/* Off (W = 0): the same packets, the paper's cut from 40000000. */
	dcqcn_rp_init(&rp, &off, 0);
	send_run(&rp, &off, 0, 1000, 101, 1250);
	dcqcn_rp_on_cnp(&rp, &off, 100500);
	tap_check(rp.rc_kbps == 20000000 && rp.rt_kbps == 40000000 &&
		  dcqcn_rp_sent_kbps(&rp) == 0 && rp.stats.sent_clamps == 0,
		  "off: no estimate, the cut is from RC");

	/*
	 * Stale: the last window opened at 100000; a CNP more than 2 W
	 * later (300001) finds the flow silent since: cut from RC.
	 */
	dcqcn_rp_init(&rp, &p, 0);
	send_run(&rp, &p, 0, 1000, 101, 1250);
	dcqcn_rp_on_cnp(&rp, &p, 300001);
	rates(&rp, 20000000, 40000000, "an estimate older than two windows is not used");

	/*
	 * A pause inside a window: packets 0..50000 (51), then one at
	 * 250000 closes a window of span 250000 > 2 W: no estimate, though
	 * that packet opened a current window.
	 */
	dcqcn_rp_init(&rp, &p, 0);
	send_run(&rp, &p, 0, 1000, 51, 1250);
	dcqcn_rp_on_tx(&rp, &p, 250000, 1250);
	eq_u(dcqcn_rp_sent_kbps(&rp), 0, "a window with a pause in it gives no estimate");
	dcqcn_rp_on_cnp(&rp, &p, 250100);
	rates(&rp, 20000000, 40000000, "and the cut is from RC");

	/*
	 * Sending at least half of RC: max 15000 kb/s, sent 10000 >= 7500:
	 * cut from RC as always, RC = 7500, RT = 15000.
	 */
	p = mkp("paper", 40000, "rp_sent_rate_window_us=100000", "rp_max_rate_kbps=15000", NULL);
	dcqcn_rp_init(&rp, &p, 0);
	send_run(&rp, &p, 0, 1000, 101, 1250);
	dcqcn_rp_on_cnp(&rp, &p, 100500);
	tap_check(rp.rc_kbps == 7500 && rp.rt_kbps == 15000 && rp.stats.sent_clamps == 0,
		  "a flow sending half its rate or more is cut from RC");

	/*
	 * Below the floor: 125 bytes per 1000 us = 1000 kb/s, min rate
	 * 2000: the base is the floor, RC = RT = 2000; the cut to 1000 is
	 * floored again at 2000.
	 */
	p = mkp("paper", 40000, "rp_sent_rate_window_us=100000", "rp_min_rate_kbps=2000", NULL);
	dcqcn_rp_init(&rp, &p, 0);
	send_run(&rp, &p, 0, 1000, 101, 125);
	eq_u(dcqcn_rp_sent_kbps(&rp), 1000, "sent rate of 125 bytes per ms");
	dcqcn_rp_on_cnp(&rp, &p, 100500);
	rates(&rp, 2000, 2000, "a sent rate below the floor cuts from the floor");

	/* New parameters drop the estimate: cut from RC. */
	p = mkp("paper", 40000, "rp_sent_rate_window_us=100000", NULL);
	dcqcn_rp_init(&rp, &p, 0);
	send_run(&rp, &p, 0, 1000, 101, 1250);
	dcqcn_rp_reparam(&rp, &p, 100100);
	dcqcn_rp_on_cnp(&rp, &p, 100500);
	rates(&rp, 20000000, 40000000, "reparam drops the estimate");
}

static void test_np(void)
{
	struct dcqcn_params p = mkp("paper", 1000, NULL);
	static const u64 at[] = { 0, 10, 49, 50, 99, 100, 1000 };
	static const bool want[] = { true, false, false, true, false, true, true };
	struct dcqcn_np np;
	unsigned int i;
	bool ok = true;

	/* N = 50: sent at 0, 50, 100, 1000; the others fall inside 50 us. */
	dcqcn_np_init(&np);
	for (i = 0; i < ARRAY_SIZE(at); i++)
		ok &= dcqcn_np_should_send_cnp(&np, &p, at[i]) == want[i];
	tap_check(ok && np.cnp_sent == 4 && np.cnp_suppressed == 3,
		  "NP: at most one CNP per 50 us (%llu sent, %llu suppressed)",
		  (unsigned long long)np.cnp_sent,
		  (unsigned long long)np.cnp_suppressed);

	p = mkp("paper", 1000, "np_min_cnp_interval_us=0", NULL);
	dcqcn_np_init(&np);
	ok = dcqcn_np_should_send_cnp(&np, &p, 5) &&
	     dcqcn_np_should_send_cnp(&np, &p, 5) &&
	     dcqcn_np_should_send_cnp(&np, &p, 5);
	tap_check(ok, "NP: interval 0 sends a CNP for every CE mark");
}

int main(void)
{
	tap_plan(154 + 17);
	test_params();
	test_first_cnp();
	test_alpha();
	test_fast_recovery();
	test_additive();
	test_hyper();
	test_floors_and_ceiling();
	test_sub_mbps();
	test_reduce_period();
	test_byte_counter_off();
	test_byte_carry();
	test_byte_cap();
	test_clamp_rules();
	test_long_idle();
	test_call_pattern();
	test_time_and_reparam();
	test_initial_rate();
	test_path_start();
	test_path_share();
	test_sent_rate();
	test_np();
	return tap_done();
}
