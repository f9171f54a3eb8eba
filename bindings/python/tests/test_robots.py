import numpy as np
import pytest

import crawlsched as cs
from crawlsched import robots


def static_cost(rho, gamma, k):
    """eq. (9) with mu = 1; (gamma + 1)/(K + 1) at rho = 1."""
    if abs(rho - 1) < 1e-12:
        return (gamma + 1) / (k + 1)
    return (1 - rho) * (gamma + rho ** (k + 1)) / (1 - rho ** (k + 1))


def test_table_1_row():
    # Table 1, lambda = 0.1, K = 5, gamma = 0.4: C_d = 0.15239, N_min = 1, N-bar = 6.5.
    with cs.Robots.solve(7, 5, 0.1, 1.0, 0.4) as r:
        assert r.size() == (7, 5)
        c = r.cost()
        assert c.cost == pytest.approx(0.15239, abs=1e-4)
        assert c.cost == pytest.approx(0.4 * c.starvation + c.loss_rate, abs=1e-12)
        n = r.counts()
        assert n.n_min == 1 and abs(n.n_mean - 6.5) < 0.1 and 0 <= n.n_max < 7
        f0, is_curve = r.switching_curve(0)
        f1, _ = r.switching_curve(1)
        assert is_curve and f0.dtype == np.int64 and len(f0) == 8 and f0[0] >= 1
        pi = r.stationary().reshape(8, 6, 3)  # (r, q, s)
        assert pi.sum() == pytest.approx(1, abs=1e-12)
        assert pi[:, 0, :].sum() == pytest.approx(c.starvation, abs=1e-12)
        assert r.evaluate_curve(f0, f1) == pytest.approx(c.cost, abs=1e-12)
        for m in range(1, 8):
            assert r.evaluate_static(m) == pytest.approx(static_cost(0.1 * m, 0.4, 5), abs=1e-12)


def test_table_2_and_static():
    u = cs.Robots.solve_unlimited(5, 0.1, 1.0, 0.4)
    assert u.cost().cost == pytest.approx(0.11097, abs=1e-4)
    n = u.counts()
    assert (n.n_min, n.n_max) == (2, 12)
    assert robots.static_cost(0.7, 0.4, 5, 1.0) == pytest.approx(static_cost(0.7, 0.4, 5), abs=1e-13)
    assert robots.static_cost(1.0, 1.13, 15, 1.0) == pytest.approx(2.13 / 16, abs=1e-14)
    ns, c = robots.optimal_static(0.1, 1.0, 0.4, 5)
    assert c == pytest.approx(static_cost(0.1 * ns, 0.4, 5), abs=1e-12)
    assert all(static_cost(0.1 * m, 0.4, 5) >= c - 1e-12 for m in range(1, 21))


def test_robots_errors(raises_status):
    with raises_status(cs.InvalidArgumentError):
        cs.Robots.solve(2, 2, float("nan"), 1.0, 1.0)
    with raises_status(cs.InvalidArgumentError):
        cs.Robots.solve(2, 0, 0.1, 1.0, 1.0)
    r = cs.Robots.solve(3, 2, 0.1, 1.0, 0.4)
    with raises_status(cs.InvalidArgumentError):
        r.evaluate_curve([1, 1], [1, 1])
    with raises_status(cs.InvalidArgumentError):
        r.evaluate_static(9)
    with raises_status(cs.InvalidArgumentError):
        r.switching_curve(5)
    with raises_status(cs.InvalidArgumentError):
        robots.static_cost(-1, 0.4, 5, 1)
    r.close()
    with raises_status(cs.NullArgumentError):
        r.cost()
