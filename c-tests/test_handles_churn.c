/* Creates and frees every handle type many times and checks that the
 * resident set does not grow (no leak per create/free cycle), then checks
 * the tag safety net on handles of the wrong type. Cycles per handle type:
 * CRAWLSCHED_CHURN_CYCLES (default 100000); tests/c_api.rs lowers it under
 * valgrind, whose leak check then does the accounting instead of the RSS.
 *
 * A freed handle is refused by its tag in most cases, but passing one is
 * undefined behaviour (its memory may be reused): this test never does it. */
#define _POSIX_C_SOURCE 200809L
#include "crawlsched.h"
#include "check.h"
#include <time.h>
#include <unistd.h>

/* Resident pages now (second field of /proc/self/statm). */
static long rss_pages(void) {
    long size = 0, resident = -1;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f) return -1;
    if (fscanf(f, "%ld %ld", &size, &resident) != 2) resident = -1;
    fclose(f);
    return resident;
}

enum { KINDS = 16 };
static const char *const kind_names[KINDS] = {
    "dist",           "freshness_model",  "estimator",     "scheduler",       "mdp_builder",
    "mdp",            "mdp_solver",       "probe_profile", "probe_planner",   "robots",
    "routing_arrivals", "routing_servers", "routing_router", "bmap",          "threshold_model",
    "control"};

/* Shared inputs built once. */
static crawlsched_dist_t *ex;
static crawlsched_probe_profile_t *prof;
static crawlsched_routing_arrivals_t *pois;
static crawlsched_bmap_t *bpois;

/* One create (+ one use) + free cycle of handle kind `k`; 0 on success. */
static int cycle(int k, unsigned i) {
    crawlsched_error_t err = {0};
    int bad = 0;
    switch (k) {
    case 0: {
        crawlsched_dist_t *d = NULL;
        const double a[2] = {0.5, 0.5}, s[4] = {-2.0, 1.0, 0.0, -3.0};
        bad |= crawlsched_dist_phase_type_new(a, 2, s, 4, &d, &err) != CRAWLSCHED_OK;
        crawlsched_dist_free(d);
        break;
    }
    case 1: {
        crawlsched_freshness_model_t *m = NULL;
        const double mu[3] = {1.0, 2.0, 0.5 + (i % 7)};
        double h[3];
        bad |= crawlsched_freshness_model_new(ex, mu, NULL, 3, &m, &err) != CRAWLSCHED_OK;
        bad |= crawlsched_freshness_model_h(m, h, 3, &err) != CRAWLSCHED_OK;
        crawlsched_freshness_model_free(m);
        break;
    }
    case 2: {
        crawlsched_estimator_t *e = NULL;
        bad |= crawlsched_estimator_new(&e, &err) != CRAWLSCHED_OK;
        bad |= crawlsched_estimator_observe(e, 1.0, (int32_t)(i & 1), &err) != CRAWLSCHED_OK;
        crawlsched_estimator_free(e);
        break;
    }
    case 3: {
        crawlsched_scheduler_t *s = NULL;
        uint64_t id = 0;
        bad |= crawlsched_scheduler_new(ex, CRAWLSCHED_SCHEDULER_STRIDE, &s, &err) != CRAWLSCHED_OK;
        bad |= crawlsched_scheduler_add_page(s, 7, 1.0, &err) != CRAWLSCHED_OK;
        bad |= crawlsched_scheduler_add_page(s, 8, 2.0, &err) != CRAWLSCHED_OK;
        bad |= crawlsched_scheduler_next(s, &id, &err) != CRAWLSCHED_OK;
        crawlsched_scheduler_free(s);
        break;
    }
    case 4: {
        crawlsched_mdp_builder_t *b = NULL;
        const uint32_t nx[1] = {0};
        const double p[1] = {1.0};
        uint32_t a = 0;
        bad |= crawlsched_mdp_builder_new(2, &b, &err) != CRAWLSCHED_OK;
        bad |= crawlsched_mdp_builder_add_action(b, 1, nx, p, 1, 1.0, &a, &err) != CRAWLSCHED_OK;
        crawlsched_mdp_builder_free(b);
        break;
    }
    case 5: {
        /* build() consumes its builder's contents: a fresh builder each time. */
        crawlsched_mdp_builder_t *b = NULL;
        crawlsched_mdp_t *m = NULL;
        const uint32_t n0[1] = {1}, n1[1] = {0};
        const double p[1] = {1.0};
        uint32_t a = 0;
        bad |= crawlsched_mdp_builder_new(2, &b, &err) != CRAWLSCHED_OK;
        bad |= crawlsched_mdp_builder_add_action(b, 0, n0, p, 1, 1.0, &a, &err) != CRAWLSCHED_OK;
        bad |= crawlsched_mdp_builder_add_action(b, 1, n1, p, 1, 2.0, &a, &err) != CRAWLSCHED_OK;
        bad |= crawlsched_mdp_build(b, &m, &err) != CRAWLSCHED_OK;
        crawlsched_mdp_free(m);
        crawlsched_mdp_builder_free(b);
        break;
    }
    case 6: {
        crawlsched_mdp_solver_t *s = NULL;
        bad |= crawlsched_mdp_solver_new(CRAWLSCHED_MDP_POLICY_ITERATION, &s, &err) != CRAWLSCHED_OK;
        crawlsched_mdp_solver_free(s);
        break;
    }
    case 7: {
        crawlsched_probe_profile_t *p = NULL;
        const double lb[2] = {0.0, 1.0}, lv[1] = {2.0}, av[1] = {1.0};
        bad |= crawlsched_probe_profile_new(lb, lv, 1, 1, lb, av, 1, 1, 4.0, &p, &err) != CRAWLSCHED_OK;
        crawlsched_probe_profile_free(p);
        break;
    }
    case 8: {
        crawlsched_probe_planner_t *p = NULL;
        bad |= crawlsched_probe_planner_new(prof, 8, 0.0, &p, &err) != CRAWLSCHED_OK;
        crawlsched_probe_planner_free(p);
        break;
    }
    case 9: {
        crawlsched_robots_t *r = NULL;
        bad |= crawlsched_robots_solve(2, 1, 1.0, 2.0, 0.5, NULL, &r, &err) != CRAWLSCHED_OK;
        crawlsched_robots_free(r);
        break;
    }
    case 10: {
        crawlsched_routing_arrivals_t *a = NULL;
        const double q[4] = {-1.0, 1.0, 2.0, -2.0}, rates[2] = {1.0, 3.0};
        bad |= crawlsched_routing_arrivals_mmpp_new(q, 4, rates, 2, &a, &err) != CRAWLSCHED_OK;
        crawlsched_routing_arrivals_free(a);
        break;
    }
    case 11: {
        crawlsched_routing_servers_t *s = NULL;
        const double mu[2] = {1.0, 2.0};
        bad |= crawlsched_routing_servers_new(pois, mu, NULL, 2, CRAWLSCHED_ROUTING_LOSSES, &s, &err) != CRAWLSCHED_OK;
        crawlsched_routing_servers_free(s);
        break;
    }
    case 12: {
        crawlsched_routing_router_t *r = NULL;
        const uint32_t seq[3] = {0, 1, 1};
        uint32_t srv = 9;
        bad |= crawlsched_routing_router_new(seq, 3, 2, &r, &err) != CRAWLSCHED_OK;
        bad |= crawlsched_routing_router_next(r, &srv, &err) != CRAWLSCHED_OK;
        crawlsched_routing_router_free(r);
        break;
    }
    case 13: {
        crawlsched_bmap_t *b = NULL;
        /* D0 = [-3], D1 = [1], D2 = [2]: batches of 1 or 2. */
        const double mats[3] = {-3.0, 1.0, 2.0};
        bad |= crawlsched_bmap_new(1, mats, 3, &b, &err) != CRAWLSCHED_OK;
        crawlsched_bmap_free(b);
        break;
    }
    case 14: {
        crawlsched_threshold_model_t *m = NULL;
        const crawlsched_bmap_t *arr[1] = {bpois};
        bad |= crawlsched_threshold_model_new(arr, 1, ex, NULL, 3, &m, &err) != CRAWLSCHED_OK;
        crawlsched_threshold_model_free(m);
        break;
    }
    case 15: {
        /* Set, cancel, attach to a solver, then free the control first: the
         * solver holds its own reference, released with the solver. */
        crawlsched_control_t *c = NULL;
        crawlsched_mdp_solver_t *s = NULL;
        int flag = 0;
        bad |= crawlsched_control_new(&c, &err) != CRAWLSCHED_OK;
        bad |= crawlsched_control_set_memory_limit(c, 1u << 20, &err) != CRAWLSCHED_OK;
        bad |= crawlsched_control_set_max_iterations(c, 1 + i % 5, &err) != CRAWLSCHED_OK;
        bad |= crawlsched_control_cancel(c, &err) != CRAWLSCHED_OK;
        bad |= crawlsched_control_is_cancelled(c, &flag, &err) != CRAWLSCHED_OK || flag != 1;
        bad |= crawlsched_control_reset(c, &err) != CRAWLSCHED_OK;
        bad |= crawlsched_mdp_solver_new(CRAWLSCHED_MDP_VALUE_ITERATION, &s, &err) != CRAWLSCHED_OK;
        bad |= crawlsched_mdp_solver_set_control(s, c, &err) != CRAWLSCHED_OK;
        crawlsched_control_free(c);
        crawlsched_mdp_solver_free(s);
        break;
    }
    default:
        bad = 1;
    }
    static int reported = 0;
    if (bad && reported++ < 5) fprintf(stderr, "cycle %s #%u: %s\n", kind_names[k], i, err.message);
    return bad;
}

int main(void) {
    crawlsched_error_t err = {0};
    const char *env = getenv("CRAWLSCHED_CHURN_CYCLES");
    unsigned cycles = env ? (unsigned)strtoul(env, NULL, 10) : 100000u;
    unsigned warm = cycles / 10 > 10000 ? 10000 : cycles / 10 + 1;
    long page_kb = sysconf(_SC_PAGESIZE) / 1024;

    CHECK_OK(crawlsched_dist_exponential_new(1.0, &ex, &err), err);
    const double lb[2] = {0.0, 1.0}, lv[1] = {2.0}, av[1] = {1.0};
    CHECK_OK(crawlsched_probe_profile_new(lb, lv, 1, 1, lb, av, 1, 1, 4.0, &prof, &err), err);
    CHECK_OK(crawlsched_routing_arrivals_poisson_new(1.5, &pois, &err), err);
    CHECK_OK(crawlsched_bmap_poisson_new(0.8, &bpois, &err), err);

    for (int k = 0; k < KINDS; k++) {
        int failures = 0;
        for (unsigned i = 0; i < warm; i++) failures += cycle(k, i);
        long before = rss_pages();
        clock_t t0 = clock();
        /* A robots solve is a small MDP solve (~0.5 ms in a debug build). */
        unsigned n = k == 9 ? cycles / 20 : cycles;
        for (unsigned i = 0; i < n; i++) failures += cycle(k, i);
        long after = rss_pages();
        CHECK(failures == 0);
        CHECK(before > 0 && after > 0);
        long delta_kb = (after - before) * page_kb;
        /* One leaked byte per cycle would already be ~100 KB; allow 256 KB of
         * allocator noise (arena growth, fragmentation). */
        if (cycles >= 100000) CHECK(delta_kb <= 256);
        printf("churn %-17s %u cycles: RSS %+ld KB, %.2f s\n", kind_names[k], n, delta_kb,
               (double)(clock() - t0) / CLOCKS_PER_SEC);
    }

    /* Tag safety net: a live handle of another type is refused, never used. */
    size_t len = 0;
    CHECK_STATUS(crawlsched_freshness_model_len((const crawlsched_freshness_model_t *)(const void *)ex, &len, &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK(strstr(err.message, "not a live freshness model handle") != NULL);
    crawlsched_mdp_t *m = NULL;
    CHECK_STATUS(crawlsched_mdp_build((const crawlsched_mdp_builder_t *)(const void *)prof, &m, &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK(m == NULL);
    /* Freeing through the wrong _free is refused by the tag: ex stays usable. */
    crawlsched_bmap_free((crawlsched_bmap_t *)(void *)ex);
    double mean = 0.0;
    CHECK_OK(crawlsched_dist_mean(ex, &mean, &err), err);
    CHECK_CLOSE(mean, 1.0, 1e-15);

    crawlsched_bmap_free(bpois);
    crawlsched_routing_arrivals_free(pois);
    crawlsched_probe_profile_free(prof);
    crawlsched_dist_free(ex);
    return CHECK_REPORT("test_handles_churn");
}
