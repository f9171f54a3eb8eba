/* Every crawlsched_dist_* function from C, with its error paths. */
#include "crawlsched.h"
#include "check.h"

static double mean_of(const crawlsched_dist_t *d) {
    double m = -1.0;
    crawlsched_error_t err = {0};
    CHECK_OK(crawlsched_dist_mean(d, &m, &err), err);
    return m;
}

int main(void) {
    crawlsched_error_t err = {0};
    crawlsched_dist_t *det = NULL, *ex = NULL, *erl = NULL, *gam = NULL,
                      *hyp = NULL, *ph = NULL, *cox = NULL, *emp = NULL;

    CHECK_OK(crawlsched_dist_deterministic_new(2.0, &det, &err), err);
    CHECK_OK(crawlsched_dist_exponential_new(0.5, &ex, &err), err);
    CHECK_OK(crawlsched_dist_erlang_new(3, 1.5, &erl, &err), err);
    CHECK_OK(crawlsched_dist_gamma_new(2.5, 0.5, &gam, &err), err);
    const double probs[] = {0.25, 0.75}, rates[] = {0.5, 3.0};
    CHECK_OK(crawlsched_dist_hyperexponential_new(probs, rates, 2, &hyp, &err), err);
    /* Erlang(2, 1) as a phase-type distribution. */
    const double alpha[] = {1.0, 0.0}, S[] = {-1.0, 1.0, 0.0, -1.0};
    CHECK_OK(crawlsched_dist_phase_type_new(alpha, 2, S, 4, &ph, &err), err);
    const double crates[] = {2.0, 1.0}, cont[] = {0.5};
    CHECK_OK(crawlsched_dist_coxian_new(crates, 2, cont, 1, &cox, &err), err);
    const double xs[] = {1.0, 2.0, 6.0};
    CHECK_OK(crawlsched_dist_empirical_new(xs, 3, &emp, &err), err);

    /* Means from closed forms. */
    CHECK_CLOSE(mean_of(det), 2.0, 1e-15);
    CHECK_CLOSE(mean_of(ex), 2.0, 1e-15);
    CHECK_CLOSE(mean_of(erl), 2.0, 1e-15);
    CHECK_CLOSE(mean_of(gam), 5.0, 1e-15);
    CHECK_CLOSE(mean_of(hyp), 0.25 / 0.5 + 0.75 / 3.0, 1e-15);
    CHECK_CLOSE(mean_of(ph), 2.0, 1e-14);
    CHECK_CLOSE(mean_of(cox), 0.5 + 0.5 * 1.0, 1e-14);
    CHECK_CLOSE(mean_of(emp), 3.0, 1e-15);

    double v = 0.0;
    CHECK_OK(crawlsched_dist_variance(ex, &v, &err), err);
    CHECK_CLOSE(v, 4.0, 1e-15);
    CHECK_OK(crawlsched_dist_variance(ph, &v, &err), err);
    CHECK_CLOSE(v, 2.0, 1e-13);
    CHECK_OK(crawlsched_dist_moment(ex, 3, &v, &err), err); /* 3!/rate^3 */
    CHECK_CLOSE(v, 48.0, 1e-14);
    CHECK_OK(crawlsched_dist_moment(emp, 0, &v, &err), err);
    CHECK_CLOSE(v, 1.0, 0.0);

    /* Laplace transforms: rate/(rate+s), e^{-sv}, (1/(1+s))^2 for PH. */
    CHECK_OK(crawlsched_dist_laplace(ex, 1.0, &v, &err), err);
    CHECK_CLOSE(v, 0.5 / 1.5, 1e-15);
    CHECK_OK(crawlsched_dist_laplace(det, 0.3, &v, &err), err);
    CHECK_CLOSE(v, exp(-0.6), 1e-15);
    CHECK_OK(crawlsched_dist_laplace(ph, 0.5, &v, &err), err);
    CHECK_CLOSE(v, 1.0 / 2.25, 1e-14);
    CHECK_OK(crawlsched_dist_laplace(emp, 0.0, &v, &err), err);
    CHECK_CLOSE(v, 1.0, 0.0);

    /* CDF. */
    CHECK_OK(crawlsched_dist_cdf(ex, 2.0, &v, &err), err);
    CHECK_CLOSE(v, 1.0 - exp(-1.0), 1e-15);
    CHECK_OK(crawlsched_dist_cdf(ph, 1.0, &v, &err), err);
    CHECK_CLOSE(v, 1.0 - 2.0 * exp(-1.0), 1e-12);
    CHECK_OK(crawlsched_dist_cdf(emp, 2.0, &v, &err), err);
    CHECK_CLOSE(v, 2.0 / 3.0, 1e-15);

    /* Sampling is reproducible from the seed and has the right mean. */
    enum { N = 100000 };
    static double a[N], b[N];
    CHECK_OK(crawlsched_dist_sample(gam, 42, a, N, &err), err);
    CHECK_OK(crawlsched_dist_sample(gam, 42, b, N, &err), err);
    CHECK(memcmp(a, b, sizeof a) == 0);
    double sum = 0.0;
    for (int i = 0; i < N; i++) sum += a[i];
    /* sd of the mean = sqrt(10/N) = 0.01; allow 5 sd. */
    CHECK(fabs(sum / N - 5.0) < 0.05);
    CHECK_OK(crawlsched_dist_sample(gam, 1, NULL, 0, &err), err);

    /* ---- error paths ---- */
    crawlsched_dist_t *bad = NULL;
    CHECK_STATUS(crawlsched_dist_deterministic_new(-1.0, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_exponential_new(NAN, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_exponential_new(INFINITY, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_erlang_new(0, 1.0, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_gamma_new(1.0, -2.0, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    const double badp[] = {0.5, 0.6};
    CHECK_STATUS(crawlsched_dist_hyperexponential_new(badp, rates, 2, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_hyperexponential_new(NULL, rates, 2, &bad, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_hyperexponential_new(probs, rates, 0, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_hyperexponential_new(probs, rates, SIZE_MAX, &bad, &err), CRAWLSCHED_TOO_LARGE, err);
    const double notsub[] = {-1.0, 2.0, 0.0, -1.0}; /* row 0 sums to +1 */
    CHECK_STATUS(crawlsched_dist_phase_type_new(alpha, 2, notsub, 4, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_phase_type_new(alpha, 2, S, 3, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    const double nan_s[] = {-1.0, NAN, 0.0, -1.0};
    CHECK_STATUS(crawlsched_dist_phase_type_new(alpha, 2, nan_s, 4, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_phase_type_new(alpha, 0, S, 0, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_coxian_new(crates, 2, cont, 0, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    const double badcont[] = {1.5};
    CHECK_STATUS(crawlsched_dist_coxian_new(crates, 2, badcont, 1, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_empirical_new(xs, 0, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_empirical_new(NULL, 3, &bad, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    const double negxs[] = {1.0, -1.0};
    CHECK_STATUS(crawlsched_dist_empirical_new(negxs, 2, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK(bad == NULL);

    double untouched = 123.0;
    CHECK_STATUS(crawlsched_dist_mean(NULL, &untouched, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_mean(ex, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_variance(NULL, &untouched, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_moment(NULL, 2, &untouched, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_moment(ex, 400, &untouched, &err), CRAWLSCHED_NUMERICAL, err);
    CHECK_STATUS(crawlsched_dist_laplace(ex, -1.0, &untouched, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_laplace(ex, NAN, &untouched, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_laplace(NULL, 1.0, &untouched, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_cdf(ex, NAN, &untouched, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_cdf(NULL, 1.0, &untouched, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_sample(ex, 1, NULL, 5, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_sample(NULL, 1, a, 5, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_dist_sample(ex, 1, a, SIZE_MAX, &err), CRAWLSCHED_TOO_LARGE, err);
    CHECK(untouched == 123.0); /* outputs written only on success */

    crawlsched_dist_free(det);
    crawlsched_dist_free(ex);
    crawlsched_dist_free(erl);
    crawlsched_dist_free(gam);
    crawlsched_dist_free(hyp);
    crawlsched_dist_free(ph);
    crawlsched_dist_free(cox);
    crawlsched_dist_free(emp);
    return CHECK_REPORT("test_dist");
}
