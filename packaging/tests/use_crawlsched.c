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
    printf("C via pkg-config: crawlsched %s, ABI %u, mean %.2f\n", crawlsched_version(),
           (unsigned)crawlsched_abi_version(), mean);
    return 0;
}
