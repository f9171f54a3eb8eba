"""Estimator state export/import and the scheduler's due-time view."""

import math

import pytest

import crawlsched as cs

# docs/c-api.md's example: visits after 1 (changed) and 2 (unchanged), no
# prior; the MLE solves 1/(e^mu - 1) = 2, mu = ln 1.5.
DOCUMENTED = bytes([0xC5, 1, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0x40, 0, 0, 0, 0, 0, 0, 8, 0x40,
                    0, 0, 0, 0, 0, 0, 0xF0, 0x3F, 1])


def test_state_round_trips_exactly():
    with cs.Estimator() as x:
        x.observe(1, True)
        x.observe(2, False)
        assert x.state() == DOCUMENTED
        assert cs.Estimator.STATE_MAX_BYTES == 1135
        with cs.Estimator.from_state(x.state()) as y, cs.Estimator.from_state_text(x.state_text()) as z:
            assert z.estimate() == pytest.approx(math.log(1.5), rel=1e-15)
            for k in range(40):
                for e in (x, y):
                    e.observe(0.3 + 0.1 * (k % 5), k % 3 == 0)
                assert x.estimate() == y.estimate()
    with pytest.raises(cs.InvalidArgumentError, match="truncated"):
        cs.Estimator.from_state(DOCUMENTED[:10])
    with pytest.raises(cs.InvalidArgumentError, match="version 2"):
        cs.Estimator.from_state(DOCUMENTED[:1] + b"\x02" + DOCUMENTED[2:])
    with pytest.raises(cs.InvalidArgumentError):
        cs.Estimator.from_state_text("xR")
    with pytest.raises(TypeError):
        cs.Estimator.from_state("c501")


def test_due_times_follow_the_closed_form():
    # Constant crawl time d: f_i = mu_i / sum(mu), interval d sum(mu) / mu_i.
    with cs.Dist.deterministic(0.5) as d, cs.Scheduler(d) as s, cs.Scheduler(d) as s2:
        s.add_pages([30, 10, 20], [5.0, 1.0, 2.0])
        ids, iv = s.revisit_intervals()
        assert ids.tolist() == [10, 20, 30]
        assert iv.tolist() == pytest.approx([4.0, 2.0, 0.8], rel=1e-13)
        assert s.revisit_interval(20) == pytest.approx(2.0, rel=1e-13)
        assert s.next_due(30, 100) == pytest.approx(100.8, rel=1e-15)
        for k in range(20):
            s.observe(20, 0.4, k % 2 == 0)
        s2.add_page(20, 2.0)
        s2.set_page_state_text(20, s.page_state_text(20))
        assert s2.change_rate(20) == s.change_rate(20) != 2.0
        with pytest.raises(cs.InvalidArgumentError):
            s2.set_page_state(20, b"\xc5\x09")
    with cs.Dist.exponential(1.0) as ex, cs.Scheduler(ex) as w:
        w.add_pages([1, 2, 3], [1.0, 1.0, 1.0], [1.0, 1.0, 0.02])
        assert w.revisit_interval(3) == math.inf
        assert w.next_due(3, 5.0) == math.inf
        assert w.revisit_intervals()[1][2] == math.inf
        with pytest.raises(cs.NotFoundError):
            w.next_due(99, 0.0)
