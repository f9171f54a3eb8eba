import math

import numpy as np
import pytest

import crawlsched as cs
from crawlsched import Dist, FreshnessModel

MU = np.array([0.1, 0.15, 0.2, 0.3])
TOTAL = 0.75


@pytest.fixture
def model():
    # Deterministic crawl time E[X] = 1, proportional weights (Theorem 3.4).
    with Dist.deterministic(1.0) as x:
        m = FreshnessModel(x, MU)
    yield m  # the model keeps its own copy of x
    m.close()


def test_theorem_3_4(model):
    assert len(model) == 4
    np.testing.assert_allclose(model.h(), np.exp(-MU), atol=1e-15)
    f = model.optimal_frequencies()
    assert f.dtype == np.float64 and f.shape == (4,)
    np.testing.assert_allclose(f, MU / TOTAL, atol=1e-12)
    lb = model.lower_bound()
    assert lb == pytest.approx(TOTAL - 1 + math.exp(-TOTAL), abs=1e-12)
    assert model.cost(f) == pytest.approx(lb, abs=1e-12)
    np.testing.assert_allclose(model.obsolescence_bound(f), 1 - (1 - math.exp(-TOTAL)) / TOTAL, atol=1e-12)


def test_randomized_theorem_4_1(model):
    rf = model.randomized_optimal_frequencies()
    np.testing.assert_allclose(rf, (np.exp(MU) - 1) / (np.exp(MU) - 1).sum(), atol=1e-10)
    rc = model.randomized_optimal_cost()
    assert model.randomized_cost(rf) == pytest.approx(rc, abs=1e-12)
    assert rc >= model.lower_bound()


def test_golden_ratio_bound(model):
    phi = (1 + math.sqrt(5)) / 2
    q = TOTAL
    want = q - 1 + (1 - 1 / phi) * math.exp(-phi * q / math.sqrt(5)) + math.exp(-phi * phi * q / math.sqrt(5)) / phi
    assert model.golden_ratio_bound() == pytest.approx(want, abs=1e-12)
    assert cs.bound_ratio(0) == pytest.approx(2 * phi * phi / 5, abs=1e-12)


def test_sequences():
    assert cs.integer_counts([0.5, 0.25, 0.25], 8).tolist() == [4, 2, 2]
    assert cs.fibonacci_at_least(10) == 13
    # The paper's N = 4 example: counts (2, 1, 1).
    for fn in (cs.golden_ratio_sequence, cs.round_robin_sequence):
        seq = fn([4, 2, 2])
        assert seq.dtype == np.uint32 and len(seq) == 8
        assert np.bincount(seq).tolist() == [4, 2, 2]
    assert sorted(cs.golden_ratio_sequence([2, 1, 1]).tolist()) == [0, 0, 1, 2]


def test_cyclic_cost_and_simulation(model):
    # Each page once per cycle of 4 crawls: r_i = 1 - (1 - e^{-4 mu_i}) / (4 mu_i).
    rr = [0, 1, 2, 3]
    want_r = 1 - (1 - np.exp(-4 * MU)) / (4 * MU)
    assert model.cyclic_cost(rr) == pytest.approx(float(MU @ want_r), abs=1e-12)
    np.testing.assert_allclose(model.cyclic_obsolescence(np.array(rr, dtype=np.uint32)), want_r, atol=1e-12)
    sim, se = model.simulate_cyclic(rr, 20000, 1)
    assert se > 0 and abs(sim - float(MU @ want_r)) < 5 * se


def test_freshness_errors(model, raises_status):
    x = Dist.exponential(1.0)
    with raises_status(cs.InvalidArgumentError):
        FreshnessModel(x, [1.0, float("nan")])
    with raises_status(cs.InvalidArgumentError):
        FreshnessModel(x, [1.0, 2.0], [1.0])
    with raises_status(cs.InvalidArgumentError):
        model.cost([0.5, 0.5])
    with raises_status(cs.InvalidArgumentError):
        model.cyclic_cost([0, 7])
    with raises_status(cs.InvalidArgumentError):
        cs.golden_ratio_sequence([])
    with raises_status(cs.InvalidArgumentError):
        cs.integer_counts([0.5, -1], 4)
    with raises_status(cs.InvalidArgumentError):
        cs.bound_ratio(float("nan"))
    with raises_status(cs.InvalidArgumentError):
        cs.golden_ratio_sequence([1, -1])  # refused here rather than wrapped to 2^64 - 1
    x.close()
    with raises_status(cs.NullArgumentError):
        FreshnessModel(x, [1.0])


def test_estimator(raises_status):
    with cs.Estimator() as est:
        with raises_status(cs.NotFoundError):
            est.estimate()
        for k in range(400):
            est.observe(2.0, k % 4 == 0)
        assert est.observations == 400
        # A change in a quarter of the visits 2 apart: rate -ln(3/4)/2.
        assert est.estimate() == pytest.approx(-math.log(0.75) / 2, abs=1e-10)
        with raises_status(cs.InvalidArgumentError):
            est.observe(float("nan"), True)
    assert cs.Estimator(0.5, 4.0).estimate() == pytest.approx(0.5, abs=1e-12)
    with raises_status(cs.InvalidArgumentError):
        cs.Estimator(-1.0, 1.0)


def test_scheduler(raises_status):
    rates = [0.1, 0.3, 0.6]
    for mode in ("stride", "golden_ratio"):
        with cs.Scheduler(Dist.exponential(10.0), mode) as s:
            for i, r in enumerate(rates):
                s.add_page(i + 1, r)
            assert len(s) == 3
            n = 8000
            ids = s.next_batch(n)
            assert ids.dtype == np.uint64
            counts = np.bincount(ids.astype(np.int64), minlength=4)[1:]
            freqs = np.array([s.frequency(i + 1) for i in range(3)])
            assert freqs.sum() == pytest.approx(1, abs=1e-12)
            all_ids, all_freqs = s.frequencies()
            np.testing.assert_array_equal(all_ids, np.array([1, 2, 3], dtype=np.uint64))
            np.testing.assert_array_equal(all_freqs, freqs)
            # Stride realises the target shares closely; golden-ratio cycles
            # round them to whole crawls per cycle of F >= 8N slots (F = 34).
            np.testing.assert_allclose(counts / n, freqs, atol=0.002 if mode == "stride" else 1 / 34)
            assert s.next() in (1, 2, 3)
            s.set_change_rate(np.uint64(2), 0.25)  # NumPy integers work as ids
            assert s.change_rate(2) == pytest.approx(0.25, abs=1e-12)
            s.observe(1, 5.0, True)
            with raises_status(cs.InvalidArgumentError):
                s.add_page(1, 0.1)
            with raises_status(cs.NotFoundError):
                s.remove_page(99)
            s.remove_page(3)
            assert len(s) == 2
            assert 3 not in s.next_batch(100).tolist()
    with raises_status(cs.NotFoundError):
        cs.Scheduler(Dist.exponential(1.0)).next()
    with raises_status(cs.InvalidArgumentError):
        cs.Scheduler(Dist.exponential(1.0), "random")


def test_scheduler_add_pages(raises_status):
    """add_pages gives the same frequencies and picks as one-by-one adds
    (weights None = add_page's default); a refused batch adds nothing."""
    ids = [40, 10, 30, 20, 60, 50]
    rates = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]
    weights = [1.0, 2.0, 1.0, 2.0, 1.0, 2.0]
    for mode in ("stride", "golden_ratio"):
        with cs.Scheduler(Dist.exponential(1.0), mode) as one, cs.Scheduler(Dist.exponential(1.0), mode) as batch:
            for k in range(6):
                one.add_page(ids[k], rates[k], weights[k] if k >= 3 else None)
            batch.add_pages(ids[:3], rates[:3])
            with raises_status(cs.InvalidArgumentError):
                batch.add_pages([7, 40], [0.1, 0.1])
            with raises_status(cs.InvalidArgumentError) as e:
                batch.add_pages([7, 8], [0.1, float("nan")])
            assert "change_rates[1]" in str(e.value)
            with raises_status(cs.InvalidArgumentError):
                batch.add_pages([7, 7], [0.1, 0.2])
            with raises_status(cs.InvalidArgumentError):
                batch.add_pages([7, 8], [0.1])
            with raises_status(cs.InvalidArgumentError):
                batch.add_pages([-7], [0.1])
            batch.add_pages([], [])
            assert len(batch) == 3
            batch.add_pages(np.array(ids[3:], dtype=np.uint64), np.array(rates[3:]), weights[3:])
            o_ids, o_freqs = one.frequencies()
            b_ids, b_freqs = batch.frequencies()
            np.testing.assert_array_equal(o_ids, b_ids)
            np.testing.assert_array_equal(o_freqs, b_freqs)
            np.testing.assert_array_equal(one.next_batch(1000), batch.next_batch(1000))


def test_polite_plan_and_next_at():
    # X ~ Exp(2): E[X] = 1/2; proportional weights, so every host's pages
    # share its total in proportion to ln(1/h_i) = ln(1 + mu_i / 2).
    rates = [0.1, 0.3, 0.5, 1.0, 2.0, 4.0]
    hosts = [0, 0, 1, 1, 2, 2]
    with Dist.exponential(2.0) as ex, FreshnessModel(ex, rates) as m:
        loose = m.polite_frequencies(hosts, [math.inf] * 3)
        np.testing.assert_allclose(loose.frequencies, m.optimal_frequencies(), rtol=0, atol=1e-12)
        assert not loose.saturated.any() and loose.crawl_rate == pytest.approx(2.0)
        tight = m.polite_frequencies(hosts, [math.inf, math.inf, 0.6])
        assert list(tight.saturated) == [False, False, True]
        assert tight.frequencies[4] + tight.frequencies[5] == pytest.approx(0.3, abs=1e-13)
        slack = m.polite_frequencies(hosts, [0.2] * 3, allow_slack=True)
        assert slack.ln_multiplier == -math.inf and slack.frequencies.sum() == pytest.approx(0.3)
        with pytest.raises(cs.InfeasibleError):
            m.polite_frequencies(hosts, [0.2] * 3)
        with cs.Scheduler(ex) as s:
            delays = [1.0, 0.5, 2.0]
            for p in range(12):
                s.add_page(p, 0.1 * (p + 1))
                s.set_host(p, p % 3)
            for h, d in enumerate(delays):
                s.set_host_delay(h, d)
            assert s.host(4) == 1 and s.host_delay(2) == 2.0
            now, last, waits = 0.0, [-math.inf] * 3, 0
            for _ in range(2000):
                ready, page, wait = s.next_at(now)
                if ready:
                    h = page % 3
                    assert now - last[h] >= delays[h]
                    last[h] = now
                    now += 0.1
                else:
                    waits += 1
                    assert now + wait == pytest.approx(min(l + d for l, d in zip(last, delays)), abs=1e-12)
                    now += wait
            assert waits > 0
            s.clear_host(4)
            assert s.host(4) is None
