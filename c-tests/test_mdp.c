/* Every crawlsched_mdp_* function from C, with error paths. Expected values
 * come from closed forms of a two-state MDP computed here. */
#include "crawlsched.h"
#include "check.h"
#include <stdint.h>

/* State 0: stay (cost 1) or go to 1 (cost 0.5). State 1: go to 0 (cost 0)
 * or stay (cost 2). The optimum alternates 0 -> 1 -> 0: gain (0.5 + 0)/2,
 * bias h(1) - h(0) = -0.25; discounted (beta): v0 = 0.5/(1 - beta^2),
 * v1 = beta v0. */
static crawlsched_mdp_t *two_state(crawlsched_error_t *err) {
    crawlsched_mdp_builder_t *b = NULL;
    crawlsched_mdp_t *m = NULL;
    const uint32_t to0[1] = {0}, to1[1] = {1};
    const double one[1] = {1.0};
    uint32_t a = 99;
    CHECK_OK(crawlsched_mdp_builder_new(2, &b, err), *err);
    /* Rows may come in any state order. */
    CHECK_OK(crawlsched_mdp_builder_add_action(b, 1, to0, one, 1, 0.0, &a, err), *err);
    CHECK(a == 0);
    CHECK_OK(crawlsched_mdp_builder_add_action(b, 0, to0, one, 1, 1.0, &a, err), *err);
    CHECK_OK(crawlsched_mdp_builder_add_action(b, 0, to1, one, 1, 0.5, &a, err), *err);
    CHECK(a == 1);
    CHECK_OK(crawlsched_mdp_builder_add_action(b, 1, to1, one, 1, 2.0, &a, err), *err);
    CHECK_OK(crawlsched_mdp_build(b, &m, err), *err);
    crawlsched_mdp_builder_free(b);
    return m;
}

int main(void) {
    crawlsched_error_t err = {0};
    crawlsched_mdp_t *m = two_state(&err);
    uint64_t ns = 0, na = 0, nt = 0;
    CHECK_OK(crawlsched_mdp_size(m, &ns, &na, &nt, &err), err);
    CHECK(ns == 2 && na == 4 && nt == 4);

    const int methods[4] = {CRAWLSCHED_MDP_RELATIVE_VALUE_ITERATION, CRAWLSCHED_MDP_VALUE_ITERATION,
                            CRAWLSCHED_MDP_GAUSS_SEIDEL, CRAWLSCHED_MDP_POLICY_ITERATION};
    for (int i = 0; i < 4; i++) {
        crawlsched_mdp_solver_t *s = NULL;
        double g = 0, lo = 0, hi = 0, h[2];
        uint32_t pol[2];
        uint64_t it = 0, classes = 0;
        int conv = -1;
        uint64_t size = 0;
        CHECK_OK(crawlsched_mdp_solver_new(methods[i], &s, &err), err);
        CHECK_STATUS(crawlsched_mdp_solver_size(s, &size, &err), CRAWLSCHED_NOT_FOUND, err);
        CHECK_OK(crawlsched_mdp_solver_run(s, m, &err), err);
        CHECK_OK(crawlsched_mdp_solver_size(s, &size, &err), err);
        CHECK(size == 2);
        CHECK_OK(crawlsched_mdp_solver_gain(s, &g, &lo, &hi, &err), err);
        CHECK_CLOSE(g, 0.25, 1e-9);
        CHECK(lo <= 0.25 + 1e-12 && 0.25 <= hi + 1e-12 && hi - lo <= 1e-9);
        CHECK_OK(crawlsched_mdp_solver_policy(s, pol, 2, &err), err);
        CHECK(pol[0] == 1 && pol[1] == 0);
        CHECK_OK(crawlsched_mdp_solver_values(s, h, 2, &err), err);
        CHECK_CLOSE(h[1] - h[0], -0.25, 1e-8);
        CHECK_OK(crawlsched_mdp_solver_stats(s, &it, &conv, &classes, &err), err);
        CHECK(conv == 1 && classes == 1 && it >= 1);
        double tau = -1;
        CHECK_OK(crawlsched_mdp_solver_tau(s, &tau, &err), err);
        if (methods[i] == CRAWLSCHED_MDP_POLICY_ITERATION) {
            CHECK(tau == 1.0); /* exact evaluation: no transform */
        } else {
            CHECK(tau > 0.0 && tau <= 1.0);
        }
        crawlsched_mdp_solver_free(s);
    }

    /* The tau a run used: the one set, else the automatic choice. */
    {
        crawlsched_mdp_solver_t *s = NULL;
        double tau = -1;
        CHECK_OK(crawlsched_mdp_solver_new(CRAWLSCHED_MDP_RELATIVE_VALUE_ITERATION, &s, &err), err);
        CHECK_STATUS(crawlsched_mdp_solver_tau(s, &tau, &err), CRAWLSCHED_NOT_FOUND, err);
        CHECK(tau == -1);
        CHECK_OK(crawlsched_mdp_solver_set_criterion(s, CRAWLSCHED_MDP_AVERAGE, 0.0, 0.5, &err), err);
        CHECK_OK(crawlsched_mdp_solver_run(s, m, &err), err);
        CHECK_OK(crawlsched_mdp_solver_tau(s, &tau, &err), err);
        CHECK(tau == 0.5);
        CHECK_STATUS(crawlsched_mdp_solver_tau(s, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
        crawlsched_mdp_solver_free(s);
    }

    /* Discounted, beta = 0.5. */
    crawlsched_mdp_solver_t *s = NULL;
    double v[2], g = -1, lo = -1, hi = -1;
    CHECK_OK(crawlsched_mdp_solver_new(CRAWLSCHED_MDP_POLICY_ITERATION, &s, &err), err);
    CHECK_OK(crawlsched_mdp_solver_set_criterion(s, CRAWLSCHED_MDP_DISCOUNTED, 0.5, 0.0, &err), err);
    CHECK_OK(crawlsched_mdp_solver_run(s, m, &err), err);
    CHECK_OK(crawlsched_mdp_solver_values(s, v, 2, &err), err);
    CHECK_CLOSE(v[0], 0.5 / 0.75, 1e-12);
    CHECK_CLOSE(v[1], 0.25 / 0.75, 1e-12);
    CHECK_OK(crawlsched_mdp_solver_gain(s, &g, &lo, &hi, &err), err);
    CHECK(g == 0.0 && lo <= 0.0 && hi >= 0.0);
    crawlsched_mdp_solver_free(s);

    /* Not converged: 2 sweeps of plain RVI without the aperiodicity
     * transform; the best answer so far stays readable. */
    CHECK_OK(crawlsched_mdp_solver_new(CRAWLSCHED_MDP_RELATIVE_VALUE_ITERATION, &s, &err), err);
    g = lo = hi = -1;
    CHECK_STATUS(crawlsched_mdp_solver_gain(s, &g, &lo, &hi, &err), CRAWLSCHED_NOT_FOUND, err);
    CHECK(g == -1); /* outputs untouched on failure */
    CHECK_OK(crawlsched_mdp_solver_set_limits(s, 1e-12, 2, CRAWLSCHED_MDP_STOP_SPAN, &err), err);
    CHECK_OK(crawlsched_mdp_solver_set_criterion(s, CRAWLSCHED_MDP_AVERAGE, 0.0, 1.0, &err), err);
    CHECK_STATUS(crawlsched_mdp_solver_run(s, m, &err), CRAWLSCHED_NOT_CONVERGED, err);
    CHECK_OK(crawlsched_mdp_solver_gain(s, &g, &lo, &hi, &err), err);
    CHECK(lo <= 0.25 && 0.25 <= hi);
    uint64_t it = 0, classes = 0;
    int conv = -1;
    CHECK_OK(crawlsched_mdp_solver_stats(s, &it, &conv, &classes, &err), err);
    CHECK(conv == 0 && it == 2);
    /* The paper's relative-change rule is accepted too. */
    CHECK_OK(crawlsched_mdp_solver_set_limits(s, 1e-5, 100000, CRAWLSCHED_MDP_STOP_RELATIVE_CHANGE, &err), err);
    CHECK_OK(crawlsched_mdp_solver_set_criterion(s, CRAWLSCHED_MDP_AVERAGE, 0.0, 0.5, &err), err);
    CHECK_OK(crawlsched_mdp_solver_run(s, m, &err), err);

    /* Error paths of the solver. */
    uint32_t pol[2];
    double h[2];
    size_t big = (size_t)-1;
    crawlsched_mdp_solver_t *s2 = NULL;
    CHECK_STATUS(crawlsched_mdp_solver_new(7, &s2, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK(s2 == NULL);
    CHECK_STATUS(crawlsched_mdp_solver_new(0, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_solver_set_limits(s, 0.0, 10, 0, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_solver_set_limits(s, NAN, 10, 0, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_solver_set_limits(s, 1e-9, 0, 0, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_solver_set_limits(s, 1e-9, 10, 5, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_solver_set_criterion(s, 2, 0.5, 0.0, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_solver_set_criterion(s, CRAWLSCHED_MDP_DISCOUNTED, 1.0, 0.0, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_solver_set_criterion(s, CRAWLSCHED_MDP_AVERAGE, 0.0, 1.5, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_solver_set_criterion(s, CRAWLSCHED_MDP_AVERAGE, 0.0, -0.1, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_solver_policy(s, pol, 1, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK_STATUS(crawlsched_mdp_solver_values(s, h, 1, &err), CRAWLSCHED_BUFFER_TOO_SMALL, err);
    CHECK_STATUS(crawlsched_mdp_solver_values(s, NULL, 2, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_solver_stats(s, NULL, &conv, &classes, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_solver_size(s, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_solver_size(NULL, &ns, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_solver_size((const crawlsched_mdp_solver_t *)m, &ns, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_solver_run(NULL, m, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_solver_run(s, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_solver_run(s, (const crawlsched_mdp_t *)s, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    /* Refused arguments leave the previous result in place. */
    CHECK_OK(crawlsched_mdp_solver_policy(s, pol, 2, &err), err);
    crawlsched_mdp_solver_free(s);

    /* Two absorbing states: every policy is multichain, so policy iteration
     * (which needs one gain) reports INFEASIBLE and drops its old result. */
    {
        crawlsched_mdp_builder_t *bb = NULL;
        crawlsched_mdp_t *mm = NULL;
        const uint32_t self0[1] = {0}, self1[1] = {1};
        const double p1[1] = {1.0};
        uint32_t aa = 0;
        CHECK_OK(crawlsched_mdp_builder_new(2, &bb, &err), err);
        CHECK_OK(crawlsched_mdp_builder_add_action(bb, 0, self0, p1, 1, 1.0, &aa, &err), err);
        CHECK_OK(crawlsched_mdp_builder_add_action(bb, 1, self1, p1, 1, 2.0, &aa, &err), err);
        CHECK_OK(crawlsched_mdp_build(bb, &mm, &err), err);
        CHECK_OK(crawlsched_mdp_solver_new(CRAWLSCHED_MDP_POLICY_ITERATION, &s, &err), err);
        CHECK_OK(crawlsched_mdp_solver_run(s, m, &err), err);
        CHECK_STATUS(crawlsched_mdp_solver_run(s, mm, &err), CRAWLSCHED_INFEASIBLE, err);
        CHECK_STATUS(crawlsched_mdp_solver_policy(s, pol, 2, &err), CRAWLSCHED_NOT_FOUND, err);
        uint64_t size = 99;
        CHECK_STATUS(crawlsched_mdp_solver_size(s, &size, &err), CRAWLSCHED_NOT_FOUND, err);
        CHECK(size == 99);
        crawlsched_mdp_solver_free(s);
        crawlsched_mdp_free(mm);
        crawlsched_mdp_builder_free(bb);
    }
    crawlsched_mdp_solver_free(NULL);

    /* Error paths of the builder. */
    crawlsched_mdp_builder_t *b = NULL;
    crawlsched_mdp_t *m2 = NULL;
    const uint32_t nx[2] = {0, 1}, bad_nx[1] = {2};
    const double half[2] = {0.5, 0.5}, short_p[2] = {0.5, 0.4}, neg[2] = {1.5, -0.5}, one[1] = {1.0};
    uint32_t a = 77;
    CHECK_STATUS(crawlsched_mdp_builder_new(0, &b, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_builder_new(big, &b, &err), CRAWLSCHED_TOO_LARGE, err);
    CHECK(b == NULL);
    CHECK_OK(crawlsched_mdp_builder_new(2, &b, &err), err);
    CHECK_STATUS(crawlsched_mdp_builder_add_action(b, 0, nx, short_p, 2, 0.0, &a, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_builder_add_action(b, 0, nx, neg, 2, 0.0, &a, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_builder_add_action(b, 2, nx, half, 2, 0.0, &a, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_builder_add_action(b, 0, bad_nx, one, 1, 0.0, &a, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_builder_add_action(b, 0, nx, half, 2, INFINITY, &a, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_builder_add_action(b, 0, nx, half, 0, 0.0, &a, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_builder_add_action(b, 0, NULL, half, 2, 0.0, &a, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_builder_add_action(b, 0, nx, half, 2, 0.0, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_builder_add_action(NULL, 0, nx, half, 2, 0.0, &a, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK(a == 77);
    /* Negative costs are allowed in a general MDP. */
    CHECK_OK(crawlsched_mdp_builder_add_action(b, 0, nx, half, 2, -3.0, &a, &err), err);
    CHECK_STATUS(crawlsched_mdp_build(b, &m2, &err), CRAWLSCHED_INVALID_ARGUMENT, err); /* state 1 has no action */
    CHECK(m2 == NULL);
    CHECK_OK(crawlsched_mdp_builder_add_action(b, 1, nx, half, 2, 1.0, &a, &err), err);
    CHECK_STATUS(crawlsched_mdp_build(b, NULL, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_OK(crawlsched_mdp_build(b, &m2, &err), err);
    CHECK_STATUS(crawlsched_mdp_build(b, &m2, &err), CRAWLSCHED_INVALID_ARGUMENT, err); /* already built */
    CHECK_STATUS(crawlsched_mdp_builder_add_action(b, 0, nx, half, 2, 0.0, &a, &err), CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_size(NULL, &ns, &na, &nt, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    CHECK_STATUS(crawlsched_mdp_size(m2, &ns, NULL, &nt, &err), CRAWLSCHED_NULL_ARGUMENT, err);
    /* Both rows (1/2, 1/2): gain is the mean cost (-3 + 1)/2 = -1. */
    CHECK_OK(crawlsched_mdp_solver_new(CRAWLSCHED_MDP_POLICY_ITERATION, &s, &err), err);
    CHECK_OK(crawlsched_mdp_solver_run(s, m2, &err), err);
    CHECK_OK(crawlsched_mdp_solver_gain(s, &g, &lo, &hi, &err), err);
    CHECK_CLOSE(g, -1.0, 1e-12);
    crawlsched_mdp_solver_free(s);
    crawlsched_mdp_builder_free(b);
    crawlsched_mdp_builder_free(NULL);
    crawlsched_mdp_free(m2);
    crawlsched_mdp_free(m);
    crawlsched_mdp_free(NULL);
    return CHECK_REPORT("test_mdp");
}
