/* Every crawlsched_freshness_*, crawlsched_estimator_* and
 * crawlsched_scheduler_* function from C, with error paths. Expected values
 * are computed here from the paper's closed forms, independently of the
 * library. */
#include "crawlsched.h"
#include "check.h"

#define N 4

/* crawlsched_scheduler_add_pages: a batch gives the same schedule and
 * frequencies as the same pages added one by one (weights NULL = the
 * rates, as add_page; given = as add_weighted_page), also into slots freed
 * by removals; a refused batch adds nothing and changes no later pick. */
static void scheduler_batch(const crawlsched_dist_t *ex, int mode) {
    enum { M = 24, PICKS = 3000 };
    crawlsched_error_t err = {0};
    uint64_t ids[M];
    double rates[M], weights[M];
    for (int i = 0; i < M; i++) {
        ids[i] = 1000 + 7 * (uint64_t)i;
        rates[i] = 0.02 * (i + 1);
        weights[i] = i % 3 == 0 ? 2.0 * rates[i] : rates[i];
    }
    crawlsched_scheduler_t *one = NULL, *batch = NULL;
    CHECK_OK(crawlsched_scheduler_new(ex, mode, &one, &err), err);
    CHECK_OK(crawlsched_scheduler_new(ex, mode, &batch, &err), err);
    crawlsched_scheduler_t *both[2] = {one, batch};
    for (int k = 0; k < 2; k++) {
        for (uint64_t id = 1; id <= 3; id++) CHECK_OK(crawlsched_scheduler_add_page(both[k], id, 0.1, &err), err);
        CHECK_OK(crawlsched_scheduler_remove_page(both[k], 2, &err), err);
    }
    /* First half without weights, second half weighted. */
    for (int i = 0; i < M; i++) {
        if (i < M / 2) CHECK_OK(crawlsched_scheduler_add_page(one, ids[i], rates[i], &err), err);
        else CHECK_OK(crawlsched_scheduler_add_weighted_page(one, ids[i], rates[i], weights[i], &err), err);
    }
    CHECK_OK(crawlsched_scheduler_add_pages(batch, ids, rates, NULL, M / 2, &err), err);
    CHECK_OK(crawlsched_scheduler_add_pages(batch, NULL, NULL, NULL, 0, &err), err);

    /* Refused batches, each with one bad page: nothing is added. */
    const uint64_t dup_ids[3] = {5000, 1000, 5001};   /* 1000 is scheduled */
    const uint64_t rep_ids[3] = {5000, 5001, 5000};   /* repeated in the batch */
    const double good[3] = {0.1, 0.2, 0.3}, nan_rate[3] = {0.1, NAN, 0.3};
    const double neg_weight[3] = {1.0, 1.0, -1.0};
    CHECK_STATUS(crawlsched_scheduler_add_pages(batch, dup_ids, good, NULL, 3, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK(strstr(err.message, "ids[1]") != NULL);
    CHECK_STATUS(crawlsched_scheduler_add_pages(batch, rep_ids, good, NULL, 3, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK(strstr(err.message, "ids[2]") != NULL);
    CHECK_STATUS(crawlsched_scheduler_add_pages(batch, rep_ids + 1, nan_rate, NULL, 2, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK(strstr(err.message, "change_rates[1]") != NULL);
    CHECK_STATUS(crawlsched_scheduler_add_pages(batch, rep_ids, good, neg_weight, 3, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK(strstr(err.message, "weights[2]") != NULL);
    CHECK_STATUS(crawlsched_scheduler_add_pages(batch, NULL, good, NULL, 3, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_scheduler_add_pages(batch, dup_ids, NULL, NULL, 3, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_scheduler_add_pages(NULL, dup_ids, good, NULL, 3, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    double keep = -1.0;
    CHECK_STATUS(crawlsched_scheduler_change_rate(batch, 5000, &keep, &err), CRAWLSCHED_NOT_FOUND, err);

    CHECK_OK(crawlsched_scheduler_add_pages(batch, ids + M / 2, rates + M / 2, weights + M / 2, M - M / 2, &err), err);
    size_t n_one = 0, n_batch = 0;
    CHECK_OK(crawlsched_scheduler_len(one, &n_one, &err), err);
    CHECK_OK(crawlsched_scheduler_len(batch, &n_batch, &err), err);
    CHECK(n_one == M + 2 && n_batch == M + 2);
    uint64_t fid_one[M + 2], fid_batch[M + 2];
    double f_one[M + 2], f_batch[M + 2];
    size_t l_one = 0, l_batch = 0;
    CHECK_OK(crawlsched_scheduler_frequencies(one, fid_one, f_one, M + 2, &l_one, &err), err);
    CHECK_OK(crawlsched_scheduler_frequencies(batch, fid_batch, f_batch, M + 2, &l_batch, &err), err);
    CHECK(l_one == M + 2 && l_batch == M + 2);
    for (int i = 0; i < M + 2; i++) CHECK(fid_one[i] == fid_batch[i] && f_one[i] == f_batch[i]);
    static uint64_t picks_one[PICKS], picks_batch[PICKS];
    CHECK_OK(crawlsched_scheduler_next_batch(one, picks_one, PICKS, &err), err);
    CHECK_OK(crawlsched_scheduler_next_batch(batch, picks_batch, PICKS, &err), err);
    CHECK(memcmp(picks_one, picks_batch, sizeof picks_one) == 0);
    crawlsched_scheduler_free(one);
    crawlsched_scheduler_free(batch);
}

int main(void) {
    crawlsched_error_t err = {0};
    const double mu[N] = {0.05, 0.1, 0.2, 0.4};
    const double phi = (1.0 + sqrt(5.0)) / 2.0;

    /* Deterministic crawl time X = 1: h_i = exp(-mu_i). */
    crawlsched_dist_t *det = NULL;
    CHECK_OK(crawlsched_dist_deterministic_new(1.0, &det, &err), err);
    crawlsched_freshness_model_t *m = NULL;
    CHECK_OK(crawlsched_freshness_model_new(det, mu, NULL, N, &m, &err), err);
    crawlsched_dist_free(det); /* the model keeps a copy */

    size_t len = 0;
    CHECK_OK(crawlsched_freshness_model_len(m, &len, &err), err);
    CHECK(len == N);
    double h[N], f[N], fr[N], r[N];
    CHECK_OK(crawlsched_freshness_model_h(m, h, N, &err), err);
    for (int i = 0; i < N; i++) CHECK_CLOSE(h[i], exp(-mu[i]), 1e-15);

    /* Theorem 3.4: with constant X, optimal frequencies are proportional to mu. */
    double total = 0.0;
    for (int i = 0; i < N; i++) total += mu[i];
    CHECK_OK(crawlsched_freshness_optimal_frequencies(m, f, N, &err), err);
    for (int i = 0; i < N; i++) CHECK_CLOSE(f[i], mu[i] / total, 1e-12);

    /* Bound (6): c0 (mu - 1/E[X] + prod h_i / E[X]) with c0 = 1, E[X] = 1. */
    double lb = 0.0, c = 0.0;
    CHECK_OK(crawlsched_freshness_lower_bound(m, &lb, &err), err);
    CHECK_CLOSE(lb, total - 1.0 + exp(-total), 1e-12);
    CHECK_OK(crawlsched_freshness_cost(m, f, N, &c, &err), err);
    CHECK_CLOSE(c, lb, 1e-12);

    /* Theorem 3.3 per page at equal frequencies 1/N:
     * r_i = 1 - N^-1/mu_i + N^-1/mu_i * exp(-mu_i N). */
    const double eq[N] = {0.25, 0.25, 0.25, 0.25};
    CHECK_OK(crawlsched_freshness_obsolescence_bound(m, eq, N, r, N, &err), err);
    double c_eq = 0.0;
    for (int i = 0; i < N; i++) {
        double want = 1.0 - 0.25 / mu[i] + 0.25 / mu[i] * exp(-mu[i] * 4.0);
        CHECK_CLOSE(r[i], want, 1e-12);
        c_eq += mu[i] * want;
    }
    /* ... which the plain round robin 0,1,2,3 attains exactly. */
    const uint32_t rr[N] = {0, 1, 2, 3};
    CHECK_OK(crawlsched_freshness_cyclic_cost(m, rr, N, &c, &err), err);
    CHECK_CLOSE(c, c_eq, 1e-12);
    CHECK_OK(crawlsched_freshness_cyclic_obsolescence(m, rr, N, r, N, &err), err);
    CHECK_CLOSE(r[3], 1.0 - 0.25 / 0.4 + 0.25 / 0.4 * exp(-1.6), 1e-12);

    /* Theorem 4.1: randomized optimum f_i ∝ 1/h_i - 1 = e^{mu_i} - 1, cost (11). */
    double s = 0.0;
    for (int i = 0; i < N; i++) s += expm1(mu[i]);
    CHECK_OK(crawlsched_freshness_randomized_optimal_frequencies(m, fr, N, &err), err);
    for (int i = 0; i < N; i++) CHECK_CLOSE(fr[i], expm1(mu[i]) / s, 1e-12);
    CHECK_OK(crawlsched_freshness_randomized_optimal_cost(m, &c, &err), err);
    CHECK_CLOSE(c, total - s / (1.0 + s), 1e-12);
    double c_rand_eq = 0.0;
    CHECK_OK(crawlsched_freshness_randomized_cost(m, eq, N, &c_rand_eq, &err), err);
    CHECK(c_rand_eq > c);  /* the optimum beats equal frequencies */
    CHECK(c_rand_eq > c_eq); /* random order loses to even spacing (Thm 3.3) */

    /* Golden ratio (§5): counts (2,3,3,5) give the paper's sequence
     * 4,2,4,1,3,4,2,4,1,3,4,2,3 (1-based) up to rotation. */
    const uint64_t counts[N] = {2, 3, 3, 5};
    const uint32_t paper[13] = {3, 1, 3, 0, 2, 3, 1, 3, 0, 2, 3, 1, 2};
    uint32_t seq[13];
    size_t got = 0;
    CHECK_STATUS(crawlsched_freshness_golden_ratio_sequence(counts, N, NULL, 0, &got, &err),
                 CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK(got == 13);
    CHECK_STATUS(crawlsched_freshness_golden_ratio_sequence(counts, N, seq, 12, &got, &err),
                 CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK_OK(crawlsched_freshness_golden_ratio_sequence(counts, N, seq, 13, &got, &err), err);
    CHECK(got == 13);
    int rotation_found = 0;
    for (int k = 0; k < 13 && !rotation_found; k++) {
        int same = 1;
        for (int j = 0; j < 13; j++) same &= seq[(j + k) % 13] == paper[j];
        rotation_found = same;
    }
    CHECK(rotation_found);
    uint32_t rrs[13];
    CHECK_OK(crawlsched_freshness_round_robin_sequence(counts, N, rrs, 13, &got, &err), err);
    int seen[N] = {0};
    for (int j = 0; j < 13; j++) seen[rrs[j]]++;
    for (int i = 0; i < N; i++) CHECK(seen[i] == (int)counts[i]);

    uint64_t ic[3], fib = 0;
    const double f3[3] = {0.5, 0.3, 0.2};
    CHECK_OK(crawlsched_freshness_integer_counts(f3, 3, 10, 0, ic, 3, &err), err);
    CHECK(ic[0] == 5 && ic[1] == 3 && ic[2] == 2);
    const double tiny[3] = {0.98, 0.01, 0.01};
    CHECK_OK(crawlsched_freshness_integer_counts(tiny, 3, 10, 1, ic, 3, &err), err);
    CHECK(ic[0] == 8 && ic[1] == 1 && ic[2] == 1);
    CHECK_OK(crawlsched_freshness_fibonacci_at_least(100, &fib, &err), err);
    CHECK(fib == 144);

    /* Corollary 5.1: H(0) = 2 phi^2 / 5 < 1.05, and H decreases. */
    double h0 = 0.0, h1 = 0.0, gb = 0.0;
    CHECK_OK(crawlsched_freshness_bound_ratio(0.0, &h0, &err), err);
    CHECK_CLOSE(h0, 2.0 * phi * phi / 5.0, 1e-12);
    CHECK_OK(crawlsched_freshness_bound_ratio(1.0, &h1, &err), err);
    CHECK(h1 < h0 && h1 > 1.0);
    /* Eq. (18) with q = mu E[X] = 0.75. */
    CHECK_OK(crawlsched_freshness_golden_ratio_bound(m, &gb, &err), err);
    double q = total;
    CHECK_CLOSE(gb, q - 1.0 + (1.0 - 1.0 / phi) * exp(-phi * q / sqrt(5.0)) +
                        exp(-phi * phi * q / sqrt(5.0)) / phi, 1e-12);

    /* Simulation agrees with the exact cyclic cost. */
    double sim = 0.0, se = 0.0, exact = 0.0;
    CHECK_OK(crawlsched_freshness_cyclic_cost(m, seq, 13, &exact, &err), err);
    CHECK_OK(crawlsched_freshness_simulate_cyclic(m, seq, 13, 20000, 7, NULL, &sim, &se, &err), err);
    CHECK(se > 0.0 && fabs(sim - exact) < 5.0 * se);

    /* General weights: frequencies still sum to one and cost(opt) = bound. */
    const double w[N] = {4.0, 1.0, 1.0, 0.5};
    crawlsched_dist_t *ex = NULL;
    crawlsched_freshness_model_t *mw = NULL;
    CHECK_OK(crawlsched_dist_exponential_new(1.0, &ex, &err), err);
    CHECK_OK(crawlsched_freshness_model_new(ex, mu, w, N, &mw, &err), err);
    CHECK_OK(crawlsched_freshness_optimal_frequencies(mw, f, N, &err), err);
    double fsum = 0.0;
    for (int i = 0; i < N; i++) fsum += f[i];
    CHECK_CLOSE(fsum, 1.0, 1e-12);
    CHECK(f[0] > f[1]); /* the heavily weighted page is crawled more */
    CHECK_OK(crawlsched_freshness_lower_bound(mw, &lb, &err), err);
    CHECK_OK(crawlsched_freshness_cost(mw, f, N, &c, &err), err);
    CHECK_CLOSE(c, lb, 1e-10);
    {
        /* The distributed protocol on one shard gives the same plan, bit for bit. */
        crawlsched_freshness_shard_t *sh = NULL;
        crawlsched_freshness_multiplier_search_t *ms = NULL;
        double sa, wmin, wmax, ll = 0.0, s, ds, fs[N];
        uint64_t ehi, elo;
        int32_t done = 0;
        CHECK_OK(crawlsched_freshness_shard_new(mw, &sh, &err), err);
        CHECK_OK(crawlsched_freshness_shard_summary(sh, &sa, &wmin, &wmax, &err), err);
        CHECK_OK(crawlsched_freshness_multiplier_search_new(sa, wmin, wmax, &ms, &err), err);
        for (int it = 0; it < 100; it++) {
            CHECK_OK(crawlsched_freshness_multiplier_search_next(ms, &done, &ll, &err), err);
            if (done) break;
            CHECK_OK(crawlsched_freshness_shard_sum_at(sh, ll, &s, &ds, &ehi, &elo, &err), err);
            CHECK_OK(crawlsched_freshness_multiplier_search_update(ms, s, ds, ehi, elo, &err), err);
        }
        CHECK(done == 1);
        CHECK_OK(crawlsched_freshness_shard_frequencies_at(sh, ll, fs, N, &err), err);
        for (int i = 0; i < N; i++) CHECK(fs[i] == f[i]);
        CHECK_STATUS(crawlsched_freshness_multiplier_search_update(ms, -1.0, 0.0, 0, 0, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
        crawlsched_freshness_multiplier_search_free(ms);
        crawlsched_freshness_multiplier_search_free(NULL);
        crawlsched_freshness_shard_free(sh);
        crawlsched_freshness_shard_free(NULL);
    }
    /* Eq. (18) needs proportional weights. */
    CHECK_STATUS(crawlsched_freshness_golden_ratio_bound(mw, &gb, &err), CRAWLSCHED_INVALID_ARGUMENT, err);

    /* ---- freshness error paths ---- */
    crawlsched_freshness_model_t *bad = NULL;
    const double negmu[N] = {0.1, -0.1, 0.2, 0.3}, nanmu[N] = {0.1, NAN, 0.2, 0.3};
    CHECK_STATUS(crawlsched_freshness_model_new(NULL, mu, NULL, N, &bad, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_model_new(ex, NULL, NULL, N, &bad, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_model_new(ex, mu, NULL, 0, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_model_new(ex, negmu, NULL, N, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_model_new(ex, nanmu, NULL, N, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_model_new(ex, mu, negmu, N, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_model_new(ex, mu, NULL, SIZE_MAX, &bad, &err), CRAWLSCHED_TOO_LARGE, err);
    CHECK_STATUS(crawlsched_freshness_model_new(ex, mu, NULL, N, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    crawlsched_dist_t *zero = NULL;
    CHECK_OK(crawlsched_dist_deterministic_new(0.0, &zero, &err), err);
    CHECK_STATUS(crawlsched_freshness_model_new(zero, mu, NULL, N, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    crawlsched_dist_free(zero);
    CHECK(bad == NULL);
    /* A handle of the wrong type is refused by its tag. */
    CHECK_STATUS(crawlsched_freshness_model_len((const crawlsched_freshness_model_t *)ex, &len, &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err);

    double keep = 99.0;
    const double badf[N] = {0.5, 0.5, 0.5, -0.5}, nanf[N] = {0.25, 0.25, 0.25, NAN}, notone[N] = {0.2, 0.2, 0.2, 0.2};
    CHECK_STATUS(crawlsched_freshness_model_len(NULL, &len, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_model_h(m, h, N - 1, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK_STATUS(crawlsched_freshness_model_h(m, NULL, N, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_optimal_frequencies(m, f, 2, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK_STATUS(crawlsched_freshness_optimal_frequencies(NULL, f, N, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_lower_bound(m, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_cost(m, badf, N, &keep, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_cost(m, nanf, N, &keep, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_cost(m, notone, N, &keep, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_cost(m, eq, N - 1, &keep, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_cost(m, NULL, N, &keep, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_obsolescence_bound(m, eq, N, r, 1, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK_STATUS(crawlsched_freshness_randomized_cost(m, badf, N, &keep, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_randomized_optimal_frequencies(m, fr, 0, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK_STATUS(crawlsched_freshness_randomized_optimal_cost(NULL, &keep, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_integer_counts(f3, 3, 0, 0, ic, 3, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    /* 3 pages cannot each get an access in a cycle of 2. */
    CHECK_STATUS(crawlsched_freshness_integer_counts(f3, 3, 2, 1, ic, 3, &err), CRAWLSCHED_INFEASIBLE, err);
    CHECK_STATUS(crawlsched_freshness_integer_counts(f3, 0, 10, 0, ic, 3, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_integer_counts(f3, 3, 10, 0, ic, 2, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK_STATUS(crawlsched_freshness_fibonacci_at_least(UINT64_MAX, &fib, &err), CRAWLSCHED_TOO_LARGE, err);
    const uint64_t zeros[2] = {0, 0}, huge[2] = {UINT64_MAX / 2, UINT64_MAX / 2};
    CHECK_STATUS(crawlsched_freshness_golden_ratio_sequence(zeros, 2, seq, 13, &got, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_golden_ratio_sequence(counts, 0, seq, 13, &got, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_golden_ratio_sequence(huge, 2, seq, 13, &got, &err), CRAWLSCHED_TOO_LARGE, err);
    CHECK_STATUS(crawlsched_freshness_golden_ratio_sequence(counts, N, seq, 13, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_round_robin_sequence(huge, 2, seq, 13, &got, &err), CRAWLSCHED_TOO_LARGE, err);
    const uint32_t out_of_range[2] = {0, 7};
    CHECK_STATUS(crawlsched_freshness_cyclic_cost(m, out_of_range, 2, &keep, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_cyclic_cost(m, rr, 0, &keep, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_cyclic_obsolescence(m, rr, N, r, 3, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK_STATUS(crawlsched_freshness_bound_ratio(-1.0, &keep, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_bound_ratio(NAN, &keep, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_simulate_cyclic(m, rr, N, 0, 1, NULL, &keep, &keep, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_simulate_cyclic(m, rr, N, 10, 1, NULL, &keep, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_freshness_simulate_cyclic(m, rr, N, UINT64_MAX, 1, NULL, &keep, &keep, &err), CRAWLSCHED_TOO_LARGE, err);
    CHECK(keep == 99.0);

    /* ---- estimator: equal intervals give -ln(1 - X/n)/I exactly ---- */
    crawlsched_estimator_t *est = NULL;
    CHECK_OK(crawlsched_estimator_new(&est, &err), err);
    double rate = 0.0;
    CHECK_STATUS(crawlsched_estimator_estimate(est, &rate, &err), CRAWLSCHED_NOT_FOUND, err);
    for (int k = 0; k < 100; k++) CHECK_OK(crawlsched_estimator_observe(est, 2.0, k % 4 == 0, &err), err);
    CHECK_OK(crawlsched_estimator_estimate(est, &rate, &err), err);
    CHECK_CLOSE(rate, -log(1.0 - 25.0 / 100.0) / 2.0, 1e-10);
    uint64_t nobs = 0;
    CHECK_OK(crawlsched_estimator_observations(est, &nobs, &err), err);
    CHECK(nobs == 100);
    CHECK_STATUS(crawlsched_estimator_observe(est, -1.0, 1, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_estimator_observe(est, NAN, 1, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_estimator_observe(NULL, 1.0, 1, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_estimator_estimate(est, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_estimator_observations(NULL, &nobs, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    crawlsched_estimator_free(est);
    crawlsched_estimator_t *pest = NULL;
    CHECK_OK(crawlsched_estimator_new_with_prior(0.5, 10.0, &pest, &err), err);
    CHECK_OK(crawlsched_estimator_estimate(pest, &rate, &err), err);
    CHECK_CLOSE(rate, 0.5, 1e-12); /* with no data the prior mode */
    CHECK_STATUS(crawlsched_estimator_new_with_prior(-0.5, 10.0, &est, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_estimator_new_with_prior(0.5, 0.0, &est, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_estimator_new(NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    crawlsched_estimator_free(pest);
    crawlsched_estimator_free(NULL);

    /* ---- scheduler: long-run shares match the optimal frequencies ---- */
    for (int mode = CRAWLSCHED_SCHEDULER_STRIDE; mode <= CRAWLSCHED_SCHEDULER_GOLDEN_RATIO; mode++) {
        crawlsched_scheduler_t *sch = NULL;
        CHECK_OK(crawlsched_scheduler_new(ex, mode, &sch, &err), err);
        uint64_t id = 0;
        CHECK_STATUS(crawlsched_scheduler_next(sch, &id, &err), CRAWLSCHED_NOT_FOUND, err);
        for (int i = 0; i < N; i++) CHECK_OK(crawlsched_scheduler_add_page(sch, 100 + i, mu[i], &err), err);
        CHECK_OK(crawlsched_scheduler_add_weighted_page(sch, 200, 0.1, 2.0, &err), err);
        CHECK_OK(crawlsched_scheduler_remove_page(sch, 200, &err), err);
        size_t np = 0;
        CHECK_OK(crawlsched_scheduler_len(sch, &np, &err), err);
        CHECK(np == N);
        /* Expected shares: Theorem 3.4 with exponential(1) crawl times,
         * f_i ∝ ln(1/h_i) = ln(1 + mu_i). */
        double lsum = 0.0;
        for (int i = 0; i < N; i++) lsum += log1p(mu[i]);
        enum { PICKS = 40000 };
        static uint64_t ids[PICKS];
        CHECK_OK(crawlsched_scheduler_next_batch(sch, ids, PICKS, &err), err);
        int cnt[N] = {0};
        int stray = 0;
        for (int k = 0; k < PICKS; k++) {
            if (ids[k] >= 100 && ids[k] < 100 + N) cnt[ids[k] - 100]++;
            else stray++;
        }
        CHECK(stray == 0);
        /* Stride mode spaces each page exactly at its frequency; golden-ratio
         * mode rounds frequencies to a cycle of F >= 8N = 34 slots. */
        const double tol = mode == CRAWLSCHED_SCHEDULER_STRIDE ? 0.002 : 1.0 / 34.0;
        for (int i = 0; i < N; i++) {
            double share = (double)cnt[i] / PICKS;
            if (fabs(share - log1p(mu[i]) / lsum) >= tol)
                fprintf(stderr, "mode %d page %d share %.4f want %.4f\n", mode, i, share, log1p(mu[i]) / lsum);
            CHECK(fabs(share - log1p(mu[i]) / lsum) < tol);
            double fi = 0.0, ri = 0.0;
            CHECK_OK(crawlsched_scheduler_frequency(sch, 100 + i, &fi, &err), err);
            CHECK_CLOSE(fi, log1p(mu[i]) / lsum, 1e-9);
            CHECK_OK(crawlsched_scheduler_change_rate(sch, 100 + i, &ri, &err), err);
            CHECK_CLOSE(ri, mu[i], 1e-15);
        }
        CHECK_OK(crawlsched_scheduler_set_change_rate(sch, 100, 0.4, &err), err);
        CHECK_OK(crawlsched_scheduler_observe(sch, 101, 3.0, 1, &err), err);
        CHECK_OK(crawlsched_scheduler_next(sch, &id, &err), err);
        CHECK(id >= 100 && id < 100 + N);
        /* All frequencies at once (sorted by id) equal the per-page calls,
         * also while the cache is stale after the rate changes above. */
        {
            uint64_t fids[N];
            double fr[N], fsum = 0.0;
            size_t fl = 0;
            CHECK_STATUS(crawlsched_scheduler_frequencies(sch, fids, fr, N - 1, &fl, &err),
                         CRAWLSCHED_BUFFER_TOO_SMALL, err);
            CHECK(fl == N);
            CHECK_OK(crawlsched_scheduler_frequencies(sch, fids, fr, N, &fl, &err), err);
            CHECK(fl == N);
            for (int i = 0; i < N; i++) {
                double fi = 0.0;
                CHECK(fids[i] == (uint64_t)(100 + i));
                CHECK_OK(crawlsched_scheduler_frequency(sch, fids[i], &fi, &err), err);
                CHECK(fi == fr[i]);
                fsum += fr[i];
            }
            CHECK_CLOSE(fsum, 1.0, 1e-12);
            CHECK_STATUS(crawlsched_scheduler_frequencies(sch, NULL, fr, N, &fl, &err),
                         CRAWLSCHED_NULL_ARGUMENT, err);
        }

        CHECK_STATUS(crawlsched_scheduler_add_page(sch, 100, 0.1, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
        CHECK_STATUS(crawlsched_scheduler_add_page(sch, 300, NAN, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
        CHECK_STATUS(crawlsched_scheduler_add_page(sch, 300, -1.0, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
        CHECK_STATUS(crawlsched_scheduler_add_weighted_page(sch, 300, 0.1, 0.0, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
        CHECK_STATUS(crawlsched_scheduler_remove_page(sch, 999, &err), CRAWLSCHED_NOT_FOUND, err);
        CHECK_STATUS(crawlsched_scheduler_set_change_rate(sch, 999, 0.1, &err), CRAWLSCHED_NOT_FOUND, err);
        CHECK_STATUS(crawlsched_scheduler_set_change_rate(sch, 100, INFINITY, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
        CHECK_STATUS(crawlsched_scheduler_observe(sch, 999, 1.0, 0, &err), CRAWLSCHED_NOT_FOUND, err);
        CHECK_STATUS(crawlsched_scheduler_observe(sch, 100, 0.0, 0, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
        CHECK_STATUS(crawlsched_scheduler_change_rate(sch, 999, &keep, &err), CRAWLSCHED_NOT_FOUND, err);
        CHECK_STATUS(crawlsched_scheduler_frequency(sch, 999, &keep, &err), CRAWLSCHED_NOT_FOUND, err);
        CHECK_STATUS(crawlsched_scheduler_next(sch, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
        CHECK_STATUS(crawlsched_scheduler_next_batch(sch, NULL, 5, &err), CRAWLSCHED_NULL_ARGUMENT, err);
        CHECK_STATUS(crawlsched_scheduler_len(NULL, &np, &err), CRAWLSCHED_NULL_ARGUMENT, err);
        crawlsched_scheduler_free(sch);
        scheduler_batch(ex, mode);
    }
    crawlsched_scheduler_t *sch = NULL;
    CHECK_STATUS(crawlsched_scheduler_new(ex, 7, &sch, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_scheduler_new(NULL, 0, &sch, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK(sch == NULL);
    crawlsched_scheduler_free(NULL);

    crawlsched_freshness_model_free(m);
    crawlsched_freshness_model_free(mw);
    crawlsched_freshness_model_free(NULL);
    crawlsched_dist_free(ex);
    return CHECK_REPORT("test_freshness");
}
