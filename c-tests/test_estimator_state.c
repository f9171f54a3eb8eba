/* Estimator state export/import and the scheduler's due-time view from C.
 * Expected values are computed here: the state layout of docs/c-api.md,
 * and for a constant crawl time d the remark after Theorem 3.4 (f_i =
 * mu_i / sum mu), so page i is due every d * sum(mu) / mu_i. */
#include "crawlsched.h"
#include "check.h"

/* Visits after 1 (changed) and 2 (unchanged), no prior: 30 bytes. */
static size_t documented_state(uint8_t out[32]) {
    const uint8_t head[5] = {0xC5, 1, 0, 1, 2};
    const double f[3] = {2.0, 3.0, 1.0};
    memcpy(out, head, 5);
    for (int k = 0; k < 3; k++) memcpy(out + 5 + 8 * k, &f[k], 8); /* little-endian hosts */
    out[29] = 1;
    return 30;
}

static void estimator(void) {
    crawlsched_error_t err = {0};
    crawlsched_estimator_t *e = NULL, *back = NULL;
    uint8_t buf[CRAWLSCHED_ESTIMATOR_STATE_MAX_BYTES], want[32];
    size_t len = 0, want_len = documented_state(want);
    double a = 0.0, b = 0.0;

    CHECK_OK(crawlsched_estimator_new(&e, &err), err);
    CHECK_OK(crawlsched_estimator_observe(e, 1.0, 1, &err), err);
    CHECK_OK(crawlsched_estimator_observe(e, 2.0, 0, &err), err);
    /* Size query, then the bytes. */
    CHECK_STATUS(crawlsched_estimator_export_state(e, NULL, 0, &len, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK(len == want_len);
    CHECK_OK(crawlsched_estimator_export_state(e, buf, sizeof buf, &len, &err), err);
    CHECK(len == want_len && memcmp(buf, want, len) == 0);

    /* Import: the same estimate, and the same after more visits. */
    CHECK_OK(crawlsched_estimator_new_from_state(buf, len, &back, &err), err);
    for (int k = 0; k < 50; k++) {
        CHECK_OK(crawlsched_estimator_estimate(e, &a, &err), err);
        CHECK_OK(crawlsched_estimator_estimate(back, &b, &err), err);
        CHECK(a == b);
        CHECK_OK(crawlsched_estimator_observe(e, 0.5 + 0.1 * (k % 7), k % 3 == 0, &err), err);
        CHECK_OK(crawlsched_estimator_observe(back, 0.5 + 0.1 * (k % 7), k % 3 == 0, &err), err);
    }
    /* The documented state's MLE: the score 1/(e^mu - 1) - 2 (one change
     * after 1, 2 time units unchanged) vanishes at mu = ln(3/2). */
    crawlsched_estimator_t *two = NULL;
    CHECK_OK(crawlsched_estimator_new_from_state(want, want_len, &two, &err), err);
    CHECK_OK(crawlsched_estimator_estimate(two, &a, &err), err);
    CHECK_CLOSE(a, log(1.5), 1e-14);
    crawlsched_estimator_free(two);

    /* Bad bytes: refused, *out untouched. */
    crawlsched_estimator_t *keep = (crawlsched_estimator_t *)0x1;
    CHECK_STATUS(crawlsched_estimator_new_from_state(want, 10, &keep, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK(strstr(err.message, "truncated") != NULL && keep == (crawlsched_estimator_t *)0x1);
    want[1] = 2;
    CHECK_STATUS(crawlsched_estimator_new_from_state(want, want_len, &keep, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK(strstr(err.message, "version 2") != NULL);
    want[1] = 1;
    double nan = NAN;
    memcpy(want + 5, &nan, 8);
    CHECK_STATUS(crawlsched_estimator_new_from_state(want, want_len, &keep, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_estimator_new_from_state(NULL, 3, &keep, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_estimator_new_from_state(want, SIZE_MAX, &keep, &err), CRAWLSCHED_TOO_LARGE, err);
    CHECK_STATUS(crawlsched_estimator_export_state(e, buf, 4, &len, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK(keep == (crawlsched_estimator_t *)0x1);
    crawlsched_estimator_free(e);
    crawlsched_estimator_free(back);
}

static void scheduler(void) {
    crawlsched_error_t err = {0};
    crawlsched_dist_t *d = NULL, *ex = NULL;
    crawlsched_scheduler_t *s = NULL, *s2 = NULL, *w = NULL;
    const uint64_t ids[3] = {30, 10, 20};
    const double mu[3] = {5.0, 1.0, 2.0}, want[3] = {0.8, 4.0, 2.0};
    uint8_t state[CRAWLSCHED_ESTIMATOR_STATE_MAX_BYTES];
    uint64_t out_ids[3];
    double iv = 0.0, due = 0.0, out_iv[3], r1 = 0.0, r2 = 0.0;
    int32_t has = -1;
    size_t len = 0;

    CHECK_OK(crawlsched_dist_deterministic_new(0.5, &d, &err), err);
    CHECK_OK(crawlsched_scheduler_new(d, CRAWLSCHED_SCHEDULER_STRIDE, &s, &err), err);
    CHECK_OK(crawlsched_scheduler_add_pages(s, ids, mu, NULL, 3, &err), err);
    for (int i = 0; i < 3; i++) {
        CHECK_OK(crawlsched_scheduler_revisit_interval(s, ids[i], &iv, &err), err);
        CHECK_CLOSE(iv, want[i], 1e-13);
        CHECK_OK(crawlsched_scheduler_next_due(s, ids[i], 100.0, &due, &has, &err), err);
        CHECK(has == 1);
        CHECK_CLOSE(due, 100.0 + want[i], 1e-15);
    }
    CHECK_OK(crawlsched_scheduler_revisit_intervals(s, out_ids, out_iv, 3, &len, &err), err);
    CHECK(len == 3 && out_ids[0] == 10 && out_ids[1] == 20 && out_ids[2] == 30);
    CHECK_CLOSE(out_iv[0], 4.0, 1e-13);
    CHECK_CLOSE(1.0 / out_iv[0] + 1.0 / out_iv[1] + 1.0 / out_iv[2], 2.0, 1e-14);

    /* Page state into a new scheduler: the same learnt rate. */
    for (int k = 0; k < 30; k++) CHECK_OK(crawlsched_scheduler_observe(s, 20, 0.25 + 0.05 * (k % 5), k % 4 == 0, &err), err);
    CHECK_OK(crawlsched_scheduler_page_state(s, 20, state, sizeof state, &len, &err), err);
    CHECK(len > 0 && len <= CRAWLSCHED_ESTIMATOR_STATE_MAX_BYTES);
    CHECK_OK(crawlsched_scheduler_new(d, CRAWLSCHED_SCHEDULER_STRIDE, &s2, &err), err);
    CHECK_OK(crawlsched_scheduler_add_page(s2, 20, 2.0, &err), err);
    CHECK_OK(crawlsched_scheduler_set_page_state(s2, 20, state, len, &err), err);
    CHECK_OK(crawlsched_scheduler_change_rate(s, 20, &r1, &err), err);
    CHECK_OK(crawlsched_scheduler_change_rate(s2, 20, &r2, &err), err);
    CHECK(r1 == r2 && r1 != 2.0);

    /* A page the optimum never crawls (weight too small) is never due. */
    CHECK_OK(crawlsched_dist_exponential_new(1.0, &ex, &err), err);
    CHECK_OK(crawlsched_scheduler_new(ex, CRAWLSCHED_SCHEDULER_STRIDE, &w, &err), err);
    const uint64_t wids[3] = {1, 2, 3};
    const double wmu[3] = {1.0, 1.0, 1.0}, ww[3] = {1.0, 1.0, 0.02};
    CHECK_OK(crawlsched_scheduler_add_pages(w, wids, wmu, ww, 3, &err), err);
    CHECK_OK(crawlsched_scheduler_revisit_interval(w, 3, &iv, &err), err);
    CHECK(iv == 0.0);
    CHECK_OK(crawlsched_scheduler_next_due(w, 3, 7.0, &due, &has, &err), err);
    CHECK(has == 0 && due == 0.0);

    /* Errors: outputs untouched. */
    double keep = 42.0;
    CHECK_STATUS(crawlsched_scheduler_revisit_interval(s, 999, &keep, &err), CRAWLSCHED_NOT_FOUND, err);
    CHECK_STATUS(crawlsched_scheduler_next_due(s, 10, NAN, &keep, &has, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK(keep == 42.0);
    CHECK_STATUS(crawlsched_scheduler_page_state(s, 999, state, sizeof state, &len, &err), CRAWLSCHED_NOT_FOUND, err);
    CHECK_STATUS(crawlsched_scheduler_page_state(s, 20, state, 3, &len, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);
    state[0] = 0;
    CHECK_STATUS(crawlsched_scheduler_set_page_state(s2, 20, state, len, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_OK(crawlsched_scheduler_change_rate(s2, 20, &r2, &err), err);
    CHECK(r1 == r2);
    CHECK_STATUS(crawlsched_scheduler_revisit_intervals(s, out_ids, out_iv, 2, &len, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK(len == 3);

    crawlsched_scheduler_free(w);
    crawlsched_scheduler_free(s2);
    crawlsched_scheduler_free(s);
    crawlsched_dist_free(ex);
    crawlsched_dist_free(d);
}

int main(void) {
    estimator();
    scheduler();
    return CHECK_REPORT("test_estimator_state");
}
