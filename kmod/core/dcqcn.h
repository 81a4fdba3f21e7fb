/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Software DCQCN (Zhu et al., SIGCOMM 2015): the reaction point (the
 * sender's per-flow rate limiter) and the notification point's CNP pacing.
 *
 * Pure integer logic, compiled into rocetune.ko and into the userspace
 * simulator and unit tests. No allocation, no locks, no clock: the caller
 * owns the state, serialises calls on one flow, and passes the time of
 * every event explicitly, so a given sequence of events always gives the
 * same trajectory. Time-driven events (alpha decay, the rate-increase
 * timer) are computed lazily from timestamps: every entry point first runs
 * all of them that are due at or before its @now_us, in order. No per-flow
 * timer is needed; dcqcn_rp_next_event_us() tells when the next one is due
 * for callers that want one anyway.
 *
 * Units: times in microseconds (u64), rates in kb/s (u32, so up to
 * 4.29 Tb/s), alpha in Q20 fixed point (DCQCN_ALPHA_ONE = 1.0).
 * Documentation/dcqcn.rst gives the algorithm and every rounding rule.
 */
#ifndef _ROCETUNE_DCQCN_H
#define _ROCETUNE_DCQCN_H

#include "types.h"
#include "params.h"

#define DCQCN_ALPHA_SHIFT	20
#define DCQCN_ALPHA_ONE		(1u << DCQCN_ALPHA_SHIFT)
/* rtune_params gives g and the initial alpha in 1/1024: Q10 -> Q20. */
#define DCQCN_G_SHIFT		10

/* "No event pending": later than any time. */
#define DCQCN_NEVER		(~(u64)0)

/*
 * Upper bound on byte-counter stages run by one dcqcn_rp_on_tx() call.
 * More only happens when rp_byte_counter_bytes is far below the size of
 * one transmission; the bytes beyond it are dropped so that a tiny byte
 * counter cannot make one call loop for long (the caller holds a lock).
 */
#define DCQCN_MAX_BYTE_STAGES_PER_TX	256

/*
 * Parameters in the core's units. Fill them with dcqcn_params_from_set()
 * only: it guarantees what the code relies on (periods >= 1 us, rates
 * within min..max).
 */
struct dcqcn_params {
	u32 min_rate_kbps;	/* rp_min_rate_kbps, at most max_rate_kbps */
	u32 max_rate_kbps;	/* line rate, or rp_max_rate_kbps if lower */
	u32 init_rate_kbps;	/* rp_initial_rate_kbps, or max_rate_kbps */
	u32 first_cnp_rate_kbps; /* rp_rate_on_first_cnp_kbps; 0 = a cut */
	u32 sent_window_us;	/* rp_sent_rate_window_us; 0 = off */
	u32 g;			/* rp_alpha_gain_1024ths: g = this/1024 */
	u32 alpha_init;		/* rp_initial_alpha_1024ths, in Q20 */
	u32 alpha_period_us;	/* rp_alpha_update_period_us: K */
	u32 cut_shift;		/* rp_rate_cut_shift: cut = RC*a/2^this */
	u32 min_factor_pct;	/* rp_min_rate_factor_pct */
	u32 reduce_period_us;	/* rp_rate_reduce_period_us */
	u32 timer_us;		/* rp_rate_increase_timer_us: T */
	u32 byte_counter;	/* rp_byte_counter_bytes: B; 0 = off */
	u32 fast_recovery;	/* rp_fast_recovery_stages: F */
	u32 ai_kbps;		/* rp_additive_increase_kbps: R_AI */
	u32 hai_kbps;		/* rp_hyper_increase_kbps: R_HAI */
	u32 share_pct;		/* rp_path_share_pct; 0 = off */
	u32 np_interval_us;	/* np_min_cnp_interval_us: N */
	bool clamp_target;	/* rp_clamp_target_rate */
	bool clamp_after_timer;	/* rp_clamp_target_after_timer */
};

/* Per-flow event counts; they only ever grow. */
struct dcqcn_rp_stats {
	u64 cnp_handled;	/* CNPs that cut the rate */
	u64 cnp_ignored;	/* CNPs within rp_rate_reduce_period_us */
	u64 timer_stages;	/* rate-increase timer expiries */
	u64 byte_stages;	/* byte-counter expiries */
	u64 fast_recovery;	/* increases by phase ... */
	u64 additive;
	u64 hyper;
	u64 alpha_decays;
	u64 sent_clamps;	/* cuts from the sent rate, below RC */
	u64 start_doublings;	/* start-up increases, before the first CNP */
	u64 start_path_ends;	/* start-ups ended by the path's congestion */
	u64 start_share_ends;	/* start-ups ended at the path's mean */
	u64 share_holds;	/* increase stages held: above the path's mean */
};

/*
 * What the flows to one peer share: when the last CNP came to any of
 * them, 0 = none, and the mean of their rates. A flow still in its
 * start-up (rp_initial_rate_kbps) ends it when a CNP came to another flow
 * of its path in the last period: see dcqcn_rp_set_path(). With
 * rp_path_share_pct, a flow well above the mean takes no increase while
 * the path is congested. The caller owns it and keeps it for as long as
 * any flow points to it. Flows under different locks read and write it,
 * each access whole (READ_ONCE/WRITE_ONCE): a torn time on a 32-bit
 * kernel can only move one start-up's end by a period, and two flows
 * updating the mean at once can only lose one of the two samples.
 */
struct dcqcn_path {
	u64 last_cnp_us;
	/*
	 * With rp_path_share_pct, a moving average of the rates of its
	 * flows past their start-up, each sampled at its increase stages
	 * and cuts (every T while it recovers, so each flow about as
	 * often): 0 = none yet.
	 */
	u32 mean_kbps;
};

/* Reaction-point state of one flow (one QP). Read it with the helpers. */
struct dcqcn_rp {
	u32 rc_kbps;		/* current rate RC */
	u32 rt_kbps;		/* target rate RT */
	u32 alpha;		/* Q20 */
	u32 t_stage;		/* timer expiries since the last cut */
	u32 bc_stage;		/* byte-counter expiries since the cut */
	u64 byte_acc;		/* bytes since the last byte stage */
	u64 now_us;		/* latest time seen (times never go back) */
	u64 last_cnp_us;	/* last CNP, cut or not */
	u64 last_cut_us;	/* last rate cut */
	u64 next_alpha_us;	/* next alpha decay, or DCQCN_NEVER */
	u64 next_timer_us;	/* next increase stage, or DCQCN_NEVER */
	bool cut_once;		/* a CNP has cut this flow since init */
	bool start_ended;	/* its path's congestion ended its start-up */
	struct dcqcn_path *path;	/* shared with flows to its peer, or NULL */
	/*
	 * What the flow sent (rp_sent_rate_window_us): the current window
	 * began at sent_t0_us (DCQCN_NEVER: no packet yet) and has
	 * sent_bytes; sent_kbps is the rate of the last complete window,
	 * 0 = none.
	 */
	u64 sent_t0_us;
	u64 sent_bytes;
	u32 sent_kbps;
	struct dcqcn_rp_stats stats;
};

/* Notification-point state of one flow: CNP pacing. */
struct dcqcn_np {
	u64 last_cnp_us;
	bool sent_once;
	u64 cnp_sent;
	u64 cnp_suppressed;
};

/*
 * Derive core parameters from a whole rtune_param_set for a port whose line
 * rate is @line_rate_mbps (0 = unknown: rp_max_rate_kbps or, if that is 0
 * too, the largest rate rtune_params accepts). Returns 0, or -EINVAL if the
 * set fails rtune_params_validate().
 */
int dcqcn_params_from_set(const struct rtune_param_set *set, u32 line_rate_mbps,
			  struct dcqcn_params *p);

/*
 * Start a flow at @now_us: RC = RT = the initial rate (the maximum unless
 * rp_initial_rate_kbps is set), alpha = initial alpha.
 */
void dcqcn_rp_init(struct dcqcn_rp *rp, const struct dcqcn_params *p,
		   u64 now_us);

/*
 * The flow shares @path (NULL: none) with the other flows to its peer:
 * its CNPs are noted there, and while it is in its start-up a CNP to any
 * of them in the last period T ends the start-up (Documentation/dcqcn.rst,
 * "Start-up"). dcqcn_rp_init() clears it.
 */
static inline void dcqcn_rp_set_path(struct dcqcn_rp *rp,
				     struct dcqcn_path *path)
{
	rp->path = path;
}

/* Run every alpha decay and increase-timer expiry due at or before @now_us. */
void dcqcn_rp_advance(struct dcqcn_rp *rp, const struct dcqcn_params *p,
		      u64 now_us);

/*
 * A CNP for this flow arrived at @now_us. Returns true if it cut the rate,
 * false if rp_rate_reduce_period_us made the reaction point ignore it
 * (alpha still counts it).
 */
bool dcqcn_rp_on_cnp(struct dcqcn_rp *rp, const struct dcqcn_params *p,
		     u64 now_us);

/*
 * The flow sent @bytes at @now_us: feeds the byte counter and, with
 * rp_sent_rate_window_us, the sent-rate estimate (which then needs every
 * packet).
 */
void dcqcn_rp_on_tx(struct dcqcn_rp *rp, const struct dcqcn_params *p,
		    u64 now_us, u32 bytes);

/* When the next time-driven event is due, or DCQCN_NEVER. */
u64 dcqcn_rp_next_event_us(const struct dcqcn_rp *rp);

/*
 * The parameters changed (a commit on the port): bring the flow within the
 * new limits at @now_us. Call dcqcn_rp_advance() with the old parameters
 * first. A flow that was never cut takes the new initial alpha and keeps
 * its rate within the new limits, raised to the new initial rate (with
 * rp_initial_rate_kbps 0: the new maximum), its start-up going on below
 * the maximum; a cut flow keeps its state, clamped to the new range, and
 * resumes increasing if it is now below the maximum.
 */
void dcqcn_rp_reparam(struct dcqcn_rp *rp, const struct dcqcn_params *p,
		      u64 now_us);

static inline u32 dcqcn_rp_rate_kbps(const struct dcqcn_rp *rp)
{
	return rp->rc_kbps;
}

static inline u32 dcqcn_rp_target_kbps(const struct dcqcn_rp *rp)
{
	return rp->rt_kbps;
}

/* Current rate in whole Mb/s, rounded down. */
static inline u32 dcqcn_rp_rate_mbps(const struct dcqcn_rp *rp)
{
	return rp->rc_kbps / 1000;
}

/* Alpha in Q20: DCQCN_ALPHA_ONE is 1.0. */
static inline u32 dcqcn_rp_alpha(const struct dcqcn_rp *rp)
{
	return rp->alpha;
}

/* The rate of the flow's last complete sending window in kb/s, 0 = none. */
static inline u32 dcqcn_rp_sent_kbps(const struct dcqcn_rp *rp)
{
	return rp->sent_kbps;
}

/* True while the flow is held below its maximum rate (pacing needed). */
static inline bool dcqcn_rp_limited(const struct dcqcn_rp *rp,
				    const struct dcqcn_params *p)
{
	return rp->rc_kbps < p->max_rate_kbps;
}

void dcqcn_np_init(struct dcqcn_np *np);

/*
 * A CE-marked packet of this flow arrived at @now_us: should the NP send a
 * CNP? True if none was sent in the last np_min_cnp_interval_us (always
 * for the first one, and for every one when the interval is 0).
 */
bool dcqcn_np_should_send_cnp(struct dcqcn_np *np,
			      const struct dcqcn_params *p, u64 now_us);

#endif /* _ROCETUNE_DCQCN_H */
