// SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
/*
 * Software DCQCN: reaction-point state machine and notification-point CNP
 * pacing, in integers only. Documentation/dcqcn.rst describes the
 * algorithm as implemented here and every place where the paper, its
 * author's ns-3 code and mlx5 firmware differ.
 */
#include "dcqcn.h"

#ifdef __KERNEL__
#include <linux/math64.h>
#endif

/* u64 / u32 for the few rare-path divisions (div_u64 on 32-bit kernels). */
static inline u64 dcqcn_div(u64 a, u32 b)
{
#ifdef __KERNEL__
	return div_u64(a, b);
#else
	return a / b;
#endif
}

static inline u32 sat_add_u32(u32 a, u64 b)
{
	u64 s = (u64)a + b;

	return s > 0xffffffffull ? 0xffffffffu : (u32)s;
}

static inline u64 min_u64(u64 a, u64 b)
{
	return a < b ? a : b;
}

int dcqcn_params_from_set(const struct rtune_param_set *set, u32 line_rate_mbps,
			  struct dcqcn_params *p)
{
	const u32 *v = set->v;
	u32 cap = rtune_param_descs[RTUNE_P_RP_MAX_RATE_KBPS].max;
	u32 max_kbps, min_kbps, first_kbps, init_kbps;
	char why[96];

	if (rtune_params_validate(set, why, sizeof(why)))
		return -EINVAL;

	/*
	 * Ceiling: the line rate (a device property in Mb/s; u64 so that no
	 * line rate can wrap), lowered by rp_max_rate_kbps if set.
	 */
	max_kbps = cap;
	if (line_rate_mbps && (u64)line_rate_mbps * 1000u < cap)
		max_kbps = line_rate_mbps * 1000u;
	if (v[RTUNE_P_RP_MAX_RATE_KBPS] && v[RTUNE_P_RP_MAX_RATE_KBPS] < max_kbps)
		max_kbps = v[RTUNE_P_RP_MAX_RATE_KBPS];
	/* A floor above a slow link's line rate becomes the line rate. */
	min_kbps = v[RTUNE_P_RP_MIN_RATE_KBPS];
	if (min_kbps > max_kbps)
		min_kbps = max_kbps;
	first_kbps = v[RTUNE_P_RP_RATE_ON_FIRST_CNP_KBPS];
	if (first_kbps > max_kbps)
		first_kbps = max_kbps;
	if (first_kbps && first_kbps < min_kbps)
		first_kbps = min_kbps;

	/* The initial rate, like the first-CNP rate, stays within the limits. */
	init_kbps = v[RTUNE_P_RP_INITIAL_RATE_KBPS];
	if (!init_kbps || init_kbps > max_kbps)
		init_kbps = max_kbps;
	if (init_kbps < min_kbps)
		init_kbps = min_kbps;

	p->max_rate_kbps = max_kbps;
	p->min_rate_kbps = min_kbps;
	p->init_rate_kbps = init_kbps;
	p->first_cnp_rate_kbps = first_kbps;
	p->sent_window_us = v[RTUNE_P_RP_SENT_RATE_WINDOW_US];
	p->g = v[RTUNE_P_RP_ALPHA_GAIN_1024THS];
	p->alpha_init = v[RTUNE_P_RP_INITIAL_ALPHA_1024THS] <<
			(DCQCN_ALPHA_SHIFT - DCQCN_G_SHIFT);
	p->alpha_period_us = v[RTUNE_P_RP_ALPHA_UPDATE_PERIOD_US];
	p->cut_shift = v[RTUNE_P_RP_RATE_CUT_SHIFT];
	p->min_factor_pct = v[RTUNE_P_RP_MIN_RATE_FACTOR_PCT];
	p->reduce_period_us = v[RTUNE_P_RP_RATE_REDUCE_PERIOD_US];
	p->timer_us = v[RTUNE_P_RP_RATE_INCREASE_TIMER_US];
	p->byte_counter = v[RTUNE_P_RP_BYTE_COUNTER_BYTES];
	p->fast_recovery = v[RTUNE_P_RP_FAST_RECOVERY_STAGES];
	p->ai_kbps = v[RTUNE_P_RP_ADDITIVE_INCREASE_KBPS];
	p->hai_kbps = v[RTUNE_P_RP_HYPER_INCREASE_KBPS];
	p->share_pct = v[RTUNE_P_RP_PATH_SHARE_PCT];
	p->np_interval_us = v[RTUNE_P_NP_MIN_CNP_INTERVAL_US];
	p->clamp_target = v[RTUNE_P_RP_CLAMP_TARGET_RATE] != 0;
	p->clamp_after_timer = v[RTUNE_P_RP_CLAMP_TARGET_AFTER_TIMER] != 0;
	return 0;
}

/* alpha = (1 - g) * alpha, rounded down (so it always reaches 0). */
static inline u32 alpha_decayed(u32 alpha, u32 g)
{
	return (u32)(((u64)alpha * (1024u - g)) >> DCQCN_G_SHIFT);
}

/* alpha = (1 - g) * alpha + g; never above 1.0. */
static inline u32 alpha_raised(u32 alpha, u32 g)
{
	return alpha_decayed(alpha, g) +
	       (g << (DCQCN_ALPHA_SHIFT - DCQCN_G_SHIFT));
}

/*
 * The start of a flow that has had no CNP: at the initial rate, and below
 * the maximum the increase timer runs, to double the rate each period
 * (start_stage()).
 */
static void start_flow(struct dcqcn_rp *rp, const struct dcqcn_params *p)
{
	rp->rc_kbps = p->init_rate_kbps;
	rp->rt_kbps = p->init_rate_kbps;
	rp->alpha = p->alpha_init;
	rp->next_timer_us = DCQCN_NEVER;
	if (p->init_rate_kbps < p->max_rate_kbps)
		rp->next_timer_us = rp->now_us + p->timer_us;
}

void dcqcn_rp_init(struct dcqcn_rp *rp, const struct dcqcn_params *p,
		   u64 now_us)
{
	memset(rp, 0, sizeof(*rp));
	rp->now_us = now_us;
	rp->next_alpha_us = DCQCN_NEVER;
	rp->sent_t0_us = DCQCN_NEVER;
	start_flow(rp, p);
}

static void alpha_catch_up(struct dcqcn_rp *rp, const struct dcqcn_params *p,
			   u64 now)
{
	while (rp->next_alpha_us <= now) {
		/*
		 * Once alpha * g < 1024, every decay takes exactly 1 off
		 * (floor(alpha - x) with 0 < x < 1): do them all at once, so
		 * a long idle costs no more than the first few thousand.
		 */
		if ((u64)rp->alpha * p->g < 1024u) {
			u64 n = dcqcn_div(now - rp->next_alpha_us,
					  p->alpha_period_us) + 1;

			if (n >= rp->alpha) {
				rp->stats.alpha_decays += rp->alpha;
				rp->alpha = 0;
			} else {
				rp->stats.alpha_decays += n;
				rp->alpha -= (u32)n;
				rp->next_alpha_us += n * p->alpha_period_us;
			}
		} else {
			rp->alpha = alpha_decayed(rp->alpha, p->g);
			rp->stats.alpha_decays++;
			rp->next_alpha_us += p->alpha_period_us;
		}
		if (!rp->alpha)
			rp->next_alpha_us = DCQCN_NEVER;
	}
}

/* Fully recovered: further increases cannot change RC or RT, so stop. */
static void stop_if_recovered(struct dcqcn_rp *rp,
			      const struct dcqcn_params *p)
{
	u32 max = p->max_rate_kbps;

	if (rp->rc_kbps >= max && rp->rt_kbps >= max) {
		rp->next_timer_us = DCQCN_NEVER;
		rp->byte_acc = 0;
	}
}

/* Before the flow's first CNP, and its path has not ended its start. */
static inline bool starting(const struct dcqcn_rp *rp)
{
	return !rp->cut_once && !rp->start_ended;
}

/* Weight of one sample in a path's mean rate: 1/16. */
#define DCQCN_PATH_MEAN_DIV	16

/*
 * With rp_path_share_pct, add the flow's rate to its path's mean (off,
 * nothing reads the mean, and the path's cache line is left alone). Only
 * cuts and increase stages call it, so a start-up's doublings, which say
 * nothing of the share the path gives, never reach the mean.
 */
static void path_note_rate(struct dcqcn_rp *rp, const struct dcqcn_params *p)
{
	s64 m, r = rp->rc_kbps;

	if (!p->share_pct || !rp->path)
		return;
	m = READ_ONCE(rp->path->mean_kbps);
	m = m ? m + (r - m) / DCQCN_PATH_MEAN_DIV : r;
	WRITE_ONCE(rp->path->mean_kbps, (u32)m);
}

/*
 * rp_path_share_pct: whether the increase stage due at @t is held, for a
 * flow more than share_pct above its path's mean rate while the path is
 * congested (a CNP came to one of its flows within a period of @t).
 * DCQCN evens flows out only through its additive steps, equal for all,
 * against cuts that take the same share of every rate: a flow that its
 * start-up or a run of CNPs left at twice the others' rate keeps about
 * that for seconds. Held, it gives the room its cuts free to the flows
 * below the mean. A path with no congestion holds nothing, so a flow
 * never waits on others that do not use their share; and a stage run
 * late, long after @t, is not held on news from after it.
 */
/*
 * With rp_path_share_pct, the flow's path's mean rate in @m and the time
 * of its last CNP; 0 when the share is off or the path has no mean or no
 * CNP yet.
 */
static u64 path_share(const struct dcqcn_rp *rp, const struct dcqcn_params *p,
		      u32 *m)
{
	u64 c;

	if (!p->share_pct || !rp->path)
		return 0;
	*m = READ_ONCE(rp->path->mean_kbps);
	c = READ_ONCE(rp->path->last_cnp_us);
	return *m ? c : 0;
}

static bool share_hold(const struct dcqcn_rp *rp,
		       const struct dcqcn_params *p, u64 t)
{
	u32 m;
	u64 c = path_share(rp, p, &m);

	if (!c || c + p->timer_us <= t || c > t + p->timer_us)
		return false;
	return (u64)rp->rc_kbps * 100 > (u64)m * (100 + p->share_pct);
}

/*
 * One rate-increase stage due at @t, from the timer or the byte counter,
 * unless share_hold() holds it. The phase
 * is chosen from the stage counts *before* this stage is counted, so the
 * first F stages of either counter are fast recovery:
 *   both < F       fast recovery   RT unchanged
 *   both >= F      hyper increase  RT += i * R_HAI, i = min(T, BC) - F + 1
 *   otherwise      additive        RT += R_AI
 * then RT is clamped to the maximum rate and RC = ceil((RC + RT) / 2).
 */
static void increase_stage(struct dcqcn_rp *rp, const struct dcqcn_params *p,
			   u64 t, bool by_bytes)
{
	u32 f = p->fast_recovery;
	u64 rt = rp->rt_kbps;
	u64 rc;

	path_note_rate(rp, p);
	if (share_hold(rp, p, t)) {
		/* No stage at all: the phase goes on where it was. */
		rp->stats.share_holds++;
		return;
	}
	if (rp->t_stage < f && rp->bc_stage < f) {
		rp->stats.fast_recovery++;
	} else if (rp->t_stage >= f && rp->bc_stage >= f) {
		u32 i = rp->t_stage < rp->bc_stage ? rp->t_stage : rp->bc_stage;

		i = i - f + 1;

		rt += (u64)i * p->hai_kbps;
		rp->stats.hyper++;
	} else {
		rt += p->ai_kbps;
		rp->stats.additive++;
	}
	if (rt > p->max_rate_kbps)
		rt = p->max_rate_kbps;
	rc = ((u64)rp->rc_kbps + rt + 1) >> 1;
	rp->rt_kbps = (u32)rt;
	rp->rc_kbps = (u32)min_u64(rc, p->max_rate_kbps);

	if (by_bytes) {
		rp->bc_stage = sat_add_u32(rp->bc_stage, 1);
		rp->stats.byte_stages++;
	} else {
		rp->t_stage = sat_add_u32(rp->t_stage, 1);
		rp->stats.timer_stages++;
	}
	stop_if_recovered(rp, p);
}

/*
 * The RT step every further timer stage will take while only the timer
 * runs (the byte stage count cannot change then), or 0 if it varies.
 */
static u64 constant_timer_step(const struct dcqcn_rp *rp,
			       const struct dcqcn_params *p)
{
	u32 f = p->fast_recovery;

	if (rp->t_stage < f)
		return 0;		/* fast recovery still to come */
	if (rp->bc_stage < f)
		return p->ai_kbps;		/* additive for good */
	if (rp->t_stage >= rp->bc_stage)	/* hyper, i fixed by BC */
		return (u64)(rp->bc_stage - f + 1) * p->hai_kbps;
	return 0;
}

/*
 * One timer stage of a flow's start, before its first CNP
 * (rp_initial_rate_kbps): RC = RT = twice the rate, within the maximum.
 * A flow alone finds the rate of its path in a few periods from a low
 * start, and no stage counts: the stages of DCQCN's recovery count from
 * a cut, and there has been none.
 */
static void start_stage(struct dcqcn_rp *rp, const struct dcqcn_params *p)
{
	u32 r = (u32)min_u64(2 * (u64)rp->rc_kbps, p->max_rate_kbps);

	rp->rc_kbps = r;
	rp->rt_kbps = r;
	rp->stats.start_doublings++;
	stop_if_recovered(rp, p);
}

/*
 * Whether a CNP came to a flow of @rp's path in the period that ends
 * with the stage at @t, or since. Stages run late, on the flow's next
 * event: a flow held back by its window sends nothing while the queue
 * is full, and its stage of @t then runs when it is known already that
 * the path filled after @t. A doubling on that news would only make it
 * worse.
 */
static bool path_congested(const struct dcqcn_rp *rp,
			   const struct dcqcn_params *p, u64 t)
{
	u64 c;

	if (!rp->path)
		return false;
	c = READ_ONCE(rp->path->last_cnp_us);
	return c && c + p->timer_us > t;
}

/*
 * Another flow to the same peer had a CNP in the period that just ended:
 * the path is full, and it filled while this flow doubled. That doubling
 * is undone (never below the initial rate), and the flow goes on as after
 * a cut: fast recovery holds the rate, then additive increase probes.
 * Flows that start together towards one peer, as an incast from one host
 * does, would otherwise each double on into the queue the first of them
 * was told about, until its own CNP: with 16 of them, 16 CNPs late.
 */
static void end_start(struct dcqcn_rp *rp, const struct dcqcn_params *p)
{
	u32 r = rp->rc_kbps;

	if (rp->stats.start_doublings) {
		r /= 2;
		if (r < p->init_rate_kbps)
			r = p->init_rate_kbps;
	}
	rp->rc_kbps = r;
	rp->rt_kbps = r;
	rp->start_ended = true;
	rp->stats.start_path_ends++;
}

/* How long a path's mean stays a start-up's guide after its last CNP, in T. */
#define DCQCN_PATH_MEAN_PERIODS	16

/*
 * rp_path_share_pct: the start-up stage at @t of a flow whose path has a
 * mean rate and had a CNP in the last 16 periods (about the mean's
 * memory) does not double past that mean: the flow takes the mean if it
 * is below it, and its start-up ends there, as on the path's congestion
 * (end_start()). Returns whether it did. A flow that joins flows already
 * sharing a path would otherwise double on while the path happens to be
 * quiet, to several times their rate, until the queue it builds brings
 * its first CNP.
 */
static bool share_start_end(struct dcqcn_rp *rp, const struct dcqcn_params *p,
			    u64 t)
{
	u32 m;
	u64 c = path_share(rp, p, &m);

	if (!c || c + DCQCN_PATH_MEAN_PERIODS * (u64)p->timer_us <= t ||
	    2 * (u64)rp->rc_kbps <= m)
		return false;
	if (m > p->max_rate_kbps)
		m = p->max_rate_kbps;
	if (m > rp->rc_kbps)
		rp->rc_kbps = m;
	rp->rt_kbps = rp->rc_kbps;
	rp->start_ended = true;
	rp->stats.start_share_ends++;
	return true;
}

static void timer_catch_up(struct dcqcn_rp *rp, const struct dcqcn_params *p,
			   u64 now)
{
	while (rp->next_timer_us <= now) {
		u64 t = rp->next_timer_us;
		u64 s = constant_timer_step(rp, p);
		u64 d = rp->rt_kbps - rp->rc_kbps;

		/* At most 31 doublings reach any maximum: no fast-forward. */
		if (starting(rp)) {
			rp->next_timer_us = t + p->timer_us;
			if (path_congested(rp, p, t))
				end_start(rp, p);
			else if (!share_start_end(rp, p, t))
				start_stage(rp, p);
			continue;
		}

		/*
		 * Fast-forward a run of identical stages. With a constant RT
		 * step s and a gap RT - RC of s or s - 1, one stage moves RT
		 * and RC both up by exactly s and keeps the gap: RC' =
		 * ceil((RT - d + RT + s) / 2) = RT + ceil((s - d) / 2). So k
		 * stages that keep RT within the maximum add k * s to both,
		 * exactly as k single stages would. This bounds the work of
		 * catching up after a long idle.
		 */
		if (s && s <= p->max_rate_kbps - rp->rt_kbps &&
		    rp->rc_kbps <= rp->rt_kbps && (d == s || d + 1 == s) &&
		    !share_hold(rp, p, t)) {
			u64 pending = dcqcn_div(now - t, p->timer_us) + 1;
			u64 room = dcqcn_div(p->max_rate_kbps - rp->rt_kbps,
					     (u32)s);
			u64 k = min_u64(pending, room);

			rp->rt_kbps += (u32)(k * s);
			rp->rc_kbps += (u32)(k * s);
			rp->t_stage = sat_add_u32(rp->t_stage, k);
			rp->stats.timer_stages += k;
			if (rp->bc_stage < p->fast_recovery)
				rp->stats.additive += k;
			else
				rp->stats.hyper += k;
			rp->next_timer_us = t + k * p->timer_us;
			stop_if_recovered(rp, p);
			continue;
		}
		rp->next_timer_us = t + p->timer_us;
		increase_stage(rp, p, t, false);
	}
}

void dcqcn_rp_advance(struct dcqcn_rp *rp, const struct dcqcn_params *p,
		      u64 now_us)
{
	if (now_us < rp->now_us)
		now_us = rp->now_us;
	rp->now_us = now_us;
	/* Alpha decay and rate increase never read each other's state. */
	alpha_catch_up(rp, p, now_us);
	timer_catch_up(rp, p, now_us);
}

/* RC * (1 - alpha / 2^shift), floored by min_rate_factor_pct and min rate. */
static u32 cut_rate(const struct dcqcn_rp *rp, const struct dcqcn_params *p)
{
	u64 rc = rp->rc_kbps;
	u64 cut = (rc * rp->alpha) >> (DCQCN_ALPHA_SHIFT + p->cut_shift);
	u64 r = rc - cut;
	u64 floor = dcqcn_div(rc * p->min_factor_pct + 99, 100);

	if (r < floor)
		r = floor;
	if (r < p->min_rate_kbps)
		r = p->min_rate_kbps;
	return (u32)min_u64(r, p->max_rate_kbps);
}

/*
 * The sent-rate estimate: windows of at least rp_sent_rate_window_us, each
 * closed by the first packet at or after its end, which opens the next.
 * A window's rate is its bytes (not the closing packet's) over its span.
 * A window that spans more than two lengths had a pause in it, and its
 * average says nothing of the rate before or after the pause: it leaves
 * no estimate.
 */
static void sent_account(struct dcqcn_rp *rp, const struct dcqcn_params *p,
			 u64 now, u32 bytes)
{
	u64 w = p->sent_window_us, span;

	if (rp->sent_t0_us != DCQCN_NEVER && now >= rp->sent_t0_us + w) {
		span = now - rp->sent_t0_us;
		rp->sent_kbps = 0;
		if (span <= 2 * w)
			/* bytes * 8 bits / span us = Mb/s; * 1000 for kb/s */
			rp->sent_kbps = (u32)min_u64(dcqcn_div(rp->sent_bytes * 8000,
							      (u32)span),
						    p->max_rate_kbps);
		rp->sent_t0_us = DCQCN_NEVER;
	}
	if (rp->sent_t0_us == DCQCN_NEVER) {
		rp->sent_t0_us = now;
		rp->sent_bytes = 0;
	}
	rp->sent_bytes += bytes;
}

/*
 * What the flow sent in its last window, if that is below half of RC and
 * still current (the window closed at most two lengths ago), else 0: what
 * a CNP cuts from instead of RC (rp_sent_rate_window_us). A flow held back
 * by its window or its application sends below its DCQCN rate, and a cut
 * from a rate it never used slows nothing down. Half, so that a paced
 * flow, which sends at about RC give or take a measurement's noise, is
 * cut from RC as always.
 */
static u32 sent_base(const struct dcqcn_rp *rp, const struct dcqcn_params *p,
		     u64 now)
{
	u32 base = rp->sent_kbps;

	/* An estimate (base) means a window has been open since it closed. */
	if (!p->sent_window_us || !base || (u64)base * 2 >= rp->rc_kbps ||
	    now - rp->sent_t0_us > 2 * (u64)p->sent_window_us)
		return 0;
	return base < p->min_rate_kbps ? p->min_rate_kbps : base;
}

bool dcqcn_rp_on_cnp(struct dcqcn_rp *rp, const struct dcqcn_params *p,
		     u64 now_us)
{
	u32 base;
	u64 now;

	dcqcn_rp_advance(rp, p, now_us);
	now = rp->now_us;
	rp->last_cnp_us = now;
	/* Even one too soon to cut: the path is congested all the same. */
	if (rp->path)
		WRITE_ONCE(rp->path->last_cnp_us, now);

	if (rp->cut_once && p->reduce_period_us &&
	    now - rp->last_cut_us < p->reduce_period_us) {
		/* Too soon for another cut; alpha still sees the CNP. */
		rp->alpha = alpha_raised(rp->alpha, p->g);
		rp->next_alpha_us = now + p->alpha_period_us;
		rp->stats.cnp_ignored++;
		return false;
	}

	/*
	 * Cut from what the flow sent, not from a rate it did not use; the
	 * target too, or it would recover towards that unused rate.
	 */
	base = sent_base(rp, p, now);
	if (base) {
		rp->rc_kbps = base;
		if (rp->rt_kbps > base)
			rp->rt_kbps = base;
		rp->stats.sent_clamps++;
	}

	/*
	 * Target: mlx5 semantics. rp_clamp_target_rate: always RT = RC.
	 * Otherwise only if the rate went up since the last cut: by the
	 * byte counter, or also by the timer with
	 * rp_clamp_target_after_timer. Else RT keeps the rate of before
	 * the last cut, so a flow recovers towards it quickly.
	 */
	if (p->clamp_target || rp->bc_stage ||
	    (p->clamp_after_timer && rp->t_stage))
		rp->rt_kbps = rp->rc_kbps;

	if (!rp->cut_once && p->first_cnp_rate_kbps)
		rp->rc_kbps = p->first_cnp_rate_kbps;
	else
		rp->rc_kbps = cut_rate(rp, p);
	/* The paper's order: cut with the old alpha, then update it. */
	rp->alpha = alpha_raised(rp->alpha, p->g);

	rp->t_stage = 0;
	rp->bc_stage = 0;
	rp->byte_acc = 0;
	rp->next_timer_us = now + p->timer_us;
	rp->next_alpha_us = now + p->alpha_period_us;
	rp->last_cut_us = now;
	rp->cut_once = true;
	path_note_rate(rp, p);
	rp->stats.cnp_handled++;
	return true;
}

void dcqcn_rp_on_tx(struct dcqcn_rp *rp, const struct dcqcn_params *p,
		    u64 now_us, u32 bytes)
{
	u64 n;

	dcqcn_rp_advance(rp, p, now_us);
	if (p->sent_window_us)
		sent_account(rp, p, rp->now_us, bytes);
	/*
	 * Bytes count only while the flow is recovering from a cut (or from
	 * the end of its start-up, which is one in all but name).
	 */
	if (!p->byte_counter || starting(rp) ||
	    rp->next_timer_us == DCQCN_NEVER)
		return;
	rp->byte_acc += bytes;
	if (rp->byte_acc < p->byte_counter)
		return;
	n = dcqcn_div(rp->byte_acc, p->byte_counter);
	rp->byte_acc -= n * p->byte_counter;
	if (n > DCQCN_MAX_BYTE_STAGES_PER_TX)
		n = DCQCN_MAX_BYTE_STAGES_PER_TX;
	while (n-- && rp->next_timer_us != DCQCN_NEVER)
		increase_stage(rp, p, rp->now_us, true);
}

u64 dcqcn_rp_next_event_us(const struct dcqcn_rp *rp)
{
	return min_u64(rp->next_alpha_us, rp->next_timer_us);
}

void dcqcn_rp_reparam(struct dcqcn_rp *rp, const struct dcqcn_params *p,
		      u64 now_us)
{
	u32 lo = p->min_rate_kbps, hi = p->max_rate_kbps;

	if (now_us < rp->now_us)
		now_us = rp->now_us;
	rp->now_us = now_us;
	/* A window of another length starts afresh. */
	rp->sent_t0_us = DCQCN_NEVER;
	rp->sent_kbps = 0;
	if (!rp->cut_once) {
		/*
		 * No CNP yet. A commit must not throttle a flow that has
		 * found its rate: it keeps it, within the new limits below,
		 * and never below the new initial rate (itself within them).
		 */
		if (rp->rc_kbps < p->init_rate_kbps)
			rp->rc_kbps = p->init_rate_kbps;
		rp->rt_kbps = rp->rc_kbps;
		rp->alpha = p->alpha_init;
	}
	if (rp->rc_kbps > hi)
		rp->rc_kbps = hi;
	if (rp->rc_kbps < lo)
		rp->rc_kbps = lo;
	if (rp->rt_kbps > hi)
		rp->rt_kbps = hi;
	if (rp->rt_kbps < rp->rc_kbps)
		rp->rt_kbps = rp->rc_kbps;
	if (rp->next_timer_us == DCQCN_NEVER && rp->rc_kbps < hi)
		rp->next_timer_us = now_us + p->timer_us;
	stop_if_recovered(rp, p);
}

void dcqcn_np_init(struct dcqcn_np *np)
{
	memset(np, 0, sizeof(*np));
}

bool dcqcn_np_should_send_cnp(struct dcqcn_np *np,
			      const struct dcqcn_params *p, u64 now_us)
{
	u64 elapsed = now_us > np->last_cnp_us ? now_us - np->last_cnp_us : 0;

	if (np->sent_once && elapsed < p->np_interval_us) {
		np->cnp_suppressed++;
		return false;
	}
	if (!np->sent_once || now_us > np->last_cnp_us)
		np->last_cnp_us = now_us;
	np->sent_once = true;
	np->cnp_sent++;
	return true;
}
