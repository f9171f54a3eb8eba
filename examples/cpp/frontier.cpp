// A crawler frontier in C++17 on crawlsched.hpp: a seeded simulation that
// uses four of the library's models together.
//
// 1. Recrawl: pages with unknown change rates; a golden-ratio scheduler
//    picks what to fetch, one estimator per page learns each rate from
//    "changed since the last fetch?", and every simulated day the new
//    estimates are pushed into the scheduler, which moves the frequencies
//    to the optimum (most pages fresh) for what has been learnt.
// 2. Indexing queue: fetchers feed an indexing buffer; the robots model's
//    optimal switching curve decides, at every event, whether to keep or
//    wake a fetcher for the current queue length.
// 3. Fetcher hosts: requests are routed by a streaming router repeating the
//    optimal period for hosts of different speeds (no queues: a request
//    sent to a busy host is rejected and must be retried).
// 4. Politeness: a site that changes mostly in work hours is probed at
//    most once an hour; its daily pattern is estimated from four weeks of
//    observed updates and the week's probes are planned on it.
//
// Each part prints what a crawler engineer looks at and compares the
// simulation with the library's exact figures; the program exits non-zero
// if a comparison fails. Deterministic: same seed, same output.
//
//   cargo build --release --lib
//   c++ -std=c++17 -O2 -Iinclude examples/cpp/frontier.cpp
//       target/release/libcrawlsched.a -lpthread -ldl -lm -o frontier
//   ./frontier [--pages N] [--days D] [--seed S] [--quick]
#include "crawlsched.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <numeric>
#include <string>
#include <vector>

namespace cs = crawlsched;

namespace {

/// splitmix64: a small, portable, seeded generator (std:: distributions
/// differ between standard libraries, so they would break determinism).
class rng {
public:
    explicit rng(std::uint64_t seed) : s_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (s_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }
    /// Uniform on (0, 1).
    double uniform() { return (static_cast<double>(next() >> 11) + 0.5) / 9007199254740992.0; }
    double exponential(double rate) { return -std::log(uniform()) / rate; }
    double normal() { return std::sqrt(-2.0 * std::log(uniform())) * std::cos(6.283185307179586 * uniform()); }

private:
    std::uint64_t s_;
};

int failures = 0;

/// Records a failed comparison (the run continues, the exit code is 1).
void expect(bool ok, const char *what) {
    if (!ok) {
        std::fprintf(stderr, "frontier: CHECK FAILED: %s\n", what);
        ++failures;
    }
}

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
}

double mean(const std::vector<double> &v) {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0.0 : s / static_cast<double>(v.size());
}

/// Exact long-run share of page views served fresh (views sum to 1) by a
/// golden-ratio cycle with frequencies `freq`.
double cycle_freshness(const cs::freshness_model &model, const std::vector<double> &freq, std::uint64_t cycle,
                       const std::vector<double> &views) {
    auto counts = cs::freshness::integer_counts(freq, cycle, true);
    auto stale = model.cyclic_obsolescence(cs::freshness::golden_ratio_sequence(counts));
    double s = 0;
    for (std::size_t i = 0; i < stale.size(); i++) s += views[i] * stale[i];
    return 1.0 - s;
}

// ------------------------------------------------------------ recrawl

void recrawl(std::size_t n_pages, int days, std::uint64_t seed) {
    rng r(seed);
    // Time unit: hours. Change rates log-normal around 0.5/h (some pages
    // change every few minutes, some once a month).
    std::vector<double> mu(n_pages);
    for (double &m : mu) m = 0.5 * std::exp(1.2 * r.normal());
    // Users' page views, heavy-tailed and independent of the change rates:
    // the cost weights, so the plan maximises the views served fresh.
    std::vector<double> views(n_pages);
    for (double &v : views) v = std::exp(1.5 * r.normal());
    const double total_views = std::accumulate(views.begin(), views.end(), 0.0);
    for (double &v : views) v /= total_views;
    // One fetch stream; a fetch (with politeness delays) takes 7.2 s on
    // average, gamma with cv 0.7: 500 fetches per hour.
    const double fetch_mean = 0.002;
    auto fetch_time = cs::distribution::gamma(2.0, 2.0 / fetch_mean);

    // What the frontier starts from: every page at the population's mean
    // rate. (Pages the plan then skips are never observed; a real frontier
    // would also revisit them now and then to learn their rates.)
    const double guess = 1.0;
    cs::scheduler sched(fetch_time, cs::scheduler_mode::golden_ratio);
    std::vector<std::uint64_t> ids(n_pages);
    std::iota(ids.begin(), ids.end(), std::uint64_t{0});
    sched.add_pages(ids, std::vector<double>(n_pages, guess), views);  // the whole frontier in one call
    std::vector<cs::estimator> est;
    est.reserve(n_pages);
    for (std::size_t i = 0; i < n_pages; i++)
        est.push_back(cs::estimator::with_prior(guess, 1.0 / guess));  // worth one change

    std::printf("Recrawl: %zu pages, change rates %.3f-%.0f/h (median %.2f/h), one fetch stream of %.0f fetches/h\n",
                n_pages, *std::min_element(mu.begin(), mu.end()), *std::max_element(mu.begin(), mu.end()), median(mu),
                1.0 / fetch_mean);
    std::printf("  day  fetches  views served fresh  rate estimate error (median)\n");

    // All pages fetched (fresh) at t = 0; each stays fresh for Exp(mu) after a fetch.
    std::vector<double> last_fetch(n_pages, 0.0), fresh_until(n_pages);
    for (std::size_t i = 0; i < n_pages; i++) fresh_until[i] = r.exponential(mu[i]);
    const double snapshot_every = 0.1;  // hours
    double t = 0, next_snapshot = snapshot_every;
    std::uint64_t sample_seed = seed ^ 0xF00DULL;
    std::vector<double> durations;
    std::size_t next_duration = 0;
    for (int day = 1; day <= days; day++) {
        const double day_end = 24.0 * day;
        std::uint64_t fetches = 0;
        double fresh_sum = 0;
        int snapshots = 0;
        while (t < day_end) {
            if (next_duration == durations.size()) {  // fetch times come in seeded blocks
                durations = fetch_time.sample(sample_seed++, 4096);
                next_duration = 0;
            }
            const std::uint64_t id = sched.next();
            t += durations[next_duration++];
            // The fresh share at regular instants (time average).
            for (; next_snapshot <= t && next_snapshot <= day_end; next_snapshot += snapshot_every) {
                for (std::size_t i = 0; i < n_pages; i++)
                    if (fresh_until[i] > next_snapshot) fresh_sum += views[i];
                snapshots++;
            }
            const bool changed = fresh_until[id] <= t;
            est[id].observe(t - last_fetch[id], changed);
            last_fetch[id] = t;
            fresh_until[id] = t + r.exponential(mu[id]);
            fetches++;
        }
        // Re-plan on what was learnt: the scheduler recomputes the optimal
        // frequencies at its next cycle.
        std::vector<double> err;
        for (std::size_t i = 0; i < n_pages; i++) {
            if (est[i].observations() == 0) continue;  // not fetched: nothing learnt
            const double e = est[i].estimate();
            sched.set_change_rate(i, e);
            err.push_back(std::fabs(e / mu[i] - 1.0));
        }
        std::printf("  %3d  %7llu  %17.1f%%  %.0f%% (%zu pages fetched)\n", day,
                    static_cast<unsigned long long>(fetches), 100.0 * fresh_sum / snapshots, 100.0 * median(err),
                    err.size());
    }

    // Exact long-run fresh shares for comparison.
    cs::freshness_model truth(fetch_time, mu, views);
    const auto f_true = truth.optimal_frequencies();
    const std::uint64_t cycle = cs::freshness::fibonacci_at_least(8 * n_pages);
    const double fresh_opt = cycle_freshness(truth, f_true, cycle, views);
    const double fresh_unif = cycle_freshness(truth, std::vector<double>(n_pages, 1.0 / n_pages), cycle, views);
    std::vector<double> learnt(n_pages);
    for (std::size_t i = 0; i < n_pages; i++) learnt[i] = sched.change_rate(i);
    cs::freshness_model believed(fetch_time, learnt, views);
    const auto f_learnt = believed.optimal_frequencies();
    const double fresh_learnt = cycle_freshness(truth, f_learnt, cycle, views);
    cs::freshness_model blind(fetch_time, std::vector<double>(n_pages, guess), views);
    const double fresh_blind = cycle_freshness(truth, blind.optimal_frequencies(), cycle, views);
    const auto skipped = std::count(f_true.begin(), f_true.end(), 0.0);
    std::printf("  views served fresh, exact long run: learnt plan %.1f%%, optimal for the true rates %.1f%%,\n"
                "    plan on views alone (day 1) %.1f%%, uniform round robin %.1f%%\n",
                100 * fresh_learnt, 100 * fresh_opt, 100 * fresh_blind, 100 * fresh_unif);
    std::printf("  the optimum never fetches %lld pages: they change too fast for their views to be worth it\n",
                static_cast<long long>(skipped));
    expect(fresh_opt > fresh_unif, "the optimal plan keeps more pages fresh than round robin");
    expect(fresh_learnt > fresh_blind && fresh_blind > fresh_unif, "learnt plan > plan on views alone > round robin");
    expect(fresh_learnt <= fresh_opt + 1e-3, "no plan beats the optimum (up to cycle rounding)");

    // The scheduler realises the frequencies of the model built from the
    // same (learnt) rates: targets exactly, realised shares over one cycle
    // up to the golden-ratio cycle's rounding. The template built from the
    // last rates is in use after at most one more cycle.
    sched.next_batch(2 * cycle);
    // (After the rebuild: frequency() on stale targets costs O(N) per call.)
    double target_diff = 0;
    for (std::size_t i = 0; i < n_pages; i++)
        target_diff = std::max(target_diff, std::fabs(sched.frequency(i) - f_learnt[i]));
    // Over any F consecutive fetches of one template every page with
    // f_i F >= 1 gets its whole count per cycle (f_i F rounded); pages below
    // one fetch per cycle take turns at pooled positions, so every realised
    // share is within 2/F of f_i.
    std::vector<std::uint64_t> fetched(n_pages, 0);
    for (std::uint64_t id : sched.next_batch(cycle)) fetched[id]++;
    double share_diff = 0;
    for (std::size_t i = 0; i < n_pages; i++)
        share_diff = std::max(share_diff, std::fabs(static_cast<double>(fetched[i]) / static_cast<double>(cycle) -
                                                    f_learnt[i]));
    std::printf("  scheduler: targets equal the optimal frequencies to %.1e; over one cycle of F = %llu fetches\n"
                "    realised shares are within %.2f/F of the frequencies\n",
                target_diff, static_cast<unsigned long long>(cycle), share_diff * static_cast<double>(cycle));
    expect(target_diff < 1e-12, "scheduler targets are the model's optimal frequencies");
    expect(share_diff * static_cast<double>(cycle) <= 2.0, "one cycle realises every share within 2/F");
}

// ------------------------------------------------------ indexing queue

void indexing_queue(std::uint64_t seed, int events) {
    // K pages of indexing buffer, up to N fetchers bringing lambda pages/s
    // each, an indexer of mu pages/s; an idle indexer costs gamma.
    const std::uint64_t N = 16, K = 10;
    const double lambda = 1.0, mu = 10.0, gamma = 5.0;
    auto opt = cs::robots::solve(N, K, lambda, mu, gamma);
    const auto c = opt.cost();
    const auto n = opt.counts();
    const auto f0 = opt.switching_curve(0).f, f1 = opt.switching_curve(1).f;
    // The best fixed number of active fetchers, for comparison.
    std::uint64_t best_n = 1;
    double best_static = opt.evaluate_static(1);
    for (std::uint64_t k = 2; k <= N; k++) {
        const double ck = opt.evaluate_static(k);
        if (ck < best_static) best_static = ck, best_n = k;
    }

    // Event-driven simulation of the queue under the switching curve.
    rng r(seed);
    std::uint64_t q = 0, active = N, lost = 0;
    double t = 0, busy_robot_time = 0, idle_time = 0;
    for (int e = 0; e < events; e++) {
        const double rate = lambda * static_cast<double>(active) + (q > 0 ? mu : 0.0);
        const double dt = r.exponential(rate);
        t += dt;
        busy_robot_time += dt * static_cast<double>(active);
        if (q == 0) idle_time += dt;
        if (r.uniform() * rate < lambda * static_cast<double>(active)) {  // a page arrives
            const bool keep = static_cast<std::int64_t>(q) <= f1[active];
            if (q == K) lost++;
            q = std::min(q + 1, K);
            if (!keep) active--;
        } else {  // the indexer finishes a page
            if (static_cast<std::int64_t>(q) <= f0[active] && active < N) active++;
            q--;
        }
    }
    const double sim_mean = busy_robot_time / t, sim_idle = idle_time / t, sim_loss = lost / t;
    std::printf("\nIndexing queue: buffer of %llu pages, indexer %.0f pages/s, up to %llu fetchers of %.0f page/s;\n"
                "  cost = %.0f x share of time the indexer idles + pages lost per second (buffer full)\n",
                static_cast<unsigned long long>(K), mu, static_cast<unsigned long long>(N), lambda, gamma);
    std::printf("  optimal switching curve: mean %.4f fetchers active (min %llu, wake up to %lld), indexer idle "
                "%.2f%%, %.4f pages/s lost, cost %.4f\n",
                n.n_mean, static_cast<unsigned long long>(n.n_min), static_cast<long long>(n.n_max),
                100 * c.starvation, c.loss_rate, c.cost);
    std::printf("  simulated (%d events):   mean %.4f fetchers active, indexer idle %.2f%%, %.4f pages/s lost\n",
                events, sim_mean, 100 * sim_idle, sim_loss);
    std::printf("  best fixed number of active fetchers: %llu, cost %.4f (%.1f times the optimum)\n",
                static_cast<unsigned long long>(best_n), best_static, best_static / c.cost);
    expect(std::fabs(sim_mean - n.n_mean) < 0.03 * n.n_mean, "simulated mean fetchers match the exact N-bar");
    expect(std::fabs(sim_idle - c.starvation) < 0.01 + 0.05 * c.starvation, "simulated idle share matches");
    expect(best_static >= c.cost * (1 - 1e-9), "the dynamic policy is no worse than the best static one");
}

// ------------------------------------------------------- fetcher hosts

void fetcher_hosts(std::uint64_t seed, int per_batch) {
    // Requests arrive at 3/s; hosts fetch at 1, 2 and 4 requests/s.
    const double lambda = 3.0;
    const std::vector<double> speed{1.0, 2.0, 4.0};
    auto arrivals = cs::routing_arrivals::poisson(lambda);
    cs::routing_servers hosts(arrivals, speed, {}, cs::routing_objective::losses);
    const auto best = hosts.optimize_exhaustive(1, 9);
    const double rr = hosts.cost({0, 1, 2}).per_packet;
    const double prop = hosts.cost(cs::routing::balanced_sequence({1, 2, 4})).per_packet;

    // The streaming router in front of simulated hosts; batch means.
    cs::router route(best.period, static_cast<std::uint32_t>(speed.size()));
    rng r(seed);
    std::vector<double> busy_until(speed.size(), 0.0), batch;
    double t = 0;
    const int batches = 20;
    for (int b = 0; b < batches; b++) {
        int rejected = 0;
        for (std::uint32_t h : route.next_batch(per_batch)) {
            t += r.exponential(lambda);
            if (t < busy_until[h]) {
                rejected++;
            } else {
                busy_until[h] = t + r.exponential(speed[h]);
            }
        }
        batch.push_back(static_cast<double>(rejected) / per_batch);
    }
    double m = mean(batch), var = 0;
    for (double x : batch) var += (x - m) * (x - m);
    const double se = std::sqrt(var / (batches - 1) / batches);
    std::printf("\nFetcher hosts: requests at %.0f/s, no queues, hosts fetching 1, 2 and 4 requests/s\n", lambda);
    std::printf("  optimal period (%llu periods searched): host", static_cast<unsigned long long>(best.evaluations));
    for (auto h : best.period) std::printf(" %u", h);
    std::printf(", %.2f%% of requests rejected (round robin %.2f%%, proportional to speed %.2f%%)\n",
                100 * best.cost_per_packet, 100 * rr, 100 * prop);
    std::printf("  streaming router, %d simulated requests: %.2f%% +- %.2f%% rejected\n", batches * per_batch, 100 * m,
                100 * se);
    expect(std::fabs(m - best.cost_per_packet) < 4 * se + 1e-3, "simulated rejections match the exact cost");
    expect(best.cost_per_packet <= std::min(rr, prop), "the optimal period beats round robin and proportional");
}

// --------------------------------------------------------- politeness

/// Update times over [0, days*24) from the site's true daily pattern.
std::vector<double> site_updates(rng &r, int days, const std::vector<double> &hourly) {
    const double peak = *std::max_element(hourly.begin(), hourly.end());
    std::vector<double> times;
    for (double t = r.exponential(peak); t < 24.0 * days; t += r.exponential(peak))  // thinning
        if (r.uniform() * peak < hourly[static_cast<std::size_t>(std::fmod(t, 24.0))]) times.push_back(t);
    return times;
}

void politeness(std::uint64_t seed) {
    // The site changes 1.5 times an hour in work hours, 0.4 in the evening,
    // 0.1 at night; probes at least 2 hours apart, 8 a day on average.
    std::vector<double> hourly(24, 0.1);
    for (int h = 8; h < 18; h++) hourly[h] = 1.5;
    for (int h = 18; h < 24; h++) hourly[h] = 0.4;
    rng r(seed);
    const int history_days = 28, week = 7 * 24;
    const auto history = site_updates(r, history_days, hourly);
    std::vector<double> hour_breaks(25);
    for (int h = 0; h <= 24; h++) hour_breaks[h] = h;
    const auto estimated = cs::probe::estimate_intensity(history, 24.0 * history_days, hour_breaks, true, 0.0);
    cs::probe_profile profile({hour_breaks, estimated, true}, {{0.0, 24.0}, {1.0}, true}, week);

    const std::uint64_t n = 56;
    const double spacing = 2.0;                               // politeness: hours between probes
    cs::probe_planner planner(profile, 4 * week, spacing);  // on a 15-minute grid
    const auto plan = planner.plan(n);
    planner.set_constraints(0.0);  // what the politeness limit costs
    const double c_free = planner.plan(n).cost;
    const auto uniform = profile.uniform(n);
    const double c_uniform = profile.expected_cost(uniform);
    double updates_per_week = 0;
    for (double x : estimated) updates_per_week += 7 * x;
    const auto next_week = site_updates(r, 7, hourly);
    const double real_plan = profile.realized_cost(plan.times, next_week);
    const double real_uniform = profile.realized_cost(uniform, next_week);
    double min_gap = plan.times[0];
    for (std::size_t i = 1; i < plan.times.size(); i++)
        min_gap = std::min(min_gap, plan.times[i] - plan.times[i - 1]);
    std::printf("\nPoliteness: a site changing mostly in work hours, %llu probes a week, at least %.0f h apart\n",
                static_cast<unsigned long long>(n), spacing);
    std::printf("  daily pattern learnt from %zu updates in %d days: work hours %.2f/h, night %.2f/h\n",
                history.size(), history_days, estimated[12], estimated[3]);
    std::printf("  mean delay from an update to the probe that sees it: planned %.2f h, uniform %.2f h (expected)\n",
                plan.cost / updates_per_week, c_uniform / updates_per_week);
    std::printf("  on a new week of %zu updates: planned %.2f h, uniform %.2f h; closest probes %.2f h apart\n",
                next_week.size(), real_plan / next_week.size(), real_uniform / next_week.size(), min_gap);
    std::printf("  without the politeness limit the plan would reach %.2f h\n", c_free / updates_per_week);
    expect(std::fabs(profile.expected_cost(plan.times) - plan.cost) < 1e-9 * plan.cost, "plan cost is its expected cost");
    expect(plan.cost < c_uniform, "the plan beats uniform probing in expectation");
    expect(c_free <= plan.cost * (1 + 1e-12), "relaxing the politeness limit cannot cost more");
    expect(min_gap >= spacing - 1e-9, "probes respect the politeness limit");
}

}  // namespace

int main(int argc, char **argv) {
    std::size_t pages = 1000;
    int days = 7;
    std::uint64_t seed = 42;
    bool quick = false, ok = true;
    for (int i = 1; i < argc && ok; i++) {
        const bool has_value = i + 1 < argc;
        if (!std::strcmp(argv[i], "--quick")) {
            quick = true;  // small sizes, for slow runs (valgrind, sanitizers)
            pages = 200;
            days = 2;
        } else if (!std::strcmp(argv[i], "--pages") && has_value) {
            pages = std::strtoul(argv[++i], nullptr, 10);
        } else if (!std::strcmp(argv[i], "--days") && has_value) {
            days = std::atoi(argv[++i]);
        } else if (!std::strcmp(argv[i], "--seed") && has_value) {
            seed = std::strtoull(argv[++i], nullptr, 10);
        } else {
            ok = false;
        }
    }
    if (!ok || pages < 10 || pages > 100000 || days < 1 || days > 365) {
        std::fprintf(stderr, "usage: frontier [--pages 10..100000] [--days 1..365] [--seed S] [--quick]\n");
        return 2;
    }
    try {
        cs::check_abi();
        std::printf("crawlsched %s, C++ frontier simulation (seed %llu)\n\n", cs::version(),
                    static_cast<unsigned long long>(seed));
        recrawl(pages, days, seed);
        indexing_queue(seed + 1, quick ? 100000 : 1000000);
        fetcher_hosts(seed + 2, quick ? 1000 : 10000);
        politeness(seed + 3);
    } catch (const cs::error &e) {
        std::fprintf(stderr, "frontier: %s: %s\n", e.status_name(), e.what());
        return 1;
    }
    return failures == 0 ? 0 : 1;
}
