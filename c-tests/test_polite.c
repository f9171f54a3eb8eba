/* Per-host politeness from C: crawlsched_freshness_polite_frequencies and
 * the scheduler's hosts, delays and next_at, with error paths. Expected
 * values are computed here: with weights equal to the change rates
 * (Theorem 3.4) every host's pages share its total in proportion to
 * L_i = ln(1/h_i), h_i = E[exp(-mu_i X)] = a / (a + mu_i) for X ~ Exp(a). */
#include "crawlsched.h"
#include "check.h"

#define N 6
#define H 3

static const double RATES[N] = {0.1, 0.3, 0.5, 1.0, 2.0, 4.0};
static const uint32_t HOSTS[N] = {0, 0, 1, 1, 2, 2};
static const double A = 2.0; /* access rate: E[X] = 1/2, R = 2 */

static double sum_of(const double *x, size_t n) {
    double s = 0.0;
    for (size_t i = 0; i < n; i++) s += x[i];
    return s;
}

/* The expected plan: host h's total share[h], split in proportion to L_i. */
static void expected_plan(const double share[H], double out[N]) {
    double l[N], lh[H] = {0};
    for (int i = 0; i < N; i++) {
        l[i] = log((A + RATES[i]) / A);
        lh[HOSTS[i]] += l[i];
    }
    for (int i = 0; i < N; i++) out[i] = share[HOSTS[i]] * l[i] / lh[HOSTS[i]];
}

static void plan(const crawlsched_freshness_model_t *m) {
    crawlsched_error_t err = {0};
    const double loose[H] = {INFINITY, INFINITY, INFINITY};
    double f[N], g[N], lnh[H], lnl = 0.0, obj = 0.0, rate = 0.0, cost = 0.0;
    uint8_t sat[H];
    size_t len = 0;

    /* Loose caps: the unconstrained plan, both objectives. */
    CHECK_OK(crawlsched_freshness_optimal_frequencies(m, g, N, &err), err);
    CHECK_OK(crawlsched_freshness_polite_frequencies(m, HOSTS, N, loose, H, CRAWLSCHED_POLITE_EVENLY_SPACED, 0, NULL,
                                                     f, N, &len, sat, lnh, &lnl, &obj, &rate, &err), err);
    CHECK(len == N);
    for (int i = 0; i < N; i++) CHECK_CLOSE(f[i], g[i], 1e-12);
    for (int h = 0; h < H; h++) {
        CHECK(sat[h] == 0);
        CHECK_CLOSE(lnh[h], lnl, 1e-12);
    }
    CHECK(isfinite(lnl));
    CHECK_CLOSE(rate, A, 1e-15);
    CHECK_OK(crawlsched_freshness_cost(m, f, N, &cost, &err), err);
    CHECK_CLOSE(obj, cost, 1e-12);

    CHECK_OK(crawlsched_freshness_randomized_optimal_frequencies(m, g, N, &err), err);
    CHECK_OK(crawlsched_freshness_polite_frequencies(m, HOSTS, N, loose, H, CRAWLSCHED_POLITE_RANDOMIZED, 0, NULL,
                                                     f, N, &len, NULL, NULL, NULL, &obj, NULL, &err), err);
    for (int i = 0; i < N; i++) CHECK_CLOSE(f[i], g[i], 1e-12);
    CHECK_OK(crawlsched_freshness_randomized_cost(m, f, N, &cost, &err), err);
    CHECK_CLOSE(obj, cost, 1e-12);

    /* Host 2 tight: its pages sum to cap E[X] = 0.3, the rest share 0.7. */
    const double tight[H] = {INFINITY, INFINITY, 0.6};
    double want[N];
    const double share[H] = {0.7 * (log(1.05) + log(1.15)) / (log(1.05) + log(1.15) + log(1.25) + log(1.5)),
                             0.7 * (log(1.25) + log(1.5)) / (log(1.05) + log(1.15) + log(1.25) + log(1.5)), 0.3};
    expected_plan(share, want);
    CHECK_OK(crawlsched_freshness_polite_frequencies(m, HOSTS, N, tight, H, CRAWLSCHED_POLITE_EVENLY_SPACED, 0, NULL,
                                                     f, N, &len, sat, lnh, &lnl, &obj, &rate, &err), err);
    for (int i = 0; i < N; i++) CHECK_CLOSE(f[i], want[i], 1e-12);
    CHECK_CLOSE(f[4] + f[5], 0.6 * 0.5, 1e-13);
    CHECK_CLOSE(sum_of(f, N), 1.0, 1e-14);
    CHECK(sat[0] == 0 && sat[1] == 0 && sat[2] == 1);
    CHECK(lnh[2] > lnl && lnh[0] == lnl && lnh[1] == lnl);

    /* Infeasible caps (sum 0.6 < R = 2): refused, or slack on request. */
    const double small[H] = {0.2, 0.2, 0.2};
    const double slack_share[H] = {0.1, 0.1, 0.1};
    double keep[N] = {-1, -1, -1, -1, -1, -1};
    uint8_t keep_sat[H] = {7, 7, 7};
    size_t keep_len = 99;
    CHECK_STATUS(crawlsched_freshness_polite_frequencies(m, HOSTS, N, small, H, CRAWLSCHED_POLITE_EVENLY_SPACED, 0,
                                                         NULL, keep, N, &keep_len, keep_sat, NULL, NULL, NULL, NULL,
                                                         &err), CRAWLSCHED_INFEASIBLE, err);
    CHECK(strstr(err.message, "short of") != NULL);
    CHECK(keep[0] == -1 && keep_sat[0] == 7 && keep_len == 99);
    expected_plan(slack_share, want);
    CHECK_OK(crawlsched_freshness_polite_frequencies(m, HOSTS, N, small, H, CRAWLSCHED_POLITE_EVENLY_SPACED,
                                                     CRAWLSCHED_POLITE_ALLOW_SLACK, NULL, f, N, &len, sat, NULL, &lnl,
                                                     NULL, &rate, &err), err);
    for (int i = 0; i < N; i++) CHECK_CLOSE(f[i], want[i], 1e-12);
    CHECK(isinf(lnl) && lnl < 0);
    CHECK_CLOSE(rate, 0.6, 1e-15);
    CHECK(sat[0] == 1 && sat[1] == 1 && sat[2] == 1);

    /* Size query and a buffer too small: only out_len is written. */
    CHECK_STATUS(crawlsched_freshness_polite_frequencies(m, HOSTS, N, loose, H, 0, 0, NULL, NULL, 0, &len, keep_sat,
                                                         NULL, NULL, NULL, NULL, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK(len == N && keep_sat[0] == 7);
    CHECK_STATUS(crawlsched_freshness_polite_frequencies(m, HOSTS, N, loose, H, 0, 0, NULL, keep, N - 1, &len, NULL,
                                                         NULL, NULL, NULL, NULL, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK(len == N && keep[0] == -1);

    /* Bad inputs. */
    const uint32_t far[N] = {0, 0, 1, 1, 2, 3};
    const uint32_t no_host1[N] = {0, 0, 0, 2, 2, 2};
    const double bad_rate[H] = {INFINITY, NAN, 1.0};
    const double zero_rate[H] = {INFINITY, 0.0, 1.0};
    crawlsched_status_t inv = CRAWLSCHED_INVALID_ARGUMENT;
    CHECK_STATUS(crawlsched_freshness_polite_frequencies(m, far, N, loose, H, 0, 0, NULL, f, N, &len, NULL, NULL,
                                                         NULL, NULL, NULL, &err), inv, err);
    CHECK(strstr(err.message, "hosts[5]") != NULL);
    CHECK_STATUS(crawlsched_freshness_polite_frequencies(m, no_host1, N, loose, H, 0, 0, NULL, f, N, &len, NULL, NULL,
                                                         NULL, NULL, NULL, &err), inv, err);
    CHECK(strstr(err.message, "host 1 has no pages") != NULL);
    CHECK_STATUS(crawlsched_freshness_polite_frequencies(m, HOSTS, N, bad_rate, H, 0, 0, NULL, f, N, &len, NULL, NULL,
                                                         NULL, NULL, NULL, &err), inv, err);
    CHECK(strstr(err.message, "max_rates[1]") != NULL);
    CHECK_STATUS(crawlsched_freshness_polite_frequencies(m, HOSTS, N, zero_rate, H, 0, 0, NULL, f, N, &len, NULL,
                                                         NULL, NULL, NULL, NULL, &err), inv, err);
    CHECK_STATUS(crawlsched_freshness_polite_frequencies(m, HOSTS, N - 1, loose, H, 0, 0, NULL, f, N, &len, NULL,
                                                         NULL, NULL, NULL, NULL, &err), inv, err);
    CHECK_STATUS(crawlsched_freshness_polite_frequencies(m, HOSTS, N, loose, H, 2, 0, NULL, f, N, &len, NULL, NULL,
                                                         NULL, NULL, NULL, &err), inv, err);
    CHECK_STATUS(crawlsched_freshness_polite_frequencies(m, HOSTS, N, loose, H, 0, 2, NULL, f, N, &len, NULL, NULL,
                                                         NULL, NULL, NULL, &err), inv, err);
    CHECK_STATUS(crawlsched_freshness_polite_frequencies(m, NULL, N, loose, H, 0, 0, NULL, f, N, &len, NULL, NULL,
                                                         NULL, NULL, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_polite_frequencies(m, HOSTS, N, NULL, H, 0, 0, NULL, f, N, &len, NULL, NULL,
                                                         NULL, NULL, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_polite_frequencies(m, HOSTS, N, loose, H, 0, 0, NULL, f, N, NULL, NULL, NULL,
                                                         NULL, NULL, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_polite_frequencies(NULL, HOSTS, N, loose, H, 0, 0, NULL, f, N, &len, NULL, NULL,
                                                         NULL, NULL, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
}

/* 10^4 picks on the caller's clock: no page of a host before its delay,
 * and every wait is exactly the time until the earliest host is ready. */
static void scheduler(const crawlsched_dist_t *ex) {
    enum { PAGES = 12, PICKS = 10000 };
    const double delay[H] = {1.0, 0.5, 2.0};
    crawlsched_error_t err = {0};
    crawlsched_scheduler_t *s = NULL;
    uint64_t id = 0;
    double wait = -1.0, d = -1.0;
    int ready = -1, has = -1;
    uint32_t host = 99;

    CHECK_OK(crawlsched_scheduler_new(ex, CRAWLSCHED_SCHEDULER_STRIDE, &s, &err), err);
    CHECK_STATUS(crawlsched_scheduler_next_at(s, 0.0, &id, &wait, &ready, &err), CRAWLSCHED_NOT_FOUND, err);
    for (uint64_t p = 0; p < PAGES; p++) {
        CHECK_OK(crawlsched_scheduler_add_page(s, p, 0.1 * (double)(p + 1), &err), err);
    }
    CHECK_OK(crawlsched_scheduler_host(s, 3, &host, &has, &err), err);
    CHECK(has == 0 && host == 0);
    for (uint64_t p = 0; p < PAGES; p++) CHECK_OK(crawlsched_scheduler_set_host(s, p, (uint32_t)(p % H), &err), err);
    CHECK_OK(crawlsched_scheduler_host(s, 5, &host, &has, &err), err);
    CHECK(has == 1 && host == 2);
    for (uint32_t h = 0; h < H; h++) CHECK_OK(crawlsched_scheduler_set_host_delay(s, h, delay[h], &err), err);
    CHECK_OK(crawlsched_scheduler_host_delay(s, 2, &d, &err), err);
    CHECK(d == 2.0);
    CHECK_OK(crawlsched_scheduler_host_delay(s, 77, &d, &err), err);
    CHECK(d == 0.0);

    double now = 0.0, last[H] = {-INFINITY, -INFINITY, -INFINITY};
    int early = 0, wrong_wait = 0, waits = 0, picks = 0;
    for (int k = 0; k < PICKS; k++) {
        CHECK_OK(crawlsched_scheduler_next_at(s, now, &id, &wait, &ready, &err), err);
        if (ready) {
            int h = (int)(id % H);
            if (id >= PAGES || now - last[h] < delay[h]) early++;
            last[h] = now;
            picks++;
            now += 0.1;
        } else {
            double t = INFINITY;
            for (int h = 0; h < H; h++) {
                if (last[h] + delay[h] < t) t = last[h] + delay[h];
            }
            /* Exact up to the rounding that makes now + wait ready. */
            if (!(wait > 0.0) || fabs((now + wait) - t) > 4e-16 * (t > 1.0 ? t : 1.0)) wrong_wait++;
            waits++;
            now += wait;
            CHECK_OK(crawlsched_scheduler_next_at(s, now, &id, &wait, &ready, &err), err);
            CHECK(ready == 1);
            if (ready) {
                int h = (int)(id % H);
                if (now - last[h] < delay[h]) early++;
                last[h] = now;
                picks++;
            }
        }
    }
    CHECK(early == 0);
    CHECK(wrong_wait == 0);
    CHECK(waits > 0 && picks >= PICKS);

    /* clear_host: the page is ready at once again (no host to wait for). */
    CHECK_OK(crawlsched_scheduler_clear_host(s, 4, &err), err);
    CHECK_OK(crawlsched_scheduler_host(s, 4, &host, &has, &err), err);
    CHECK(has == 0);
    CHECK_OK(crawlsched_scheduler_clear_host(s, 4, &err), err);

    /* Bad inputs: outputs untouched. */
    uint64_t keep_id = 42;
    CHECK_STATUS(crawlsched_scheduler_next_at(s, now - 1.0, &keep_id, &wait, &ready, &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK(strstr(err.message, "before the previous") != NULL && keep_id == 42);
    CHECK_STATUS(crawlsched_scheduler_next_at(s, NAN, &keep_id, &wait, &ready, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_scheduler_next_at(s, now, NULL, &wait, &ready, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_scheduler_set_host_delay(s, 0, NAN, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_scheduler_set_host_delay(s, 0, -1.0, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_scheduler_set_host_delay(s, 0, INFINITY, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_scheduler_set_host(s, 999, 1, &err), CRAWLSCHED_NOT_FOUND, err);
    CHECK_STATUS(crawlsched_scheduler_clear_host(s, 999, &err), CRAWLSCHED_NOT_FOUND, err);
    CHECK_STATUS(crawlsched_scheduler_host(s, 999, &host, &has, &err), CRAWLSCHED_NOT_FOUND, err);
    CHECK_STATUS(crawlsched_scheduler_host(s, 1, NULL, &has, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_scheduler_host_delay(NULL, 0, &d, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    crawlsched_scheduler_free(s);
}

int main(void) {
    crawlsched_error_t err = {0};
    crawlsched_dist_t *ex = NULL;
    crawlsched_freshness_model_t *m = NULL;
    CHECK_OK(crawlsched_dist_exponential_new(A, &ex, &err), err);
    CHECK_OK(crawlsched_freshness_model_new(ex, RATES, NULL, N, &m, &err), err);
    plan(m);
    scheduler(ex);
    crawlsched_freshness_model_free(m);
    crawlsched_dist_free(ex);
    return CHECK_REPORT("test_polite");
}
