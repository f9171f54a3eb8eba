import numpy as np
import pytest

import crawlsched as cs
from crawlsched import BMAP, Dist, ThresholdModel
from crawlsched.threshold import MEASURES


def birth_death(lam, mu, theta, cap):
    """Stationary law on 0..cap with birth lam, death mu + (n-1) theta."""
    p = [1.0]
    for n in range(1, cap + 1):
        p.append(p[-1] * lam / (mu + (n - 1) * theta))
    p = np.array(p)
    return p / p.sum()


def test_mm1k():
    # M/M/1/K: Poisson 0.8, exponential service 1, buffer 5.
    with ThresholdModel([BMAP.poisson(0.8)], Dist.exponential(1.0), None, 5) as m:
        assert m.state_count() == 7
        meas = m.measures_dict([1], [])
        p = birth_death(0.8, 1, 0, 6)
        assert meas["loss"] == pytest.approx(p[6], abs=1e-13)
        assert meas["starvation"] == pytest.approx(p[0], abs=1e-13)
        assert meas["throughput"] == pytest.approx(1 - p[0], abs=1e-13)
        np.testing.assert_allclose(m.level_distribution([1], []), p, atol=1e-13)
        assert len(m.measures([1], [])) == len(MEASURES) == 12


def test_obsolescence_and_optimize():
    # Exponential obsolescence theta: waiting pages leave at rate theta each.
    arr = [BMAP.poisson(1.0), BMAP.poisson(2.0)]
    m = ThresholdModel(arr, Dist.exponential(1.5), Dist.exponential(0.2), 6)
    levels = m.level_distribution([2, 1], [3])
    assert levels.sum() == pytest.approx(1, abs=1e-12) and len(levels) == 8
    w = {"loss": 1.0, "obsolescence": 1.0, "response": 0.1, "robots": 0.2, "starvation": 1.0}
    plan = m.optimize([2, 1], w)
    assert plan.evaluated == 7  # t_1 in 0..6
    # The optimum is no worse than any threshold, by enumeration here too.
    costs = [m.cost([2, 1], [t], w) for t in range(7)]
    assert plan.cost == pytest.approx(min(costs), abs=1e-15)
    assert plan.thresholds.tolist() == [int(np.argmin(costs))]


def test_threshold_errors(raises_status):
    m = ThresholdModel([BMAP.poisson(1.0), BMAP.poisson(2.0)], Dist.exponential(1.0), None, 3)
    with raises_status(cs.InvalidArgumentError):
        m.measures([1, 2], [1])  # modes not decreasing
    with raises_status(cs.InvalidArgumentError):
        m.cost([2, 1], [1], [1, 1])  # 2 weights, not 5
    with raises_status(cs.TooLargeError):
        m.optimize([2, 1], [1, 1, 0, 0, 0], max_evaluations=2)
    with raises_status(cs.InvalidArgumentError):
        ThresholdModel([BMAP.poisson(1.0)], Dist.exponential(-1.0), None, 3)
