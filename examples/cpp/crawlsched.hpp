// crawlsched.hpp — C++17 RAII wrappers over the crawlsched C API.
//
// Copying: this is a single self-contained header, written for crawlsched
// 0.1 (C ABI 1). Copy it into your project; it needs only <crawlsched.h>
// (from `make install`, the Debian package libcrawlsched-dev, or the
// repository's include/) and the C++17 standard library. Link libcrawlsched as for C (pkg-config crawlsched, or CMake
// find_package(crawlsched) and crawlsched::crawlsched). It is MIT-licensed
// like the library; keep this comment.
//
// What it gives:
// - one move-only class per C handle (crawlsched::distribution,
//   freshness_model, estimator, scheduler, mdp_builder/mdp/mdp_solver,
//   robots, routing_arrivals/routing_servers/router, probe_profile/
//   probe_planner, bmap, threshold_model): a std::unique_ptr whose deleter
//   is the handle's _free function, so nothing leaks on any path;
// - crawlsched::error (a std::runtime_error) thrown on every failure, with
//   the C status (error::status()) and the library's message (what());
// - std::vector in and out: variable-size results (the C API's
//   BUFFER_TOO_SMALL protocol) are sized and filled inside; results with
//   several parts are plain structs (e.g. polite_plan, scheduler::pick).
// Every wrapper only forwards to the C function of the same name (e.g.
// scheduler::next -> crawlsched_scheduler_next), whose documentation in
// crawlsched.h gives units, ranges and papers. get() returns the raw handle
// for any C function not wrapped here; release() gives up ownership.
//
// Threads: the wrappers hold no state of their own beyond the handle
// (mdp_solver also remembers its last run's state count, atomically), so
// they inherit the C API's guarantees: every object may be used from
// several threads at once. Immutable ones are read without locks; the
// mutable ones (estimator, scheduler, mdp_builder, mdp_solver,
// probe_planner) serialise calls inside the library; router advances an
// atomic counter. Do not destroy or move-assign an object while another
// thread uses it. Errors are returned per call
// (never through the thread-local last error), so exceptions are exact
// under concurrency.
//
// Check at start-up that the library matches this header:
//     crawlsched::check_abi();   // throws crawlsched::error on mismatch
#ifndef CRAWLSCHED_HPP
#define CRAWLSCHED_HPP

#include <crawlsched.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace crawlsched {

using status_t = crawlsched_status_t;

/// A failed call: the C status (CRAWLSCHED_*) and the library's message.
class error : public std::runtime_error {
public:
    error(status_t status, const std::string &message) : std::runtime_error(message), status_(status) {}
    /// The C status, e.g. CRAWLSCHED_INVALID_ARGUMENT.
    status_t status() const noexcept { return status_; }
    /// The status's name, e.g. "CRAWLSCHED_INVALID_ARGUMENT".
    const char *status_name() const noexcept { return crawlsched_status_string(status_); }

private:
    status_t status_;
};

/// The library's version string, e.g. "0.2.0".
inline const char *version() noexcept { return crawlsched_version(); }

/// Throws unless the loaded library has the ABI this header was built for.
inline void check_abi() {
    if (crawlsched_abi_version() != CRAWLSCHED_ABI_VERSION)
        throw error(CRAWLSCHED_INTERNAL, "libcrawlsched ABI " + std::to_string(crawlsched_abi_version()) +
                                             ", this program was built for " +
                                             std::to_string(CRAWLSCHED_ABI_VERSION));
}

namespace detail {

inline void check(status_t s, const crawlsched_error_t &e) {
    if (s != CRAWLSCHED_OK) throw error(s, e.message[0] != '\0' ? e.message : crawlsched_status_string(s));
}

/// Calls fn(args..., &err) and throws on failure.
template <class... P, class... A>
void call(status_t (*fn)(P...), A &&...args) {
    crawlsched_error_t e{};
    check(fn(std::forward<A>(args)..., &e), e);
}

/// Like call, but NOT_CONVERGED is a result (false), not an exception.
template <class... P, class... A>
bool call_converged(status_t (*fn)(P...), A &&...args) {
    crawlsched_error_t e{};
    status_t s = fn(std::forward<A>(args)..., &e);
    if (s == CRAWLSCHED_NOT_CONVERGED) return false;
    check(s, e);
    return true;
}

/// A (ptr, cap, *len) result: tries `guess` elements, then the size the
/// library asked for. f(T *out, size_t cap, size_t *len, crawlsched_error_t *).
template <class T, class F>
std::vector<T> fill(std::size_t guess, F &&f) {
    std::vector<T> v(guess);
    for (int attempt = 0; attempt < 4; ++attempt) {
        crawlsched_error_t e{};
        std::size_t len = 0;
        status_t s = f(v.empty() ? nullptr : v.data(), v.size(), &len, &e);
        if (s == CRAWLSCHED_BUFFER_TOO_SMALL && len > v.size()) {
            v.resize(len);
            continue;
        }
        check(s, e);
        v.resize(len);
        return v;
    }
    throw error(CRAWLSCHED_INTERNAL, "the result size kept changing between calls");
}

template <class T>
const T *data_or_null(const std::vector<T> &v) noexcept {
    return v.empty() ? nullptr : v.data();
}

/// Owner of one C handle; Free is its crawlsched_*_free function.
template <class T, void (*Free)(T *)>
class handle {
public:
    using c_type = T;
    handle() noexcept = default;
    /// Adopts a handle created by the C API (takes ownership).
    explicit handle(T *adopt) noexcept : p_(adopt) {}
    /// The C handle, for C functions not wrapped here (still owned).
    T *get() const noexcept { return p_.get(); }
    /// Gives up ownership: the caller must free the C handle.
    T *release() noexcept { return p_.release(); }
    /// False after a move.
    explicit operator bool() const noexcept { return static_cast<bool>(p_); }

private:
    struct deleter {
        void operator()(T *p) const noexcept { Free(p); }
    };
    std::unique_ptr<T, deleter> p_;
};

/// H from a C constructor fn(args..., H::c_type **out, err).
template <class H, class... P, class... A>
H make(status_t (*fn)(P...), A &&...args) {
    typename H::c_type *raw = nullptr;
    call(fn, std::forward<A>(args)..., &raw);
    return H(raw);
}

}  // namespace detail

// ---------------------------------------------------------------- dist

/// A distribution of a non-negative time (crawlsched_dist_t). Immutable.
class distribution : public detail::handle<crawlsched_dist_t, crawlsched_dist_free> {
public:
    using handle::handle;
    static distribution deterministic(double value) {
        return detail::make<distribution>(crawlsched_dist_deterministic_new, value);
    }
    static distribution exponential(double rate) {
        return detail::make<distribution>(crawlsched_dist_exponential_new, rate);
    }
    static distribution erlang(std::uint32_t k, double rate) {
        return detail::make<distribution>(crawlsched_dist_erlang_new, k, rate);
    }
    static distribution gamma(double shape, double rate) {
        return detail::make<distribution>(crawlsched_dist_gamma_new, shape, rate);
    }
    static distribution hyperexponential(const std::vector<double> &probs, const std::vector<double> &rates) {
        if (probs.size() != rates.size()) throw error(CRAWLSCHED_INVALID_ARGUMENT, "probs and rates differ in length");
        return detail::make<distribution>(crawlsched_dist_hyperexponential_new, detail::data_or_null(probs),
                                          detail::data_or_null(rates), rates.size());
    }
    /// PH(alpha, S), S row-major n x n.
    static distribution phase_type(const std::vector<double> &alpha, const std::vector<double> &s) {
        return detail::make<distribution>(crawlsched_dist_phase_type_new, detail::data_or_null(alpha), alpha.size(),
                                          detail::data_or_null(s), s.size());
    }
    static distribution coxian(const std::vector<double> &rates, const std::vector<double> &cont) {
        return detail::make<distribution>(crawlsched_dist_coxian_new, detail::data_or_null(rates), rates.size(),
                                          detail::data_or_null(cont), cont.size());
    }
    static distribution empirical(const std::vector<double> &samples) {
        return detail::make<distribution>(crawlsched_dist_empirical_new, detail::data_or_null(samples),
                                          samples.size());
    }
    /// ACPH(2) with moments m1, m2, m3 (crawlsched_dist_fit_aph2_new).
    static distribution fit_aph2(double m1, double m2, double m3) {
        return detail::make<distribution>(crawlsched_dist_fit_aph2_new, m1, m2, m3);
    }
    /// H2 with moments m1, m2, m3 (crawlsched_dist_fit_h2_new).
    static distribution fit_h2(double m1, double m2, double m3) {
        return detail::make<distribution>(crawlsched_dist_fit_h2_new, m1, m2, m3);
    }

    double mean() const { return value(crawlsched_dist_mean); }
    double variance() const { return value(crawlsched_dist_variance); }
    double moment(std::uint32_t k) const { return value(crawlsched_dist_moment, k); }
    double laplace(double s) const { return value(crawlsched_dist_laplace, s); }
    double cdf(double x) const { return value(crawlsched_dist_cdf, x); }
    /// n independent draws; the same seed gives the same draws everywhere.
    std::vector<double> sample(std::uint64_t seed, std::size_t n) const {
        std::vector<double> out(n);
        detail::call(crawlsched_dist_sample, get(), seed, out.data(), n);
        return out;
    }

private:
    template <class... P, class... A>
    double value(status_t (*fn)(P...), A... args) const {
        double out = 0;
        detail::call(fn, get(), args..., &out);
        return out;
    }
};

// ----------------------------------------------------------- freshness

/// Cost and batch-means standard error of a simulation.
struct estimate_with_error {
    double value;
    double std_error;
};

/// What freshness_model::polite_frequencies minimises (CRAWLSCHED_POLITE_*).
enum class polite_objective : std::int32_t {
    evenly_spaced = CRAWLSCHED_POLITE_EVENLY_SPACED,  ///< Theorem 3.3's bound, as optimal_frequencies
    randomized = CRAWLSCHED_POLITE_RANDOMIZED,        ///< eq. 15, as randomized_optimal_frequencies
};

/// The optimal plan under per-host caps (freshness_model::polite_frequencies).
struct polite_plan {
    /// One share of the crawls per page: sums to 1, or to crawl_rate E[X] < 1 with slack.
    std::vector<double> frequencies;
    /// Per host: its cap binds (it gets exactly max_rates[h] / crawl_rate of the crawls).
    std::vector<bool> saturated;
    /// Per host: ln of its pages' multiplier (ln_multiplier where not saturated).
    std::vector<double> ln_host_multipliers;
    /// ln of the budget's multiplier; -infinity with slack.
    double ln_multiplier = 0;
    /// sum c_i r_i at the plan under the chosen objective.
    double objective = 0;
    /// Crawls per unit time spent: 1/E[X], or sum(max_rates) with slack.
    double crawl_rate = 0;
};

/// N pages, their change rates and cost weights, and the access-time
/// distribution (crawlsched_freshness_model_t). Immutable.
class freshness_model : public detail::handle<crawlsched_freshness_model_t, crawlsched_freshness_model_free> {
public:
    using handle::handle;
    /// weights empty: c_i = change_rates[i] (Theorem 3.4's case).
    freshness_model(const distribution &access, const std::vector<double> &change_rates,
                    const std::vector<double> &weights = {})
        : handle(create(access, change_rates, weights)) {}

    std::size_t size() const {
        std::size_t n = 0;
        detail::call(crawlsched_freshness_model_len, get(), &n);
        return n;
    }
    std::vector<double> h() const { return per_page(crawlsched_freshness_model_h); }
    std::vector<double> optimal_frequencies() const { return per_page(crawlsched_freshness_optimal_frequencies); }
    double lower_bound() const { return scalar(crawlsched_freshness_lower_bound); }
    double cost(const std::vector<double> &freq) const {
        double out = 0;
        detail::call(crawlsched_freshness_cost, get(), detail::data_or_null(freq), freq.size(), &out);
        return out;
    }
    std::vector<double> obsolescence_bound(const std::vector<double> &freq) const {
        std::vector<double> out(size());
        detail::call(crawlsched_freshness_obsolescence_bound, get(), detail::data_or_null(freq), freq.size(),
                     out.data(), out.size());
        return out;
    }
    double randomized_cost(const std::vector<double> &freq) const {
        double out = 0;
        detail::call(crawlsched_freshness_randomized_cost, get(), detail::data_or_null(freq), freq.size(), &out);
        return out;
    }
    std::vector<double> randomized_optimal_frequencies() const {
        return per_page(crawlsched_freshness_randomized_optimal_frequencies);
    }
    double randomized_optimal_cost() const { return scalar(crawlsched_freshness_randomized_optimal_cost); }
    /// Exact long-run cost of repeating the cycle `seq` (page indices).
    double cyclic_cost(const std::vector<std::uint32_t> &seq) const {
        double out = 0;
        detail::call(crawlsched_freshness_cyclic_cost, get(), detail::data_or_null(seq), seq.size(), &out);
        return out;
    }
    /// Exact fraction of time each page is out of date under the cycle.
    std::vector<double> cyclic_obsolescence(const std::vector<std::uint32_t> &seq) const {
        std::vector<double> out(size());
        detail::call(crawlsched_freshness_cyclic_obsolescence, get(), detail::data_or_null(seq), seq.size(),
                     out.data(), out.size());
        return out;
    }
    double golden_ratio_bound() const { return scalar(crawlsched_freshness_golden_ratio_bound); }
    /// Monte Carlo of `cycles` repetitions of `seq`; `control` (optional) can cancel it.
    estimate_with_error simulate_cyclic(const std::vector<std::uint32_t> &seq, std::uint64_t cycles,
                                        std::uint64_t seed, const crawlsched_control_t *control = nullptr) const {
        estimate_with_error r{0, 0};
        detail::call(crawlsched_freshness_simulate_cyclic, get(), detail::data_or_null(seq), seq.size(), cycles, seed,
                     control, &r.value, &r.std_error);
        return r;
    }
    /// The optimal frequencies when page i is on host hosts[i] (< max_rates.size(),
    /// every host with a page) and host h accepts at most max_rates[h] crawls per
    /// unit time (finite > 0, or infinity for no limit). Caps summing below 1/E[X]
    /// throw error CRAWLSCHED_INFEASIBLE unless allow_slack (then every host is
    /// crawled at its cap). `control` (optional): memory cap, cancel, iteration cap.
    polite_plan polite_frequencies(const std::vector<std::uint32_t> &hosts, const std::vector<double> &max_rates,
                                   polite_objective objective = polite_objective::evenly_spaced,
                                   bool allow_slack = false, const crawlsched_control_t *control = nullptr) const {
        polite_plan plan;
        std::vector<std::uint8_t> sat(max_rates.size());
        plan.ln_host_multipliers.resize(max_rates.size());
        std::uint8_t *sat_out = sat.empty() ? nullptr : sat.data();
        double *ln_h_out = sat.empty() ? nullptr : plan.ln_host_multipliers.data();
        std::uint32_t flags = allow_slack ? CRAWLSCHED_POLITE_ALLOW_SLACK : 0u;
        plan.frequencies = detail::fill<double>(
            hosts.size(), [&](double *out, std::size_t cap, std::size_t *len, crawlsched_error_t *e) {
                return crawlsched_freshness_polite_frequencies(
                    get(), detail::data_or_null(hosts), hosts.size(), detail::data_or_null(max_rates),
                    max_rates.size(), static_cast<std::int32_t>(objective), flags, control, out, cap, len, sat_out,
                    ln_h_out, &plan.ln_multiplier, &plan.objective, &plan.crawl_rate, e);
            });
        plan.saturated.assign(sat.begin(), sat.end());
        return plan;
    }

private:
    static crawlsched_freshness_model_t *create(const distribution &access, const std::vector<double> &rates,
                                                const std::vector<double> &weights) {
        if (!weights.empty() && weights.size() != rates.size())
            throw error(CRAWLSCHED_INVALID_ARGUMENT, "weights and change_rates differ in length");
        crawlsched_freshness_model_t *raw = nullptr;
        detail::call(crawlsched_freshness_model_new, access.get(), detail::data_or_null(rates),
                     detail::data_or_null(weights), rates.size(), &raw);
        return raw;
    }
    template <class F>
    std::vector<double> per_page(F fn) const {
        std::vector<double> out(size());
        detail::call(fn, get(), out.data(), out.size());
        return out;
    }
    template <class F>
    double scalar(F fn) const {
        double out = 0;
        detail::call(fn, get(), &out);
        return out;
    }
};

/// Free functions of the freshness module (cycles and bounds).
namespace freshness {
/// Whole accesses per cycle of `total` (largest remainder).
inline std::vector<std::uint64_t> integer_counts(const std::vector<double> &freq, std::uint64_t total,
                                                 bool at_least_one) {
    std::vector<std::uint64_t> out(freq.size());
    detail::call(crawlsched_freshness_integer_counts, detail::data_or_null(freq), freq.size(), total,
                 static_cast<std::int32_t>(at_least_one), out.data(), out.size());
    return out;
}
inline std::uint64_t fibonacci_at_least(std::uint64_t n) {
    std::uint64_t out = 0;
    detail::call(crawlsched_freshness_fibonacci_at_least, n, &out);
    return out;
}
inline std::uint64_t sum(const std::vector<std::uint64_t> &counts) noexcept {
    std::uint64_t s = 0;
    for (auto c : counts) s += c;
    return s;
}
/// The golden-ratio cycle (§5): page i appears counts[i] times.
inline std::vector<std::uint32_t> golden_ratio_sequence(const std::vector<std::uint64_t> &counts) {
    return detail::fill<std::uint32_t>(
        static_cast<std::size_t>(sum(counts)),
        [&](std::uint32_t *out, std::size_t cap, std::size_t *len, crawlsched_error_t *e) {
            return crawlsched_freshness_golden_ratio_sequence(detail::data_or_null(counts), counts.size(), out, cap,
                                                              len, e);
        });
}
inline std::vector<std::uint32_t> round_robin_sequence(const std::vector<std::uint64_t> &counts) {
    return detail::fill<std::uint32_t>(
        static_cast<std::size_t>(sum(counts)),
        [&](std::uint32_t *out, std::size_t cap, std::size_t *len, crawlsched_error_t *e) {
            return crawlsched_freshness_round_robin_sequence(detail::data_or_null(counts), counts.size(), out, cap,
                                                             len, e);
        });
}
/// H(q) of Corollary 5.1.
inline double bound_ratio(double q) {
    double out = 0;
    detail::call(crawlsched_freshness_bound_ratio, q, &out);
    return out;
}
}  // namespace freshness

/// One page's change-rate estimator (crawlsched_estimator_t). Mutable,
/// internally serialised.
class estimator : public detail::handle<crawlsched_estimator_t, crawlsched_estimator_free> {
public:
    using handle::handle;
    /// Without prior knowledge.
    static estimator without_prior() { return detail::make<estimator>(crawlsched_estimator_new); }
    /// Prior guess `rate_guess` worth `weight_time` time units of watching.
    static estimator with_prior(double rate_guess, double weight_time) {
        return detail::make<estimator>(crawlsched_estimator_new_with_prior, rate_guess, weight_time);
    }
    /// A visit `interval` after the previous one; `changed` if it had.
    void observe(double interval, bool changed) {
        detail::call(crawlsched_estimator_observe, get(), interval, static_cast<std::int32_t>(changed));
    }
    /// Throws error with CRAWLSCHED_NOT_FOUND while there is no information.
    double estimate() const {
        double out = 0;
        detail::call(crawlsched_estimator_estimate, get(), &out);
        return out;
    }
    std::uint64_t observations() const {
        std::uint64_t out = 0;
        detail::call(crawlsched_estimator_observations, get(), &out);
        return out;
    }
    /// The state (visits, bucketed, and prior; docs/c-api.md's format), at
    /// most CRAWLSCHED_ESTIMATOR_STATE_MAX_BYTES bytes, to keep in a page's
    /// metadata; from_state restores it exactly.
    std::vector<std::uint8_t> state() const {
        return detail::fill<std::uint8_t>(CRAWLSCHED_ESTIMATOR_STATE_MAX_BYTES,
                                          [&](std::uint8_t *out, std::size_t cap, std::size_t *len, crawlsched_error_t *e) {
                                              return crawlsched_estimator_export_state(get(), out, cap, len, e);
                                          });
    }
    /// The estimator of saved state() bytes (error CRAWLSCHED_INVALID_ARGUMENT for others).
    static estimator from_state(const std::vector<std::uint8_t> &state) {
        return detail::make<estimator>(crawlsched_estimator_new_from_state, detail::data_or_null(state), state.size());
    }
};

enum class scheduler_mode : std::int32_t {
    stride = CRAWLSCHED_SCHEDULER_STRIDE,
    golden_ratio = CRAWLSCHED_SCHEDULER_GOLDEN_RATIO,
};

/// A streaming recrawl scheduler over pages with 64-bit ids
/// (crawlsched_scheduler_t). Mutable, internally serialised: crawler
/// threads may share one.
class scheduler : public detail::handle<crawlsched_scheduler_t, crawlsched_scheduler_free> {
public:
    using handle::handle;
    scheduler(const distribution &access, scheduler_mode mode)
        : handle(create(access, mode)) {}

    void add_page(std::uint64_t id, double change_rate) {
        detail::call(crawlsched_scheduler_add_page, get(), id, change_rate);
    }
    void add_weighted_page(std::uint64_t id, double change_rate, double weight) {
        detail::call(crawlsched_scheduler_add_weighted_page, get(), id, change_rate, weight);
    }
    /// Adds pages ids[i] with change_rates[i] and weights[i] (weights
    /// empty: each weight is the page's rate, as add_page) in one call, as
    /// the one-by-one adds would; all or nothing.
    void add_pages(const std::vector<std::uint64_t> &ids, const std::vector<double> &change_rates,
                   const std::vector<double> &weights = {}) {
        if (change_rates.size() != ids.size() || (!weights.empty() && weights.size() != ids.size()))
            throw error(CRAWLSCHED_INVALID_ARGUMENT, "ids, change_rates and weights differ in length");
        detail::call(crawlsched_scheduler_add_pages, get(), detail::data_or_null(ids),
                     detail::data_or_null(change_rates), detail::data_or_null(weights), ids.size());
    }
    void remove_page(std::uint64_t id) { detail::call(crawlsched_scheduler_remove_page, get(), id); }
    void set_change_rate(std::uint64_t id, double change_rate) {
        detail::call(crawlsched_scheduler_set_change_rate, get(), id, change_rate);
    }
    void observe(std::uint64_t id, double interval, bool changed) {
        detail::call(crawlsched_scheduler_observe, get(), id, interval, static_cast<std::int32_t>(changed));
    }
    /// The page to crawl now (error CRAWLSCHED_NOT_FOUND when empty).
    std::uint64_t next() {
        std::uint64_t id = 0;
        detail::call(crawlsched_scheduler_next, get(), &id);
        return id;
    }
    std::vector<std::uint64_t> next_batch(std::size_t n) {
        std::vector<std::uint64_t> ids(n);
        if (n > 0) detail::call(crawlsched_scheduler_next_batch, get(), ids.data(), n);
        return ids;
    }
    std::size_t size() const {
        std::size_t n = 0;
        detail::call(crawlsched_scheduler_len, get(), &n);
        return n;
    }
    double change_rate(std::uint64_t id) const {
        double out = 0;
        detail::call(crawlsched_scheduler_change_rate, get(), id, &out);
        return out;
    }
    /// The page's target share of all crawls.
    double frequency(std::uint64_t id) const {
        double out = 0;
        detail::call(crawlsched_scheduler_frequency, get(), id, &out);
        return out;
    }
    /// Puts page `id` on `host` (any uint32_t: a politeness group) from the next
    /// pick, replacing its previous host.
    void set_host(std::uint64_t id, std::uint32_t host) { detail::call(crawlsched_scheduler_set_host, get(), id, host); }
    /// Takes page `id` off its host (no-op when it has none).
    void clear_host(std::uint64_t id) { detail::call(crawlsched_scheduler_clear_host, get(), id); }
    /// Page `id`'s host, or std::nullopt when it has none.
    std::optional<std::uint32_t> host(std::uint64_t id) const {
        std::uint32_t h = 0;
        std::int32_t has = 0;
        detail::call(crawlsched_scheduler_host, get(), id, &h, &has);
        return has ? std::optional<std::uint32_t>(h) : std::nullopt;
    }
    /// The host's minimum delay (finite, >= 0) between picks of its pages, in
    /// next_at's clock unit and the crawl times' (next() rounds it up to whole
    /// slots of the mean crawl time, one per pick; one clock per scheduler).
    void set_host_delay(std::uint32_t host, double delay) {
        detail::call(crawlsched_scheduler_set_host_delay, get(), host, delay);
    }
    /// The host's minimum delay (0 when none was set).
    double host_delay(std::uint32_t host) const {
        double out = 0;
        detail::call(crawlsched_scheduler_host_delay, get(), host, &out);
        return out;
    }
    /// What next_at says: ready and the page to crawl now (wait 0), or not
    /// ready (id 0) and the wait after which a host is.
    struct pick {
        bool ready;
        std::uint64_t id;
        double wait;
    };
    /// The pick at time `now` on the caller's clock (finite, non-decreasing
    /// from call to call; the unit of the host delays). A page of host h comes
    /// only when host_delay(h) has passed since the last pick of a page of h.
    pick next_at(double now) {
        pick p{false, 0, 0};
        std::int32_t ready = 0;
        detail::call(crawlsched_scheduler_next_at, get(), now, &p.id, &p.wait, &ready);
        p.ready = ready != 0;
        return p;
    }
    /// Every page's target share, as (id, share) sorted by id: one O(N)
    /// computation, where N frequency() calls after rate changes are O(N) each.
    std::vector<std::pair<std::uint64_t, double>> frequencies() const {
        std::vector<double> shares;
        std::vector<std::uint64_t> ids = detail::fill<std::uint64_t>(size(), [&](std::uint64_t *out, std::size_t cap, std::size_t *len, crawlsched_error_t *e) {
            shares.resize(cap);
            return crawlsched_scheduler_frequencies(get(), out, shares.empty() ? nullptr : shares.data(), cap, len, e);
        });
        std::vector<std::pair<std::uint64_t, double>> out(ids.size());
        for (std::size_t i = 0; i < ids.size(); i++) out[i] = {ids[i], shares[i]};
        return out;
    }
    /// Page `id`'s estimator state (as estimator::state()), for its metadata.
    std::vector<std::uint8_t> page_state(std::uint64_t id) const {
        return detail::fill<std::uint8_t>(CRAWLSCHED_ESTIMATOR_STATE_MAX_BYTES,
                                          [&](std::uint8_t *out, std::size_t cap, std::size_t *len, crawlsched_error_t *e) {
                                              return crawlsched_scheduler_page_state(get(), id, out, cap, len, e);
                                          });
    }
    /// Restores page `id`'s saved state and adopts its estimate as the rate.
    void set_page_state(std::uint64_t id, const std::vector<std::uint8_t> &state) {
        detail::call(crawlsched_scheduler_set_page_state, get(), id, detail::data_or_null(state), state.size());
    }
    /// Page `id`'s revisit interval under the plan, E[X]/f_i (infinity: never due).
    double revisit_interval(std::uint64_t id) const {
        double out = 0;
        detail::call(crawlsched_scheduler_revisit_interval, get(), id, &out);
        return out == 0 ? std::numeric_limits<double>::infinity() : out;
    }
    /// last_visit + revisit_interval(id) (infinity: never due).
    double next_due(std::uint64_t id, double last_visit) const {
        double due = 0;
        std::int32_t has = 0;
        detail::call(crawlsched_scheduler_next_due, get(), id, last_visit, &due, &has);
        return has ? due : std::numeric_limits<double>::infinity();
    }
    /// Every page's revisit interval, as (id, interval) sorted by id.
    std::vector<std::pair<std::uint64_t, double>> revisit_intervals() const {
        std::vector<double> iv;
        std::vector<std::uint64_t> ids = detail::fill<std::uint64_t>(size(), [&](std::uint64_t *out, std::size_t cap, std::size_t *len, crawlsched_error_t *e) {
            iv.resize(cap);
            return crawlsched_scheduler_revisit_intervals(get(), out, iv.empty() ? nullptr : iv.data(), cap, len, e);
        });
        std::vector<std::pair<std::uint64_t, double>> out(ids.size());
        for (std::size_t i = 0; i < ids.size(); i++)
            out[i] = {ids[i], iv[i] == 0 ? std::numeric_limits<double>::infinity() : iv[i]};
        return out;
    }

private:
    static crawlsched_scheduler_t *create(const distribution &access, scheduler_mode mode) {
        crawlsched_scheduler_t *raw = nullptr;
        detail::call(crawlsched_scheduler_new, access.get(), static_cast<std::int32_t>(mode), &raw);
        return raw;
    }
};

// ----------------------------------------------------------------- mdp

/// A finished sparse MDP (crawlsched_mdp_t). Immutable.
class mdp : public detail::handle<crawlsched_mdp_t, crawlsched_mdp_free> {
public:
    using handle::handle;
    struct sizes {
        std::uint64_t states, actions, transitions;
    };
    sizes size() const {
        sizes s{0, 0, 0};
        detail::call(crawlsched_mdp_size, get(), &s.states, &s.actions, &s.transitions);
        return s;
    }
};

/// Builds an MDP row by row (crawlsched_mdp_builder_t). Mutable.
class mdp_builder : public detail::handle<crawlsched_mdp_builder_t, crawlsched_mdp_builder_free> {
public:
    using handle::handle;
    explicit mdp_builder(std::size_t n_states) : handle(create(n_states)) {}
    /// Adds an action to `state`; returns its index within the state.
    std::uint32_t add_action(std::uint32_t state, const std::vector<std::uint32_t> &next,
                             const std::vector<double> &prob, double cost) {
        if (next.size() != prob.size()) throw error(CRAWLSCHED_INVALID_ARGUMENT, "next and prob differ in length");
        std::uint32_t action = 0;
        detail::call(crawlsched_mdp_builder_add_action, get(), state, detail::data_or_null(next),
                     detail::data_or_null(prob), next.size(), cost, &action);
        return action;
    }
    /// Finishes the MDP; the builder is emptied.
    mdp build() { return detail::make<mdp>(crawlsched_mdp_build, get()); }

private:
    static crawlsched_mdp_builder_t *create(std::size_t n) {
        crawlsched_mdp_builder_t *raw = nullptr;
        detail::call(crawlsched_mdp_builder_new, n, &raw);
        return raw;
    }
};

enum class mdp_method : std::int32_t {
    relative_value_iteration = CRAWLSCHED_MDP_RELATIVE_VALUE_ITERATION,
    value_iteration = CRAWLSCHED_MDP_VALUE_ITERATION,
    gauss_seidel = CRAWLSCHED_MDP_GAUSS_SEIDEL,
    policy_iteration = CRAWLSCHED_MDP_POLICY_ITERATION,
};
enum class mdp_criterion : std::int32_t { average = CRAWLSCHED_MDP_AVERAGE, discounted = CRAWLSCHED_MDP_DISCOUNTED };
enum class mdp_stopping : std::int32_t {
    span = CRAWLSCHED_MDP_STOP_SPAN,
    relative_change = CRAWLSCHED_MDP_STOP_RELATIVE_CHANGE,
};

/// Solver settings and its last result (crawlsched_mdp_solver_t). Mutable.
class mdp_solver : public detail::handle<crawlsched_mdp_solver_t, crawlsched_mdp_solver_free> {
public:
    explicit mdp_solver(mdp_method method) : handle(create(method)) {}
    mdp_solver(mdp_solver &&o) noexcept : handle(std::move(o)), states_(o.states_.load()) {}
    mdp_solver &operator=(mdp_solver &&o) noexcept {
        handle::operator=(std::move(o));
        states_.store(o.states_.load());
        return *this;
    }

    struct gain_bounds {
        double gain, lo, hi;
    };
    struct run_stats {
        std::uint64_t iterations;
        bool converged;
        std::uint64_t recurrent_classes;
    };

    void set_limits(double tolerance, std::uint64_t max_iterations, mdp_stopping stopping) {
        detail::call(crawlsched_mdp_solver_set_limits, get(), tolerance, max_iterations,
                     static_cast<std::int32_t>(stopping));
    }
    void set_criterion(mdp_criterion criterion, double discount, double tau) {
        detail::call(crawlsched_mdp_solver_set_criterion, get(), static_cast<std::int32_t>(criterion), discount, tau);
    }
    /// Solves `m`. False if the iteration limit was reached (the best
    /// answer so far is then readable); other failures throw.
    bool run(const mdp &m) {
        bool converged = detail::call_converged(crawlsched_mdp_solver_run, get(), m.get());
        states_.store(m.size().states);
        return converged;
    }
    gain_bounds gain() const {
        gain_bounds g{0, 0, 0};
        detail::call(crawlsched_mdp_solver_gain, get(), &g.gain, &g.lo, &g.hi);
        return g;
    }
    run_stats stats() const {
        std::int32_t converged = 0;
        run_stats s{0, false, 0};
        detail::call(crawlsched_mdp_solver_stats, get(), &s.iterations, &converged, &s.recurrent_classes);
        s.converged = converged != 0;
        return s;
    }
    /// The last run's action per state.
    std::vector<std::uint32_t> policy() const {
        std::vector<std::uint32_t> out(static_cast<std::size_t>(states_.load()));
        detail::call(crawlsched_mdp_solver_policy, get(), out.data(), out.size());
        return out;
    }
    /// The last run's bias (average cost) or values (discounted).
    std::vector<double> values() const {
        std::vector<double> out(static_cast<std::size_t>(states_.load()));
        detail::call(crawlsched_mdp_solver_values, get(), out.data(), out.size());
        return out;
    }

private:
    static crawlsched_mdp_solver_t *create(mdp_method method) {
        crawlsched_mdp_solver_t *raw = nullptr;
        detail::call(crawlsched_mdp_solver_new, static_cast<std::int32_t>(method), &raw);
        return raw;
    }
    // The C API sizes policy/values by the solved MDP but does not report
    // that size, so remember it (atomically: runs may be concurrent).
    std::atomic<std::uint64_t> states_{0};
};

// -------------------------------------------------------------- robots

/// The optimal robot-activation policy of one model (crawlsched_robots_t):
/// N robots each bringing pages at rate lambda into a buffer of K served
/// at rate mu; cost gamma * starvation + loss rate. Immutable.
class robots : public detail::handle<crawlsched_robots_t, crawlsched_robots_free> {
public:
    using handle::handle;
    struct costs {
        double cost, starvation, loss_rate;
    };
    struct robot_counts {
        std::uint64_t n_min;
        double n_mean;
        std::int64_t n_max;  // -1: never activates on a departure
    };
    struct curve {
        std::vector<std::int64_t> f;  // activate iff q <= f[r]; -1 never
        bool is_curve;                // the optimum is exactly this curve
    };

    /// Exact solution under an optional control (memory cap, iteration cap, cancel).
    static robots solve(std::uint64_t n, std::uint64_t k, double lambda, double mu, double gamma,
                        const crawlsched_control_t *control = nullptr) {
        return detail::make<robots>(crawlsched_robots_solve, n, k, lambda, mu, gamma, control);
    }
    static robots solve_unlimited(std::uint64_t k, double lambda, double mu, double gamma,
                                  const crawlsched_control_t *control = nullptr) {
        return detail::make<robots>(crawlsched_robots_solve_unlimited, k, lambda, mu, gamma, control);
    }
    /// The model's N (robots) and K (buffer).
    std::pair<std::uint64_t, std::uint64_t> size() const {
        std::uint64_t n = 0, k = 0;
        detail::call(crawlsched_robots_size, get(), &n, &k);
        return {n, k};
    }
    costs cost() const {
        costs c{0, 0, 0};
        detail::call(crawlsched_robots_cost, get(), &c.cost, &c.starvation, &c.loss_rate);
        return c;
    }
    robot_counts counts() const {
        robot_counts c{0, 0, 0};
        detail::call(crawlsched_robots_counts, get(), &c.n_min, &c.n_mean, &c.n_max);
        return c;
    }
    /// f_s(r), r = 0..N, for events s = 0 (departure) or 1 (arrival).
    curve switching_curve(std::int32_t s) const {
        curve c{std::vector<std::int64_t>(static_cast<std::size_t>(size().first + 1)), false};
        std::int32_t is_curve = 0;
        detail::call(crawlsched_robots_switching_curve, get(), s, c.f.data(), c.f.size(), &is_curve);
        c.is_curve = is_curve != 0;
        return c;
    }
    /// P(q, r, s) at index (r*(K+1) + q)*3 + s.
    std::vector<double> stationary() const {
        auto nk = size();
        std::vector<double> out(static_cast<std::size_t>(3 * (nk.second + 1) * (nk.first + 1)));
        detail::call(crawlsched_robots_stationary, get(), out.data(), out.size());
        return out;
    }
    double evaluate_curve(const std::vector<std::int64_t> &f0, const std::vector<std::int64_t> &f1) const {
        if (f0.size() != f1.size()) throw error(CRAWLSCHED_INVALID_ARGUMENT, "f0 and f1 differ in length");
        double out = 0;
        detail::call(crawlsched_robots_evaluate_curve, get(), detail::data_or_null(f0), detail::data_or_null(f1),
                     f0.size(), &out);
        return out;
    }
    /// Cost of keeping n robots always active.
    double evaluate_static(std::uint64_t n) const {
        double out = 0;
        detail::call(crawlsched_robots_evaluate_static, get(), n, &out);
        return out;
    }
    /// C_s(rho, gamma, K) of eq. (9).
    static double static_cost(double rho, double gamma, std::uint64_t k, double mu) {
        double out = 0;
        detail::call(crawlsched_robots_static_cost, rho, gamma, k, mu, &out);
        return out;
    }
    /// Proposition 3: the best static number of robots and its cost.
    static std::pair<std::uint64_t, double> optimal_static(double lambda, double mu, double gamma, std::uint64_t k) {
        std::uint64_t n = 0;
        double c = 0;
        detail::call(crawlsched_robots_optimal_static, lambda, mu, gamma, k, &n, &c);
        return {n, c};
    }
};

// ------------------------------------------------------------- routing

/// A single-arrival stationary process: Poisson, MMPP or MAP. Immutable.
class routing_arrivals : public detail::handle<crawlsched_routing_arrivals_t, crawlsched_routing_arrivals_free> {
public:
    using handle::handle;
    static routing_arrivals poisson(double rate) {
        return detail::make<routing_arrivals>(crawlsched_routing_arrivals_poisson_new, rate);
    }
    /// Phase generator q (n x n row-major), rates per phase.
    static routing_arrivals mmpp(const std::vector<double> &q, const std::vector<double> &rates) {
        return detail::make<routing_arrivals>(crawlsched_routing_arrivals_mmpp_new, detail::data_or_null(q), q.size(),
                                              detail::data_or_null(rates), rates.size());
    }
    static routing_arrivals map(std::size_t n, const std::vector<double> &d0, const std::vector<double> &d1) {
        return detail::make<routing_arrivals>(crawlsched_routing_arrivals_map_new, n, detail::data_or_null(d0),
                                              d0.size(), detail::data_or_null(d1), d1.size());
    }
    double rate() const {
        double out = 0;
        detail::call(crawlsched_routing_arrivals_rate, get(), &out);
        return out;
    }
    double transform(double mu, std::uint32_t k) const {
        double out = 0;
        detail::call(crawlsched_routing_arrivals_transform, get(), mu, k, &out);
        return out;
    }
};

enum class routing_objective : std::int32_t {
    losses = CRAWLSCHED_ROUTING_LOSSES,
    robot = CRAWLSCHED_ROUTING_ROBOT,
};

/// A routing period (server per request) and what it costs.
struct routing_period {
    std::vector<std::uint32_t> period;
    double cost_per_packet;
    std::uint64_t evaluations;
};

/// Exact cost of a period, per request and per unit time.
struct routing_cost {
    double per_packet, per_unit_time;
};

/// Monte Carlo estimate of a period's cost.
struct routing_simulation {
    double per_packet, std_error, per_unit_time;
};

/// M exponential servers without buffers fed by one arrival process.
/// Immutable.
class routing_servers : public detail::handle<crawlsched_routing_servers_t, crawlsched_routing_servers_free> {
public:
    using handle::handle;
    /// weights empty: all 1.
    routing_servers(const routing_arrivals &arrivals, const std::vector<double> &rates,
                    const std::vector<double> &weights, routing_objective objective)
        : handle(create(arrivals, rates, weights, objective)) {}

    std::size_t size() const {
        std::size_t n = 0;
        detail::call(crawlsched_routing_servers_len, get(), &n);
        return n;
    }
    double immediate_cost(std::uint32_t server, std::uint32_t k) const {
        double out = 0;
        detail::call(crawlsched_routing_immediate_cost, get(), server, k, &out);
        return out;
    }
    routing_cost cost(const std::vector<std::uint32_t> &seq) const {
        routing_cost c{0, 0};
        detail::call(crawlsched_routing_cost, get(), detail::data_or_null(seq), seq.size(), &c.per_packet,
                     &c.per_unit_time);
        return c;
    }
    /// The exact optimal period of length min_period..=max_period (the
    /// searches and the simulation take an optional control).
    routing_period optimize_exhaustive(std::uint64_t min_period, std::uint64_t max_period,
                                       const crawlsched_control_t *control = nullptr) const {
        return search(crawlsched_routing_optimize_exhaustive, min_period, max_period, control);
    }
    /// Local search from balanced sequences (a heuristic in general).
    routing_period optimize_local(std::uint64_t min_period, std::uint64_t max_period,
                                  const crawlsched_control_t *control = nullptr) const {
        return search(crawlsched_routing_optimize_local, min_period, max_period, control);
    }
    /// Multimodular local search from `seq` (M = 2): optimal for its length.
    routing_period local_search_multimodular(const std::vector<std::uint32_t> &seq,
                                             const crawlsched_control_t *control = nullptr) const {
        routing_period r{{}, 0, 0};
        r.period = detail::fill<std::uint32_t>(
            seq.size(), [&](std::uint32_t *out, std::size_t cap, std::size_t *len, crawlsched_error_t *e) {
                return crawlsched_routing_local_search_multimodular(get(), detail::data_or_null(seq), seq.size(), control,
                                                                    out, cap, len, &r.cost_per_packet, &r.evaluations,
                                                                    e);
            });
        return r;
    }
    routing_simulation simulate(const std::vector<std::uint32_t> &seq, std::uint64_t periods, std::uint64_t seed,
                                const crawlsched_control_t *control = nullptr) const {
        routing_simulation s{0, 0, 0};
        detail::call(crawlsched_routing_simulate, get(), detail::data_or_null(seq), seq.size(), periods, seed, control,
                     &s.per_packet, &s.std_error, &s.per_unit_time);
        return s;
    }

private:
    static crawlsched_routing_servers_t *create(const routing_arrivals &arrivals, const std::vector<double> &rates,
                                                const std::vector<double> &weights, routing_objective objective) {
        if (!weights.empty() && weights.size() != rates.size())
            throw error(CRAWLSCHED_INVALID_ARGUMENT, "weights and rates differ in length");
        crawlsched_routing_servers_t *raw = nullptr;
        detail::call(crawlsched_routing_servers_new, arrivals.get(), detail::data_or_null(rates),
                     detail::data_or_null(weights), rates.size(), static_cast<std::int32_t>(objective), &raw);
        return raw;
    }
    template <class F>
    routing_period search(F fn, std::uint64_t min_period, std::uint64_t max_period,
                          const crawlsched_control_t *control) const {
        routing_period r{{}, 0, 0};
        // The period is at most max_period (and 2^20) long: one call, no
        // size query (which would repeat the search).
        r.period = detail::fill<std::uint32_t>(
            static_cast<std::size_t>(std::min<std::uint64_t>(max_period, std::uint64_t{1} << 20)),
            [&](std::uint32_t *out, std::size_t cap, std::size_t *len, crawlsched_error_t *e) {
                return fn(get(), min_period, max_period, control, out, cap, len, &r.cost_per_packet, &r.evaluations,
                          e);
            });
        return r;
    }
};

namespace routing {
/// The balanced (billiard) sequence with counts[m] visits of server m.
inline std::vector<std::uint32_t> balanced_sequence(const std::vector<std::uint64_t> &counts) {
    return detail::fill<std::uint32_t>(
        static_cast<std::size_t>(freshness::sum(counts)),
        [&](std::uint32_t *out, std::size_t cap, std::size_t *len, crawlsched_error_t *e) {
            return crawlsched_routing_balanced_sequence(detail::data_or_null(counts), counts.size(), out, cap, len, e);
        });
}
/// g(n, mu2) of paper §5 (Figure 1).
inline double two_server_cost(std::uint32_t n, double mu2) {
    double out = 0;
    detail::call(crawlsched_routing_two_server_cost, n, mu2, &out);
    return out;
}
/// The mu2 at which Figure 1's optimal period grows from n to n + 1.
inline double switch_point(std::uint32_t n) {
    double out = 0;
    detail::call(crawlsched_routing_switch_point, n, &out);
    return out;
}
}  // namespace routing

/// A streaming router repeating a period (crawlsched_routing_router_t).
/// Lock-free: threads may share one.
class router : public detail::handle<crawlsched_routing_router_t, crawlsched_routing_router_free> {
public:
    using handle::handle;
    router(const std::vector<std::uint32_t> &period, std::uint32_t servers) : handle(create(period, servers)) {}
    /// The server for the next request.
    std::uint32_t next() {
        std::uint32_t s = 0;
        detail::call(crawlsched_routing_router_next, get(), &s);
        return s;
    }
    /// The servers for the next n requests (one contiguous block).
    std::vector<std::uint32_t> next_batch(std::size_t n) {
        std::vector<std::uint32_t> out(n);
        if (n > 0) detail::call(crawlsched_routing_router_next_batch, get(), out.data(), n);
        return out;
    }

private:
    static crawlsched_routing_router_t *create(const std::vector<std::uint32_t> &period, std::uint32_t servers) {
        crawlsched_routing_router_t *raw = nullptr;
        detail::call(crawlsched_routing_router_new, detail::data_or_null(period), period.size(), servers, &raw);
        return raw;
    }
};

// --------------------------------------------------------------- probe

/// A piecewise-constant function: value[k] on [breaks[k], breaks[k+1]).
struct piecewise {
    std::vector<double> breaks;  // pieces + 1 entries, from 0
    std::vector<double> values;  // pieces entries
    bool periodic;               // repeats with period breaks.back()
};

enum class probe_policy : std::int32_t {
    threshold = CRAWLSCHED_PROBE_POLICY_THRESHOLD,
    first_arrival = CRAWLSCHED_PROBE_POLICY_FIRST_ARRIVAL,
};
enum class probe_method : std::int32_t {
    reference = CRAWLSCHED_PROBE_METHOD_REFERENCE,
    divide_conquer = CRAWLSCHED_PROBE_METHOD_DIVIDE_CONQUER,
    hull = CRAWLSCHED_PROBE_METHOD_HULL,
    lagrangian = CRAWLSCHED_PROBE_METHOD_LAGRANGIAN,
};

/// Probe times and their expected cost.
struct probe_plan {
    std::vector<double> times;
    double cost;
};

/// Update intensity lambda(t) and importance a(t) over [0, T]
/// (crawlsched_probe_profile_t). Immutable.
class probe_profile : public detail::handle<crawlsched_probe_profile_t, crawlsched_probe_profile_free> {
public:
    using handle::handle;
    probe_profile(const piecewise &lambda, const piecewise &a, double horizon)
        : handle(create(lambda, a, horizon)) {}
    static probe_profile dbworld(double ratio, double horizon_days) {
        return detail::make<probe_profile>(crawlsched_probe_profile_dbworld, ratio, horizon_days);
    }
    static probe_profile micronet(double ratio, double horizon_days) {
        return detail::make<probe_profile>(crawlsched_probe_profile_micronet, ratio, horizon_days);
    }

    /// C(s, f) of eq. (5).
    double interval_cost(double s, double f) const {
        double out = 0;
        detail::call(crawlsched_probe_interval_cost, get(), s, f, &out);
        return out;
    }
    /// Expected cost (eq. 6) of probing at `probes` (sorted, last = T).
    double expected_cost(const std::vector<double> &probes) const {
        double out = 0;
        detail::call(crawlsched_probe_expected_cost, get(), detail::data_or_null(probes), probes.size(), &out);
        return out;
    }
    /// Realized cost (eq. 3, 4) on an observed trace of update times.
    double realized_cost(const std::vector<double> &probes, const std::vector<double> &updates) const {
        double out = 0;
        detail::call(crawlsched_probe_realized_cost, get(), detail::data_or_null(probes), probes.size(),
                     detail::data_or_null(updates), updates.size(), &out);
        return out;
    }
    /// n evenly spaced probes.
    std::vector<double> uniform(std::uint64_t n) const {
        std::vector<double> out(static_cast<std::size_t>(n));
        detail::call(crawlsched_probe_uniform, get(), n, out.data(), out.size());
        return out;
    }
    std::vector<double> policy_schedule(probe_policy policy, double parameter) const {
        return detail::fill<double>(0, [&](double *out, std::size_t cap, std::size_t *len, crawlsched_error_t *e) {
            return crawlsched_probe_policy_schedule(get(), static_cast<std::int32_t>(policy), parameter, out, cap, len,
                                                    e);
        });
    }
    /// The policy's schedule with exactly n probes and its tuned parameter.
    std::pair<std::vector<double>, double> policy_with_budget(probe_policy policy, std::uint64_t n) const {
        std::vector<double> times(static_cast<std::size_t>(n));
        double parameter = 0;
        detail::call(crawlsched_probe_policy_with_budget, get(), static_cast<std::int32_t>(policy), n, &parameter,
                     times.data(), times.size());
        return {std::move(times), parameter};
    }
    /// Algorithm 10's improvement of `probes`; the number of moves goes to
    /// *moves if given.
    std::vector<double> improve(const std::vector<double> &probes, double delta, double mu0, double mu_min,
                                double rho, double iota, std::uint64_t *moves = nullptr) const {
        std::vector<double> out(probes.size());
        std::uint64_t m = 0;
        detail::call(crawlsched_probe_improve, get(), detail::data_or_null(probes), probes.size(), delta, mu0, mu_min,
                     rho, iota, out.data(), out.size(), &m);
        if (moves) *moves = m;
        return out;
    }

private:
    static crawlsched_probe_profile_t *create(const piecewise &l, const piecewise &a, double horizon) {
        if (l.breaks.size() != l.values.size() + 1 || a.breaks.size() != a.values.size() + 1)
            throw error(CRAWLSCHED_INVALID_ARGUMENT, "a piecewise function needs one more break than values");
        crawlsched_probe_profile_t *raw = nullptr;
        detail::call(crawlsched_probe_profile_new, l.breaks.data(), detail::data_or_null(l.values), l.values.size(),
                     static_cast<std::int32_t>(l.periodic), a.breaks.data(), detail::data_or_null(a.values),
                     a.values.size(), static_cast<std::int32_t>(a.periodic), horizon, &raw);
        return raw;
    }
};

namespace probe {
/// Maximum-likelihood intensity per piece from sorted update times over
/// [0, window]; pieces given by `breaks`.
inline std::vector<double> estimate_intensity(const std::vector<double> &times, double window,
                                              const std::vector<double> &breaks, bool periodic, double smoothing) {
    if (breaks.empty()) throw error(CRAWLSCHED_INVALID_ARGUMENT, "breaks is empty");
    std::vector<double> out(breaks.size() - 1);
    detail::call(crawlsched_probe_estimate_intensity, detail::data_or_null(times), times.size(), window,
                 breaks.data(), out.size(), static_cast<std::int32_t>(periodic), smoothing, out.data(), out.size());
    return out;
}
}  // namespace probe

/// Plans optimal probe schedules on a grid of candidate times
/// (crawlsched_probe_planner_t). Mutable, internally serialised.
class probe_planner : public detail::handle<crawlsched_probe_planner_t, crawlsched_probe_planner_free> {
public:
    using handle::handle;
    probe_planner(const probe_profile &profile, std::uint64_t grid, double delta)
        : handle(create(profile, grid, delta)) {}
    void set_profile(const probe_profile &profile) {
        detail::call(crawlsched_probe_planner_set_profile, get(), profile.get());
    }
    /// Minimum spacing and allowed windows [starts[k], ends[k]] (none: any time).
    void set_constraints(double delta, const std::vector<double> &starts = {}, const std::vector<double> &ends = {}) {
        if (starts.size() != ends.size()) throw error(CRAWLSCHED_INVALID_ARGUMENT, "starts and ends differ in length");
        detail::call(crawlsched_probe_planner_set_constraints, get(), delta, detail::data_or_null(starts),
                     detail::data_or_null(ends), starts.size());
    }
    /// An optimal schedule of exactly n probes.
    probe_plan plan(std::uint64_t n, probe_method method = probe_method::lagrangian) const {
        probe_plan p{std::vector<double>(static_cast<std::size_t>(n)), 0};
        detail::call(crawlsched_probe_planner_plan, get(), n, static_cast<std::int32_t>(method), p.times.data(),
                     p.times.size(), &p.cost);
        return p;
    }
    /// The optimal cost for every budget 1..max_n.
    std::vector<double> all_costs(std::uint64_t max_n) const {
        std::vector<double> out(static_cast<std::size_t>(max_n));
        detail::call(crawlsched_probe_planner_all_costs, get(), max_n, out.data(), out.size());
        return out;
    }

private:
    static crawlsched_probe_planner_t *create(const probe_profile &profile, std::uint64_t grid, double delta) {
        crawlsched_probe_planner_t *raw = nullptr;
        detail::call(crawlsched_probe_planner_new, profile.get(), grid, delta, &raw);
        return raw;
    }
};

// ----------------------------------------------------------- threshold

enum class bmap_compose : std::int32_t {
    independent = CRAWLSCHED_BMAP_COMPOSE_INDEPENDENT,
    thinning = CRAWLSCHED_BMAP_COMPOSE_THINNING,
    scaled = CRAWLSCHED_BMAP_COMPOSE_SCALED,
};

/// A batch Markovian arrival process (crawlsched_bmap_t). Immutable.
class bmap : public detail::handle<crawlsched_bmap_t, crawlsched_bmap_free> {
public:
    using handle::handle;
    /// Order n, matrices D0, D1, ... each row-major n x n, one after another.
    static bmap from_matrices(std::size_t n, const std::vector<double> &matrices) {
        return detail::make<bmap>(crawlsched_bmap_new, n, detail::data_or_null(matrices), matrices.size());
    }
    static bmap poisson(double rate) { return detail::make<bmap>(crawlsched_bmap_poisson_new, rate); }
    static bmap fit(double mean, double variance, double lag1, double batch_mean, std::uint32_t max_batch) {
        return detail::make<bmap>(crawlsched_bmap_fit_new, mean, variance, lag1, batch_mean, max_batch);
    }
    /// The process with `active` of `total` robots (see crawlsched.h).
    bmap compose(bmap_compose how, std::uint32_t active, std::uint32_t total, double prob) const {
        return detail::make<bmap>(crawlsched_bmap_compose_new, get(), static_cast<std::int32_t>(how), active, total,
                                  prob);
    }
    std::size_t order() const {
        std::size_t n = 0;
        detail::call(crawlsched_bmap_order, get(), &n);
        return n;
    }
    double fundamental_rate() const {
        double out = 0;
        detail::call(crawlsched_bmap_fundamental_rate, get(), &out);
        return out;
    }
    double interarrival_moment(std::uint32_t k) const {
        double out = 0;
        detail::call(crawlsched_bmap_interarrival_moment, get(), k, &out);
        return out;
    }
    double lag_correlation(std::uint32_t k) const {
        double out = 0;
        detail::call(crawlsched_bmap_lag_correlation, get(), k, &out);
        return out;
    }
};

/// Measures indexed by CRAWLSCHED_THRESHOLD_MEASURE_*.
using threshold_measures = std::array<double, CRAWLSCHED_THRESHOLD_MEASURE_COUNT>;
/// Cost weights indexed by CRAWLSCHED_THRESHOLD_WEIGHT_*.
using threshold_weights = std::array<double, CRAWLSCHED_THRESHOLD_WEIGHT_COUNT>;

/// Optimal thresholds and their cost.
struct threshold_optimum {
    std::vector<std::uint32_t> thresholds;
    double cost;
    std::uint64_t evaluated;
};

/// The threshold model with obsolescence (crawlsched_threshold_model_t).
/// Immutable.
class threshold_model : public detail::handle<crawlsched_threshold_model_t, crawlsched_threshold_model_free> {
public:
    using handle::handle;
    /// arrivals[r-1]: the process with r active robots. obsolescence may
    /// be nullptr (pages never become obsolete).
    threshold_model(const std::vector<const bmap *> &arrivals, const distribution &service,
                    const distribution *obsolescence, std::uint32_t buffer)
        : handle(create(arrivals, service, obsolescence, buffer)) {}

    std::uint64_t state_count() const {
        std::uint64_t n = 0;
        detail::call(crawlsched_threshold_model_state_count, get(), &n);
        return n;
    }
    /// The measures under a policy; every evaluation and the search take an
    /// optional control (memory cap, cancel; the search's iteration cap).
    threshold_measures measures(const std::vector<std::uint32_t> &modes, const std::vector<std::uint32_t> &thresholds,
                                const crawlsched_control_t *control = nullptr) const {
        threshold_measures m{};
        detail::call(crawlsched_threshold_measures, get(), detail::data_or_null(modes), modes.size(),
                     detail::data_or_null(thresholds), thresholds.size(), control, m.data(), m.size());
        return m;
    }
    /// P(i pages in the system), i = 0..buffer+1.
    std::vector<double> level_distribution(const std::vector<std::uint32_t> &modes,
                                           const std::vector<std::uint32_t> &thresholds,
                                           const crawlsched_control_t *control = nullptr) const {
        return detail::fill<double>(0, [&](double *out, std::size_t cap, std::size_t *len, crawlsched_error_t *e) {
            return crawlsched_threshold_level_distribution(get(), detail::data_or_null(modes), modes.size(),
                                                           detail::data_or_null(thresholds), thresholds.size(), control,
                                                           out, cap, len, e);
        });
    }
    double cost(const std::vector<std::uint32_t> &modes, const std::vector<std::uint32_t> &thresholds,
                const threshold_weights &weights, const crawlsched_control_t *control = nullptr) const {
        double out = 0;
        detail::call(crawlsched_threshold_cost, get(), detail::data_or_null(modes), modes.size(),
                     detail::data_or_null(thresholds), thresholds.size(), weights.data(), weights.size(), control,
                     &out);
        return out;
    }
    threshold_optimum optimize(const std::vector<std::uint32_t> &modes, const threshold_weights &weights,
                               std::uint64_t max_evaluations, const crawlsched_control_t *control = nullptr) const {
        threshold_optimum o{std::vector<std::uint32_t>(modes.empty() ? 0 : modes.size() - 1), 0, 0};
        detail::call(crawlsched_threshold_optimize, get(), detail::data_or_null(modes), modes.size(), weights.data(),
                     weights.size(), max_evaluations, control, o.thresholds.empty() ? nullptr : o.thresholds.data(),
                     o.thresholds.size(), &o.cost, &o.evaluated);
        return o;
    }

private:
    static crawlsched_threshold_model_t *create(const std::vector<const bmap *> &arrivals,
                                                const distribution &service, const distribution *obsolescence,
                                                std::uint32_t buffer) {
        std::vector<const crawlsched_bmap_t *> raw_arrivals;
        raw_arrivals.reserve(arrivals.size());
        for (const bmap *b : arrivals) raw_arrivals.push_back(b ? b->get() : nullptr);
        crawlsched_threshold_model_t *raw = nullptr;
        detail::call(crawlsched_threshold_model_new, detail::data_or_null(raw_arrivals), raw_arrivals.size(),
                     service.get(), obsolescence ? obsolescence->get() : nullptr, buffer, &raw);
        return raw;
    }
};

}  // namespace crawlsched

#endif  // CRAWLSCHED_HPP
