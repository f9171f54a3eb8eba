// Install test: a C++17 program found through CMake's find_package(crawlsched),
// built only from the installed files.
#include <crawlsched.h>

#include <cmath>
#include <cstdio>
#include <memory>

namespace {
struct DistFree {
    void operator()(crawlsched_dist_t *d) const noexcept { crawlsched_dist_free(d); }
};
using Dist = std::unique_ptr<crawlsched_dist_t, DistFree>;
}  // namespace

int main() {
    if (crawlsched_abi_version() != CRAWLSCHED_ABI_VERSION) {
        std::fprintf(stderr, "ABI mismatch\n");
        return 1;
    }
    crawlsched_error_t err{};
    crawlsched_dist_t *raw = nullptr;
    if (crawlsched_dist_exponential_new(2.0, &raw, &err) != CRAWLSCHED_OK) {
        std::fprintf(stderr, "crawlsched: %s\n", err.message);
        return 1;
    }
    Dist d(raw);
    double mean = 0.0;
    if (crawlsched_dist_mean(d.get(), &mean, &err) != CRAWLSCHED_OK || std::fabs(mean - 0.5) > 1e-15) {
        std::fprintf(stderr, "mean %.17g, expected 0.5 (%s)\n", mean, err.message);
        return 1;
    }
    std::printf("C++17 via CMake (%s): crawlsched %s, mean %.2f\n", CRAWLSCHED_TEST_LINKAGE,
                crawlsched_version(), mean);
    return 0;
}
