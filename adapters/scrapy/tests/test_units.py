"""The adapter's pieces without a crawl: page ids, change detection, the state function pair."""

import crawlsched
from scrapy.http import HtmlResponse, Request

from crawlsched_scrapy import page_id, state
from crawlsched_scrapy.scheduler import Page, _changed


def test_page_id_is_stable_and_canonical():
    assert page_id("http://a.example/x?b=2&a=1") == page_id("http://a.example/x?a=1&b=2")
    assert page_id("http://a.example/x") != page_id("http://a.example/y")
    assert 0 <= page_id("http://a.example/x") < 2**64


def test_change_detection():
    page = Page(1, Request("http://a.example/"), "a.example")
    page.etag, page.digest = '"v1"', "d1"
    assert not _changed(page, 304, '"v1"', "d1")
    assert _changed(page, 200, '"v2"', "d1")  # the ETag decides when both visits had one
    assert not _changed(page, 200, '"v1"', "d2")
    page.etag = None
    assert _changed(page, 200, '"v2"', "d2") and not _changed(page, 200, None, "d1")


def test_state_pair_round_trip(tmp_path):
    with crawlsched.Scheduler(crawlsched.Dist.deterministic(0.1)) as s:
        s.add_page(7, 0.5, 1.0)
        for _ in range(20):
            s.observe(7, 1.0, True)
        saved = state.export_page_state(s, 7)
        learnt = s.change_rate(7)
    assert learnt > 0.5
    state.save(tmp_path, [{"id": 7, "state": saved}])
    (entry,) = state.load(tmp_path)
    with crawlsched.Scheduler(crawlsched.Dist.deterministic(0.1)) as s:
        state.import_page_state(s, entry["id"], entry["state"], 1.0)
        assert s.change_rate(7) == learnt
    assert state.load(tmp_path / "absent") == []


def test_request_round_trip():
    r = Request("http://a.example/p", headers={"X": "1"}, meta={"crawlsched_weight": 2.0}, body=b"\x00\xff")
    d = state.decode_request(state.encode_request(r.to_dict()))
    assert d["url"] == r.url and d["body"] == b"\x00\xff" and d["meta"]["crawlsched_weight"] == 2.0


def test_digest_ignores_headers():
    from crawlsched_scrapy import CrawlschedScheduler

    a = HtmlResponse("http://a.example/", body=b"<p>x</p>", headers={"Date": "1"})
    b = HtmlResponse("http://a.example/", body=b"<p>x</p>", headers={"Date": "2"})
    assert CrawlschedScheduler.digest(None, a) == CrawlschedScheduler.digest(None, b)


def _observe_all(s, pid, visits):
    for interval, changed in visits:
        s.observe(pid, interval, changed)
    return s.change_rate(pid)


VISITS = [(0.5 + 0.37 * i, i % 3 != 1) for i in range(40)]
LATER = [(0.2 + 0.61 * i, i % 4 == 0) for i in range(25)]


def test_state_pair_continues_exactly(tmp_path):
    """Saved and restored, a page has the same estimate bit for bit and every later visit gives what it gives
    without the round trip; the state is within the library's bound."""
    with crawlsched.Scheduler(crawlsched.Dist.deterministic(0.1)) as a:
        for pid in (7, 8):
            a.add_page(pid, 0.5, 1.0)
        _observe_all(a, 7, VISITS)
        saved = state.export_page_state(a, 7)
        assert len(crawlsched.Estimator.from_state_text(saved["estimator"]).state()) <= crawlsched.Estimator.STATE_MAX_BYTES
        assert len(saved["estimator"]) <= 1514
        state.save(tmp_path, [{"id": 7, "state": saved}])
        (entry,) = state.load(tmp_path)
        with crawlsched.Scheduler(crawlsched.Dist.deterministic(0.1)) as b:
            b.add_page(8, 0.5, 1.0)
            state.import_page_state(b, entry["id"], entry["state"], 1.0)
            assert b.change_rate(7) == a.change_rate(7) == saved["rate"]
            assert b.page_state(7) == a.page_state(7)
            for interval, changed in LATER:  # the uninterrupted run and the restored one, visit by visit
                a.observe(7, interval, changed)
                b.observe(7, interval, changed)
                assert b.change_rate(7) == a.change_rate(7)
            assert b.page_state_text(7) == a.page_state_text(7)


def test_state_pair_reads_a_rate_only_entry():
    """Entries written before the estimator state was kept: the rate becomes the page's guess."""
    with crawlsched.Scheduler(crawlsched.Dist.deterministic(0.1)) as s:
        state.import_page_state(s, 3, {"rate": 0.25}, 1.0)
        assert s.change_rate(3) == 0.25
