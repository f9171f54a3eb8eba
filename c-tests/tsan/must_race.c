/* Deliberately racy program: scripts/tsan requires ThreadSanitizer to
 * report a data race here, so that a broken setup (no runtime, an
 * uninstrumented library, reports not failing the run) cannot pass.
 * Not a c-tests/ program: it is never run natively.
 *   must_race c        two threads write a global double in C code
 *   must_race library  two threads pass the same output double to
 *                      crawlsched_dist_cdf, so both writes happen inside
 *                      the Rust library: TSan sees them only if the
 *                      library is instrumented.
 * The order is fixed without creating a happens-before edge: the first
 * writer raises a relaxed flag (relaxed atomics do not synchronise for
 * TSan), the second writes after seeing it, and the first waits for the
 * second before exiting (a thread's exit or a later library call could
 * otherwise publish its write). So the race is reported on every run, not
 * only when the threads happen to overlap. */
#define _POSIX_C_SOURCE 200809L
#include "crawlsched.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static double shared_out;
static crawlsched_dist_t *dist;
static int in_library;
static atomic_int first_wrote, second_wrote;

static void write_shared(void) {
    crawlsched_error_t err = {0};
    if (in_library)
        crawlsched_dist_cdf(dist, 1.0, &shared_out, &err);
    else
        shared_out = 1.0 - shared_out;
}

static void wait_for(atomic_int *flag) {
    while (!atomic_load_explicit(flag, memory_order_relaxed)) sched_yield();
}

static void *first(void *arg) {
    (void)arg;
    write_shared();
    atomic_store_explicit(&first_wrote, 1, memory_order_relaxed);
    wait_for(&second_wrote);
    return NULL;
}

static void *second(void *arg) {
    (void)arg;
    wait_for(&first_wrote);
    write_shared();
    atomic_store_explicit(&second_wrote, 1, memory_order_relaxed);
    return NULL;
}

int main(int argc, char **argv) {
    crawlsched_error_t err = {0};
    if (argc != 2 || (strcmp(argv[1], "c") != 0 && strcmp(argv[1], "library") != 0)) {
        fprintf(stderr, "usage: must_race c|library\n");
        return 2;
    }
    in_library = strcmp(argv[1], "library") == 0;
    if (crawlsched_dist_exponential_new(2.0, &dist, &err) != CRAWLSCHED_OK) return 3;
    pthread_t a, b;
    if (pthread_create(&a, NULL, first, NULL) != 0 || pthread_create(&b, NULL, second, NULL) != 0) return 4;
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    crawlsched_dist_free(dist);
    printf("must_race %s: finished without a report (%g)\n", argv[1], shared_out);
    return 0;
}
