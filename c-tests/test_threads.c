/* Many threads at once: each with its own handles, all reading shared
 * immutable handles (distribution, freshness model, routing server set,
 * probe profile) and calling a shared mutable scheduler and a shared router.
 * Every result is compared with the value computed before the threads
 * started, and each thread's last error must stay its own.
 * scripts/tsan runs it at full size under ThreadSanitizer (library and
 * program instrumented); tests/c_api.rs under ASan and valgrind (reduced).
 * Threads and iterations: CRAWLSCHED_THREADS (default 16) and
 * CRAWLSCHED_THREAD_ITERS (default 10000). */
#define _POSIX_C_SOURCE 200809L
#include "crawlsched.h"
#include "check.h"
#include <pthread.h>
#include <sched.h>

enum { PAGES = 4, MAX_THREADS = 64 };

static const crawlsched_dist_t *shared_dist;
static const crawlsched_freshness_model_t *shared_model;
static const crawlsched_routing_servers_t *shared_servers;
static const crawlsched_probe_profile_t *shared_profile;
static const crawlsched_scheduler_t *shared_sched;
static const crawlsched_routing_router_t *shared_router;
static double want_h[PAGES], want_cost, want_interval;
static unsigned iters, nthreads;

typedef struct {
    unsigned id;
    unsigned failures; /* counted per thread, checked by main */
    unsigned calls;
} worker_t;

#define EXPECT(w, cond)                                                           \
    do {                                                                          \
        (w)->calls++;                                                             \
        if (!(cond)) {                                                            \
            if ((w)->failures++ < 3)                                              \
                fprintf(stderr, "thread %u: %s:%d: %s\n", (w)->id, __FILE__, __LINE__, #cond); \
        }                                                                         \
    } while (0)

static void *work(void *arg) {
    worker_t *w = arg;
    crawlsched_error_t err = {0};
    const double rate = 1.0 + w->id;
    char own_msg[64];
    /* The failing call below names the thread's own (negative) rate. */
    snprintf(own_msg, sizeof own_msg, "got -%u", w->id + 1);

    crawlsched_dist_t *mine = NULL;
    crawlsched_estimator_t *est = NULL;
    EXPECT(w, crawlsched_dist_exponential_new(rate, &mine, &err) == CRAWLSCHED_OK);
    EXPECT(w, crawlsched_estimator_new(&est, &err) == CRAWLSCHED_OK);
    /* Own pages in the shared scheduler: ids id * 1000 + j. */
    for (unsigned j = 0; j < 8; j++)
        EXPECT(w, crawlsched_scheduler_add_page(shared_sched, (uint64_t)w->id * 1000 + j, 0.5 + j, &err) ==
                      CRAWLSCHED_OK);

    for (unsigned i = 0; i < iters; i++) {
        double x = -1.0, h[PAGES];
        /* Own handles. */
        EXPECT(w, crawlsched_dist_mean(mine, &x, &err) == CRAWLSCHED_OK && x == 1.0 / rate);
        EXPECT(w, crawlsched_estimator_observe(est, 1.0, (int32_t)(i % 3 == 0), &err) == CRAWLSCHED_OK);
        /* Shared immutable handles: the same answers as before the threads. */
        EXPECT(w, crawlsched_dist_cdf(shared_dist, 1.0, &x, &err) == CRAWLSCHED_OK && x == 1.0 - exp(-2.0));
        EXPECT(w, crawlsched_freshness_model_h(shared_model, h, PAGES, &err) == CRAWLSCHED_OK &&
                      memcmp(h, want_h, sizeof h) == 0);
        EXPECT(w, crawlsched_routing_immediate_cost(shared_servers, 1, 3, &x, &err) == CRAWLSCHED_OK &&
                      x == want_cost);
        EXPECT(w, crawlsched_probe_interval_cost(shared_profile, 1.0, 3.0, &x, &err) == CRAWLSCHED_OK &&
                      x == want_interval);
        /* Shared mutable scheduler (internal mutex) and atomic router. */
        uint64_t page = UINT64_MAX;
        EXPECT(w, crawlsched_scheduler_next(shared_sched, &page, &err) == CRAWLSCHED_OK &&
                      page / 1000 < nthreads && page % 1000 < 8);
        uint32_t srv = 99;
        EXPECT(w, crawlsched_routing_router_next(shared_router, &srv, &err) == CRAWLSCHED_OK && srv < 2);
        /* Per-thread last error: fail with a thread-specific message, let the
         * other threads fail meanwhile, and find this thread's message. */
        if (i % 64 == 0) {
            crawlsched_dist_t *none = NULL;
            EXPECT(w, crawlsched_dist_exponential_new(-rate, &none, &err) == CRAWLSCHED_INVALID_ARGUMENT &&
                          none == NULL && strstr(err.message, own_msg) != NULL);
            sched_yield();
            EXPECT(w, crawlsched_dist_mean(mine, &x, &err) == CRAWLSCHED_OK); /* success does not clear it */
            EXPECT(w, crawlsched_last_error_status() == CRAWLSCHED_INVALID_ARGUMENT);
            EXPECT(w, strstr(crawlsched_last_error_message(), own_msg) != NULL);
        }
        /* A short-lived handle per iteration. */
        if (i % 16 == 0) {
            crawlsched_dist_t *tmp = NULL;
            EXPECT(w, crawlsched_dist_erlang_new(2, rate, &tmp, &err) == CRAWLSCHED_OK);
            EXPECT(w, crawlsched_dist_mean(tmp, &x, &err) == CRAWLSCHED_OK && fabs(x - 2.0 / rate) < 1e-15);
            crawlsched_dist_free(tmp);
        }
    }
    uint64_t n_obs = 0;
    EXPECT(w, crawlsched_estimator_observations(est, &n_obs, &err) == CRAWLSCHED_OK && n_obs == iters);
    for (unsigned j = 0; j < 8; j++)
        EXPECT(w, crawlsched_scheduler_remove_page(shared_sched, (uint64_t)w->id * 1000 + j, &err) == CRAWLSCHED_OK);
    crawlsched_estimator_free(est);
    crawlsched_dist_free(mine);
    return NULL;
}

static unsigned env_or(const char *name, unsigned dflt) {
    const char *v = getenv(name);
    return v ? (unsigned)strtoul(v, NULL, 10) : dflt;
}

int main(void) {
    crawlsched_error_t err = {0};
    nthreads = env_or("CRAWLSCHED_THREADS", 16);
    iters = env_or("CRAWLSCHED_THREAD_ITERS", 10000);
    if (nthreads > MAX_THREADS) nthreads = MAX_THREADS;

    crawlsched_dist_t *ex = NULL;
    crawlsched_freshness_model_t *model = NULL;
    crawlsched_routing_arrivals_t *pois = NULL;
    crawlsched_routing_servers_t *servers = NULL;
    crawlsched_probe_profile_t *prof = NULL;
    crawlsched_scheduler_t *sched = NULL;
    crawlsched_routing_router_t *router = NULL;
    const double mu[PAGES] = {0.5, 1.0, 2.0, 4.0}, rates[2] = {1.0, 2.0};
    const double lb[2] = {0.0, 1.0}, lv[1] = {2.0}, av[1] = {1.0};
    const uint32_t seq[3] = {0, 1, 1};
    CHECK_OK(crawlsched_dist_exponential_new(2.0, &ex, &err), err);
    CHECK_OK(crawlsched_freshness_model_new(ex, mu, NULL, PAGES, &model, &err), err);
    CHECK_OK(crawlsched_routing_arrivals_poisson_new(1.5, &pois, &err), err);
    CHECK_OK(crawlsched_routing_servers_new(pois, rates, NULL, 2, CRAWLSCHED_ROUTING_LOSSES, &servers, &err), err);
    CHECK_OK(crawlsched_probe_profile_new(lb, lv, 1, 1, lb, av, 1, 1, 4.0, &prof, &err), err);
    CHECK_OK(crawlsched_scheduler_new(ex, CRAWLSCHED_SCHEDULER_GOLDEN_RATIO, &sched, &err), err);
    CHECK_OK(crawlsched_routing_router_new(seq, 3, 2, &router, &err), err);
    CHECK_OK(crawlsched_freshness_model_h(model, want_h, PAGES, &err), err);
    CHECK_OK(crawlsched_routing_immediate_cost(servers, 1, 3, &want_cost, &err), err);
    CHECK_OK(crawlsched_probe_interval_cost(prof, 1.0, 3.0, &want_interval, &err), err);
    CHECK_CLOSE(want_interval, 4.0, 1e-12); /* lambda = 2 over length 2: 2 * 2^2 / 2 */
    shared_dist = ex;
    shared_model = model;
    shared_servers = servers;
    shared_profile = prof;
    shared_sched = sched;
    shared_router = router;

    pthread_t th[MAX_THREADS];
    worker_t ws[MAX_THREADS];
    for (unsigned t = 0; t < nthreads; t++) {
        ws[t] = (worker_t){.id = t, .failures = 0, .calls = 0};
        CHECK(pthread_create(&th[t], NULL, work, &ws[t]) == 0);
    }
    unsigned long calls = 0;
    for (unsigned t = 0; t < nthreads; t++) {
        CHECK(pthread_join(th[t], NULL) == 0);
        CHECK(ws[t].failures == 0);
        calls += ws[t].calls;
    }
    /* All pages removed again; the router advanced once per next() call. */
    size_t left = 99;
    CHECK_OK(crawlsched_scheduler_len(sched, &left, &err), err);
    CHECK(left == 0);
    /* The main thread never failed a call: its last error is still clear. */
    CHECK(crawlsched_last_error_status() == CRAWLSCHED_OK);
    CHECK(strcmp(crawlsched_last_error_message(), "") == 0);
    printf("threads: %u threads x %u iterations, %lu checked calls\n", nthreads, iters, calls);

    crawlsched_routing_router_free(router);
    crawlsched_scheduler_free(sched);
    crawlsched_probe_profile_free(prof);
    crawlsched_routing_servers_free(servers);
    crawlsched_routing_arrivals_free(pois);
    crawlsched_freshness_model_free(model);
    crawlsched_dist_free(ex);
    return CHECK_REPORT("test_threads");
}
