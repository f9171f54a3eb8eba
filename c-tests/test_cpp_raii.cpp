// The C API from C++17 through RAII wrappers like those users write, and
// the header's thread-safety promises under real concurrency.
#include "crawlsched.h"
#include "check.h"

#include <atomic>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace {

struct Error : std::runtime_error {
    crawlsched_status_t status;
    Error(crawlsched_status_t s, const char *msg) : std::runtime_error(msg), status(s) {}
};

void ok(crawlsched_status_t s, const crawlsched_error_t &e) {
    if (s != CRAWLSCHED_OK) throw Error(s, e.message);
}

template <class T, void (*Free)(T *)>
struct Deleter {
    void operator()(T *p) const { Free(p); }
};
using Dist = std::unique_ptr<crawlsched_dist_t, Deleter<crawlsched_dist_t, crawlsched_dist_free>>;
using Scheduler = std::unique_ptr<crawlsched_scheduler_t, Deleter<crawlsched_scheduler_t, crawlsched_scheduler_free>>;

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
    ok(crawlsched_dist_mean(g.get(), &m, &e), e);
    CHECK_CLOSE(m, 0.5, 1e-15);

    bool thrown = false;
    try {
        gamma(-1.0, 1.0);
    } catch (const Error &err) {
        thrown = err.status == CRAWLSCHED_INVALID_ARGUMENT &&
                 std::string(err.what()).find("shape") != std::string::npos;
    }
    CHECK(thrown);

    // One scheduler shared by 8 crawler threads: every pick is a valid page
    // and the picks add up exactly (calls are serialised inside).
    crawlsched_scheduler_t *raw = nullptr;
    ok(crawlsched_scheduler_new(g.get(), CRAWLSCHED_SCHEDULER_STRIDE, &raw, &e), e);
    Scheduler sched(raw);
    const int pages = 100;
    for (int i = 0; i < pages; i++)
        ok(crawlsched_scheduler_add_page(sched.get(), 1000 + i, 0.01 * (1 + i % 10), &e), e);
    const int threads = 8, picks = 5000;
    std::atomic<int> bad{0}, total{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; t++) {
        pool.emplace_back([&, t] {
            crawlsched_error_t te{};
            for (int k = 0; k < picks; k++) {
                uint64_t id = 0;
                if (crawlsched_scheduler_next(sched.get(), &id, &te) != CRAWLSCHED_OK || id < 1000 || id >= 1000 + pages)
                    bad++;
                else
                    total++;
                if (k % 50 == 0)  // feedback from the crawl, concurrently
                    crawlsched_scheduler_observe(sched.get(), id, 1.0 + t, k % 100 == 0, &te);
            }
            // Each thread's last error is its own.
            double out = 0;
            crawlsched_dist_laplace(g.get(), -1.0 - t, &out, nullptr);
            std::string msg = crawlsched_last_error_message();
            if (msg.find("got " + std::to_string(-1 - t)) == std::string::npos ||
                crawlsched_last_error_status() != CRAWLSCHED_INVALID_ARGUMENT)
                bad++;
        });
    }
    for (auto &th : pool) th.join();
    CHECK(bad == 0);
    CHECK(total == threads * picks);
    size_t n = 0;
    ok(crawlsched_scheduler_len(sched.get(), &n, &e), e);
    CHECK(n == (size_t)pages);
    return CHECK_REPORT("test_cpp_raii");
}
