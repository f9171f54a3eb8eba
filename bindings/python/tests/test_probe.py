import math

import numpy as np
import pytest

import crawlsched as cs
from crawlsched import Planner, Profile, probe


def flat():
    """lambda = 2, a = 1 on [0, 4]: C(s, f) = (f - s)^2."""
    return Profile([0, 1], [2.0], [0, 1], [1.0], 4.0, lambda_periodic=True, a_periodic=True)


def split_cost(units, n, w):
    """Best split of `units` cells of width w into n parts under C = len^2."""
    q, r = divmod(units, n)
    return r * ((q + 1) * w) ** 2 + (n - r) * (q * w) ** 2


def test_profile_costs_and_policies():
    with flat() as p:
        assert p.interval_cost(1, 3) == pytest.approx(4, abs=1e-12)
        uni = p.uniform(4)
        assert uni.tolist() == [1.0, 2.0, 3.0, 4.0]
        assert p.expected_cost(uni) == pytest.approx(4, abs=1e-12)
        assert p.realized_cost([2, 4], [0.5, 3]) == pytest.approx(1.5 + 1, abs=1e-12)
        sch = p.policy_schedule("threshold", 0.81)  # a probe every 0.9, then T
        assert len(sch) == 5 and sch[3] == pytest.approx(3.6, abs=1e-9) and sch[4] == 4
        fa = p.policy_schedule("first_arrival", 1 - math.exp(-0.6))
        assert len(fa) == 14 and fa[0] == pytest.approx(0.3, abs=1e-9)
        b4, level = p.policy_with_budget("threshold", 4)
        assert len(b4) == 4 and 1 - 1e-9 <= level < 16 / 9
        assert b4[0] == pytest.approx(math.sqrt(level), abs=1e-9)
        imp, moves = p.improve([1, 4], 0.0, iota=1e-12)
        assert abs(imp[0] - 2) < 0.02 and moves > 0
    est = probe.estimate_intensity([0.1, 0.2, 0.3, 0.6], 1.0, [0, 0.5, 1])
    np.testing.assert_allclose(est, [6, 2], atol=1e-12)


def test_planner_methods_agree():
    with Planner(flat(), 8) as pl:
        for n in range(1, 9):
            for m in ("reference", "divide_conquer", "hull", "lagrangian"):
                plan, c = pl.plan(n, m)
                assert c == pytest.approx(split_cost(8, n, 0.5), abs=1e-12)
                assert plan[-1] == 4
        np.testing.assert_allclose(pl.all_costs(8), [split_cost(8, n, 0.5) for n in range(1, 9)], atol=1e-12)
        pl.set_constraints(0, [0.9], [1.1])
        plan, c = pl.plan(2)
        assert plan[0] == pytest.approx(1, abs=1e-12) and c == pytest.approx(10, abs=1e-12)
        pl.set_profile(flat())


def test_dbworld():
    # A week of DBWorld, 14 probes: the optimum beats uniform probing.
    p = Profile.dbworld(4.0, 7.0)
    plan, c = Planner(p, 168).plan(14)
    assert c < p.expected_cost(p.uniform(14))
    assert plan[-1] == pytest.approx(7.0)


def test_probe_errors(raises_status):
    p = flat()
    with raises_status(cs.InvalidArgumentError):
        p.interval_cost(3, 1)
    with raises_status(cs.InvalidArgumentError):
        p.expected_cost([2, 1, 4])
    with raises_status(cs.InvalidArgumentError):
        p.policy_schedule("first_arrival", 1.5)
    with raises_status(cs.InvalidArgumentError):
        p.improve([1, 4], 0.0, iota=0)
    with raises_status(cs.InvalidArgumentError):
        Profile([0], [1.0], [0, 1], [1.0], 4.0)
    with raises_status(cs.InvalidArgumentError):
        Profile.dbworld(0, 28)
    pl = Planner(p, 8)
    pl.set_constraints(1.5)
    with raises_status(cs.InfeasibleError):
        pl.plan(3)
    pl.set_constraints(0)
    with raises_status(cs.InvalidArgumentError):
        pl.plan(9)
    with raises_status(cs.InvalidArgumentError):
        pl.set_constraints(0, [0.9], [])
