/* Status codes, error struct, last error and versions, from C. */
#include "crawlsched.h"
#include "check.h"

int main(void) {
    /* Versions: header macros agree with the loaded library. */
    char expect[64];
    snprintf(expect, sizeof expect, "%d.%d.%d", CRAWLSCHED_VERSION_MAJOR,
             CRAWLSCHED_VERSION_MINOR, CRAWLSCHED_VERSION_PATCH);
    CHECK(strcmp(crawlsched_version(), expect) == 0);
    CHECK(crawlsched_abi_version() == CRAWLSCHED_ABI_VERSION);

    /* Every status has a distinct name; unknown values are named as such. */
    const int codes[] = {CRAWLSCHED_OK, CRAWLSCHED_NULL_ARGUMENT,
                         CRAWLSCHED_INVALID_ARGUMENT, CRAWLSCHED_INFEASIBLE,
                         CRAWLSCHED_NOT_CONVERGED, CRAWLSCHED_TOO_LARGE,
                         CRAWLSCHED_BUFFER_TOO_SMALL, CRAWLSCHED_NOT_FOUND,
                         CRAWLSCHED_CANCELLED, CRAWLSCHED_NUMERICAL,
                         CRAWLSCHED_PANIC, CRAWLSCHED_INTERNAL};
    const int ncodes = (int)(sizeof codes / sizeof codes[0]);
    for (int i = 0; i < ncodes; i++) {
        CHECK(codes[i] == i); /* explicit, dense, never reused */
        CHECK(strncmp(crawlsched_status_string(codes[i]), "CRAWLSCHED_", 11) == 0);
        for (int j = 0; j < i; j++)
            CHECK(strcmp(crawlsched_status_string(codes[i]),
                         crawlsched_status_string(codes[j])) != 0);
    }
    CHECK(strcmp(crawlsched_status_string(-1), "CRAWLSCHED_UNKNOWN_STATUS") == 0);
    CHECK(strcmp(crawlsched_status_string(9999), "CRAWLSCHED_UNKNOWN_STATUS") == 0);

    /* The error struct is filled on failure and reset on success. */
    crawlsched_error_t err = {0};
    crawlsched_dist_t *d = NULL;
    CHECK_STATUS(crawlsched_dist_exponential_new(-1.0, &d, &err),
                 CRAWLSCHED_INVALID_ARGUMENT, err);
    CHECK(d == NULL);
    CHECK(strstr(err.message, "rate") != NULL);
    /* ... and the thread's last error says the same. */
    CHECK(crawlsched_last_error_status() == CRAWLSCHED_INVALID_ARGUMENT);
    CHECK(strcmp(crawlsched_last_error_message(), err.message) == 0);
    CHECK_OK(crawlsched_dist_exponential_new(2.0, &d, &err), err);
    CHECK(err.message[0] == '\0');
    CHECK(d != NULL);
    crawlsched_dist_free(d);

    /* NULL error pointer is allowed: the status alone is returned. */
    CHECK(crawlsched_dist_exponential_new(0.0, &d, NULL) == CRAWLSCHED_INVALID_ARGUMENT);
    /* NULL out pointer is refused, not dereferenced. */
    CHECK_STATUS(crawlsched_dist_exponential_new(1.0, NULL, &err),
                 CRAWLSCHED_NULL_ARGUMENT, err);
    /* _free accepts NULL. */
    crawlsched_dist_free(NULL);
    return CHECK_REPORT("test_common");
}
