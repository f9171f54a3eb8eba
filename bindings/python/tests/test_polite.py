"""The Python face of per-host politeness: PoliteObjective (an enum that
also takes its strings), keyword-only options, PolitePlan arrays, Pick."""

import math

import numpy as np
import pytest

import crawlsched as cs
from crawlsched import Dist, FreshnessModel, PoliteObjective

RATES = [0.1, 0.3, 0.5, 1.0, 2.0, 4.0]
HOSTS = [0, 0, 1, 1, 2, 2]
INF = math.inf


@pytest.fixture
def model():
    # X ~ Exp(2): the crawler wants 1/E[X] = 2 crawls per unit time.
    with Dist.exponential(2.0) as ex:
        m = FreshnessModel(ex, RATES)
    yield m
    m.close()


def test_objective_is_an_enum_that_takes_its_strings(model):
    assert PoliteObjective("randomized") is PoliteObjective.RANDOMIZED
    assert PoliteObjective.EVENLY_SPACED == "evenly_spaced"
    caps = [INF, INF, INF]
    by_member = model.polite_frequencies(HOSTS, caps, objective=PoliteObjective.RANDOMIZED)
    by_string = model.polite_frequencies(HOSTS, caps, objective="randomized")
    np.testing.assert_array_equal(by_member.frequencies, by_string.frequencies)
    # Loose caps: each objective's unconstrained optimum and its cost.
    np.testing.assert_allclose(by_member.frequencies, model.randomized_optimal_frequencies(), rtol=0, atol=1e-12)
    assert by_member.objective == pytest.approx(model.randomized_optimal_cost(), rel=1e-12)
    even = model.polite_frequencies(HOSTS, caps)
    assert even.objective == pytest.approx(model.lower_bound(), rel=1e-12)
    by_code = model.polite_frequencies(HOSTS, caps, objective=cs._ffi.CRAWLSCHED_POLITE_RANDOMIZED)
    np.testing.assert_array_equal(by_member.frequencies, by_code.frequencies)
    with pytest.raises(cs.InvalidArgumentError, match="objective must be one of"):
        model.polite_frequencies(HOSTS, caps, objective="fastest")


def test_options_are_keyword_only(model):
    with pytest.raises(TypeError):
        model.polite_frequencies(HOSTS, [INF] * 3, "randomized")


def test_plan_arrays_and_a_tight_host(model):
    plan = model.polite_frequencies(np.array(HOSTS, dtype=np.uint32), np.array([INF, INF, 0.6]))
    assert isinstance(plan, cs.PolitePlan)
    assert plan.frequencies.dtype == np.float64 and plan.frequencies.shape == (6,)
    assert plan.saturated.dtype == np.bool_ and plan.saturated.tolist() == [False, False, True]
    assert plan.ln_host_multipliers.shape == (3,)
    # The tight host gets exactly its cap times E[X] = 0.6 / 2 of the crawls.
    assert plan.frequencies[4] + plan.frequencies[5] == pytest.approx(0.3, abs=1e-13)
    assert plan.frequencies.sum() == pytest.approx(1.0, abs=1e-13)
    # Unsaturated hosts sit at the budget's multiplier.
    assert plan.ln_host_multipliers[0] == plan.ln_host_multipliers[1] == plan.ln_multiplier
    # objective is the evenly spaced cost of the plan's own frequencies.
    assert plan.objective == pytest.approx(model.cost(plan.frequencies), rel=1e-12)
    assert plan.crawl_rate == pytest.approx(2.0)


def test_slack_crawls_every_host_at_its_cap(model):
    caps = [0.2, 0.3, 0.1]
    with pytest.raises(cs.InfeasibleError, match="short of"):
        model.polite_frequencies(HOSTS, caps)
    plan = model.polite_frequencies(HOSTS, caps, allow_slack=True)
    assert plan.ln_multiplier == -math.inf and plan.saturated.all()
    assert plan.crawl_rate == pytest.approx(0.6)
    per_host = np.bincount(HOSTS, weights=plan.frequencies)
    np.testing.assert_allclose(per_host, np.array(caps) / 2.0, rtol=0, atol=1e-15)


def test_a_cancelled_control_stops_the_plan(model):
    with cs.Control() as c:
        c.cancel()
        with pytest.raises(cs.CancelledError):
            model.polite_frequencies(HOSTS, [INF, INF, 0.6], control=c)


def test_next_at_returns_a_pick():
    with Dist.exponential(4.0) as ex, cs.Scheduler(ex) as s:
        for page, host in ((1, 0), (2, 0)):
            s.add_page(page, 1.0)
            s.set_host(page, host)
        s.set_host_delay(0, 1.0)
        first = s.next_at(10.0)
        assert isinstance(first, cs.Pick) and first.ready and first.page_id in (1, 2) and first.wait == 0.0
        # Host 0 was just picked: not ready for exactly its delay.
        second = s.next_at(10.25)
        assert second == cs.Pick(False, 0, 0.75)
        ready, page, wait = s.next_at(11.0)
        assert ready and {page, first.page_id} == {1, 2} and wait == 0.0
        with pytest.raises(cs.InvalidArgumentError):
            s.next_at(10.5)
