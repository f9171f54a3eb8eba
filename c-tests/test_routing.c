/* Every crawlsched_routing_* function from C, with error paths. Expected
 * values come from the paper's closed forms computed here: Poisson
 * transforms (lambda/(lambda+mu))^k, Erlang renewal transforms, g(n, mu2)
 * of Figure 1, and brute force over all two-server periods. */
#include "crawlsched.h"
#include "check.h"

#include <stdint.h>

/* Cost per packet of a two-server period under Poisson(1) arrivals and
 * losses, eq. (6) written out: sum over servers of rho_m^gap. */
static double two_server_eq6(const uint32_t *seq, int n, double mu1, double mu2) {
    double rho[2] = {1.0 / (1.0 + mu1), 1.0 / (1.0 + mu2)};
    double total = 0.0;
    for (int m = 0; m < 2; m++) {
        int first = -1, last = -1;
        for (int i = 0; i < n; i++) {
            if ((int)seq[i] != m) continue;
            if (last >= 0) total += pow(rho[m], i - last);
            else first = i;
            last = i;
        }
        if (last >= 0) total += pow(rho[m], first + n - last);
    }
    return total / n;
}

static double g_fig1(int n, double mu2) {
    double b = 1.0 / (1.0 + mu2);
    return (pow(0.5, n) + b * b + (n - 2) * b) / n;
}

int main(void) {
    crawlsched_error_t err = {0};
    double x = -1.0, y = -1.0, z = -1.0;

    /* --- arrival processes --- */
    crawlsched_routing_arrivals_t *pois = NULL, *mmpp = NULL, *erl = NULL, *bad = NULL;
    CHECK_OK(crawlsched_routing_arrivals_poisson_new(1.0, &pois, &err), err);
    CHECK_STATUS(crawlsched_routing_arrivals_poisson_new(0.0, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_arrivals_poisson_new(-2.0, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_arrivals_poisson_new(NAN, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_arrivals_poisson_new(INFINITY, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_arrivals_poisson_new(1.0, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK(bad == NULL);

    const double q[4] = {-0.1, 0.1, 0.3, -0.3}, lam[2] = {0.5, 3.5};
    const double not_gen[4] = {-0.1, 0.2, 0.3, -0.3};
    CHECK_OK(crawlsched_routing_arrivals_mmpp_new(q, 4, lam, 2, &mmpp, &err), err);
    CHECK_STATUS(crawlsched_routing_arrivals_mmpp_new(not_gen, 4, lam, 2, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_arrivals_mmpp_new(q, 3, lam, 2, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_arrivals_mmpp_new(NULL, 4, lam, 2, &bad, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    const double neg[2] = {0.5, -1.0};
    CHECK_STATUS(crawlsched_routing_arrivals_mmpp_new(q, 4, neg, 2, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    const double zero[2] = {0.0, 0.0};
    CHECK_STATUS(crawlsched_routing_arrivals_mmpp_new(q, 4, zero, 2, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);

    /* Erlang(2, 1.6) renewal arrivals (rate 0.8) as a MAP (C, D). */
    const double c[4] = {-1.6, 1.6, 0.0, -1.6}, d[4] = {0.0, 0.0, 1.6, 0.0};
    const double d_bad[4] = {0.0, 0.0, 1.0, 0.0};
    CHECK_OK(crawlsched_routing_arrivals_map_new(2, c, 4, d, 4, &erl, &err), err);
    CHECK_STATUS(crawlsched_routing_arrivals_map_new(2, c, 4, d_bad, 4, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_arrivals_map_new(0, NULL, 0, NULL, 0, &bad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_arrivals_map_new(2, c, 4, NULL, 4, &bad, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK(bad == NULL);

    CHECK_OK(crawlsched_routing_arrivals_rate(pois, &x, &err), err);
    CHECK_CLOSE(x, 1.0, 1e-15);
    CHECK_OK(crawlsched_routing_arrivals_rate(mmpp, &x, &err), err);
    CHECK_CLOSE(x, 0.75 * 0.5 + 0.25 * 3.5, 1e-13);
    CHECK_OK(crawlsched_routing_arrivals_rate(erl, &x, &err), err);
    CHECK_CLOSE(x, 0.8, 1e-13);
    CHECK_STATUS(crawlsched_routing_arrivals_rate(NULL, &x, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_arrivals_rate(pois, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);

    /* Lemma 5.2: Poisson (1/(1+mu))^k; Erlang (1.6/(1.6+mu))^(2k). */
    CHECK_OK(crawlsched_routing_arrivals_transform(pois, 3.0, 4, &x, &err), err);
    CHECK_CLOSE(x, pow(0.25, 4), 1e-15);
    CHECK_OK(crawlsched_routing_arrivals_transform(erl, 1.3, 5, &x, &err), err);
    CHECK_CLOSE(x, pow(1.6 / 2.9, 10), 1e-13);
    x = -1.0;
    CHECK_STATUS(crawlsched_routing_arrivals_transform(pois, 3.0, 0, &x, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_arrivals_transform(pois, 0.0, 1, &x, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_arrivals_transform(pois, NAN, 1, &x, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_arrivals_transform(pois, 1.0, 2000000, &x, &err), CRAWLSCHED_TOO_LARGE, err);
    CHECK_STATUS(crawlsched_routing_arrivals_transform(NULL, 1.0, 1, &x, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK(x == -1.0);

    /* --- server sets --- */
    crawlsched_routing_servers_t *s2 = NULL, *s3 = NULL, *robot = NULL, *sbad = NULL;
    const double mu_fig[2] = {1.0, 3.0};
    CHECK_OK(crawlsched_routing_servers_new(pois, mu_fig, NULL, 2, CRAWLSCHED_ROUTING_LOSSES, &s2, &err), err);
    const double mu3[3] = {0.5, 1.0, 2.0}, w3[3] = {1.0, 2.0, 0.5};
    CHECK_OK(crawlsched_routing_servers_new(mmpp, mu3, w3, 3, CRAWLSCHED_ROUTING_LOSSES, &s3, &err), err);
    /* Remark 6.1: c1/mu1 = 100 dwarfs c2/mu2 = 0.1. */
    const double mu_r[2] = {0.1, 10.0}, c_r[2] = {10.0, 1.0};
    CHECK_OK(crawlsched_routing_servers_new(pois, mu_r, c_r, 2, CRAWLSCHED_ROUTING_ROBOT, &robot, &err), err);
    crawlsched_routing_arrivals_free(erl); /* server sets keep copies */
    erl = NULL;
    CHECK_STATUS(crawlsched_routing_servers_new(pois, NULL, NULL, 0, CRAWLSCHED_ROUTING_LOSSES, &sbad, &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err); /* empty server set */
    const double mu_zero[2] = {1.0, 0.0}, mu_neg[2] = {1.0, -3.0}, mu_nan[2] = {1.0, NAN};
    CHECK_STATUS(crawlsched_routing_servers_new(pois, mu_zero, NULL, 2, 0, &sbad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_servers_new(pois, mu_neg, NULL, 2, 0, &sbad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_servers_new(pois, mu_nan, NULL, 2, 0, &sbad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    const double w_bad[2] = {1.0, 0.0};
    CHECK_STATUS(crawlsched_routing_servers_new(pois, mu_fig, w_bad, 2, 0, &sbad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_servers_new(pois, mu_fig, NULL, 2, 7, &sbad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_servers_new(NULL, mu_fig, NULL, 2, 0, &sbad, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_servers_new(pois, NULL, NULL, 2, 0, &sbad, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_servers_new(pois, mu_fig, NULL, 2, 0, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    /* A handle of another type is refused by its tag. */
    CHECK_STATUS(crawlsched_routing_servers_new((const crawlsched_routing_arrivals_t *)(const void *)s2, mu_fig, NULL,
                                                2, 0, &sbad, &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK(sbad == NULL);

    size_t m = 0;
    CHECK_OK(crawlsched_routing_servers_len(s3, &m, &err), err);
    CHECK(m == 3);
    CHECK_STATUS(crawlsched_routing_servers_len(NULL, &m, &err), CRAWLSCHED_NULL_ARGUMENT, err);

    /* Immediate costs: losses rho^k; robot c k E tau - (c/mu)(1 - rho^k). */
    CHECK_OK(crawlsched_routing_immediate_cost(s2, 1, 3, &x, &err), err);
    CHECK_CLOSE(x, pow(0.25, 3), 1e-15);
    CHECK_OK(crawlsched_routing_immediate_cost(robot, 0, 2, &x, &err), err);
    CHECK_CLOSE(x, 10.0 * 2.0 - 100.0 * (1.0 - pow(1.0 / 1.1, 2)), 1e-12);
    x = -1.0;
    CHECK_STATUS(crawlsched_routing_immediate_cost(s2, 2, 1, &x, &err), CRAWLSCHED_NOT_FOUND, err);
    CHECK_STATUS(crawlsched_routing_immediate_cost(s2, 0, 0, &x, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_immediate_cost(s2, 0, 1, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK(x == -1.0);

    /* --- exact costs, eq. (6) --- */
    const uint32_t p122[3] = {0, 1, 1};
    CHECK_OK(crawlsched_routing_cost(s2, p122, 3, &x, &y, &err), err);
    CHECK_CLOSE(x, g_fig1(3, 3.0), 1e-15);
    CHECK_CLOSE(y, g_fig1(3, 3.0), 1e-15); /* lambda = 1 */
    /* Page 2 never visited: always stale, c2 E tau per packet. */
    const uint32_t only0[1] = {0};
    CHECK_OK(crawlsched_routing_cost(robot, only0, 1, &x, &y, &err), err);
    CHECK_CLOSE(x, 10.0 - 100.0 * (1.0 - 1.0 / 1.1) + 1.0, 1e-12);
    x = y = -1.0;
    CHECK_STATUS(crawlsched_routing_cost(s2, p122, 0, &x, &y, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    const uint32_t oob[2] = {0, 2};
    CHECK_STATUS(crawlsched_routing_cost(s2, oob, 2, &x, &y, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_cost(s2, NULL, 3, &x, &y, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_cost(s2, p122, 3, NULL, &y, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_cost(s2, p122, 3, &x, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    size_t huge = ((size_t)1 << 20) + 1;
    uint32_t *big = calloc(huge, sizeof *big);
    CHECK(big != NULL);
    CHECK_STATUS(crawlsched_routing_cost(s2, big, huge, &x, &y, &err), CRAWLSCHED_TOO_LARGE, err); /* period too long */
    CHECK(x == -1.0 && y == -1.0);

    /* --- optimal periods: Figure 1 at mu2 = 3 is (1, 2, 2) --- */
    uint32_t best[16];
    size_t len = 0;
    uint64_t evals = 0;
    double cost = 0.0;
    CHECK_STATUS(crawlsched_routing_optimize_exhaustive(s2, 1, 8, NULL, NULL, 0, &len, &cost, &evals, &err),
                 CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK(len == 3);
    CHECK_OK(crawlsched_routing_optimize_exhaustive(s2, 1, 8, NULL, best, 16, &len, &cost, &evals, &err), err);
    CHECK(len == 3);
    CHECK_CLOSE(cost, g_fig1(3, 3.0), 1e-15);
    CHECK(evals == 2 + 3 + 4 + 6 + 8 + 14 + 20 + 36); /* binary necklaces, n <= 8 */
    CHECK_CLOSE(two_server_eq6(best, (int)len, 1.0, 3.0), cost, 1e-15);
    CHECK_STATUS(crawlsched_routing_optimize_exhaustive(s2, 1, 40, NULL, best, 16, &len, &cost, &evals, &err),
                 CRAWLSCHED_TOO_LARGE, err);
    CHECK_STATUS(crawlsched_routing_optimize_exhaustive(s2, 4, 3, NULL, best, 16, &len, &cost, &evals, &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_optimize_exhaustive(s2, 0, 3, NULL, best, 16, &len, &cost, &evals, &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_optimize_exhaustive(NULL, 1, 3, NULL, best, 16, &len, &cost, &evals, &err),
                 CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_optimize_exhaustive(s2, 1, 3, NULL, best, 16, &len, NULL, &evals, &err),
                 CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_optimize_exhaustive(s2, 1, 3, NULL, best, 16, &len, &cost, NULL, &err),
                 CRAWLSCHED_NULL_ARGUMENT, err);

    CHECK_OK(crawlsched_routing_optimize_local(s2, 1, 12, NULL, best, 16, &len, &cost, &evals, &err), err);
    CHECK(len == 3 && evals > 0);
    CHECK_CLOSE(cost, g_fig1(3, 3.0), 1e-15);
    CHECK_STATUS(crawlsched_routing_optimize_local(s2, 1, ((uint64_t)1 << 20) + 1, NULL, best, 16, &len, &cost, &evals, &err),
                 CRAWLSCHED_TOO_LARGE, err); /* period too long */
    CHECK_STATUS(crawlsched_routing_optimize_local(s2, 1, 12, NULL, best, 2, &len, &cost, &evals, &err),
                 CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK(len == 3);
    /* Remark 6.1: the optimum never visits page 2 (reported, no loop). */
    CHECK_OK(crawlsched_routing_optimize_local(robot, 1, 20, NULL, best, 16, &len, &cost, &evals, &err), err);
    CHECK(len >= 1);
    int visits_page2 = 0;
    for (size_t i = 0; i < len; i++) visits_page2 |= best[i] == 1;
    CHECK(!visits_page2);
    /* Three servers, MMPP arrivals: local search finds the exact optimum
     * over periods <= 6 on this instance. */
    double exact3 = 0.0;
    CHECK_OK(crawlsched_routing_optimize_exhaustive(s3, 1, 6, NULL, best, 16, &len, &exact3, &evals, &err), err);
    CHECK_OK(crawlsched_routing_optimize_local(s3, 1, 6, NULL, best, 16, &len, &cost, &evals, &err), err);
    CHECK_CLOSE(cost, exact3, 1e-12);

    /* Theorem 4.2 neighbourhood, two servers, period 7, mu2 = 3: compare
     * with brute force over all 2^7 periods computed here. */
    double brute = INFINITY;
    for (int code = 0; code < 128; code++) {
        uint32_t sq[7];
        for (int i = 0; i < 7; i++) sq[i] = (uint32_t)((code >> i) & 1);
        double g = two_server_eq6(sq, 7, 1.0, 3.0);
        if (g < brute) brute = g;
    }
    const uint32_t start7[7] = {0, 0, 0, 0, 0, 0, 0};
    CHECK_OK(crawlsched_routing_local_search_multimodular(s2, start7, 7, NULL, best, 16, &len, &cost, &evals, &err), err);
    CHECK(len == 7 && evals > 0);
    CHECK_CLOSE(cost, brute, 1e-14);
    CHECK_CLOSE(two_server_eq6(best, 7, 1.0, 3.0), brute, 1e-14);
    uint32_t start21[21] = {0};
    CHECK_STATUS(crawlsched_routing_local_search_multimodular(s2, start21, 21, NULL, best, 32, &len, &cost, &evals, &err),
                 CRAWLSCHED_TOO_LARGE, err);
    CHECK_STATUS(crawlsched_routing_local_search_multimodular(s3, start7, 7, NULL, best, 16, &len, &cost, &evals, &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_local_search_multimodular(s2, start7, 0, NULL, best, 16, &len, &cost, &evals, &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_local_search_multimodular(s2, start7, 7, NULL, best, 3, &len, &cost, &evals, &err),
                 CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK(len == 7);

    /* Balanced (billiard) sequence: counts kept, gaps differ by <= 1. */
    const uint64_t counts[2] = {3, 5};
    uint32_t bal[8];
    CHECK_STATUS(crawlsched_routing_balanced_sequence(counts, 2, NULL, 0, &len, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK(len == 8);
    CHECK_OK(crawlsched_routing_balanced_sequence(counts, 2, bal, 8, &len, &err), err);
    CHECK(len == 8);
    for (uint32_t srv = 0; srv < 2; srv++) {
        int first = -1, last = -1, lo = 99, hi = 0, cnt = 0;
        for (int i = 0; i < 8; i++) {
            if (bal[i] != srv) continue;
            cnt++;
            if (last >= 0) {
                int g = i - last;
                lo = g < lo ? g : lo;
                hi = g > hi ? g : hi;
            } else first = i;
            last = i;
        }
        int wrap = first + 8 - last;
        lo = wrap < lo ? wrap : lo;
        hi = wrap > hi ? wrap : hi;
        CHECK(cnt == (int)counts[srv] && hi - lo <= 1);
    }
    const uint64_t zeros[2] = {0, 0};
    CHECK_STATUS(crawlsched_routing_balanced_sequence(zeros, 2, bal, 8, &len, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    const uint64_t too_many[1] = {((uint64_t)1 << 20) + 1};
    CHECK_STATUS(crawlsched_routing_balanced_sequence(too_many, 1, bal, 8, &len, &err), CRAWLSCHED_TOO_LARGE, err);
    CHECK_STATUS(crawlsched_routing_balanced_sequence(counts, 2, bal, 8, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);

    /* --- simulation within 4 standard errors of the exact cost --- */
    const uint32_t p5[5] = {0, 2, 1, 2, 1};
    double exact = 0.0, exact_t = 0.0;
    CHECK_OK(crawlsched_routing_cost(s3, p5, 5, &exact, &exact_t, &err), err);
    CHECK_OK(crawlsched_routing_simulate(s3, p5, 5, 20000, 42, NULL, &x, &y, &z, &err), err);
    CHECK(fabs(x - exact) < 4.0 * y);
    CHECK(y > 0.0 && y < 0.05 * exact);
    CHECK(fabs(z - exact_t) < 0.05 * exact_t);
    CHECK_STATUS(crawlsched_routing_simulate(s3, p5, 5, 0, 42, NULL, &x, &y, &z, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_simulate(s3, p5, 5, UINT64_MAX, 42, NULL, &x, &y, &z, &err), CRAWLSCHED_TOO_LARGE, err);
    CHECK_STATUS(crawlsched_routing_simulate(s3, p5, 5, 10, 42, NULL, &x, NULL, &z, &err), CRAWLSCHED_NULL_ARGUMENT, err);

    /* --- Figure 1 --- */
    CHECK_OK(crawlsched_routing_two_server_cost(5, 2.0, &x, &err), err);
    CHECK_CLOSE(x, g_fig1(5, 2.0), 1e-15);
    CHECK_STATUS(crawlsched_routing_two_server_cost(1, 2.0, &x, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_two_server_cost(3, -1.0, &x, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_OK(crawlsched_routing_switch_point(2, &x, &err), err);
    CHECK(fabs(x - (1.0 + sqrt(2.0))) < 1e-9);
    for (unsigned n = 3; n <= 5; n++) {
        double b = 1.0 - sqrt(1.0 - (n + 2.0) / pow(2.0, n + 1.0));
        CHECK_OK(crawlsched_routing_switch_point(n, &x, &err), err);
        CHECK_CLOSE(x, 1.0 / b - 1.0, 1e-9);
        CHECK_CLOSE(g_fig1((int)n, x), g_fig1((int)n + 1, x), 1e-14);
    }
    CHECK_STATUS(crawlsched_routing_switch_point(0, &x, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_switch_point(60, &x, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_switch_point(2, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);

    /* --- streaming router --- */
    crawlsched_routing_router_t *r = NULL, *rbad = NULL;
    const uint32_t per[4] = {0, 1, 1, 2};
    CHECK_OK(crawlsched_routing_router_new(per, 4, 3, &r, &err), err);
    uint32_t srv = 99, batch[7];
    for (int i = 0; i < 6; i++) {
        CHECK_OK(crawlsched_routing_router_next(r, &srv, &err), err);
        CHECK(srv == per[i % 4]);
    }
    CHECK_OK(crawlsched_routing_router_next_batch(r, batch, 7, &err), err);
    for (int i = 0; i < 7; i++) CHECK(batch[i] == per[(6 + i) % 4]);
    CHECK_OK(crawlsched_routing_router_next_batch(r, NULL, 0, &err), err);
    CHECK_STATUS(crawlsched_routing_router_next_batch(r, NULL, 3, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_router_next(r, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_router_next(NULL, &srv, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_router_new(per, 0, 3, &rbad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_router_new(per, 4, 2, &rbad, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_routing_router_new(big, huge, 3, &rbad, &err), CRAWLSCHED_TOO_LARGE, err);
    CHECK_STATUS(crawlsched_routing_router_new(per, 4, 3, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK(rbad == NULL);
    free(big);

    crawlsched_routing_router_free(r);
    crawlsched_routing_router_free(NULL);
    crawlsched_routing_servers_free(s2);
    crawlsched_routing_servers_free(s3);
    crawlsched_routing_servers_free(robot);
    crawlsched_routing_servers_free(NULL);
    crawlsched_routing_arrivals_free(pois);
    crawlsched_routing_arrivals_free(mmpp);
    crawlsched_routing_arrivals_free(NULL);
    return CHECK_REPORT("test_routing");
}
