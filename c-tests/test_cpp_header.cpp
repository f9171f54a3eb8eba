// The copyable C++17 header examples/cpp/crawlsched.hpp: every wrapper
// forwards to its C function (closed forms, or the same C call made
// directly), errors become crawlsched::error with the C status, variable-size
// results are sized inside (including the retry after BUFFER_TOO_SMALL), and
// the handle classes are move-only with noexcept moves.
#include "../examples/cpp/crawlsched.hpp"
#include "check.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace cs = crawlsched;

namespace {

template <class H>
constexpr bool move_only =
    !std::is_copy_constructible_v<H> && !std::is_copy_assignable_v<H> && std::is_nothrow_move_constructible_v<H> &&
    std::is_nothrow_move_assignable_v<H>;
static_assert(move_only<cs::distribution> && move_only<cs::freshness_model> && move_only<cs::estimator> &&
              move_only<cs::scheduler> && move_only<cs::mdp_builder> && move_only<cs::mdp> &&
              move_only<cs::mdp_solver> && move_only<cs::robots> && move_only<cs::routing_arrivals> &&
              move_only<cs::routing_servers> && move_only<cs::router> && move_only<cs::probe_profile> &&
              move_only<cs::probe_planner> && move_only<cs::bmap> && move_only<cs::threshold_model>);
static_assert(std::is_base_of_v<std::runtime_error, cs::error>);

/// Runs f, which must throw crawlsched::error with `want` and a message.
template <class F>
bool throws(F &&f, cs::status_t want) {
    try {
        f();
    } catch (const cs::error &e) {
        return e.status() == want && std::string(e.what()).size() > 0;
    }
    return false;
}

double sum(const std::vector<double> &v) { return std::accumulate(v.begin(), v.end(), 0.0); }

void dist() {
    CHECK_CLOSE(cs::distribution::exponential(2.0).mean(), 0.5, 1e-15);
    CHECK_CLOSE(cs::distribution::gamma(2.0, 4.0).variance(), 0.125, 1e-15);
    CHECK_CLOSE(cs::distribution::erlang(3, 3.0).mean(), 1.0, 1e-15);
    CHECK_CLOSE(cs::distribution::exponential(2.0).moment(2), 0.5, 1e-15);
    CHECK_CLOSE(cs::distribution::exponential(2.0).laplace(1.0), 2.0 / 3.0, 1e-15);
    auto det = cs::distribution::deterministic(2.0);
    CHECK(det.cdf(1.0) == 0.0 && det.cdf(2.0) == 1.0);
    CHECK_CLOSE(cs::distribution::hyperexponential({0.5, 0.5}, {1.0, 2.0}).mean(), 0.75, 1e-15);
    CHECK_CLOSE(cs::distribution::phase_type({1.0}, {-2.0}).mean(), 0.5, 1e-15);
    CHECK_CLOSE(cs::distribution::coxian({1.0, 2.0}, {0.5}).mean(), 1.25, 1e-15);
    CHECK_CLOSE(cs::distribution::empirical({1.0, 2.0, 3.0}).mean(), 2.0, 1e-15);
    CHECK_CLOSE(cs::distribution::fit_aph2(1.0, 2.0, 6.0).mean(), 1.0, 1e-12);
    CHECK_CLOSE(cs::distribution::fit_h2(1.0, 3.0, 15.0).moment(2), 3.0, 1e-12);
    auto e = cs::distribution::exponential(1.0);
    auto a = e.sample(7, 100), b = e.sample(7, 100);
    CHECK(a == b && a.size() == 100);
    // The same draws as the C call.
    std::vector<double> c(100);
    crawlsched_error_t err{};
    CHECK_OK(crawlsched_dist_sample(e.get(), 7, c.data(), c.size(), &err), err);
    CHECK(a == c);

    CHECK(throws([] { cs::distribution::gamma(-1.0, 1.0); }, CRAWLSCHED_INVALID_ARGUMENT));
    try {
        cs::distribution::gamma(-1.0, 1.0);
    } catch (const cs::error &x) {
        CHECK(std::string(x.what()).find("shape") != std::string::npos);
        CHECK(std::string(x.status_name()) == "CRAWLSCHED_INVALID_ARGUMENT");
    }
    CHECK(throws([] { cs::distribution::hyperexponential({1.0}, {1.0, 2.0}); }, CRAWLSCHED_INVALID_ARGUMENT));

    // Moves leave an empty handle, which the C API refuses.
    auto moved = std::move(e);
    CHECK(!e && moved);
    CHECK(throws([&] { (void)e.mean(); }, CRAWLSCHED_NULL_ARGUMENT));
    // release() hands ownership to the caller; the adopting constructor takes it back.
    crawlsched_dist_t *raw = moved.release();
    CHECK(raw != nullptr && !moved);
    cs::distribution adopted(raw);
    CHECK_CLOSE(adopted.mean(), 1.0, 1e-15);
}

void freshness() {
    auto access = cs::distribution::exponential(5.0);
    const std::vector<double> rates{0.1, 0.5, 2.0};
    cs::freshness_model m(access, rates);
    CHECK(m.size() == 3);
    auto h = m.h();
    CHECK_CLOSE(h[2], access.laplace(2.0), 1e-15);
    auto f = m.optimal_frequencies();
    CHECK_CLOSE(sum(f), 1.0, 1e-12);
    // Theorem 3.4: f_i proportional to ln(1/h_i).
    double z = 0;
    for (double x : h) z += std::log(1 / x);
    CHECK_CLOSE(f[1], std::log(1 / h[1]) / z, 1e-12);
    CHECK_CLOSE(m.cost(f), m.lower_bound(), 1e-12);
    CHECK(m.obsolescence_bound(f).size() == 3);
    CHECK(m.randomized_optimal_cost() <= m.randomized_cost({1 / 3.0, 1 / 3.0, 1 / 3.0}) + 1e-15);
    CHECK_CLOSE(sum(m.randomized_optimal_frequencies()), 1.0, 1e-12);

    auto counts = cs::freshness::integer_counts(f, 21, true);
    CHECK(cs::freshness::sum(counts) == 21);
    auto gr = cs::freshness::golden_ratio_sequence(counts);
    auto rr = cs::freshness::round_robin_sequence(counts);
    CHECK(gr.size() == 21 && rr.size() == 21);
    // The same sequence as the C call.
    std::vector<std::uint32_t> c(21);
    std::size_t len = 0;
    crawlsched_error_t err{};
    CHECK_OK(crawlsched_freshness_golden_ratio_sequence(counts.data(), 3, c.data(), c.size(), &len, &err), err);
    CHECK(len == 21 && c == gr);
    const double cost = m.cyclic_cost(gr);
    CHECK(cost >= m.lower_bound() * (1 - 1e-12));
    auto r = m.cyclic_obsolescence(gr);
    double weighted = 0;
    for (int i = 0; i < 3; i++) weighted += rates[i] * r[i];
    CHECK_CLOSE(weighted, cost, 1e-12);
    auto sim = m.simulate_cyclic(gr, 20000, 1);
    CHECK(std::fabs(sim.value - cost) < 5 * sim.std_error);
    CHECK(cs::freshness::fibonacci_at_least(20) == 21);
    CHECK(cs::freshness::bound_ratio(1.0) < 1.05);
    CHECK(m.golden_ratio_bound() > 0);
    CHECK(throws([&] { cs::freshness_model(access, rates, {1.0}); }, CRAWLSCHED_INVALID_ARGUMENT));
    CHECK(throws([&] { cs::freshness::golden_ratio_sequence({}); }, CRAWLSCHED_INVALID_ARGUMENT));

    auto est = cs::estimator::without_prior();
    CHECK(throws([&] { (void)est.estimate(); }, CRAWLSCHED_NOT_FOUND));
    est.observe(1.0, true);
    est.observe(1.0, false);
    CHECK(est.observations() == 2);
    CHECK(est.estimate() > 0);
    auto prior = cs::estimator::with_prior(0.5, 4.0);
    CHECK_CLOSE(prior.estimate(), 0.5, 1e-12);
    // State round trip: the same estimate after import (docs/c-api.md).
    auto state = est.state();
    CHECK(state.size() == 30 && state[0] == 0xC5 && state[1] == 1);
    auto back = cs::estimator::from_state(state);
    CHECK(back.estimate() == est.estimate() && back.observations() == 2);
    state[1] = 2;
    CHECK(throws([&] { (void)cs::estimator::from_state(state); }, CRAWLSCHED_INVALID_ARGUMENT));
}

void scheduler() {
    auto access = cs::distribution::exponential(5.0);
    cs::scheduler s(access, cs::scheduler_mode::stride);
    CHECK(throws([&] { s.next(); }, CRAWLSCHED_NOT_FOUND));
    for (std::uint64_t i = 0; i < 4; i++) s.add_page(100 + i, 0.1 * (i + 1));
    s.add_weighted_page(200, 1.0, 2.0);
    CHECK(s.size() == 5);
    CHECK(throws([&] { s.add_page(100, 1.0); }, CRAWLSCHED_INVALID_ARGUMENT));
    CHECK_CLOSE(s.change_rate(102), 0.3, 1e-15);
    s.set_change_rate(102, 0.7);
    CHECK_CLOSE(s.change_rate(102), 0.7, 1e-15);
    s.observe(101, 2.0, true);
    s.remove_page(200);
    CHECK(throws([&] { s.remove_page(200); }, CRAWLSCHED_NOT_FOUND));
    double total = 0;
    for (std::uint64_t i = 0; i < 4; i++) total += s.frequency(100 + i);
    CHECK_CLOSE(total, 1.0, 1e-12);
    auto all = s.frequencies();
    CHECK(all.size() == 4);
    for (std::uint64_t i = 0; i < 4 && i < all.size(); i++)
        CHECK(all[i].first == 100 + i && all[i].second == s.frequency(100 + i));
    // Crawler threads share one scheduler through a reference.
    std::atomic<int> bad{0};
    std::vector<std::thread> pool;
    for (int t = 0; t < 4; t++)
        pool.emplace_back([&] {
            for (int k = 0; k < 500; k++) {
                auto id = s.next();
                auto batch = s.next_batch(3);
                if (id < 100 || id > 103 || batch.size() != 3) bad++;
            }
        });
    for (auto &t : pool) t.join();
    CHECK(bad == 0);
    CHECK(s.next_batch(0).empty());

    // add_pages: the same frequencies and picks as one-by-one adds (empty
    // weights = add_page, given = add_weighted_page); a refused batch adds
    // nothing.
    for (auto mode : {cs::scheduler_mode::stride, cs::scheduler_mode::golden_ratio}) {
        cs::scheduler one(access, mode), batch(access, mode);
        std::vector<std::uint64_t> ids;
        std::vector<double> rates, weights;
        for (std::uint64_t i = 0; i < 12; i++) {
            ids.push_back(50 + 3 * i);
            rates.push_back(0.05 * static_cast<double>(i + 1));
            weights.push_back(i % 2 == 0 ? 1.0 : 3.0);
        }
        for (std::size_t i = 0; i < 6; i++) one.add_page(ids[i], rates[i]);
        for (std::size_t i = 6; i < 12; i++) one.add_weighted_page(ids[i], rates[i], weights[i]);
        batch.add_pages({ids.begin(), ids.begin() + 6}, {rates.begin(), rates.begin() + 6});
        CHECK(throws([&] { batch.add_pages({900, 50}, {0.1, 0.1}); }, CRAWLSCHED_INVALID_ARGUMENT));
        CHECK(throws([&] { batch.add_pages({900, 901}, {0.1, -1.0}); }, CRAWLSCHED_INVALID_ARGUMENT));
        CHECK(throws([&] { batch.add_pages({900}, {0.1, 0.2}); }, CRAWLSCHED_INVALID_ARGUMENT));
        CHECK(batch.size() == 6);
        batch.add_pages({}, {});
        batch.add_pages({ids.begin() + 6, ids.end()}, {rates.begin() + 6, rates.end()},
                        {weights.begin() + 6, weights.end()});
        CHECK(one.size() == 12 && batch.size() == 12);
        CHECK(one.frequencies() == batch.frequencies());
        CHECK(one.next_batch(2000) == batch.next_batch(2000));
    }

    // Due times: constant crawl time d gives f_i = mu_i / sum(mu), so the
    // interval d sum(mu) / mu_i; a page the optimum never visits is due at
    // infinity; a page's state carries its rate to another scheduler.
    auto d = cs::distribution::deterministic(0.5);
    cs::scheduler due(d, cs::scheduler_mode::stride), again(d, cs::scheduler_mode::stride);
    due.add_pages({30, 10, 20}, {5.0, 1.0, 2.0});
    auto intervals = due.revisit_intervals();
    CHECK(intervals.size() == 3 && intervals[0].first == 10 && intervals[2].first == 30);
    CHECK_CLOSE(intervals[0].second, 4.0, 1e-13);
    CHECK_CLOSE(due.revisit_interval(20), 2.0, 1e-13);
    CHECK_CLOSE(due.next_due(30, 100.0), 100.8, 1e-15);
    for (int k = 0; k < 20; k++) due.observe(20, 0.4, k % 2 == 0);
    again.add_page(20, 2.0);
    again.set_page_state(20, due.page_state(20));
    CHECK(again.change_rate(20) == due.change_rate(20) && again.change_rate(20) != 2.0);
    CHECK(throws([&] { again.set_page_state(20, {0xC5, 9}); }, CRAWLSCHED_INVALID_ARGUMENT));
    cs::scheduler w(cs::distribution::exponential(1.0), cs::scheduler_mode::stride);
    w.add_pages({1, 2, 3}, {1.0, 1.0, 1.0}, {1.0, 1.0, 0.02});
    CHECK(std::isinf(w.revisit_interval(3)) && std::isinf(w.next_due(3, 5.0)));
    CHECK(throws([&] { (void)w.next_due(99, 0.0); }, CRAWLSCHED_NOT_FOUND));
}

void polite() {
    const double inf = std::numeric_limits<double>::infinity();
    auto access = cs::distribution::exponential(2.0);  // the crawler wants 1/E[X] = 2 crawls per unit time
    cs::freshness_model m(access, {0.1, 0.3, 0.5, 1.0, 2.0, 4.0});
    const std::vector<std::uint32_t> hosts{0, 0, 1, 1, 2, 2};
    // Loose caps: each objective's unconstrained optimum.
    auto loose = m.polite_frequencies(hosts, {inf, inf, inf});
    auto opt = m.optimal_frequencies();
    CHECK(loose.frequencies.size() == 6 && loose.saturated == std::vector<bool>(3, false));
    for (std::size_t i = 0; i < opt.size() && i < loose.frequencies.size(); i++)
        CHECK_CLOSE(loose.frequencies[i], opt[i], 1e-12);
    CHECK_CLOSE(loose.objective, m.lower_bound(), 1e-12);
    CHECK_CLOSE(loose.crawl_rate, 2.0, 1e-15);
    auto rnd = m.polite_frequencies(hosts, {inf, inf, inf}, cs::polite_objective::randomized);
    auto rnd_opt = m.randomized_optimal_frequencies();
    for (std::size_t i = 0; i < rnd_opt.size() && i < rnd.frequencies.size(); i++)
        CHECK_CLOSE(rnd.frequencies[i], rnd_opt[i], 1e-12);
    // One tight host gets exactly its cap times E[X]; the same C call made
    // directly gives the same bits.
    auto tight = m.polite_frequencies(hosts, {inf, inf, 0.6});
    CHECK((tight.saturated == std::vector<bool>{false, false, true}));
    CHECK_CLOSE(tight.frequencies[4] + tight.frequencies[5], 0.3, 1e-13);
    CHECK(tight.ln_host_multipliers[0] == tight.ln_multiplier);
    std::vector<double> caps{inf, inf, 0.6}, f(6), lnh(3);
    std::uint8_t sat[3] = {9, 9, 9};
    std::size_t len = 0;
    double lnl = 0, obj = 0, rate = 0;
    crawlsched_error_t e{};
    CHECK(crawlsched_freshness_polite_frequencies(m.get(), hosts.data(), 6, caps.data(), 3,
                                                  CRAWLSCHED_POLITE_EVENLY_SPACED, 0, nullptr, f.data(), 6, &len, sat,
                                                  lnh.data(), &lnl, &obj, &rate, &e) == CRAWLSCHED_OK);
    CHECK(len == 6 && f == tight.frequencies && lnh == tight.ln_host_multipliers && lnl == tight.ln_multiplier &&
          obj == tight.objective && rate == tight.crawl_rate && sat[2] == 1 && sat[0] == 0);
    // Caps summing to 0.6 < 2: refused, or every host at its cap.
    CHECK(throws([&] { m.polite_frequencies(hosts, {0.2, 0.3, 0.1}); }, CRAWLSCHED_INFEASIBLE));
    auto slack = m.polite_frequencies(hosts, {0.2, 0.3, 0.1}, cs::polite_objective::evenly_spaced, true);
    CHECK(slack.ln_multiplier == -inf && slack.saturated == std::vector<bool>(3, true));
    CHECK_CLOSE(slack.crawl_rate, 0.6, 1e-15);
    CHECK_CLOSE(sum(slack.frequencies), 0.3, 1e-15);
    CHECK(throws([&] { m.polite_frequencies({0, 0, 1, 1, 2, 3}, {1.0, 1.0, 1.0}); }, CRAWLSCHED_INVALID_ARGUMENT));

    // The scheduler's hosts on the caller's clock.
    cs::scheduler s(cs::distribution::exponential(4.0), cs::scheduler_mode::stride);
    s.add_page(1, 1.0);
    s.add_page(2, 1.0);
    s.set_host(1, 0);
    s.set_host(2, 0);
    s.set_host_delay(0, 1.0);
    CHECK(s.host(1) == std::optional<std::uint32_t>(0) && s.host_delay(0) == 1.0 && s.host_delay(5) == 0.0);
    auto first = s.next_at(10.0);
    CHECK(first.ready && (first.id == 1 || first.id == 2) && first.wait == 0.0);
    auto second = s.next_at(10.25);  // host 0 was picked at 10: ready again at 11
    CHECK(!second.ready && second.id == 0 && second.wait == 0.75);
    auto third = s.next_at(11.0);
    CHECK(third.ready && third.id != first.id);
    CHECK(throws([&] { s.next_at(10.5); }, CRAWLSCHED_INVALID_ARGUMENT));
    CHECK(throws([&] { s.set_host_delay(0, -1.0); }, CRAWLSCHED_INVALID_ARGUMENT));
    CHECK(throws([&] { s.set_host(3, 0); }, CRAWLSCHED_NOT_FOUND));
    s.clear_host(1);
    CHECK(!s.host(1).has_value());
}

void mdp() {
    // Two states: in 0, stay (cost 2) or move to 1 (cost 0); in 1, move to
    // 0 (cost 1). Optimal: alternate, gain 1/2.
    cs::mdp_builder b(2);
    CHECK(b.add_action(0, {0}, {1.0}, 2.0) == 0);
    CHECK(b.add_action(0, {1}, {1.0}, 0.0) == 1);
    CHECK(b.add_action(1, {0}, {1.0}, 1.0) == 0);
    CHECK(throws([&] { b.add_action(1, {0, 1}, {1.0}, 1.0); }, CRAWLSCHED_INVALID_ARGUMENT));
    auto m = b.build();
    CHECK(m.size().states == 2 && m.size().actions == 3);
    CHECK(throws([&] { b.build(); }, CRAWLSCHED_INVALID_ARGUMENT));
    cs::mdp_solver s(cs::mdp_method::policy_iteration);
    CHECK(s.run(m));
    CHECK_CLOSE(s.gain().gain, 0.5, 1e-12);
    CHECK(s.stats().converged && s.stats().recurrent_classes == 1);
    CHECK(s.policy() == (std::vector<std::uint32_t>{1, 0}));
    CHECK(s.values().size() == 2);
    cs::mdp_solver vi(cs::mdp_method::value_iteration);
    vi.set_limits(1e-15, 1, cs::mdp_stopping::span);
    vi.set_criterion(cs::mdp_criterion::average, 0.0, 0.5);
    CHECK(!vi.run(m));  // one iteration: NOT_CONVERGED is a result, not an error
    CHECK(!vi.stats().converged && vi.policy().size() == 2);
    cs::mdp_solver moved = std::move(vi);
    CHECK(moved.policy().size() == 2);
}

void robots() {
    auto r = cs::robots::solve(6, 10, 0.5, 2.0, 1.0);
    CHECK(r.size() == (std::pair<std::uint64_t, std::uint64_t>{6, 10}));
    auto c = r.cost();
    CHECK_CLOSE(c.cost, 1.0 * c.starvation + c.loss_rate, 1e-12);
    auto st = r.stationary();
    CHECK(st.size() == 3 * 11 * 7);
    CHECK_CLOSE(sum(st), 1.0, 1e-12);
    auto f0 = r.switching_curve(0), f1 = r.switching_curve(1);
    CHECK(f0.f.size() == 7 && f0.is_curve);
    CHECK_CLOSE(r.evaluate_curve(f0.f, f1.f), c.cost, 1e-10);
    CHECK_CLOSE(r.evaluate_static(3), cs::robots::static_cost(3 * 0.5 / 2.0, 1.0, 10, 2.0), 1e-12);
    auto best = cs::robots::optimal_static(0.5, 2.0, 1.0, 10);
    CHECK(best.second >= c.cost * (1 - 1e-12));
    auto counts = r.counts();
    CHECK(counts.n_mean >= static_cast<double>(counts.n_min) && counts.n_mean <= 6.0);
    CHECK(cs::robots::solve_unlimited(5, 0.1, 1.0, 0.4).size().first >= 1);
    CHECK(throws([&] { cs::robots::solve(0, 10, 0.5, 2.0, 1.0); }, CRAWLSCHED_INVALID_ARGUMENT));
}

void routing() {
    CHECK_CLOSE(cs::routing::switch_point(2), 1.0 + std::sqrt(2.0), 1e-10);
    CHECK(cs::routing::two_server_cost(5, 2.0) > 0);
    auto poisson = cs::routing_arrivals::poisson(1.0);
    CHECK_CLOSE(poisson.rate(), 1.0, 1e-15);
    CHECK_CLOSE(poisson.transform(1.0, 2), 0.25, 1e-15);  // (lambda/(lambda+mu))^k
    auto mmpp = cs::routing_arrivals::mmpp({-1.0, 1.0, 1.0, -1.0}, {1.0, 3.0});
    CHECK_CLOSE(mmpp.rate(), 2.0, 1e-12);
    auto map = cs::routing_arrivals::map(1, {-2.0}, {2.0});
    CHECK_CLOSE(map.rate(), 2.0, 1e-12);
    cs::routing_servers s(poisson, {1.0, 3.0}, {}, cs::routing_objective::losses);
    CHECK(s.size() == 2);
    CHECK_CLOSE(s.immediate_cost(0, 1), 0.5, 1e-15);
    auto best = s.optimize_exhaustive(1, 8);
    CHECK(!best.period.empty() && best.period.size() <= 8 && best.evaluations > 0);
    CHECK_CLOSE(s.cost(best.period).per_packet, best.cost_per_packet, 1e-12);
    auto local = s.optimize_local(1, 8);
    CHECK(local.cost_per_packet >= best.cost_per_packet * (1 - 1e-12));
    auto mm = s.local_search_multimodular(std::vector<std::uint32_t>(best.period.size(), 1));
    CHECK(mm.period.size() == best.period.size());
    CHECK_CLOSE(mm.cost_per_packet, best.cost_per_packet, 1e-12);
    auto sim = s.simulate(best.period, 20000, 3);
    CHECK(std::fabs(sim.per_packet - best.cost_per_packet) < 5 * sim.std_error);
    auto bal = cs::routing::balanced_sequence({1, 3});
    CHECK(bal.size() == 4 && std::count(bal.begin(), bal.end(), 1u) == 3);

    cs::router r({0, 1, 1}, 2);
    CHECK(r.next() == 0 && r.next() == 1 && r.next() == 1 && r.next() == 0);
    CHECK(r.next_batch(5) == (std::vector<std::uint32_t>{1, 1, 0, 1, 1}));
    CHECK(throws([] { cs::router({0, 2}, 2); }, CRAWLSCHED_INVALID_ARGUMENT));
}

void probe() {
    auto db = cs::probe_profile::dbworld(3.0, 7.0);
    auto u = db.uniform(14);
    CHECK(u.size() == 14 && u.back() == 7.0);
    CHECK(db.interval_cost(0.0, 7.0) > 0);
    // Variable size from an empty first guess: the retry after BUFFER_TOO_SMALL.
    auto thr = db.policy_schedule(cs::probe_policy::threshold, db.expected_cost(u) / 14);
    CHECK(!thr.empty() && thr.back() == 7.0);
    auto budget = db.policy_with_budget(cs::probe_policy::threshold, 14);
    CHECK(budget.first.size() == 14 && budget.second > 0);
    cs::probe_planner p(db, 7 * 24, 0.0);
    auto plan = p.plan(14);
    CHECK_CLOSE(plan.cost, db.expected_cost(plan.times), 1e-9);
    CHECK(plan.cost <= db.expected_cost(u));
    auto all = p.all_costs(14);
    CHECK_CLOSE(all[13], plan.cost, 1e-9);
    CHECK_CLOSE(p.plan(14, cs::probe_method::reference).cost, plan.cost, 1e-9);
    std::uint64_t moves = 0;
    auto better = db.improve(u, 0.0, 0.5, 1.0 / 512, 0.5, 1e-9, &moves);
    CHECK(db.expected_cost(better) <= db.expected_cost(u) + 1e-12);
    p.set_constraints(1.0);  // at least a day apart: 10 probes do not fit in a week
    CHECK(throws([&] { p.plan(10); }, CRAWLSCHED_INFEASIBLE));
    CHECK(p.plan(7).times.size() == 7);
    p.set_profile(cs::probe_profile::micronet(3.0, 7.0));

    // Piecewise profile; the MLE of a constant rate is count / window.
    cs::probe_profile flat({{0.0, 24.0}, {2.0}, true}, {{0.0, 24.0}, {1.0}, true}, 48.0);
    CHECK_CLOSE(flat.interval_cost(0.0, 1.0), 1.0, 1e-12);  // int_0^1 2 (1 - t) dt
    auto rate = cs::probe::estimate_intensity({1.0, 2.0, 3.0, 4.0}, 8.0, {0.0, 8.0}, false, 0.0);
    CHECK(rate.size() == 1);
    CHECK_CLOSE(rate[0], 0.5, 1e-15);
    CHECK_CLOSE(flat.realized_cost({24.0, 48.0}, {23.0}), 1.0, 1e-12);
    CHECK(throws([] { cs::probe_profile({{0.0}, {1.0}, false}, {{0.0, 1.0}, {1.0}, false}, 1.0); },
                 CRAWLSCHED_INVALID_ARGUMENT));
}

void threshold() {
    auto p1 = cs::bmap::poisson(1.0);
    CHECK(p1.order() == 1);
    CHECK_CLOSE(p1.fundamental_rate(), 1.0, 1e-15);
    CHECK_CLOSE(p1.interarrival_moment(1), 1.0, 1e-15);
    auto r2 = p1.compose(cs::bmap_compose::scaled, 2, 2, 0.0);
    CHECK_CLOSE(r2.fundamental_rate(), 2.0, 1e-12);
    auto d = cs::bmap::from_matrices(1, {-2.0, 2.0});
    CHECK_CLOSE(d.fundamental_rate(), 2.0, 1e-15);
    auto fit = cs::bmap::fit(1.0, 2.0, 0.2, 1.5, 4);
    CHECK_CLOSE(fit.interarrival_moment(1), 1.0, 1e-6);
    CHECK(std::isfinite(fit.lag_correlation(1)));

    auto srv = cs::distribution::exponential(1.0);
    auto h2 = cs::distribution::hyperexponential({0.5, 0.5}, {1.0, 3.0});
    cs::threshold_model m({&p1, &r2}, srv, &h2, 4);
    CHECK(m.state_count() == 1 + 1 + 2 + 4 + 8 + 16);
    const cs::threshold_weights w{2.0, 1.0, 0.1, 0.3, 3.0};
    auto opt = m.optimize({2, 1}, w, 1000);
    CHECK(opt.thresholds.size() == 1 && opt.evaluated == 5);
    for (std::uint32_t t = 0; t <= 4; t++) CHECK(m.cost({2, 1}, {t}, w) >= opt.cost * (1 - 1e-12));
    auto levels = m.level_distribution({2, 1}, opt.thresholds);
    CHECK(levels.size() == 6);
    CHECK_CLOSE(sum(levels), 1.0, 1e-12);
    auto meas = m.measures({2, 1}, opt.thresholds);
    CHECK_CLOSE(meas[CRAWLSCHED_THRESHOLD_MEASURE_STARVATION], levels[0], 1e-12);

    // M/M/1/5 without obsolescence: the level distribution is geometric.
    auto p08 = cs::bmap::poisson(0.8);
    cs::threshold_model mm1({&p08}, srv, nullptr, 5);
    auto pl = mm1.level_distribution({1}, {});
    double z = 0;
    for (int i = 0; i <= 6; i++) z += std::pow(0.8, i);
    CHECK_CLOSE(pl[6], std::pow(0.8, 6) / z, 1e-13);
}

}  // namespace

int main() {
    try {
        cs::check_abi();
        CHECK(std::string(cs::version()) == crawlsched_version());
        dist();
        freshness();
        scheduler();
        polite();
        mdp();
        robots();
        routing();
        probe();
        threshold();
    } catch (const cs::error &e) {
        std::fprintf(stderr, "unexpected crawlsched::error %s: %s\n", e.status_name(), e.what());
        return 1;
    }
    return CHECK_REPORT("test_cpp_header");
}
