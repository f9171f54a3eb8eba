// The C API from C++17, through RAII wrappers like those users write.
#include "crawlsched.h"
#include "check.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Error : std::runtime_error {
    crawlsched_status_t status;
    Error(crawlsched_status_t s, const char *msg) : std::runtime_error(msg), status(s) {}
};

void ok(crawlsched_status_t s, const crawlsched_error_t &e) {
    if (s != CRAWLSCHED_OK) throw Error(s, e.message);
}

struct DistDeleter {
    void operator()(crawlsched_dist_t *d) const { crawlsched_dist_free(d); }
};
using Dist = std::unique_ptr<crawlsched_dist_t, DistDeleter>;

Dist gamma(double shape, double rate) {
    crawlsched_error_t e{};
    crawlsched_dist_t *d = nullptr;
    ok(crawlsched_dist_gamma_new(shape, rate, &d, &e), e);
    return Dist(d);
}

}  // namespace

int main() {
    Dist g = gamma(2.0, 4.0);
    crawlsched_error_t e{};
    double m = 0;
    ok(crawlsched_dist_mean(g.get(), &m, e.status == 0 ? &e : nullptr), e);
    CHECK_CLOSE(m, 0.5, 1e-15);

    std::vector<double> xs(1000);
    ok(crawlsched_dist_sample(g.get(), 7, xs.data(), xs.size(), &e), e);
    CHECK(xs[0] > 0.0);

    bool thrown = false;
    try {
        gamma(-1.0, 1.0);
    } catch (const Error &err) {
        thrown = err.status == CRAWLSCHED_INVALID_ARGUMENT &&
                 std::string(err.what()).find("shape") != std::string::npos;
    }
    CHECK(thrown);
    return CHECK_REPORT("test_cpp_raii");
}
