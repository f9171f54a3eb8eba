"""The general-weights optimal freshness plan of more pages than one machine
holds, on PySpark: each partition of the pages is a FreshnessShard, the
driver runs MultiplierSearch on the partitions' sums (one small Spark job
per multiplier step), and a last job writes every page's frequency.

Pages are a DataFrame of (id, change_rate, weight); ``read_pages`` reads one
from CSV or Parquet. Every executor needs this package and the library
(``pip install`` on each node, or ``--py-files`` plus CRAWLSCHED_LIB). The
plan equals ``FreshnessModel(access, change_rates, weights)
.optimal_frequencies()`` of all pages to about 1e-12 relative (a page whose
1 - lambda/w_i is below about 1e-10, right at its cutoff, only to the
resolution of the multiplier). Needs pyspark, which this package does not
install.
"""

import time
import uuid

import numpy as np

from .dist import Dist
from .freshness import FreshnessModel, FreshnessShard, combine_sums, combine_summaries, solve_multiplier

PAGES_SCHEMA = "id LONG, change_rate DOUBLE, weight DOUBLE"

# Per Python worker: the shards of the partitions it evaluated, keyed by
# (plan token, partition index); only the current plan's are kept.
_SHARDS = {}


def read_pages(spark, path, fmt="csv"):
    """The pages table at ``path``: CSV without header (id, change_rate,
    weight) or Parquet with those columns."""
    if fmt == "csv":
        return spark.read.csv(path, schema=PAGES_SCHEMA)
    if fmt == "parquet":
        return spark.read.parquet(path).select("id", "change_rate", "weight")
    raise ValueError(f"fmt must be 'csv' or 'parquet', got {fmt!r}")


def _arrays(rows):
    """One partition's rows as one (ids, change rates, weights) tuple."""
    ids, mu, w = [], [], []
    for r in rows:
        ids.append(r[0])
        mu.append(r[1])
        w.append(r[2])
    yield np.array(ids, dtype=np.int64), np.array(mu, dtype=np.float64), np.array(w, dtype=np.float64)


def _shard(access, token, index, part, cache):
    """The partition's shard (None without pages), rebuilt unless this
    worker cached it."""
    key = (token, index)
    if cache and key in _SHARDS:
        return _SHARDS[key]
    _ids, mu, w = part
    if not mu.size:
        return None
    shard = FreshnessShard(FreshnessModel(getattr(Dist, access[0])(*access[1:]), mu, w))
    if cache:
        for k in [k for k in _SHARDS if k[0] != token]:
            del _SHARDS[k]
        _SHARDS[key] = shard
    return shard


def plan_arrays(pages, access, partitions=None, cache_shards=True):
    """The plan as an RDD of (ids, frequencies) NumPy arrays, one pair per
    partition, and a dict of what the solve took: ln_lambda, steps, the
    seconds of each multiplier step and of the setup.

    ``access`` names the access-time distribution as (Dist constructor,
    argument), e.g. ("exponential", rate) or ("deterministic", value).
    ``partitions`` repartitions the pages first. ``cache_shards`` keeps each
    partition's shard in the Python worker that built it between steps
    (rebuilt if another worker gets the partition)."""
    t0 = time.perf_counter()
    if partitions is not None:
        pages = pages.repartition(partitions)
    parts = pages.select("id", "change_rate", "weight").rdd.mapPartitions(_arrays).cache()
    token = uuid.uuid4().hex

    def shard_of(i, it):
        return _shard(access, token, i, next(it), cache_shards)

    def summary(i, it):
        s = shard_of(i, it)
        return [(i, s.summary() if s else (0.0, float("inf"), float("-inf")))]

    sums = sorted(parts.mapPartitionsWithIndex(summary).collect())
    total = combine_summaries(s for _, s in sums)
    setup = time.perf_counter() - t0
    step_seconds = []

    def sum_at(ln_lambda):
        t = time.perf_counter()

        def part_sum(i, it):
            s = shard_of(i, it)
            return [(i, s.sum_at(ln_lambda) if s else (0.0, 0.0, 0))]

        got = sorted(parts.mapPartitionsWithIndex(part_sum).collect())
        totals = combine_sums(v for _, v in got)
        step_seconds.append(time.perf_counter() - t)
        return totals

    ln_lambda, steps = solve_multiplier(total, sum_at)

    def frequencies(i, it):
        part = next(it)
        s = _shard(access, token, i, part, False)
        return [(part[0], s.frequencies_at(ln_lambda) if s else np.zeros(0))]

    info = {"ln_lambda": ln_lambda, "steps": steps, "step_seconds": step_seconds, "setup_seconds": setup}
    return parts.mapPartitionsWithIndex(frequencies), info


def plan(pages, access, partitions=None, cache_shards=True):
    """The plan as a DataFrame of (id, frequency), and the dict of
    ``plan_arrays``. Write it with e.g. ``plan(...)[0].write.parquet(path)``."""
    arrays, info = plan_arrays(pages, access, partitions, cache_shards)
    rows = arrays.flatMap(lambda p: zip(p[0].tolist(), p[1].tolist()))
    return pages.sparkSession.createDataFrame(rows, "id LONG, frequency DOUBLE"), info
