/* Minimal test helpers for the C and C++ API tests: no framework needed. */
#ifndef CRAWLSCHED_CHECK_H
#define CRAWLSCHED_CHECK_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check_passed = 0;
static int check_failed = 0;

#define CHECK(cond)                                                        \
    do {                                                                   \
        if (cond) {                                                        \
            check_passed++;                                                \
        } else {                                                           \
            check_failed++;                                                \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__,         \
                    __LINE__, #cond);                                      \
        }                                                                  \
    } while (0)

/* |a - b| <= tol * max(1, |b|) */
#define CHECK_CLOSE(a, b, tol)                                             \
    do {                                                                   \
        double check_a_ = (a), check_b_ = (b);                             \
        double check_s_ = fabs(check_b_) > 1.0 ? fabs(check_b_) : 1.0;     \
        if (fabs(check_a_ - check_b_) <= (tol) * check_s_) {               \
            check_passed++;                                                \
        } else {                                                           \
            check_failed++;                                                \
            fprintf(stderr, "%s:%d: %s = %.17g, expected %.17g\n",         \
                    __FILE__, __LINE__, #a, check_a_, check_b_);           \
        }                                                                  \
    } while (0)

/* A call must fail with `want`, fill the error struct, leave *out alone. */
#define CHECK_STATUS(call, want, err)                                      \
    do {                                                                   \
        crawlsched_status_t check_st_ = (call);                            \
        if (check_st_ == (want) && (err).status == (want) &&               \
            ((want) == CRAWLSCHED_OK || strlen((err).message) > 0)) {      \
            check_passed++;                                                \
        } else {                                                           \
            check_failed++;                                                \
            fprintf(stderr, "%s:%d: %s returned %s (%s), expected %s\n",   \
                    __FILE__, __LINE__, #call,                             \
                    crawlsched_status_string(check_st_), (err).message,    \
                    crawlsched_status_string(want));                       \
        }                                                                  \
    } while (0)

#define CHECK_OK(call, err) CHECK_STATUS(call, CRAWLSCHED_OK, err)

/* Closing line in the form CI reads: "N passed, N failed". */
#define CHECK_REPORT(name)                                                 \
    (printf("%s: %d passed, %d failed\n", name, check_passed,              \
            check_failed),                                                 \
     check_failed == 0 ? 0 : 1)

#endif
