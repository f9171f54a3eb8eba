"""The PySpark job on local[2] with 10^6 pages computes the single call's
plan bit for bit: the same pages visited, every frequency equal. Skipped
only where pyspark is not importable (CI installs it)."""

import os
import sys

import numpy as np
import pytest

import crawlsched as cs

pyspark = pytest.importorskip("pyspark")

N = int(os.environ.get("CRAWLSCHED_SPARK_PAGES", 1_000_000))


@pytest.fixture(scope="module")
def spark():
    # The Python workers load the library this process loaded.
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("CRAWLSCHED_LIB", str(cs.library_path))
    session = (
        pyspark.sql.SparkSession.builder.master("local[2]")
        .appName("crawlsched-test")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    yield session
    session.stop()


def test_spark_plan_equals_the_single_call(spark, tmp_path):
    # The instance: change rates log-uniform on [1e-3, 10], weights
    # log-uniform on [0.1, 10]; mean access time 5/N.
    rng = np.random.default_rng(20)
    mu, w = 10 ** rng.uniform(-3, 1, N), 10 ** rng.uniform(-1, 1, N)
    ids = np.arange(N)
    path = str(tmp_path / "pages.csv")
    np.savetxt(path, np.column_stack([ids, mu, w]), fmt=["%d", "%.17g", "%.17g"], delimiter=",")
    access = ("deterministic", 5.0 / N)
    single = cs.FreshnessModel(cs.Dist.deterministic(5.0 / N), mu, w).optimal_frequencies()

    pages = cs.spark.read_pages(spark, path)
    arrays, info = cs.spark.plan_arrays(pages, access, partitions=3)
    f = np.full(N, np.nan)
    for part_ids, part_f in arrays.collect():
        f[part_ids] = part_f
    assert not np.isnan(f).any()
    assert 0 < info["steps"] < 60
    visited = single > 0
    assert (~visited).any() and ((f > 0) == visited).all()
    rel = np.abs(f[visited] - single[visited]) / single[visited]
    print(
        f"\nspark plan: {info['steps']} steps, {np.mean(info['step_seconds']):.3f} s per step, "
        f"setup {info['setup_seconds']:.1f} s, max relative difference {rel.max():.2e}, "
        f"pages not bit-identical: {(f != single).sum()}"
    )
    assert (f == single).all()
