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


class StubScheduler:
    """The binding's Scheduler with the bounded estimator export (page_state_text / set_page_state_text)."""

    def __init__(self):
        self.rates, self.states = {}, {}

    def change_rate(self, pid):
        return self.rates[pid]

    def add_page(self, pid, rate, weight):
        self.rates[pid] = rate

    def page_state_text(self, pid):
        return self.states[pid]

    def set_page_state_text(self, pid, text):
        self.states[pid] = text


def test_state_pair_carries_the_estimator_state_when_the_binding_has_it():
    a = StubScheduler()
    a.rates[7], a.states[7] = 0.25, "AQID"
    saved = state.export_page_state(a, 7)
    b = StubScheduler()
    state.import_page_state(b, 7, saved, 1.0)
    assert b.rates[7] == 0.25 and b.states[7] == "AQID"
