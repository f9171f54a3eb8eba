/* Plans recrawl frequencies for a few thousand pages through the C API and
 * prints the freshness gain over uniform round-robin crawling.
 *
 *   cargo build --release
 *   cc -std=c11 -Iinclude examples/c/plan.c target/release/libcrawlsched.a \
 *      -lpthread -ldl -lm -o plan && ./plan 3000
 */
#include <crawlsched.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define TRY(call)                                                             \
    do {                                                                      \
        if ((call) != CRAWLSCHED_OK) {                                        \
            fprintf(stderr, "%s failed: %s (%s)\n", #call, err.message,       \
                    crawlsched_status_string(err.status));                    \
            return 1;                                                         \
        }                                                                     \
    } while (0)

/* Deterministic uniform(0,1) for the example's page rates (xorshift64*). */
static double uniform01(uint64_t *s) {
    *s ^= *s >> 12; *s ^= *s << 25; *s ^= *s >> 27;
    return (double)((*s * 2685821657736338717ULL) >> 11) / 9007199254740992.0;
}

int main(int argc, char **argv) {
    size_t n = argc > 1 ? (size_t)strtoul(argv[1], NULL, 10) : 3000;
    if (n < 2 || n > 1000000) {
        fprintf(stderr, "usage: plan [pages, 2..1000000]\n");
        return 2;
    }
    if (crawlsched_abi_version() != CRAWLSCHED_ABI_VERSION) {
        fprintf(stderr, "libcrawlsched ABI %u, built for %d\n", crawlsched_abi_version(), CRAWLSCHED_ABI_VERSION);
        return 1;
    }
    crawlsched_error_t err = {0};
    double *mu = malloc(n * sizeof *mu), *freq = malloc(n * sizeof *freq);
    uint64_t *counts = malloc(n * sizeof *counts);
    uint32_t *uniform = malloc(n * sizeof *uniform);
    if (!mu || !freq || !counts || !uniform) return 1;

    /* Log-normal change rates scaled to 0.8 changes/s in total. */
    uint64_t s = 42;
    double total = 0.0;
    for (size_t i = 0; i < n; i++) {
        double u1 = uniform01(&s) + 1e-300, u2 = uniform01(&s);
        mu[i] = exp(1.5 * sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
        total += mu[i];
    }
    for (size_t i = 0; i < n; i++) mu[i] *= 0.8 / total;

    crawlsched_dist_t *crawl_time = NULL;          /* mean 1 s, cv 1.41 */
    crawlsched_freshness_model_t *model = NULL;
    TRY(crawlsched_dist_gamma_new(0.5, 0.5, &crawl_time, &err));
    TRY(crawlsched_freshness_model_new(crawl_time, mu, NULL, n, &model, &err));
    crawlsched_dist_free(crawl_time); /* the model keeps its own copy */

    /* Optimal frequencies, rounded to a Fibonacci-length golden-ratio cycle. */
    uint64_t cycle = 0;
    size_t len = 0;
    TRY(crawlsched_freshness_optimal_frequencies(model, freq, n, &err));
    TRY(crawlsched_freshness_fibonacci_at_least(20 * (uint64_t)n, &cycle, &err));
    TRY(crawlsched_freshness_integer_counts(freq, n, cycle, 1, counts, n, &err));
    /* Ask for the length first, then fill. */
    crawlsched_status_t st = crawlsched_freshness_golden_ratio_sequence(counts, n, NULL, 0, &len, &err);
    if (st != CRAWLSCHED_BUFFER_TOO_SMALL) return 1;
    uint32_t *seq = malloc(len * sizeof *seq);
    if (!seq) return 1;
    TRY(crawlsched_freshness_golden_ratio_sequence(counts, n, seq, len, &len, &err));

    for (size_t i = 0; i < n; i++) uniform[i] = (uint32_t)i;
    double c_uniform = 0, c_opt = 0, bound = 0;
    TRY(crawlsched_freshness_cyclic_cost(model, uniform, n, &c_uniform, &err));
    TRY(crawlsched_freshness_cyclic_cost(model, seq, len, &c_opt, &err));
    TRY(crawlsched_freshness_lower_bound(model, &bound, &err));

    printf("%zu pages, golden-ratio cycle of %zu crawls\n", n, len);
    printf("missed changes/s: uniform %.4f, crawlsched %.4f (%.1f%% fewer), lower bound %.4f\n",
           c_uniform, c_opt, 100.0 * (1.0 - c_opt / c_uniform), bound);

    crawlsched_freshness_model_free(model);
    free(seq); free(mu); free(freq); free(counts); free(uniform);
    return c_opt < c_uniform && c_opt >= bound * (1 - 1e-12) ? 0 : 1;
}
