"""Limits and cancellation (Control), the MDP solver's size, the robots
action table and certificate, and the threshold response time."""

import math
import threading

import numpy as np
import pytest

import crawlsched as cs
from crawlsched import BMAP, Control, Dist, MDPBuilder, MDPSolver, Robots, ThresholdModel


def random_mdp(n, seed=1):
    """n states, two actions each (to s+1 and two random states): value
    iteration never reaches a span of 1e-300."""
    rng = np.random.default_rng(seed)
    b = MDPBuilder(n)
    for s in range(n):
        for _ in range(2):
            w = np.array([0.2 + rng.random(), rng.random(), rng.random()])
            nxt = [(s + 1) % n, int(rng.integers(n)), int(rng.integers(n))]
            b.add_action(s, nxt, w / w.sum(), 10 * rng.random())
    return b.build()


def test_cancel_a_long_solve_from_another_thread(raises_status):
    m = random_mdp(5000)
    with Control() as c, MDPSolver("value_iteration") as s:
        s.set_limits(1e-300, 1 << 40)
        s.set_control(c)
        threading.Timer(0.05, c.cancel).start()
        with raises_status(cs.CancelledError):
            s.run(m)
        st = s.stats()
        assert not st.converged and st.iterations > 0
        g = s.gain()
        assert g.lo <= g.gain <= g.hi
        assert s.size() == 5000 and len(s.values()) == 5000 and len(s.policy()) == 5000
        assert c.cancelled
        # Reset: the control's iteration cap stops the run instead.
        c.reset()
        assert not c.cancelled
        c.set_max_iterations(3)
        with raises_status(cs.NotConvergedError):
            s.run(m)
        assert s.stats().iterations == 3 and not s.stats().converged
        # A memory cap below the 44 bytes per state value iteration needs.
        c.set_memory_limit(44 * 5000 - 1)
        with raises_status(cs.TooLargeError) as e:
            s.run(m)
        assert "5000 states" in e.value.message
        s.set_control(None)
        s.set_limits(1e-6, 100000)
        s.run(m)
        assert s.stats().converged


def test_solver_size_before_a_run(raises_status):
    with MDPSolver() as s, raises_status(cs.NotFoundError):
        s.size()


def test_control_on_robots_and_threshold_search(raises_status):
    with Control() as c:
        plain = Robots.solve(7, 5, 0.1, 1, 0.4)
        r = Robots.solve(7, 5, 0.1, 1, 0.4, control=c)
        assert r.cost().cost == plain.cost().cost
        c.cancel()
        with raises_status(cs.CancelledError):
            Robots.solve(7, 5, 0.1, 1, 0.4, control=c)
        m = ThresholdModel([BMAP.poisson(0.5), BMAP.poisson(1.0)], Dist.exponential(2.0), None, 10)
        w = [3, 1, 0.2, 0.5, 2]
        with raises_status(cs.CancelledError):
            m.optimize([2, 1], w, 1000, control=c)
        c.reset()
        got = m.optimize([2, 1], w, 1000, control=c)
        want = m.optimize([2, 1], w, 1000)
        assert got.cost == want.cost and got.evaluated == 11 and list(got.thresholds) == list(want.thresholds)
        c.set_max_iterations(5)  # 11 vectors needed: refused before any work
        with raises_status(cs.TooLargeError):
            m.optimize([2, 1], w, 1000, control=c)
        c.set_max_iterations(0)
        # The evaluations: the control's memory cap, then its cancel flag.
        modes, th = [2, 1], [3]
        assert list(m.measures(modes, th, control=c)) == list(m.measures(modes, th))
        c.set_memory_limit(1000)
        with raises_status(cs.TooLargeError):
            m.measures(modes, th, control=c)
        with raises_status(cs.TooLargeError):
            m.response_time(modes, th, control=c)
        c.set_memory_limit(0)
        c.cancel()
        with raises_status(cs.CancelledError):
            m.level_distribution(modes, th, control=c)
        with raises_status(cs.CancelledError):
            m.cost(modes, th, w, control=c)
        with raises_status(cs.CancelledError):
            m.response_cdf(modes, th, [1.0], control=c)


def test_default_memory_limit_refuses_big_models(raises_status):
    initial = cs.default_memory_limit()
    try:
        cs.set_default_memory_limit(64 << 20)
        assert cs.default_memory_limit() == 64 << 20
        with raises_status(cs.TooLargeError) as e:
            MDPBuilder(4_000_000_000)
        assert "4000000000 states" in e.value.message
        with raises_status(cs.TooLargeError):
            Robots.solve(1000, 10000, 0.001, 1, 1)
    finally:
        cs.set_default_memory_limit(initial)
    assert cs.default_memory_limit() == initial


def test_closed_control_is_refused(raises_status):
    c = Control()
    c.close()
    c.close()
    for f in (c.cancel, c.reset, lambda: c.cancelled, lambda: c.set_max_iterations(1)):
        with raises_status(cs.NullArgumentError):
            f()


def test_robots_actions_are_the_switching_curve_and_certified():
    # Table 1, lambda = 0.1, K = 5, gamma = 0.4: C_d = 0.15239.
    r = Robots.solve(7, 5, 0.1, 1, 0.4)
    f0, is_curve = r.switching_curve(0)
    f1, _ = r.switching_curve(1)
    assert is_curve
    acts = r.actions()
    assert acts.dtype == np.uint8 and acts.size == 2 * 6 * 8
    for rr in range(8):
        for q in range(6):
            for s, fs in enumerate((f0, f1)):
                if (s == 0 and q == 0) or (s == 1 and rr == 0):
                    continue  # excluded states
                assert acts[(rr * 6 + q) * 2 + s] == (1 if q <= fs[rr] else 0), (q, rr, s)
    cost = r.cost().cost
    assert cost == pytest.approx(0.15239, abs=1e-4)
    cert = r.certificate()
    assert cert.lo <= cost + 1e-15 and cost <= cert.hi + 1e-15 and cert.hi - cert.lo <= 1e-9
    assert cert.iterations >= 1


def test_response_time_of_mm1k_is_an_erlang_mixture(raises_status):
    # M/M/1/K: Poisson 0.8, exponential service 1, buffer 5: an admitted
    # page finding n pages stays Erlang(n + 1, 1).
    m = ThresholdModel([BMAP.poisson(0.8)], Dist.exponential(1.0), None, 5)
    p = np.array([0.8**n for n in range(7)])
    p /= p.sum()
    resp = m.response_time([1], [])
    mean = sum(p[n] / (1 - p[6]) * (n + 1) for n in range(6))
    assert resp.mean == pytest.approx(mean, abs=1e-12)
    assert resp.served_probability == pytest.approx(1, abs=1e-13)
    assert resp.mean_served == pytest.approx(mean, abs=1e-12)
    assert resp.mean == pytest.approx(m.measures_dict([1], [])["response_time"], abs=1e-12)
    times = [0.5, 2, 5]
    cdf = m.response_cdf([1], [], times)
    for k, x in enumerate(times):
        exact = sum(p[n] / (1 - p[6]) * (1 - sum(math.exp(-x) * x**j / math.factorial(j) for j in range(n + 1)))
                    for n in range(6))
        assert cdf[k] == pytest.approx(exact, abs=1e-12)
    np.testing.assert_allclose(m.response_cdf([1], [], times, served=True), cdf, atol=1e-12)
    with raises_status(cs.InvalidArgumentError):
        m.response_cdf([1], [], [-1.0])


def test_response_time_with_obsolescence_closed_form():
    # M/M/1/K+M: a page finding n >= 1 pages is served with probability
    # mu / (mu + n theta).
    lam, mu, theta, buf = 1.7, 1.0, 0.3, 6
    m = ThresholdModel([BMAP.poisson(lam)], Dist.exponential(mu), Dist.exponential(theta), buf)
    cap = buf + 1
    p = [1.0]
    for n in range(1, cap + 1):
        p.append(p[-1] * lam / (mu + (n - 1) * theta))
    p = np.array(p) / sum(p)
    w = p[:cap] / (1 - p[cap])
    ps = sum(w[n] * mu / (mu + n * theta) for n in range(cap))
    resp = m.response_time([1], [])
    assert resp.served_probability == pytest.approx(ps, abs=1e-13)
    assert ps * resp.mean_served + (1 - ps) * resp.mean_obsolete == pytest.approx(resp.mean, abs=1e-12)


def test_control_on_planner_routing_and_unlimited_robots(raises_status):
    """Identical results without limits; caps give NotConvergedError; a
    thread's cancel stops the 20,000-candidate reference DP (~2e10 costs)."""
    from crawlsched import Arrivals, Planner, Profile, Servers
    with Control() as c:
        db = Profile.dbworld(3.0, 28.0)
        pl = Planner(db, 672)
        _, want = pl.plan(28, "hull")
        pl.set_control(c)
        _, got = pl.plan(28, "hull")
        assert got == want and got == pytest.approx(80.5915, abs=5e-5)
        c.set_max_iterations(27)  # one pass per DP layer
        with raises_status(cs.NotConvergedError):
            pl.plan(28, "hull")
        c.set_max_iterations(0)
        big = Planner(db, 20000)
        big.set_control(c)
        threading.Timer(0.05, c.cancel).start()
        with raises_status(cs.CancelledError):
            big.plan(100, "reference")
        c.reset()

        s = Servers(Arrivals.poisson(1.0), [1.0, 0.7, 0.4])
        ex = s.optimize_exhaustive(1, 8)
        ex2 = s.optimize_exhaustive(1, 8, control=c)
        assert list(ex2.period) == list(ex.period) and ex2.evaluations == ex.evaluations
        c.set_max_iterations(ex.evaluations - 1)
        with raises_status(cs.NotConvergedError):
            s.optimize_exhaustive(1, 8, control=c)
        c.set_max_iterations(0)
        assert s.optimize_local(1, 8, control=c).cost == s.optimize_local(1, 8).cost
        two = Servers(Arrivals.poisson(1.0), [1.0, 0.4])
        start = [0, 0, 0, 0, 0, 1]
        assert two.local_search_multimodular(start, control=c).cost == two.local_search_multimodular(start).cost
        assert s.simulate(ex.period, 1000, 5, control=c) == s.simulate(ex.period, 1000, 5)
        r = Robots.solve_unlimited(5, 0.1, 1.0, 0.4, control=c)
        assert r.cost().cost == pytest.approx(0.11097, abs=1e-4)
        c.cancel()
        with raises_status(cs.CancelledError):
            Robots.solve_unlimited(5, 0.1, 1.0, 0.4, control=c)
        with raises_status(cs.CancelledError):
            s.simulate(ex.period, 1000, 5, control=c)


def test_control_cancels_a_freshness_simulation(raises_status):
    """10^10 cycles are cancelled from a timer thread; a short run gives the
    same estimate with and without a control."""
    from crawlsched import FreshnessModel
    m = FreshnessModel(Dist.exponential(2.0), [0.05, 0.2, 0.4])
    seq = [2, 1, 2, 0, 2, 1]
    with Control() as c:
        assert m.simulate_cyclic(seq, 100, 7, control=c) == m.simulate_cyclic(seq, 100, 7)
        threading.Timer(0.05, c.cancel).start()
        with raises_status(cs.CancelledError):
            m.simulate_cyclic(seq, 10_000_000_000, 7, control=c)
