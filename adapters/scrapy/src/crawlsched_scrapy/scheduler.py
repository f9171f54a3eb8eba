"""CrawlschedScheduler: a Scrapy scheduler that keeps every page it has seen
and revisits each at the share of a crawl budget that maximises the
freshness of the crawler's copies (crawlsched.Scheduler), learning each
page's change rate from what its visits saw."""

import collections
import hashlib
import logging
import time
from urllib.parse import urlsplit

import crawlsched
from scrapy import signals
from scrapy.core.scheduler import BaseScheduler
from scrapy.utils.job import job_dir
from scrapy.utils.request import request_from_dict
from w3lib.url import canonicalize_url

from . import state

logger = logging.getLogger(__name__)

DEFAULTS = {
    "CRAWLSCHED_BUDGET": 1.0,  # requests per second, all hosts together
    "CRAWLSCHED_ACCESS_TIME": "deterministic",  # or "exponential": the crawl-time model, mean 1/budget
    "CRAWLSCHED_MODE": "stride",  # or "golden_ratio"
    "CRAWLSCHED_INITIAL_RATE": 1.0 / 86400,  # change-rate guess of a new page, per second
    "CRAWLSCHED_WEIGHTS": "uniform",  # cost weight 1 (or meta crawlsched_weight); "change_rate": c = mu
    "CRAWLSCHED_HOST_DELAY": None,  # seconds between picks of one host's pages; None: DOWNLOAD_DELAY
    "CRAWLSCHED_CONDITIONAL": True,  # revisit with If-None-Match / If-Modified-Since
    "CRAWLSCHED_MAX_REQUESTS": 0,  # stop after this many requests (0: never)
}

# How many picks of pages still being downloaded next_request skips before giving up for this turn.
MAX_SKIPS = 8


def page_id(url):
    """The 64-bit page id of a URL: a hash of its canonical form, the same in every run."""
    digest = hashlib.blake2b(canonicalize_url(url).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little")


class Page:
    """What the adapter knows of one page besides the library's estimate."""

    __slots__ = ("id", "request", "host", "fetched_at", "digest", "etag", "last_modified", "in_flight", "seen")

    def __init__(self, pid, request, host):
        self.id = pid
        self.request = request  # template of every visit
        self.host = host
        self.fetched_at = None  # time.time() of the last response
        self.digest = self.etag = self.last_modified = None
        self.in_flight = False
        self.seen = [0, 0]  # visits compared with a previous one: [unchanged, changed]


class CrawlschedScheduler(BaseScheduler):
    """SCHEDULER = "crawlsched_scrapy.CrawlschedScheduler".

    Every GET request enqueued becomes a page, kept for good and revisited
    with dont_filter; a request for a page already known is dropped (the
    scheduler owns revisits). Requests with meta ``crawlsched=False`` (and
    non-GET ones) are fetched once, first. New pages are fetched once in
    discovery order before revisits; then crawlsched picks. Each response
    (signal response_received) is compared with the previous visit's (ETag
    when both have one, else a digest of the body; 304 = unchanged) and
    reported with the interval since that visit. Requests leave at most
    CRAWLSCHED_BUDGET per second."""

    def __init__(self, crawler):
        self.crawler = crawler
        s = crawler.settings
        get = lambda k: s.get(k, DEFAULTS[k])  # noqa: E731
        self.budget = float(get("CRAWLSCHED_BUDGET"))
        if not self.budget > 0:
            raise ValueError(f"CRAWLSCHED_BUDGET must be > 0, got {self.budget}")
        self.access_time = get("CRAWLSCHED_ACCESS_TIME")
        self.mode = get("CRAWLSCHED_MODE")
        self.initial_rate = float(get("CRAWLSCHED_INITIAL_RATE"))
        self.weights = get("CRAWLSCHED_WEIGHTS")
        delay = get("CRAWLSCHED_HOST_DELAY")
        self.host_delay = float(s.getfloat("DOWNLOAD_DELAY") if delay is None else delay)
        self.conditional = s.getbool("CRAWLSCHED_CONDITIONAL", DEFAULTS["CRAWLSCHED_CONDITIONAL"])
        self.max_requests = s.getint("CRAWLSCHED_MAX_REQUESTS", DEFAULTS["CRAWLSCHED_MAX_REQUESTS"])
        self.jobdir = job_dir(s)
        self.stats = crawler.stats
        crawler.signals.connect(self._on_response, signal=signals.response_received)
        crawler.signals.connect(self._on_left, signal=signals.request_left_downloader)

    @classmethod
    def from_crawler(cls, crawler):
        return cls(crawler)

    # --- BaseScheduler ------------------------------------------------------

    def open(self, spider):
        self.spider = spider
        self.sched = crawlsched.Scheduler(self._access_dist(), self.mode)
        self.pages = {}
        self.hosts = {}  # host name -> library host number
        self.once = collections.deque()  # requests fetched once, first
        self.discovery = collections.deque()  # ids of pages not fetched yet
        self.issued = 0
        self.clock0 = time.monotonic()
        self.next_slot = 0.0  # monotonic time before which no request leaves
        if self.jobdir:
            self._restore(state.load(self.jobdir))

    def close(self, reason):
        if self.jobdir:
            state.save(self.jobdir, self._snapshot())
        self.sched.close()

    def has_pending_requests(self):
        return not self._exhausted() and bool(self.once or self.pages)

    def enqueue_request(self, request):
        if request.method != "GET" or request.meta.get("crawlsched") is False:
            self.once.append(request)
            return True
        pid = page_id(request.url)
        if pid in self.pages:
            return False
        self._add_page(pid, request, self._weight(request))
        self.discovery.append(pid)
        return True

    def next_request(self):
        if self._exhausted():
            return None
        now = time.monotonic()
        if now < self.next_slot:
            self._wake(self.next_slot - now)
            return None
        request = self._next_once() or self._next_discovery() or self._next_revisit(now)
        if request is None:
            return None
        self.next_slot = max(self.next_slot, now) + 1.0 / self.budget
        self.issued += 1
        return request

    def __len__(self):
        return len(self.once) + len(self.pages)

    # --- what a visit saw ----------------------------------------------------

    def digest(self, response):
        """Fingerprint of a response's content; override to ignore volatile parts."""
        return hashlib.blake2b(response.body, digest_size=16).hexdigest()

    def _on_response(self, response, request, spider):
        page = self.pages.get(request.meta.get("crawlsched_id"))
        if page is None:
            return
        page.in_flight = False
        if response.status == 304:
            etag, modified, digest = page.etag, page.last_modified, page.digest
        elif 200 <= response.status < 300:
            etag = _header(response, b"ETag")
            modified = _header(response, b"Last-Modified")
            digest = self.digest(response)
        else:
            return
        now = time.time()
        if page.fetched_at is not None and now > page.fetched_at:
            changed = _changed(page, response.status, etag, digest)
            self.sched.observe(page.id, now - page.fetched_at, changed)
            page.seen[changed] += 1
            self.stats.inc_value("crawlsched/changed" if changed else "crawlsched/unchanged")
        page.fetched_at, page.etag, page.last_modified, page.digest = now, etag, modified, digest

    def _on_left(self, request, spider):
        page = self.pages.get(request.meta.get("crawlsched_id"))
        if page is not None:
            page.in_flight = False

    # --- picks -------------------------------------------------------------

    def _next_once(self):
        if not self.once:
            return None
        self.stats.inc_value("crawlsched/once")
        return self.once.popleft()

    def _next_discovery(self):
        while self.discovery:
            page = self.pages.get(self.discovery.popleft())
            if page is not None and page.fetched_at is None and not page.in_flight:
                self.stats.inc_value("crawlsched/first_fetch")
                return self._visit(page)
        return None

    def _next_revisit(self, now):
        if not self.pages:
            return None
        for _ in range(MAX_SKIPS):
            if self.hosts:
                ready, pid, wait = self.sched.next_at(now - self.clock0)
                if not ready:
                    self._wake(wait)
                    return None
            else:
                pid = self.sched.next()
            page = self.pages[pid]
            if not page.in_flight:
                self.stats.inc_value("crawlsched/revisit")
                return self._visit(page)
        self._wake(1.0 / self.budget)
        return None

    def _visit(self, page):
        page.in_flight = True
        request = page.request.replace(dont_filter=True)
        request.meta["crawlsched_id"] = page.id
        if self.conditional and page.fetched_at is not None:
            if page.etag:
                request.headers["If-None-Match"] = page.etag
            elif page.last_modified:
                request.headers["If-Modified-Since"] = page.last_modified
        return request

    def _wake(self, delay):
        """Makes the engine ask again after delay seconds (it otherwise polls every 5 s)."""
        engine = self.crawler.engine
        slot = getattr(engine, "_slot", None) or getattr(engine, "slot", None)
        if slot is not None:
            slot.nextcall.schedule(max(delay, 0.0))

    def _exhausted(self):
        return self.max_requests > 0 and self.issued >= self.max_requests

    # --- pages -------------------------------------------------------------

    def _access_dist(self):
        if self.access_time == "deterministic":
            return crawlsched.Dist.deterministic(1.0 / self.budget)
        if self.access_time == "exponential":
            return crawlsched.Dist.exponential(self.budget)
        raise ValueError(f'CRAWLSCHED_ACCESS_TIME must be "deterministic" or "exponential", got {self.access_time!r}')

    def _weight(self, request):
        if self.weights == "change_rate":
            return None
        return float(request.meta.get("crawlsched_weight", 1.0))

    def _add_page(self, pid, request, weight, saved=None):
        host = urlsplit(request.url).hostname or ""
        if saved is None:
            self.sched.add_page(pid, self.initial_rate, weight)
        else:
            state.import_page_state(self.sched, pid, saved, weight)
        if self.host_delay > 0:
            if host not in self.hosts:
                self.hosts[host] = len(self.hosts)
                self.sched.set_host_delay(self.hosts[host], self.host_delay)
            self.sched.set_host(pid, self.hosts[host])
        page = Page(pid, request, host)
        self.pages[pid] = page
        return page

    def estimates(self):
        """{url: estimated change rate per second} of every page."""
        return {p.request.url: self.sched.change_rate(pid) for pid, p in self.pages.items()}

    def _snapshot(self):
        return [
            {
                "id": pid,
                "url": p.request.url,
                "request": state.encode_request(p.request.to_dict(spider=self.spider)),
                "weight": self._weight(p.request),
                "state": state.export_page_state(self.sched, pid),
                "fetched_at": p.fetched_at,
                "digest": p.digest,
                "etag": p.etag,
                "last_modified": p.last_modified,
                "seen": p.seen,
            }
            for pid, p in self.pages.items()
        ]

    def _restore(self, saved):
        for entry in saved:
            request = request_from_dict(state.decode_request(entry["request"]), spider=self.spider)
            page = self._add_page(entry["id"], request, entry["weight"], entry["state"])
            page.fetched_at, page.digest = entry["fetched_at"], entry["digest"]
            page.etag, page.last_modified = entry["etag"], entry["last_modified"]
            page.seen = list(entry.get("seen", [0, 0]))
            if page.fetched_at is None:
                self.discovery.append(page.id)
        if saved:
            logger.info("crawlsched: restored %d pages from %s", len(saved), state.path(self.jobdir))


def _header(response, name):
    value = response.headers.get(name)
    return value.decode("latin-1") if value is not None else None


def _changed(page, status, etag, digest):
    """Whether the page changed since its previous visit: 304 = no; ETags when both visits had one; else digests."""
    if status == 304:
        return False
    if etag is not None and page.etag is not None:
        return etag != page.etag
    return digest != page.digest
