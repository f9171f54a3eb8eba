/* Every crawlsched_bmap_* and crawlsched_threshold_* function from C, with
 * error paths. Expected values are closed forms computed here: Poisson
 * rates, the MMPP rate, M/M/1/K and the birth-death law of M/M/1/K+M,
 * Talim et al.'s static cost. */
#include "crawlsched.h"
#include "check.h"

/* Birth-death stationary law on 0..cap with birth lam, death mu + (n-1)theta. */
static void birth_death(double lam, double mu, double theta, int cap, double *p) {
    double s = 0.0;
    p[0] = 1.0;
    for (int n = 1; n <= cap; n++) p[n] = p[n - 1] * lam / (mu + (n - 1) * theta);
    for (int n = 0; n <= cap; n++) s += p[n];
    for (int n = 0; n <= cap; n++) p[n] /= s;
}

int main(void) {
    crawlsched_error_t err = {0};
    double x = 0.0;
    size_t n = 0;

    /* ---- BMAP ---- */
    crawlsched_bmap_t *poi = NULL;
    CHECK_OK(crawlsched_bmap_poisson_new(2.0, &poi, &err), err);
    CHECK_OK(crawlsched_bmap_order(poi, &n, &err), err);
    CHECK(n == 1);
    CHECK_OK(crawlsched_bmap_fundamental_rate(poi, &x, &err), err);
    CHECK_CLOSE(x, 2.0, 1e-15);
    CHECK_OK(crawlsched_bmap_interarrival_moment(poi, 2, &x, &err), err);
    CHECK_CLOSE(x, 2.0 / 4.0, 1e-15);
    CHECK_OK(crawlsched_bmap_lag_correlation(poi, 1, &x, &err), err);
    CHECK_CLOSE(x, 0.0, 1e-12);
    CHECK_STATUS(crawlsched_bmap_interarrival_moment(poi, 0, &x, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_bmap_lag_correlation(poi, 0, &x, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_bmap_poisson_new(-1.0, &poi, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_bmap_poisson_new(1.0, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);

    /* MMPP: switch 1->2 at rate 1, 2->1 at rate 2 (theta = 2/3, 1/3), rates 3 and 6. */
    const double mmpp[8] = {-4.0, 1.0, 2.0, -8.0, /* D0 */ 3.0, 0.0, 0.0, 6.0 /* D1 */};
    crawlsched_bmap_t *mm = NULL;
    CHECK_OK(crawlsched_bmap_new(2, mmpp, 8, &mm, &err), err);
    CHECK_OK(crawlsched_bmap_fundamental_rate(mm, &x, &err), err);
    CHECK_CLOSE(x, 2.0 / 3.0 * 3.0 + 1.0 / 3.0 * 6.0, 1e-14);
    CHECK_OK(crawlsched_bmap_order(mm, &n, &err), err);
    CHECK(n == 2);
    /* Invalid generators. */
    const double rows_off[8] = {-4.0, 1.0, 2.0, -8.0, 3.0, 0.0, 0.0, 5.0};
    const double negative[8] = {-4.0, 1.0, 2.0, -8.0, 3.0, 0.0, -1.0, 7.0};
    const double pos_diag[8] = {1.0, 1.0, 2.0, -8.0, 3.0, 0.0, 0.0, 6.0};
    const double nan_entry[8] = {-4.0, 1.0, 2.0, -8.0, 3.0, 0.0, 0.0, NAN};
    crawlsched_bmap_t *bad = NULL;
    CHECK_STATUS(crawlsched_bmap_new(2, rows_off, 8, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK(strstr(err.message, "sums to") != NULL);
    CHECK_STATUS(crawlsched_bmap_new(2, negative, 8, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_bmap_new(2, pos_diag, 8, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_bmap_new(2, nan_entry, 8, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_bmap_new(2, mmpp, 7, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_bmap_new(2, mmpp, 4, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_bmap_new(0, mmpp, 8, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_bmap_new(2, NULL, 8, &bad, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_bmap_new((size_t)1 << 40, mmpp, 8, &bad, &err), CRAWLSCHED_TOO_LARGE, err);
    CHECK(bad == NULL);
    CHECK_STATUS(crawlsched_bmap_fundamental_rate(NULL, &x, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_bmap_order(mm, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);

    /* The paper's real-data figures (section 7). */
    crawlsched_bmap_t *real = NULL;
    CHECK_OK(crawlsched_bmap_fit_new(212.03, 51352.38, 0.622, 3.263389905223716, 8, &real, &err), err);
    double m1 = 0.0, m2 = 0.0;
    CHECK_OK(crawlsched_bmap_interarrival_moment(real, 1, &m1, &err), err);
    CHECK_OK(crawlsched_bmap_interarrival_moment(real, 2, &m2, &err), err);
    CHECK_CLOSE(m1, 212.03, 1e-10);
    CHECK_CLOSE((m2 - m1 * m1) / 51352.38, 1.0, 1e-9);
    CHECK_OK(crawlsched_bmap_lag_correlation(real, 1, &x, &err), err);
    CHECK_CLOSE(x, 0.622, 1e-9);
    CHECK_OK(crawlsched_bmap_fundamental_rate(real, &x, &err), err);
    CHECK_CLOSE(x, 3.263389905223716 / 212.03, 1e-10);
    CHECK_STATUS(crawlsched_bmap_fit_new(212.03, 51352.38, -0.5, 3.0, 8, &bad, &err), CRAWLSCHED_INFEASIBLE, err);
    CHECK_STATUS(crawlsched_bmap_fit_new(212.03, 51352.38, 0.5, 9.0, 8, &bad, &err), CRAWLSCHED_INFEASIBLE, err);
    CHECK_STATUS(crawlsched_bmap_fit_new(-1.0, 1.0, 0.5, 2.0, 8, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);

    /* Compositions on the Poisson case. */
    crawlsched_bmap_t *c = NULL;
    CHECK_OK(crawlsched_bmap_compose_new(poi, CRAWLSCHED_BMAP_COMPOSE_INDEPENDENT, 3, 4, 0.0, &c, &err), err);
    CHECK_OK(crawlsched_bmap_fundamental_rate(c, &x, &err), err);
    CHECK_CLOSE(x, 6.0, 1e-14);
    crawlsched_bmap_free(c);
    CHECK_OK(crawlsched_bmap_compose_new(poi, CRAWLSCHED_BMAP_COMPOSE_THINNING, 0, 0, 0.25, &c, &err), err);
    CHECK_OK(crawlsched_bmap_fundamental_rate(c, &x, &err), err);
    CHECK_CLOSE(x, 0.5, 1e-14);
    crawlsched_bmap_free(c);
    CHECK_OK(crawlsched_bmap_compose_new(poi, CRAWLSCHED_BMAP_COMPOSE_SCALED, 2, 2, 0.0, &c, &err), err);
    CHECK_OK(crawlsched_bmap_fundamental_rate(c, &x, &err), err);
    CHECK_CLOSE(x, 4.0, 1e-14);
    crawlsched_bmap_free(c);
    CHECK_STATUS(crawlsched_bmap_compose_new(poi, 99, 1, 1, 0.0, &c, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_bmap_compose_new(poi, CRAWLSCHED_BMAP_COMPOSE_SCALED, 0, 2, 0.0, &c, &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_bmap_compose_new(poi, CRAWLSCHED_BMAP_COMPOSE_THINNING, 1, 1, 0.0, &c, &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_bmap_compose_new(mm, CRAWLSCHED_BMAP_COMPOSE_INDEPENDENT, 1, 13, 0.0, &c, &err),
                 CRAWLSCHED_TOO_LARGE, err);
    CHECK_STATUS(crawlsched_bmap_compose_new(NULL, CRAWLSCHED_BMAP_COMPOSE_SCALED, 1, 1, 0.0, &c, &err),
                 CRAWLSCHED_NULL_ARGUMENT, err);

    /* ---- Phase-type fits ---- */
    crawlsched_dist_t *ph = NULL;
    CHECK_OK(crawlsched_dist_fit_aph2_new(1.0, 2.0, 6.0, &ph, &err), err); /* exponential(1) */
    CHECK_OK(crawlsched_dist_moment(ph, 3, &x, &err), err);
    CHECK_CLOSE(x, 6.0, 1e-12);
    crawlsched_dist_free(ph);
    /* Erlang-2 of rate 2: E = 1, E2 = 1.5, E3 = 3. */
    CHECK_OK(crawlsched_dist_fit_aph2_new(1.0, 1.5, 3.0, &ph, &err), err);
    CHECK_OK(crawlsched_dist_variance(ph, &x, &err), err);
    CHECK_CLOSE(x, 0.5, 1e-10);
    crawlsched_dist_free(ph);
    CHECK_STATUS(crawlsched_dist_fit_aph2_new(1.0, 1.2, 2.0, &ph, &err), CRAWLSCHED_INFEASIBLE, err);
    CHECK_STATUS(crawlsched_dist_fit_aph2_new(NAN, 1.2, 2.0, &ph, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_OK(crawlsched_dist_fit_h2_new(49207.0356, 2.0527e11, 2.5773e18, &ph, &err), err);
    CHECK_OK(crawlsched_dist_mean(ph, &x, &err), err);
    CHECK_CLOSE(x, 49207.0356, 1e-10);
    CHECK_OK(crawlsched_dist_moment(ph, 3, &x, &err), err);
    CHECK_CLOSE(x, 2.5773e18, 1e-9);
    crawlsched_dist_free(ph);
    CHECK_STATUS(crawlsched_dist_fit_h2_new(1.0, 1.5, 3.0, &ph, &err), CRAWLSCHED_INFEASIBLE, err);
    CHECK_STATUS(crawlsched_dist_fit_h2_new(1.0, 3.0, 9.0, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);

    /* ---- M/M/1/K: one robot, Poisson 0.8, exponential service 1, buffer 5 ---- */
    crawlsched_bmap_t *p08 = NULL;
    crawlsched_dist_t *srv = NULL, *obs = NULL, *h2 = NULL, *det = NULL;
    CHECK_OK(crawlsched_bmap_poisson_new(0.8, &p08, &err), err);
    CHECK_OK(crawlsched_dist_exponential_new(1.0, &srv, &err), err);
    const crawlsched_bmap_t *arr1[1] = {p08};
    crawlsched_threshold_model_t *m = NULL;
    CHECK_OK(crawlsched_threshold_model_new(arr1, 1, srv, NULL, 5, &m, &err), err);
    uint64_t states = 0;
    CHECK_OK(crawlsched_threshold_model_state_count(m, &states, &err), err);
    CHECK(states == 7);
    const uint32_t one[1] = {1};
    double meas[CRAWLSCHED_THRESHOLD_MEASURE_COUNT];
    CHECK_OK(crawlsched_threshold_measures(m, one, 1, NULL, 0, NULL, meas, CRAWLSCHED_THRESHOLD_MEASURE_COUNT, &err), err);
    double p[16];
    birth_death(0.8, 1.0, 0.0, 6, p);
    CHECK_CLOSE(meas[CRAWLSCHED_THRESHOLD_MEASURE_LOSS], p[6], 1e-13);
    CHECK_CLOSE(meas[CRAWLSCHED_THRESHOLD_MEASURE_STARVATION], p[0], 1e-13);
    CHECK_CLOSE(meas[CRAWLSCHED_THRESHOLD_MEASURE_THROUGHPUT], 1.0 - p[0], 1e-13);
    CHECK_CLOSE(meas[CRAWLSCHED_THRESHOLD_MEASURE_FUNDAMENTAL_RATE], 0.8, 1e-14);
    CHECK_CLOSE(meas[CRAWLSCHED_THRESHOLD_MEASURE_MEAN_ROBOTS], 1.0, 1e-14);
    CHECK(meas[CRAWLSCHED_THRESHOLD_MEASURE_RESIDUAL] < 1e-13);
    double l = 0.0;
    for (int i = 0; i <= 6; i++) l += i * p[i];
    CHECK_CLOSE(meas[CRAWLSCHED_THRESHOLD_MEASURE_MEAN_PAGES], l, 1e-13);
    CHECK_CLOSE(meas[CRAWLSCHED_THRESHOLD_MEASURE_RESPONSE_TIME], l / (0.8 * (1.0 - p[6])), 1e-12);
    double lev[16];
    size_t len = 0;
    CHECK_STATUS(crawlsched_threshold_level_distribution(m, one, 1, NULL, 0, NULL, NULL, 0, &len, &err),
                 CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK(len == 7);
    CHECK_OK(crawlsched_threshold_level_distribution(m, one, 1, NULL, 0, NULL, lev, 16, &len, &err), err);
    CHECK(len == 7);
    for (int i = 0; i <= 6; i++) CHECK_CLOSE(lev[i], p[i], 1e-13);
    /* Response time: an admitted page finding n pages stays Erlang(n + 1, 1). */
    double resp[CRAWLSCHED_THRESHOLD_RESPONSE_COUNT];
    CHECK_OK(crawlsched_threshold_response_time(m, one, 1, NULL, 0, NULL, resp, CRAWLSCHED_THRESHOLD_RESPONSE_COUNT, &err), err);
    CHECK_CLOSE(resp[CRAWLSCHED_THRESHOLD_RESPONSE_MEAN], meas[CRAWLSCHED_THRESHOLD_MEASURE_RESPONSE_TIME], 1e-12);
    CHECK_CLOSE(resp[CRAWLSCHED_THRESHOLD_RESPONSE_SERVED_PROBABILITY], 1.0, 1e-13);
    CHECK_CLOSE(resp[CRAWLSCHED_THRESHOLD_RESPONSE_MEAN_SERVED], resp[CRAWLSCHED_THRESHOLD_RESPONSE_MEAN], 1e-12);
    CHECK(resp[CRAWLSCHED_THRESHOLD_RESPONSE_MEAN_OBSOLETE] == 0.0);
    const double ts[3] = {2.0, 0.5, 5.0};
    double cdf[3], cdf_s[3];
    CHECK_OK(crawlsched_threshold_response_cdf(m, one, 1, NULL, 0, CRAWLSCHED_THRESHOLD_SOJOURN_ALL, ts, 3, NULL, cdf, 3, &err),
             err);
    CHECK_OK(crawlsched_threshold_response_cdf(m, one, 1, NULL, 0, CRAWLSCHED_THRESHOLD_SOJOURN_SERVED, ts, 3, NULL, cdf_s, 3,
                                               &err),
             err);
    for (int k = 0; k < 3; k++) {
        double exact = 0.0;
        for (int n = 0; n < 6; n++) {
            double term = exp(-ts[k]), tail = term; /* P(Erlang(n+1, 1) > t) */
            for (int j = 1; j <= n; j++) {
                term *= ts[k] / j;
                tail += term;
            }
            exact += p[n] / (1.0 - p[6]) * (1.0 - tail);
        }
        CHECK_CLOSE(cdf[k], exact, 1e-12);
        CHECK_CLOSE(cdf_s[k], exact, 1e-12);
    }
    CHECK_STATUS(crawlsched_threshold_response_time(m, one, 1, NULL, 0, NULL, resp, 3, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK_STATUS(crawlsched_threshold_response_cdf(m, one, 1, NULL, 0, 5, ts, 3, NULL, cdf, 3, &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err);
    const double bad_t[1] = {-1.0};
    CHECK_STATUS(crawlsched_threshold_response_cdf(m, one, 1, NULL, 0, CRAWLSCHED_THRESHOLD_SOJOURN_ALL, bad_t, 1, NULL, cdf, 3,
                                                   &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_threshold_response_cdf(m, one, 1, NULL, 0, CRAWLSCHED_THRESHOLD_SOJOURN_ALL, ts, 3, NULL, cdf, 2, &err),
                 CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK_STATUS(crawlsched_threshold_response_cdf(NULL, one, 1, NULL, 0, CRAWLSCHED_THRESHOLD_SOJOURN_ALL, ts, 3, NULL, cdf, 3,
                                                   &err),
                 CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_threshold_measures(m, one, 1, NULL, 0, NULL, meas, 3, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);
    const uint32_t up[2] = {1, 2}, zero_mode[1] = {0};
    const uint32_t t0[1] = {0};
    CHECK_STATUS(crawlsched_threshold_measures(m, up, 2, t0, 1, NULL, meas, 12, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_threshold_measures(m, zero_mode, 1, NULL, 0, NULL, meas, 12, &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err);
    const uint32_t two[1] = {2};
    CHECK_STATUS(crawlsched_threshold_measures(m, two, 1, NULL, 0, NULL, meas, 12, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_threshold_measures(NULL, one, 1, NULL, 0, NULL, meas, 12, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_threshold_measures((const crawlsched_threshold_model_t *)(const void *)mm, one, 1, NULL, 0,
                                               NULL,
                                               meas, 12, &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err);
    crawlsched_threshold_model_free(m);

    /* ---- M/M/1/K+M: Poisson 1.7, service 1, obsolescence 0.3, buffer 6 ---- */
    crawlsched_bmap_t *p17 = NULL;
    CHECK_OK(crawlsched_bmap_poisson_new(1.7, &p17, &err), err);
    CHECK_OK(crawlsched_dist_exponential_new(0.3, &obs, &err), err);
    const crawlsched_bmap_t *arr2[1] = {p17};
    CHECK_OK(crawlsched_threshold_model_new(arr2, 1, srv, obs, 6, &m, &err), err);
    CHECK_OK(crawlsched_threshold_measures(m, one, 1, NULL, 0, NULL, meas, 12, &err), err);
    birth_death(1.7, 1.0, 0.3, 7, p);
    double orate = 0.0;
    for (int i = 2; i <= 7; i++) orate += p[i] * (i - 1) * 0.3;
    CHECK_CLOSE(meas[CRAWLSCHED_THRESHOLD_MEASURE_OBSOLESCENCE], orate / 1.7, 1e-13);
    CHECK_CLOSE(meas[CRAWLSCHED_THRESHOLD_MEASURE_LOSS], p[7], 1e-13);
    CHECK_CLOSE(meas[CRAWLSCHED_THRESHOLD_MEASURE_SUCCESS], (1.0 - p[0]) / 1.7, 1e-13);
    /* A page finding n pages is served w.p. 1/(1 + 0.3 n) after a mean 1 + sum_{j<=n} 1/(1 + 0.3 j). */
    CHECK_OK(crawlsched_threshold_response_time(m, one, 1, NULL, 0, NULL, resp, CRAWLSCHED_THRESHOLD_RESPONSE_COUNT, &err), err);
    double ps = 0.0, ms = 0.0;
    for (int n = 0; n < 7; n++) {
        double wn = p[n] / (1.0 - p[7]), sn = 1.0 / (1.0 + 0.3 * n), mean = 1.0;
        for (int j = 1; j <= n; j++) mean += 1.0 / (1.0 + 0.3 * j);
        ps += wn * sn;
        ms += wn * sn * mean;
    }
    CHECK_CLOSE(resp[CRAWLSCHED_THRESHOLD_RESPONSE_SERVED_PROBABILITY], ps, 1e-13);
    CHECK_CLOSE(resp[CRAWLSCHED_THRESHOLD_RESPONSE_MEAN_SERVED], ms / ps, 1e-12);
    CHECK_CLOSE(resp[CRAWLSCHED_THRESHOLD_RESPONSE_MEAN], meas[CRAWLSCHED_THRESHOLD_MEASURE_RESPONSE_TIME], 1e-12);
    crawlsched_threshold_model_free(m);

    /* ---- Talim et al. static cost at rho = 1, K = 15: (1.13 + 1)/16 ---- */
    crawlsched_bmap_t *p1 = NULL;
    CHECK_OK(crawlsched_bmap_poisson_new(1.0, &p1, &err), err);
    const crawlsched_bmap_t *arr3[1] = {p1};
    CHECK_OK(crawlsched_threshold_model_new(arr3, 1, srv, NULL, 14, &m, &err), err);
    const double talim_w[5] = {1.0, 0.0, 0.0, 0.0, 1.13};
    CHECK_OK(crawlsched_threshold_cost(m, one, 1, NULL, 0, talim_w, 5, NULL, &x, &err), err);
    CHECK_CLOSE(x, 0.133125, 1e-13);
    CHECK_STATUS(crawlsched_threshold_cost(m, one, 1, NULL, 0, talim_w, 4, NULL, &x, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    const double neg_w[5] = {1.0, -1.0, 0.0, 0.0, 1.0};
    CHECK_STATUS(crawlsched_threshold_cost(m, one, 1, NULL, 0, neg_w, 5, NULL, &x, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_threshold_cost(m, one, 1, NULL, 0, talim_w, 5, NULL, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    crawlsched_threshold_model_free(m);

    /* ---- Optimal threshold: 1 or 2 Poisson robots (scaled), buffer 4 ---- */
    crawlsched_bmap_t *r2 = NULL;
    CHECK_OK(crawlsched_bmap_compose_new(p1, CRAWLSCHED_BMAP_COMPOSE_SCALED, 2, 2, 0.0, &r2, &err), err);
    const crawlsched_bmap_t *arr4[2] = {p1, r2};
    CHECK_OK(crawlsched_dist_hyperexponential_new((const double[]){0.5, 0.5}, (const double[]){1.0, 3.0}, 2, &h2, &err),
             err);
    CHECK_OK(crawlsched_threshold_model_new(arr4, 2, srv, h2, 4, &m, &err), err);
    CHECK_OK(crawlsched_threshold_model_state_count(m, &states, &err), err);
    CHECK(states == 1 + 1 + 2 + 4 + 8 + 16); /* W = M = 1, R = 2, levels 0..5 */
    const uint32_t modes[2] = {2, 1};
    const double w[5] = {2.0, 1.0, 0.1, 0.3, 3.0};
    uint32_t topt[1] = {99};
    double copt = 0.0;
    uint64_t evaluated = 0;
    CHECK_OK(crawlsched_threshold_optimize(m, modes, 2, w, 5, 100, NULL, topt, 1, &copt, &evaluated, &err), err);
    CHECK(evaluated == 5); /* t in 0..4 */
    double best = 1e300;
    for (uint32_t t = 0; t < 5; t++) {
        uint32_t tt[1] = {t};
        CHECK_OK(crawlsched_threshold_cost(m, modes, 2, tt, 1, w, 5, NULL, &x, &err), err);
        if (x < best) best = x;
    }
    CHECK_CLOSE(copt, best, 1e-15);
    CHECK_OK(crawlsched_threshold_cost(m, modes, 2, topt, 1, w, 5, NULL, &x, &err), err);
    CHECK_CLOSE(x, copt, 1e-15);
    CHECK_STATUS(crawlsched_threshold_optimize(m, modes, 2, w, 5, 4, NULL, topt, 1, &copt, &evaluated, &err),
                 CRAWLSCHED_TOO_LARGE, err);
    CHECK_STATUS(crawlsched_threshold_optimize(m, modes, 2, w, 5, 100, NULL, topt, 0, &copt, &evaluated, &err),
                 CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK_STATUS(crawlsched_threshold_optimize(m, modes, 2, w, 5, 100, NULL, topt, 1, NULL, &evaluated, &err),
                 CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_threshold_optimize(m, up, 2, w, 5, 100, NULL, topt, 1, &copt, &evaluated, &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err);
    crawlsched_threshold_model_free(m);

    /* ---- Model errors ---- */
    CHECK_OK(crawlsched_dist_deterministic_new(1.0, &det, &err), err);
    CHECK_STATUS(crawlsched_threshold_model_new(arr1, 1, det, NULL, 5, &m, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    const crawlsched_bmap_t *mixed[2] = {p1, mm};
    CHECK_STATUS(crawlsched_threshold_model_new(mixed, 2, srv, NULL, 5, &m, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_threshold_model_new(NULL, 1, srv, NULL, 5, &m, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_threshold_model_new(arr1, 0, srv, NULL, 5, &m, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_threshold_model_new(arr1, 1, NULL, NULL, 5, &m, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    /* 2 obsolescence phases, buffer 40: 1 + sum_{i=1}^{41} 2^(i-1) = 2^41 states. */
    CHECK_STATUS(crawlsched_threshold_model_new(arr1, 1, srv, h2, 40, &m, &err), CRAWLSCHED_TOO_LARGE, err);
    CHECK(strstr(err.message, "2199023255552 states") != NULL);
    CHECK_STATUS(crawlsched_threshold_model_new(arr1, 1, srv, h2, 200, &m, &err), CRAWLSCHED_TOO_LARGE, err);
    CHECK_STATUS(crawlsched_threshold_model_state_count(NULL, &states, &err), CRAWLSCHED_NULL_ARGUMENT, err);

    crawlsched_threshold_model_free(NULL);
    crawlsched_bmap_free(NULL);
    crawlsched_dist_free(det);
    crawlsched_dist_free(h2);
    crawlsched_dist_free(obs);
    crawlsched_dist_free(srv);
    crawlsched_bmap_free(r2);
    crawlsched_bmap_free(p1);
    crawlsched_bmap_free(p17);
    crawlsched_bmap_free(p08);
    crawlsched_bmap_free(real);
    crawlsched_bmap_free(mm);
    crawlsched_bmap_free(poi);
    return CHECK_REPORT("test_threshold");
}
