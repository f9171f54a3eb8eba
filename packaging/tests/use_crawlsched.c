/* Install test: built only from the installed files (pkg-config), never from
 * the source tree. Checks the ABI and one exact result. */
#include <crawlsched.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    crawlsched_error_t err = {0};
    crawlsched_dist_t *d = NULL;
    double mean = 0.0;
    char expected[32];

    if (crawlsched_abi_version() != CRAWLSCHED_ABI_VERSION) {
        fprintf(stderr, "ABI mismatch: library %u, header %u\n",
                (unsigned)crawlsched_abi_version(), (unsigned)CRAWLSCHED_ABI_VERSION);
        return 1;
    }
    snprintf(expected, sizeof expected, "%d.%d.%d", CRAWLSCHED_VERSION_MAJOR,
             CRAWLSCHED_VERSION_MINOR, CRAWLSCHED_VERSION_PATCH);
    if (strcmp(crawlsched_version(), expected) != 0) {
        fprintf(stderr, "version mismatch: library %s, header %s\n", crawlsched_version(), expected);
        return 1;
    }
    /* Exponential with rate 4: mean exactly 1/4. */
    if (crawlsched_dist_exponential_new(4.0, &d, &err) != CRAWLSCHED_OK ||
        crawlsched_dist_mean(d, &mean, &err) != CRAWLSCHED_OK) {
        fprintf(stderr, "crawlsched: %s\n", err.message);
        return 1;
    }
    crawlsched_dist_free(d);
    if (fabs(mean - 0.25) > 1e-15) {
        fprintf(stderr, "mean %.17g, expected 0.25\n", mean);
        return 1;
    }
    /* An error path through the installed library. */
    if (crawlsched_dist_exponential_new(-1.0, &d, &err) != CRAWLSCHED_INVALID_ARGUMENT ||
        err.status != CRAWLSCHED_INVALID_ARGUMENT || err.message[0] == '\0') {
        fprintf(stderr, "negative rate was not refused\n");
        return 1;
    }
    /* A recrawl plan: deterministic crawl time, weights = change rates, so
     * Theorem 3.4 gives f_i proportional to mu_i = (1, 2, 5) / 8. */
    {
        const double rates[3] = {1.0, 2.0, 5.0};
        double f[3] = {0.0, 0.0, 0.0};
        crawlsched_freshness_model_t *model = NULL;
        if (crawlsched_dist_deterministic_new(0.1, &d, &err) != CRAWLSCHED_OK ||
            crawlsched_freshness_model_new(d, rates, NULL, 3, &model, &err) != CRAWLSCHED_OK ||
            crawlsched_freshness_optimal_frequencies(model, f, 3, &err) != CRAWLSCHED_OK) {
            fprintf(stderr, "crawlsched: %s\n", err.message);
            return 1;
        }
        crawlsched_freshness_model_free(model);
        crawlsched_dist_free(d);
        for (int i = 0; i < 3; i++) {
            if (fabs(f[i] - rates[i] / 8.0) > 1e-12) {
                fprintf(stderr, "f[%d] = %.17g, expected %.17g\n", i, f[i], rates[i] / 8.0);
                return 1;
            }
        }
    }
    printf("C via pkg-config: crawlsched %s, ABI %u, mean %.2f, plan ok\n", crawlsched_version(),
           (unsigned)crawlsched_abi_version(), mean);
    return 0;
}
