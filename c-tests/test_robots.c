/* Every crawlsched_robots_* function from C, with error paths. Static costs
 * are computed here from eq. (9); dynamic ones are the paper's Tables 1–2. */
#include "crawlsched.h"
#include "check.h"
#include <stdint.h>

static double cs(double rho, double gamma, int k) { /* eq. (9), mu = 1 */
    return (1.0 - rho) * (gamma + pow(rho, k + 1)) / (1.0 - pow(rho, k + 1));
}

int main(void) {
    crawlsched_error_t err = {0};
    crawlsched_robots_t *r = NULL;

    /* Table 1, lambda = 0.1, K = 5, gamma = 0.4: N_s = 7, C_d = 0.15239,
     * N_min = 1, N-bar = 6.5. */
    CHECK_OK(crawlsched_robots_solve(7, 5, 0.1, 1.0, 0.4, NULL, &r, &err), err);
    uint64_t n = 0, k = 0, nmin = 99;
    double cost = 0, starv = 0, loss = 0, nbar = 0;
    int64_t nmax = -7;
    CHECK_OK(crawlsched_robots_size(r, &n, &k, &err), err);
    CHECK(n == 7 && k == 5);
    CHECK_OK(crawlsched_robots_cost(r, &cost, &starv, &loss, &err), err);
    CHECK_CLOSE(cost, 0.15239, 1e-4);
    CHECK_CLOSE(cost, 0.4 * starv + loss, 1e-12);
    CHECK_OK(crawlsched_robots_counts(r, &nmin, &nbar, &nmax, &err), err);
    CHECK(nmin == 1);
    CHECK(fabs(nbar - 6.5) < 0.1);
    CHECK(nmax >= 0 && nmax < 7);

    int64_t f0[8], f1[8];
    int is_curve = -1;
    CHECK_OK(crawlsched_robots_switching_curve(r, 0, f0, 8, &is_curve, &err), err);
    CHECK(is_curve == 1 && f0[0] >= 1);
    for (int i = 1; i < 8; i++) CHECK(f0[i] <= f0[i - 1]); /* monotone (§3) */
    CHECK_OK(crawlsched_robots_switching_curve(r, 1, f1, 8, &is_curve, &err), err);
    CHECK_STATUS(crawlsched_robots_switching_curve(r, 0, f0, 7, &is_curve, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK_STATUS(crawlsched_robots_switching_curve(r, 2, f0, 8, &is_curve, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_switching_curve(r, 0, f0, 8, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);

    double pi[3 * 6 * 8], total = 0.0, empty = 0.0;
    CHECK_OK(crawlsched_robots_stationary(r, pi, 3 * 6 * 8, &err), err);
    for (int rr = 0; rr < 8; rr++)
        for (int q = 0; q < 6; q++)
            for (int s = 0; s < 3; s++) {
                total += pi[(rr * 6 + q) * 3 + s];
                if (q == 0) empty += pi[(rr * 6 + q) * 3 + s];
            }
    CHECK_CLOSE(total, 1.0, 1e-12);
    CHECK_CLOSE(empty, starv, 1e-12);
    CHECK_STATUS(crawlsched_robots_stationary(r, pi, 10, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);

    /* The action table is the policy itself: here exactly the curve. */
    uint8_t acts[2 * 6 * 8];
    CHECK_OK(crawlsched_robots_actions(r, acts, 2 * 6 * 8, &err), err);
    for (int rr = 0; rr < 8; rr++)
        for (int q = 0; q < 6; q++)
            for (int s = 0; s < 2; s++) {
                if ((s == 0 && q == 0) || (s == 1 && rr == 0)) continue; /* excluded */
                int64_t f = s == 0 ? f0[rr] : f1[rr];
                CHECK(acts[(rr * 6 + q) * 2 + s] == (q <= f ? 1 : 0));
            }
    acts[0] = 7;
    CHECK_STATUS(crawlsched_robots_actions(r, acts, 2 * 6 * 8 - 1, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK(acts[0] == 7); /* untouched on failure */
    CHECK_STATUS(crawlsched_robots_actions(r, NULL, 2 * 6 * 8, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_actions(NULL, acts, 2 * 6 * 8, &err), CRAWLSCHED_NULL_ARGUMENT, err);

    /* The certificate brackets C_d within 1e-9. */
    double lo = -1, hi = -1;
    uint64_t iters = 0;
    CHECK_OK(crawlsched_robots_certificate(r, &lo, &hi, &iters, &err), err);
    CHECK(lo <= cost + 1e-15 && cost <= hi + 1e-15 && hi - lo <= 1e-9 && iters >= 1);
    CHECK_STATUS(crawlsched_robots_certificate(r, &lo, NULL, &iters, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_certificate(NULL, &lo, &hi, &iters, &err), CRAWLSCHED_NULL_ARGUMENT, err);

    /* The optimal curve, given back, costs C_d; the static policy with
     * n robots costs eq. (9). */
    double c = 0;
    CHECK_OK(crawlsched_robots_evaluate_curve(r, f0, f1, 8, &c, &err), err);
    CHECK_CLOSE(c, cost, 1e-12);
    for (uint64_t m = 1; m <= 7; m++) {
        CHECK_OK(crawlsched_robots_evaluate_static(r, m, &c, &err), err);
        CHECK_CLOSE(c, cs(0.1 * (double)m, 0.4, 5), 1e-12);
        CHECK(c >= cost - 1e-12);
    }
    int64_t bad[8];
    for (int i = 0; i < 8; i++) bad[i] = 0; /* never activates at (1, 0, 0) */
    c = -1;
    CHECK_STATUS(crawlsched_robots_evaluate_curve(r, bad, f1, 8, &c, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_evaluate_curve(r, f0, f1, 3, &c, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_evaluate_curve(r, NULL, f1, 8, &c, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_evaluate_static(r, 0, &c, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_evaluate_static(r, 8, &c, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK(c == -1);
    crawlsched_robots_free(r);

    /* Table 2, same row with N free: C_d = 0.11097, N_min 2, N-bar 8.2, N_max 12. */
    r = NULL;
    CHECK_OK(crawlsched_robots_solve_unlimited(5, 0.1, 1.0, 0.4, NULL, &r, &err), err);
    CHECK_OK(crawlsched_robots_cost(r, &cost, &starv, &loss, &err), err);
    CHECK_CLOSE(cost, 0.11097, 1e-4);
    CHECK_OK(crawlsched_robots_counts(r, &nmin, &nbar, &nmax, &err), err);
    CHECK(nmin == 2 && nmax == 12 && fabs(nbar - 8.2) < 0.1);
    crawlsched_robots_free(r);
    crawlsched_robots_free(NULL);

    /* Static closed form and Proposition 3. */
    double v = 0;
    CHECK_OK(crawlsched_robots_static_cost(0.7, 0.4, 5, 1.0, &v, &err), err);
    CHECK_CLOSE(v, cs(0.7, 0.4, 5), 1e-13);
    CHECK_OK(crawlsched_robots_static_cost(1.0, 1.13, 15, 1.0, &v, &err), err);
    CHECK_CLOSE(v, 2.13 / 16.0, 1e-14);
    CHECK_OK(crawlsched_robots_static_cost(1.5, 2.0, 8, 2.0, &v, &err), err);
    CHECK_CLOSE(v, (1.0 - 1.5) * (2.0 + 2.0 * pow(1.5, 9)) / (1.0 - pow(1.5, 9)), 1e-12);
    uint64_t ns = 0;
    CHECK_OK(crawlsched_robots_optimal_static(0.1, 1.0, 0.4, 5, &ns, &v, &err), err);
    CHECK(ns == 7);
    CHECK_CLOSE(v, 0.17600, 1e-5);

    /* Error paths. */
    r = NULL;
    CHECK_STATUS(crawlsched_robots_solve(0, 5, 0.1, 1.0, 0.4, NULL, &r, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_solve(7, 0, 0.1, 1.0, 0.4, NULL, &r, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_solve(7, 5, NAN, 1.0, 0.4, NULL, &r, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_solve(7, 5, 0.1, -1.0, 0.4, NULL, &r, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_solve(7, 5, 0.1, 1.0, -0.4, NULL, &r, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_solve(7, 5, 0.1, 1.0, INFINITY, NULL, &r, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_solve(UINT64_MAX / 4, 5, 0.1, 1.0, 0.4, NULL, &r, &err), CRAWLSCHED_TOO_LARGE, err);
    CHECK_STATUS(crawlsched_robots_solve(7, 5, 0.1, 1.0, 0.4, NULL, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_solve_unlimited(5, 0.0, 1.0, 0.4, NULL, &r, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK(r == NULL);
    CHECK_STATUS(crawlsched_robots_size(NULL, &n, &k, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_cost(NULL, &cost, &starv, &loss, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_counts(NULL, &nmin, &nbar, &nmax, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_static_cost(0.0, 0.4, 5, 1.0, &v, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_static_cost(0.5, -0.4, 5, 1.0, &v, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_static_cost(0.5, 0.4, 0, 1.0, &v, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_static_cost(0.5, 0.4, 5, 1.0, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_optimal_static(0.1, 1.0, NAN, 5, &ns, &v, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_robots_optimal_static(0.1, 1.0, 0.4, 5, NULL, &v, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    return CHECK_REPORT("test_robots");
}
