import math

import numpy as np
import pytest

import crawlsched as cs
from crawlsched import BMAP, Dist


def test_exponential_closed_forms():
    with Dist.exponential(2.0) as d:
        assert d.mean() == pytest.approx(0.5, abs=1e-15)
        assert d.variance() == pytest.approx(0.25, abs=1e-15)
        assert d.moment(3) == pytest.approx(6 / 8, abs=1e-14)
        assert d.laplace(1.0) == pytest.approx(2 / 3, abs=1e-15)
        assert d.cdf(1.0) == pytest.approx(1 - math.exp(-2), abs=1e-15)
        # Arrays in, arrays out.
        s = np.array([0.0, 1.0, 2.0])
        np.testing.assert_allclose(d.laplace(s), 2 / (2 + s), atol=1e-15)
        assert d.cdf(np.array([[0.0, 1.0]])).shape == (1, 2)


def test_other_families():
    assert Dist.erlang(3, 2.0).mean() == pytest.approx(1.5, abs=1e-14)
    assert Dist.erlang(3, 2.0).laplace(1.0) == pytest.approx((2 / 3) ** 3, abs=1e-14)
    assert Dist.gamma(2.5, 2.0).variance() == pytest.approx(2.5 / 4, abs=1e-14)
    assert Dist.hyperexponential([0.25, 0.75], [1, 3]).mean() == pytest.approx(0.25 + 0.75 / 3, abs=1e-14)
    # PH given as a 2-D matrix or flat.
    assert Dist.phase_type([1, 0], [[-1, 1], [0, -2]]).mean() == pytest.approx(1.5, abs=1e-13)
    assert Dist.phase_type([1, 0], [-1, 1, 0, -2]).mean() == pytest.approx(1.5, abs=1e-13)
    assert Dist.coxian([1, 2], [0.5]).mean() == pytest.approx(1.25, abs=1e-13)
    assert Dist.empirical(np.array([1.0, 2, 3, 6])).mean() == pytest.approx(3, abs=1e-14)
    assert Dist.deterministic(2.0).cdf(1.999) == 0.0


def test_fits():
    assert Dist.fit_aph2(1, 2, 6).moment(3) == pytest.approx(6, abs=1e-12)
    assert Dist.fit_aph2(1, 1.5, 3).variance() == pytest.approx(0.5, abs=1e-10)
    h2 = Dist.fit_h2(49207.0356, 2.0527e11, 2.5773e18)
    assert h2.mean() / 49207.0356 == pytest.approx(1, abs=1e-10)
    assert h2.moment(3) / 2.5773e18 == pytest.approx(1, abs=1e-9)


def test_sampling_is_seeded():
    d = Dist.exponential(2.0)
    a, b = d.sample(20000, seed=7), d.sample(20000, seed=7)
    assert a.dtype == np.float64 and a.shape == (20000,)
    assert np.array_equal(a, b)
    assert not np.array_equal(a, d.sample(20000, seed=8))
    assert abs(a.mean() - 0.5) < 5 * 0.5 / math.sqrt(a.size)


def test_dist_errors(raises_status):
    with raises_status(cs.InvalidArgumentError) as e:
        Dist.exponential(float("nan"))
    assert "rate must be finite and > 0" in e.value.message
    assert isinstance(e.value, ValueError)
    with raises_status(cs.InvalidArgumentError):
        Dist.hyperexponential([0.5], [1, 2])
    with raises_status(cs.InvalidArgumentError):
        Dist.phase_type([1, 0], [-1, 1, 0])
    with raises_status(cs.InvalidArgumentError):
        Dist.empirical([])
    with raises_status(cs.NumericalError):
        Dist.exponential(2.0).moment(2000)
    with raises_status(cs.InvalidArgumentError):
        Dist.exponential(2.0).cdf(float("inf"))
    with raises_status(cs.InfeasibleError):
        Dist.fit_aph2(1, 1.2, 3)
    d = Dist.exponential(1.0)
    d.close()
    d.close()  # idempotent
    assert d.closed
    with raises_status(cs.NullArgumentError):
        d.mean()


def test_bmap():
    with BMAP.poisson(2.0) as poi:
        assert poi.order() == 1
        assert poi.fundamental_rate() == pytest.approx(2, abs=1e-15)
        assert poi.interarrival_moment(2) == pytest.approx(0.5, abs=1e-15)
        assert poi.lag_correlation(1) == pytest.approx(0, abs=1e-12)
        for how, active, total, prob, rate in [("independent", 3, 4, 0, 6), ("thinning", 0, 0, 0.25, 0.5),
                                               ("scaled", 2, 2, 0, 4)]:
            with poi.compose(how, active, total, prob) as b:
                assert b.fundamental_rate() == pytest.approx(rate, abs=1e-14)
    # MMPP with theta = (2/3, 1/3), rates 3 and 6: D0 and D1 as 2-D matrices.
    mm = BMAP([[[-4, 1], [2, -8]], [[3, 0], [0, 6]]])
    assert mm.fundamental_rate() == pytest.approx(2 / 3 * 3 + 1 / 3 * 6, abs=1e-14)
    assert BMAP.from_flat(2, [-4, 1, 2, -8, 3, 0, 0, 6]).fundamental_rate() == mm.fundamental_rate()
    # Section 7 real-data fit.
    real = BMAP.fit(212.03, 51352.38, 0.622, 3.263389905223716, 8)
    m1, m2 = real.interarrival_moment(1), real.interarrival_moment(2)
    assert m1 == pytest.approx(212.03, rel=1e-10)
    assert (m2 - m1 * m1) / 51352.38 == pytest.approx(1, abs=1e-9)
    assert real.lag_correlation(1) == pytest.approx(0.622, abs=1e-9)


def test_bmap_errors(raises_status):
    with raises_status(cs.InvalidArgumentError):
        BMAP([[[-4, 1], [2, -8]], [[3, 0], [0, 5]]])
    with raises_status(cs.InvalidArgumentError):
        BMAP.poisson(-1)
    with raises_status(cs.InvalidArgumentError):
        BMAP.poisson(1).compose("sideways")
    with raises_status(cs.InvalidArgumentError):
        BMAP.poisson(1).interarrival_moment(0)
