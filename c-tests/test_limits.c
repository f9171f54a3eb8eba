/* Limits and cancellation from C: a control cancelled from another thread
 * stops a long MDP solve (status CANCELLED, best answer kept and flagged
 * converged = 0); iteration and memory caps; the process-wide memory cap
 * refuses a 10^7-state threshold model, a 4e9-state MDP, a ten-year
 * one-minute periodic probe profile and a 3e7-slot robots model with
 * TOO_LARGE and their sizes in the message, before allocating (the Rust
 * test tests/limits.rs also checks that the peak RSS does not grow).
 * No timing is asserted: the canceller sleeps, then cancels; the solve
 * could otherwise not end (tolerance 1e-300, 10^12 iterations).
 * The same for the probe planner's reference DP and a routing simulation
 * (cancelled from a pthread), iteration caps on the routing searches and
 * the unlimited robots search, results identical without limits.
 * MDP size: CRAWLSCHED_LIMITS_STATES (default 20000). */
#define _POSIX_C_SOURCE 200809L
#include "crawlsched.h"
#include "check.h"
#include <pthread.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

/* A random MDP (fixed LCG): every state has two actions, each moving to
 * s+1 and to two pseudo-random states with random costs. Value iteration
 * never reaches a span of 1e-300 on it. */
static crawlsched_mdp_t *random_mdp(uint32_t n, crawlsched_error_t *err) {
    crawlsched_mdp_builder_t *b = NULL;
    crawlsched_mdp_t *m = NULL;
    uint64_t x = 12345;
#define LCG() (x = x * 6364136223846793005ULL + 1442695040888963407ULL, (double)(x >> 11) / 9007199254740992.0)
    CHECK_OK(crawlsched_mdp_builder_new(n, &b, err), *err);
    for (uint32_t s = 0; s < n; s++) {
        for (int a = 0; a < 2; a++) {
            uint32_t next[3] = {(s + 1) % n, (uint32_t)(LCG() * n) % n, (uint32_t)(LCG() * n) % n};
            double w[3] = {0.2 + LCG(), LCG(), LCG()};
            double t = w[0] + w[1] + w[2];
            double p[3] = {w[0] / t, w[1] / t, 1.0 - w[0] / t - w[1] / t};
            uint32_t local = 0;
            if (crawlsched_mdp_builder_add_action(b, s, next, p, 3, 10.0 * LCG(), &local, err) != CRAWLSCHED_OK) {
                CHECK(0);
            }
        }
    }
#undef LCG
    CHECK_OK(crawlsched_mdp_build(b, &m, err), *err);
    crawlsched_mdp_builder_free(b);
    return m;
}

static void *cancel_later(void *arg) {
    const struct timespec pause = {0, 100 * 1000 * 1000};
    nanosleep(&pause, NULL);
    crawlsched_error_t err = {0};
    crawlsched_control_cancel((const crawlsched_control_t *)arg, &err);
    return NULL;
}

static int contains(const crawlsched_error_t *e, const char *needle) {
    int ok = strstr(e->message, needle) != NULL;
    if (!ok) fprintf(stderr, "message \"%s\" lacks \"%s\"\n", e->message, needle);
    return ok;
}

int main(void) {
    crawlsched_error_t err = {0};
    const char *env = getenv("CRAWLSCHED_LIMITS_STATES");
    uint32_t n = env ? (uint32_t)strtoul(env, NULL, 10) : 20000;
    if (n < 100) n = 100;

    /* ---- the control handle ---- */
    crawlsched_control_t *ctl = NULL;
    int flag = -1;
    CHECK_OK(crawlsched_control_new(&ctl, &err), err);
    CHECK_OK(crawlsched_control_is_cancelled(ctl, &flag, &err), err);
    CHECK(flag == 0);
    CHECK_OK(crawlsched_control_cancel(ctl, &err), err);
    CHECK_OK(crawlsched_control_is_cancelled(ctl, &flag, &err), err);
    CHECK(flag == 1);
    CHECK_OK(crawlsched_control_reset(ctl, &err), err);
    CHECK_OK(crawlsched_control_is_cancelled(ctl, &flag, &err), err);
    CHECK(flag == 0);
    CHECK_STATUS(crawlsched_control_new(NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_control_cancel(NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_control_is_cancelled(ctl, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);

    /* ---- cancelling a long MDP solve from another thread ---- */
    crawlsched_mdp_t *m = random_mdp(n, &err);
    crawlsched_mdp_solver_t *s = NULL;
    double g = 0, lo = 0, hi = 0;
    uint64_t it = 0, classes = 0;
    int conv = -1;
    CHECK_OK(crawlsched_mdp_solver_new(CRAWLSCHED_MDP_VALUE_ITERATION, &s, &err), err);
    CHECK_OK(crawlsched_mdp_solver_set_limits(s, 1e-300, 1000000000000ULL, CRAWLSCHED_MDP_STOP_SPAN, &err), err);
    CHECK_OK(crawlsched_mdp_solver_set_control(s, ctl, &err), err);
    pthread_t th;
    CHECK(pthread_create(&th, NULL, cancel_later, ctl) == 0);
    CHECK_STATUS(crawlsched_mdp_solver_run(s, m, &err), CRAWLSCHED_CANCELLED, err);
    CHECK(contains(&err, "cancelled after") && contains(&err, "best answer kept"));
    pthread_join(th, NULL);
    /* The best answer so far is readable and flagged as not converged. */
    CHECK_OK(crawlsched_mdp_solver_stats(s, &it, &conv, &classes, &err), err);
    CHECK(conv == 0 && it >= 1 && it < 1000000000000ULL);
    CHECK_OK(crawlsched_mdp_solver_gain(s, &g, &lo, &hi, &err), err);
    CHECK(lo <= g && g <= hi);

    /* Still cancelled: the next run stops at once, after 0 iterations. */
    CHECK_STATUS(crawlsched_mdp_solver_run(s, m, &err), CRAWLSCHED_CANCELLED, err);
    CHECK_OK(crawlsched_mdp_solver_stats(s, &it, &conv, &classes, &err), err);
    CHECK(it == 0 && conv == 0);

    /* Reset: the control's iteration cap (5) lowers the solver's limit. */
    CHECK_OK(crawlsched_control_reset(ctl, &err), err);
    CHECK_OK(crawlsched_control_set_max_iterations(ctl, 5, &err), err);
    CHECK_STATUS(crawlsched_mdp_solver_run(s, m, &err), CRAWLSCHED_NOT_CONVERGED, err);
    CHECK_OK(crawlsched_mdp_solver_stats(s, &it, &conv, &classes, &err), err);
    CHECK(it == 5 && conv == 0);

    /* Memory cap of the control: value iteration needs 44 bytes per state. */
    char want[64];
    snprintf(want, sizeof want, "%u states", n);
    CHECK_OK(crawlsched_control_set_memory_limit(ctl, 44ULL * n - 1, &err), err);
    CHECK_STATUS(crawlsched_mdp_solver_run(s, m, &err), CRAWLSCHED_TOO_LARGE, err);
    CHECK(contains(&err, want) && contains(&err, "memory limit"));
    CHECK_STATUS(crawlsched_mdp_solver_stats(s, &it, &conv, &classes, &err), CRAWLSCHED_NOT_FOUND, err);
    CHECK_OK(crawlsched_control_set_memory_limit(ctl, 44ULL * n, &err), err);
    CHECK_STATUS(crawlsched_mdp_solver_run(s, m, &err), CRAWLSCHED_NOT_CONVERGED, err);

    /* Detached: the solver's own limit (7 sweeps) applies again, not the
     * control's 5 nor its memory cap. */
    CHECK_OK(crawlsched_control_set_memory_limit(ctl, 1, &err), err);
    CHECK_OK(crawlsched_mdp_solver_set_control(s, NULL, &err), err);
    CHECK_OK(crawlsched_mdp_solver_set_limits(s, 1e-300, 7, CRAWLSCHED_MDP_STOP_SPAN, &err), err);
    CHECK_STATUS(crawlsched_mdp_solver_run(s, m, &err), CRAWLSCHED_NOT_CONVERGED, err);
    CHECK_OK(crawlsched_mdp_solver_stats(s, &it, &conv, &classes, &err), err);
    CHECK(it == 7 && conv == 0);
    CHECK_STATUS(crawlsched_mdp_solver_set_control(s, (const crawlsched_control_t *)m, &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err);
    crawlsched_mdp_solver_free(s);
    crawlsched_mdp_free(m);

    /* ---- robots and threshold search under a control ---- */
    crawlsched_robots_t *r = NULL, *r2 = NULL;
    double c1 = 0, c2 = 0, x = 0, y = 0;
    CHECK_OK(crawlsched_control_set_max_iterations(ctl, 0, &err), err);
    CHECK_OK(crawlsched_control_set_memory_limit(ctl, 0, &err), err);
    CHECK_OK(crawlsched_robots_solve(7, 5, 0.1, 1.0, 0.4, NULL, &r, &err), err);
    CHECK_OK(crawlsched_robots_solve(7, 5, 0.1, 1.0, 0.4, ctl, &r2, &err), err);
    CHECK_OK(crawlsched_robots_cost(r, &c1, &x, &y, &err), err);
    CHECK_OK(crawlsched_robots_cost(r2, &c2, &x, &y, &err), err);
    CHECK(c1 == c2);
    crawlsched_robots_free(r2);
    r2 = NULL;
    CHECK_OK(crawlsched_robots_solve(7, 5, 0.1, 1.0, 0.4, NULL, &r2, &err), err);
    crawlsched_robots_free(r2);
    r2 = NULL;
    CHECK_OK(crawlsched_control_cancel(ctl, &err), err);
    CHECK_STATUS(crawlsched_robots_solve(7, 5, 0.1, 1.0, 0.4, ctl, &r2, &err), CRAWLSCHED_CANCELLED, err);
    CHECK(r2 == NULL);
    crawlsched_robots_free(r);

    crawlsched_bmap_t *poi[2] = {NULL, NULL};
    crawlsched_dist_t *service = NULL;
    crawlsched_threshold_model_t *tm = NULL;
    CHECK_OK(crawlsched_bmap_poisson_new(0.5, &poi[0], &err), err);
    CHECK_OK(crawlsched_bmap_poisson_new(1.0, &poi[1], &err), err);
    CHECK_OK(crawlsched_dist_exponential_new(2.0, &service, &err), err);
    const crawlsched_bmap_t *arr[2] = {poi[0], poi[1]};
    CHECK_OK(crawlsched_threshold_model_new(arr, 2, service, NULL, 10, &tm, &err), err);
    const uint32_t modes[2] = {2, 1};
    const double w[CRAWLSCHED_THRESHOLD_WEIGHT_COUNT] = {3.0, 1.0, 0.2, 0.5, 2.0};
    uint32_t t1 = 99, t2 = 98;
    double cost1 = 0, cost2 = 0;
    uint64_t ev1 = 0, ev2 = 0;
    CHECK_OK(crawlsched_threshold_optimize(tm, modes, 2, w, 5, 1000, NULL, &t1, 1, &cost1, &ev1, &err), err);
    /* Cancelled: nothing written. */
    CHECK_STATUS(crawlsched_threshold_optimize(tm, modes, 2, w, 5, 1000, ctl, &t2, 1, &cost2, &ev2, &err),
                 CRAWLSCHED_CANCELLED, err);
    CHECK(t2 == 98 && ev2 == 0);
    CHECK_OK(crawlsched_control_reset(ctl, &err), err);
    CHECK_OK(crawlsched_threshold_optimize(tm, modes, 2, w, 5, 1000, ctl, &t2, 1, &cost2, &ev2, &err), err);
    CHECK(t1 == t2 && cost1 == cost2 && ev1 == ev2 && ev1 == 11);
    /* An iteration cap below the 11 vectors refuses the search up front. */
    CHECK_OK(crawlsched_control_set_max_iterations(ctl, 5, &err), err);
    CHECK_STATUS(crawlsched_threshold_optimize(tm, modes, 2, w, 5, 1000, ctl, &t2, 1, &cost2, &ev2, &err),
                 CRAWLSCHED_TOO_LARGE, err);
    CHECK_OK(crawlsched_control_set_max_iterations(ctl, 0, &err), err);
    /* The evaluations: the control's memory cap, then its cancel flag. */
    const uint32_t thr[1] = {3};
    double meas1[CRAWLSCHED_THRESHOLD_MEASURE_COUNT], meas2[CRAWLSCHED_THRESHOLD_MEASURE_COUNT];
    double resp[CRAWLSCHED_THRESHOLD_RESPONSE_COUNT], levels[16], tcost = 0, cdf = -1;
    const double one[1] = {1.0};
    size_t nlev = 0;
    CHECK_OK(crawlsched_threshold_measures(tm, modes, 2, thr, 1, NULL, meas1, CRAWLSCHED_THRESHOLD_MEASURE_COUNT, &err),
             err);
    CHECK_OK(crawlsched_threshold_measures(tm, modes, 2, thr, 1, ctl, meas2, CRAWLSCHED_THRESHOLD_MEASURE_COUNT, &err),
             err);
    CHECK(memcmp(meas1, meas2, sizeof meas1) == 0);
    CHECK_OK(crawlsched_control_set_memory_limit(ctl, 1000, &err), err);
    CHECK_STATUS(crawlsched_threshold_measures(tm, modes, 2, thr, 1, ctl, meas2, CRAWLSCHED_THRESHOLD_MEASURE_COUNT, &err),
                 CRAWLSCHED_TOO_LARGE, err);
    CHECK_STATUS(crawlsched_threshold_response_time(tm, modes, 2, thr, 1, ctl, resp, CRAWLSCHED_THRESHOLD_RESPONSE_COUNT,
                                                    &err),
                 CRAWLSCHED_TOO_LARGE, err);
    CHECK_OK(crawlsched_control_set_memory_limit(ctl, 0, &err), err);
    CHECK_OK(crawlsched_control_cancel(ctl, &err), err);
    CHECK_STATUS(crawlsched_threshold_level_distribution(tm, modes, 2, thr, 1, ctl, levels, 16, &nlev, &err),
                 CRAWLSCHED_CANCELLED, err);
    CHECK_STATUS(crawlsched_threshold_cost(tm, modes, 2, thr, 1, w, 5, ctl, &tcost, &err), CRAWLSCHED_CANCELLED, err);
    CHECK_STATUS(crawlsched_threshold_response_cdf(tm, modes, 2, thr, 1, CRAWLSCHED_THRESHOLD_SOJOURN_ALL, one, 1, ctl,
                                                   &cdf, 1, &err),
                 CRAWLSCHED_CANCELLED, err);
    CHECK(cdf == -1);
    CHECK_OK(crawlsched_control_reset(ctl, &err), err);
    crawlsched_threshold_model_free(tm);

    /* ---- probe planner, routing searches and simulation, unlimited robots ---- */
    CHECK_OK(crawlsched_control_set_max_iterations(ctl, 0, &err), err);
    crawlsched_probe_profile_t *db = NULL;
    crawlsched_probe_planner_t *pl = NULL;
    double times[28], pc1 = 0, pc2 = 0;
    CHECK_OK(crawlsched_probe_profile_dbworld(3.0, 28.0, &db, &err), err);
    CHECK_OK(crawlsched_probe_planner_new(db, 672, 0.0, &pl, &err), err);
    CHECK_OK(crawlsched_probe_planner_plan(pl, 28, CRAWLSCHED_PROBE_METHOD_HULL, times, 28, &pc1, &err), err);
    CHECK_OK(crawlsched_probe_planner_set_control(pl, ctl, &err), err);
    CHECK_OK(crawlsched_probe_planner_plan(pl, 28, CRAWLSCHED_PROBE_METHOD_HULL, times, 28, &pc2, &err), err);
    CHECK(pc1 == pc2 && fabs(pc1 - 80.5915) < 5e-5);
    /* One pass per DP layer: 27 cannot place 28 probes. */
    CHECK_OK(crawlsched_control_set_max_iterations(ctl, 27, &err), err);
    pc2 = -1;
    CHECK_STATUS(crawlsched_probe_planner_plan(pl, 28, CRAWLSCHED_PROBE_METHOD_HULL, times, 28, &pc2, &err),
                 CRAWLSCHED_NOT_CONVERGED, err);
    CHECK(pc2 == -1 && contains(&err, "iteration cap of 27"));
    CHECK_OK(crawlsched_control_set_max_iterations(ctl, 0, &err), err);
    CHECK_STATUS(crawlsched_probe_planner_set_control(pl, (const crawlsched_control_t *)db, &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err);
    crawlsched_probe_planner_free(pl);
    /* The reference DP over 20,000 candidates, n = 100 (~2e10 interval
     * costs), cancelled from a pthread. */
    CHECK_OK(crawlsched_probe_planner_new(db, 20000, 0.0, &pl, &err), err);
    CHECK_OK(crawlsched_probe_planner_set_control(pl, ctl, &err), err);
    static double long_times[100];
    CHECK(pthread_create(&th, NULL, cancel_later, ctl) == 0);
    CHECK_STATUS(crawlsched_probe_planner_plan(pl, 100, CRAWLSCHED_PROBE_METHOD_REFERENCE, long_times, 100, &pc2, &err),
                 CRAWLSCHED_CANCELLED, err);
    pthread_join(th, NULL);
    CHECK(contains(&err, "probe schedule cancelled"));
    CHECK_OK(crawlsched_control_reset(ctl, &err), err);
    crawlsched_probe_planner_free(pl);
    crawlsched_probe_profile_free(db);

    crawlsched_routing_arrivals_t *ra = NULL;
    crawlsched_routing_servers_t *rs = NULL;
    const double mu3[3] = {1.0, 0.7, 0.4};
    CHECK_OK(crawlsched_routing_arrivals_poisson_new(1.0, &ra, &err), err);
    CHECK_OK(crawlsched_routing_servers_new(ra, mu3, NULL, 3, CRAWLSCHED_ROUTING_LOSSES, &rs, &err), err);
    uint32_t per1[8], per2[8];
    size_t len1 = 0, len2 = 0;
    double rc1 = 0, rc2 = 0;
    uint64_t re1 = 0, re2 = 0;
    CHECK_OK(crawlsched_routing_optimize_exhaustive(rs, 1, 8, NULL, per1, 8, &len1, &rc1, &re1, &err), err);
    CHECK_OK(crawlsched_routing_optimize_exhaustive(rs, 1, 8, ctl, per2, 8, &len2, &rc2, &re2, &err), err);
    CHECK(len1 == len2 && rc1 == rc2 && re1 == re2 && memcmp(per1, per2, len1 * sizeof *per1) == 0);
    /* The cap counts sequences: one short of all of them proves nothing. */
    CHECK_OK(crawlsched_control_set_max_iterations(ctl, re1 - 1, &err), err);
    re2 = 0;
    CHECK_STATUS(crawlsched_routing_optimize_exhaustive(rs, 1, 8, ctl, per2, 8, &len2, &rc2, &re2, &err),
                 CRAWLSCHED_NOT_CONVERGED, err);
    CHECK(re2 == 0);
    CHECK_OK(crawlsched_control_set_max_iterations(ctl, 0, &err), err);
    CHECK_OK(crawlsched_routing_optimize_local(rs, 1, 8, NULL, per1, 8, &len1, &rc1, &re1, &err), err);
    CHECK_OK(crawlsched_routing_optimize_local(rs, 1, 8, ctl, per2, 8, &len2, &rc2, &re2, &err), err);
    CHECK(len1 == len2 && rc1 == rc2 && re1 == re2);
    CHECK_OK(crawlsched_control_set_max_iterations(ctl, 1, &err), err);
    CHECK_STATUS(crawlsched_routing_optimize_local(rs, 1, 8, ctl, per2, 8, &len2, &rc2, &re2, &err),
                 CRAWLSCHED_NOT_CONVERGED, err);
    CHECK_OK(crawlsched_control_set_max_iterations(ctl, 0, &err), err);
    double sp1 = 0, se1 = 0, su1 = 0, sp2 = 0, se2 = 0, su2 = 0;
    CHECK_OK(crawlsched_routing_simulate(rs, per1, len1, 1000, 5, NULL, &sp1, &se1, &su1, &err), err);
    CHECK_OK(crawlsched_routing_simulate(rs, per1, len1, 1000, 5, ctl, &sp2, &se2, &su2, &err), err);
    CHECK(sp1 == sp2 && se1 == se2 && su1 == su2);
    /* Cancelled from a pthread: 10^9 periods would take many minutes. */
    CHECK(pthread_create(&th, NULL, cancel_later, ctl) == 0);
    sp2 = -1;
    CHECK_STATUS(crawlsched_routing_simulate(rs, per1, len1, 1000000000ULL, 5, ctl, &sp2, &se2, &su2, &err),
                 CRAWLSCHED_CANCELLED, err);
    pthread_join(th, NULL);
    CHECK(sp2 == -1 && contains(&err, "routing simulation cancelled"));
    /* Still cancelled: every search stops at once. */
    CHECK_STATUS(crawlsched_routing_optimize_exhaustive(rs, 1, 8, ctl, per2, 8, &len2, &rc2, &re2, &err),
                 CRAWLSCHED_CANCELLED, err);
    crawlsched_routing_servers_t *rs2 = NULL;
    const double mu2[2] = {1.0, 0.4};
    const uint32_t start[6] = {0, 0, 0, 0, 0, 1};
    CHECK_OK(crawlsched_routing_servers_new(ra, mu2, NULL, 2, CRAWLSCHED_ROUTING_LOSSES, &rs2, &err), err);
    CHECK_STATUS(crawlsched_routing_local_search_multimodular(rs2, start, 6, ctl, per2, 8, &len2, &rc2, &re2,
                                                                            &err),
                 CRAWLSCHED_CANCELLED, err);
    CHECK_OK(crawlsched_control_reset(ctl, &err), err);
    CHECK_OK(crawlsched_routing_local_search_multimodular(rs2, start, 6, NULL, per1, 8, &len1, &rc1, &re1, &err), err);
    CHECK_OK(crawlsched_routing_local_search_multimodular(rs2, start, 6, NULL, per2, 8, &len2, &rc2, &re2,
                                                                        &err),
             err);
    CHECK(len1 == len2 && rc1 == rc2 && re1 == re2);
    crawlsched_routing_servers_free(rs2);
    crawlsched_routing_servers_free(rs);
    crawlsched_routing_arrivals_free(ra);

    /* A freshness simulation of 10^10 cycles, cancelled from a pthread. */
    crawlsched_dist_t *acc = NULL;
    crawlsched_freshness_model_t *fm = NULL;
    const double fmu[3] = {0.05, 0.2, 0.4};
    const uint32_t fseq[6] = {2, 1, 2, 0, 2, 1};
    double fc1 = 0, fs1 = 0, fc2 = 0, fs2 = 0;
    CHECK_OK(crawlsched_dist_exponential_new(2.0, &acc, &err), err);
    CHECK_OK(crawlsched_freshness_model_new(acc, fmu, NULL, 3, &fm, &err), err);
    CHECK_OK(crawlsched_freshness_simulate_cyclic(fm, fseq, 6, 100, 7, NULL, &fc1, &fs1, &err), err);
    CHECK_OK(crawlsched_freshness_simulate_cyclic(fm, fseq, 6, 100, 7, ctl, &fc2, &fs2, &err), err);
    CHECK(fc1 == fc2 && fs1 == fs2);
    CHECK(pthread_create(&th, NULL, cancel_later, ctl) == 0);
    fc2 = -1;
    CHECK_STATUS(crawlsched_freshness_simulate_cyclic(fm, fseq, 6, 10000000000ULL, 7, ctl, &fc2, &fs2, &err),
                 CRAWLSCHED_CANCELLED, err);
    pthread_join(th, NULL);
    CHECK(fc2 == -1 && contains(&err, "freshness simulation cancelled"));
    CHECK_OK(crawlsched_control_reset(ctl, &err), err);
    crawlsched_freshness_model_free(fm);
    crawlsched_dist_free(acc);

    /* Unlimited robots (Table 2: C_d = 0.11097 for lambda 0.1, K 5, gamma 0.4). */
    r = NULL;
    r2 = NULL;
    CHECK_OK(crawlsched_robots_solve_unlimited(5, 0.1, 1.0, 0.4, NULL, &r, &err), err);
    CHECK_OK(crawlsched_robots_solve_unlimited(5, 0.1, 1.0, 0.4, ctl, &r2, &err), err);
    CHECK_OK(crawlsched_robots_cost(r, &c1, &x, &y, &err), err);
    CHECK_OK(crawlsched_robots_cost(r2, &c2, &x, &y, &err), err);
    CHECK(c1 == c2 && fabs(c1 - 0.11097) < 1e-4);
    crawlsched_robots_free(r2);
    r2 = NULL;
    CHECK_OK(crawlsched_control_set_max_iterations(ctl, 1, &err), err);
    CHECK_STATUS(crawlsched_robots_solve_unlimited(5, 0.1, 1.0, 0.4, ctl, &r2, &err),
                 CRAWLSCHED_NOT_CONVERGED, err);
    CHECK_OK(crawlsched_control_set_max_iterations(ctl, 0, &err), err);
    CHECK_OK(crawlsched_control_cancel(ctl, &err), err);
    CHECK_STATUS(crawlsched_robots_solve_unlimited(5, 0.1, 1.0, 0.4, ctl, &r2, &err), CRAWLSCHED_CANCELLED,
                 err);
    CHECK(r2 == NULL);
    CHECK_OK(crawlsched_control_reset(ctl, &err), err);
    crawlsched_robots_free(r);

    /* ---- the process-wide default memory cap ---- */
    uint64_t initial = crawlsched_get_default_memory_limit();
    crawlsched_set_default_memory_limit(64ULL << 20);
    CHECK(crawlsched_get_default_memory_limit() == 64ULL << 20);

    /* 10^7 states: W = M = R = 1, buffer 10^7 - 2, ~3.5 GiB to evaluate. */
    crawlsched_dist_t *ob = NULL;
    CHECK_OK(crawlsched_dist_exponential_new(0.5, &ob, &err), err);
    tm = NULL;
    CHECK_STATUS(crawlsched_threshold_model_new(arr, 1, service, ob, 9999998, &tm, &err), CRAWLSCHED_TOO_LARGE, err);
    CHECK(contains(&err, "10000000 states") && contains(&err, "3759999984 bytes") && contains(&err, "67108864 bytes"));
    CHECK(tm == NULL);

    crawlsched_mdp_builder_t *b = NULL;
    CHECK_STATUS(crawlsched_mdp_builder_new(4000000000ULL, &b, &err), CRAWLSCHED_TOO_LARGE, err);
    CHECK(contains(&err, "4000000000 states") && contains(&err, "176000000000 bytes"));

    /* One-minute period over ten years: 2.1e7 merged pieces. */
    const double br[3] = {0.0, 0.5 / 1440.0, 1.0 / 1440.0}, val[2] = {1.0, 2.0};
    crawlsched_probe_profile_t *prof = NULL;
    CHECK_STATUS(crawlsched_probe_profile_new(br, val, 2, 1, br, val, 2, 1, 3650.0, &prof, &err), CRAWLSCHED_TOO_LARGE, err);
    CHECK(contains(&err, "pieces") && contains(&err, "bytes"));

    r = NULL;
    CHECK_STATUS(crawlsched_robots_solve(1000, 10000, 0.001, 1.0, 1.0, NULL, &r, &err), CRAWLSCHED_TOO_LARGE, err);
    CHECK(contains(&err, "30033003 state slots"));
    /* A control's own cap replaces the default for the solve. */
    CHECK_OK(crawlsched_control_set_memory_limit(ctl, 1000, &err), err);
    CHECK_STATUS(crawlsched_robots_solve(7, 5, 0.1, 1.0, 0.4, ctl, &r, &err), CRAWLSCHED_TOO_LARGE, err);

    /* Back to the initial default: small models are unaffected throughout. */
    crawlsched_set_default_memory_limit(initial);
    CHECK(crawlsched_get_default_memory_limit() == initial);
    CHECK_OK(crawlsched_mdp_builder_new(10, &b, &err), err);
    crawlsched_mdp_builder_free(b);

    crawlsched_dist_free(ob);
    crawlsched_dist_free(service);
    crawlsched_bmap_free(poi[0]);
    crawlsched_bmap_free(poi[1]);
    crawlsched_control_free(ctl);
    crawlsched_control_free(NULL);
    return CHECK_REPORT("test_limits");
}
