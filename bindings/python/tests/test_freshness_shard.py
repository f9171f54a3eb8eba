import numpy as np
import pytest

import crawlsched as cs
from crawlsched import Dist, FreshnessModel, FreshnessShard, MultiplierSearch


def instance(n, seed):
    """The issue's instance: change rates log-uniform on [1e-3, 10],
    weights log-uniform on [0.1, 10]."""
    rng = np.random.default_rng(seed)
    return 10 ** rng.uniform(-3, 1, n), 10 ** rng.uniform(-1, 1, n)


@pytest.mark.parametrize("cuts", [[0, 2000], [0, 1, 700, 2000], [0, 5, 6, 1500, 1999, 2000]])
@pytest.mark.parametrize("shuffle", [False, True])
def test_shards_reproduce_the_single_call_bit_for_bit(cuts, shuffle):
    mu, w = instance(2000, 3)
    x = Dist.exponential(2000 / 5)
    single = FreshnessModel(x, mu, w).optimal_frequencies()
    assert (single == 0).any(), "some pages unvisited"
    order = np.random.default_rng(5).permutation(2000) if shuffle else np.arange(2000)
    parts = [order[a:b] for a, b in zip(cuts, cuts[1:])]
    shards = [FreshnessShard(FreshnessModel(x, mu[p], w[p])) for p in parts]
    assert [len(s) for s in shards] == list(np.diff(cuts))

    def totals(ln_lambda):
        return cs.combine_sums(s.sum_at(ln_lambda) for s in reversed(shards))

    ln_lambda, steps = cs.solve_multiplier(cs.combine_summaries(s.summary() for s in shards), totals)
    assert 0 < steps < 60
    f = np.empty(2000)
    for p, s in zip(parts, shards):
        f[p] = s.frequencies_at(ln_lambda)
    assert (f == single).all()
    assert abs(f.sum() - 1) < 1e-13


def test_protocol_by_hand_and_refusals(raises_status):
    mu, w = instance(10, 1)
    shard = FreshnessShard(FreshnessModel(Dist.deterministic(0.5), mu, w))
    sum_a, lo, hi = shard.summary()
    assert sum_a > 0 and lo <= hi
    search = MultiplierSearch(sum_a, lo, hi)
    done, x = search.next()
    assert not done and lo < x < hi
    s, ds, exact = shard.sum_at(x)
    assert s > 0 and ds < 0
    # The exact sum counts 2^-80: the float sum to within its rounding.
    assert abs(exact / 2**80 - s) <= 1e-15 * s
    with raises_status(cs.InvalidArgumentError):
        search.update(-1.0, ds, exact)
    with raises_status(cs.InvalidArgumentError):
        search.update(s, -ds, exact)
    with raises_status(cs.InvalidArgumentError):
        shard.sum_at(float("nan"))
    with raises_status(cs.InvalidArgumentError):
        MultiplierSearch(0.0, lo, hi)
    search.update(s, ds, exact)
    while not done:
        done, x = search.next()
        if not done:
            search.update(*shard.sum_at(x))
    assert abs(shard.frequencies_at(x).sum() - 1) < 1e-13
