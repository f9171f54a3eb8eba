import itertools
import math

import numpy as np
import pytest

import crawlsched as cs
from crawlsched import Arrivals, Servers, routing


def g_fig1(n, mu2):
    """g(n, mu2) of Figure 1 (lambda = mu1 = 1), period (1, 2, ..., 2):
    server 1 once per n packets, server 2 with gaps 1 (n - 2 times) and 2."""
    b = 1 / (1 + mu2)
    return (0.5**n + b * b + (n - 2) * b) / n


def test_arrivals():
    assert Arrivals.poisson(1.0).rate() == pytest.approx(1, abs=1e-15)
    mmpp = Arrivals.mmpp([[-1, 1], [3, -3]], [0.5, 3.5])
    assert mmpp.rate() == pytest.approx(0.75 * 0.5 + 0.25 * 3.5, abs=1e-13)
    assert Arrivals.poisson(1.0).transform(3, 4) == pytest.approx(0.25**4, abs=1e-15)
    # Erlang-2 renewal process of rate 0.8 as a MAP.
    erl = Arrivals.map([[-1.6, 1.6], [0, -1.6]], [[0, 0], [1.6, 0]])
    assert erl.rate() == pytest.approx(0.8, abs=1e-13)
    assert erl.transform(1.3, 5) == pytest.approx((1.6 / 2.9) ** 10, abs=1e-13)


def test_two_servers_figure_1():
    mu = [1.0, 3.0]
    with Servers(Arrivals.poisson(1.0), mu) as s:
        assert len(s) == 2
        assert s.immediate_cost(1, 3) == pytest.approx(0.25**3, abs=1e-15)
        c = s.cost([0, 1, 1])
        assert c.per_packet == pytest.approx(g_fig1(3, 3), abs=1e-15)
        assert c.per_unit_time == pytest.approx(g_fig1(3, 3), abs=1e-15)
        ex = s.optimize_exhaustive(1, 6)
        assert ex.cost == pytest.approx(g_fig1(3, 3), abs=1e-15)
        assert ex.period.dtype == np.uint32
        assert s.optimize_local(1, 6).cost == pytest.approx(ex.cost, abs=1e-15)
        # Theorem 4.2: the multimodular search is optimal for its length.
        brute = min(s.cost(p).per_packet for p in itertools.product([0, 1], repeat=7))
        assert s.local_search_multimodular([0] * 7).cost == pytest.approx(brute, abs=1e-14)
        sim = s.simulate([0, 1, 1], 20000, 1)
        assert abs(sim.per_packet - c.per_packet) < 5 * sim.std_error
    assert routing.two_server_cost(5, 2) == pytest.approx(g_fig1(5, 2), abs=1e-15)
    assert routing.switch_point(2) == pytest.approx(1 + math.sqrt(2), abs=1e-9)


def test_balanced_sequence_and_router():
    seq = routing.balanced_sequence([3, 2, 1])
    assert np.bincount(seq).tolist() == [3, 2, 1]
    with cs.Router([0, 1, 1, 2], 3) as r:
        assert r.next() == 0
        assert r.next_batch(7).tolist() == [1, 1, 2, 0, 1, 1, 2]


def test_routing_errors(raises_status):
    with raises_status(cs.InvalidArgumentError):
        Arrivals.poisson(float("nan"))
    with raises_status(cs.InvalidArgumentError):
        Arrivals.mmpp([[-1, 2], [3, -3]], [1, 1])  # not a generator
    s = Servers(Arrivals.poisson(1.0), [1.0, 2.0])
    with raises_status(cs.NotFoundError):
        s.immediate_cost(5, 1)
    with raises_status(cs.InvalidArgumentError):
        s.cost([])
    with raises_status(cs.TooLargeError):
        s.optimize_exhaustive(1, 40)
    with raises_status(cs.InvalidArgumentError):
        Servers(Arrivals.poisson(1.0), [1.0], objective="fastest")
    with raises_status(cs.InvalidArgumentError):
        routing.switch_point(1)
    with raises_status(cs.InvalidArgumentError):
        cs.Router([0, 3], 2)
