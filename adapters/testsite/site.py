#!/usr/bin/env python3
"""Local test website for the crawler adapters: pages that change at known
Poisson rates, and a referee that measures the crawler's freshness from its
own request log. Python 3 standard library only. Protocol: README.md here.
"""

import argparse
import email.utils
import json
import math
import random
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

# Last-Modified dates: site time 0 is this instant (seconds since the Unix epoch).
EPOCH = 1767225600.0  # 2026-01-01T00:00:00Z


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--pages", type=int, default=100, help="number of pages N")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--time-scale", type=float, default=1.0, help="site seconds per wall second (K)")
    p.add_argument("--hosts", type=int, default=1, help="hosts 127.0.0.1 .. 127.0.0.H, one port")
    p.add_argument("--port", type=int, default=0, help="0: any free port")
    p.add_argument("--rate-min", type=float, default=0.001, help="slowest change rate (per site second)")
    p.add_argument("--rate-max", type=float, default=1.0, help="fastest change rate (per site second)")
    p.add_argument("--weights", action="store_true", help="log-normal page importance weights (mean 1)")
    p.add_argument("--no-validators", action="store_true", help="no ETag/Last-Modified, never 304")
    a = p.parse_args(argv)
    if a.pages < 1 or a.hosts < 1 or a.hosts > 254 or a.time_scale <= 0:
        p.error("need --pages >= 1, 1 <= --hosts <= 254, --time-scale > 0")
    if not 0 < a.rate_min <= a.rate_max:
        p.error("need 0 < --rate-min <= --rate-max")
    return a


class Page:
    """One page: its true rate and weight, its seeded change process (advanced
    lazily, so versions depend only on seed and site time) and its fetch log."""

    def __init__(self, seed, i, rate, weight):
        self.rate = rate
        self.weight = weight
        self.rng = random.Random(f"changes:{seed}:{i}")
        self.version = 0
        self.last_change = 0.0
        self.next_change = self.rng.expovariate(rate)
        self.fetches = []  # (site time, site time of the next change after it)

    def advance(self, t):
        while self.next_change <= t:
            self.version += 1
            self.last_change = self.next_change
            self.next_change += self.rng.expovariate(self.rate)

    def fresh_time(self, a, b):
        """Time in [a, b] during which the crawler's copy equals the page: from
        each fetch until the earlier of the next fetch and the next change."""
        total = 0.0
        for k, (t, until) in enumerate(self.fetches):
            nxt = self.fetches[k + 1][0] if k + 1 < len(self.fetches) else math.inf
            lo, hi = max(t, a), min(until, nxt, b)
            if hi > lo:
                total += hi - lo
        return total


class Site:
    def __init__(self, args, bases):
        self.args = args
        self.bases = bases  # base URL of host h, "http://127.0.0.<h+1>:<port>"
        self.lock = threading.Lock()
        rng = random.Random(f"site:{args.seed}")
        lo, hi = math.log(args.rate_min), math.log(args.rate_max)
        self.rates = [math.exp(rng.uniform(lo, hi)) for _ in range(args.pages)]
        if args.weights:
            w = [math.exp(rng.gauss(0.0, 1.0)) for _ in range(args.pages)]
            mean = sum(w) / len(w)
            self.weights = [x / mean for x in w]
        else:
            self.weights = [1.0] * args.pages
        self.reset()

    def reset(self):
        """Back to site time 0 and the same seeded change processes; forget the log."""
        with self.lock:
            self.wall0 = time.monotonic()
            self.pages = [Page(self.args.seed, i, r, w)
                          for i, (r, w) in enumerate(zip(self.rates, self.weights))]
            self.first_fetch = None
            self.not_modified = 0
            self.other_requests = 0
            self.host_log = {}  # host -> wall times (seconds since reset) of its requests

    def now(self):
        return (time.monotonic() - self.wall0) * self.args.time_scale

    def host_of(self, i):
        return i % len(self.bases)

    def url(self, i):
        return f"{self.bases[self.host_of(i)]}/p/{i}"

    # --- requests ---------------------------------------------------------

    def log_request(self, host):
        self.host_log.setdefault(host, []).append(time.monotonic() - self.wall0)

    def fetch(self, i, host, if_none_match, if_modified_since):
        """Serve page i at the current site time; returns (status, headers, body)."""
        with self.lock:
            self.log_request(host)
            t = self.now()
            page = self.pages[i]
            page.advance(t)
            page.fetches.append((t, page.next_change))
            if self.first_fetch is None:
                self.first_fetch = t
            etag = f'"{i}-{page.version}"'
            modified = EPOCH + page.last_change
            headers = {}
            if not self.args.no_validators:
                headers = {"ETag": etag, "Last-Modified": email.utils.formatdate(modified, usegmt=True)}
                if not_modified(etag, int(modified), if_none_match, if_modified_since):
                    self.not_modified += 1
                    return 304, headers, b""
            version = page.version
        return 200, headers, self.page_body(i, version)

    def page_body(self, i, version):
        n = len(self.pages)
        words = random.Random(f"text:{self.args.seed}:{i}:{version}")
        text = " ".join(f"w{words.randrange(10000)}" for _ in range(40))
        links = "".join(f'<li><a href="{self.url(j)}">page {j}</a></li>'
                        for j in sorted({(i + 1) % n, (7 * i + 3) % n}))
        return (f"<!DOCTYPE html><html><head><title>page {i} version {version}</title></head>"
                f"<body><h1>Page {i}</h1><p id=\"version\">version {version}</p><p>{text}</p>"
                f"<ul>{links}</ul><a href=\"{self.bases[0]}/\">index</a></body></html>\n").encode()

    def index(self, host):
        with self.lock:
            self.log_request(host)
            self.other_requests += 1
        items = "".join(f'<li><a href="{self.url(i)}">page {i}</a></li>' for i in range(len(self.pages)))
        return (f"<!DOCTYPE html><html><head><title>index</title></head><body><ul>{items}</ul>"
                f"</body></html>\n").encode()

    def sitemap(self, host):
        with self.lock:
            self.log_request(host)
            self.other_requests += 1
        top = max(self.weights)
        items = "".join(f"<url><loc>{self.url(i)}</loc><priority>{w / top:.4f}</priority></url>"
                        for i, w in enumerate(self.weights))
        return ('<?xml version="1.0" encoding="UTF-8"?>\n'
                f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{items}</urlset>\n').encode()

    # --- referee ----------------------------------------------------------

    def stats(self, query):
        with self.lock:
            t = self.now()
            start = self.first_fetch
            end = min(float(query.get("end", [t])[0]), t)
            if "start" in query:
                start = float(query["start"][0])
            windows = int(query.get("windows", [0])[0])
            out = {
                "site_time": t,
                "wall_time": t / self.args.time_scale,
                "time_scale": self.args.time_scale,
                "pages": len(self.pages),
                "start": start,
                "end": end,
                "fetches": sum(len(p.fetches) for p in self.pages),
                "not_modified": self.not_modified,
                "other_requests": self.other_requests,
                "fetch_counts": [len(p.fetches) for p in self.pages],
                "hosts": self.host_stats(),
            }
            if start is None or end <= start:
                out.update(freshness=None, weighted_freshness=None, windows=[])
                return out
            out.update(self.freshness(start, end))
            out["windows"] = [dict(start=a, end=b, **self.freshness(a, b))
                              for a, b in split(start, end, windows)]
            return out

    def freshness(self, a, b):
        """Time-averaged fraction of pages (and of weight) whose copy is fresh in [a, b]."""
        fresh = [p.fresh_time(a, b) for p in self.pages]
        span = b - a
        fetched = sum(1 for p in self.pages for (t, _) in p.fetches if a <= t < b)
        return {
            "freshness": sum(fresh) / (len(fresh) * span),
            "weighted_freshness": sum(w * f for w, f in zip(self.weights, fresh)) / (sum(self.weights) * span),
            "window_fetches": fetched,
        }

    def host_stats(self):
        """Per host: requests, mean rate over the wall span of its requests, the
        most requests in any one wall second, and the smallest gap between two."""
        out = {}
        for host, ts in self.host_log.items():
            span = ts[-1] - ts[0]
            most, lo = 0, 0
            for hi in range(len(ts)):
                while ts[hi] - ts[lo] >= 1.0:
                    lo += 1
                most = max(most, hi - lo + 1)
            gaps = [b - a for a, b in zip(ts, ts[1:])]
            out[host] = {
                "requests": len(ts),
                "wall_span": span,
                "per_second": (len(ts) - 1) / span if span > 0 else None,
                "max_in_one_second": most,
                "min_gap": min(gaps) if gaps else None,
            }
        return out

    def truth(self):
        with self.lock:
            t = self.now()
            for p in self.pages:
                p.advance(t)
            return {
                "site_time": t,
                "time_scale": self.args.time_scale,
                "seed": self.args.seed,
                "hosts": self.bases,
                "urls": [self.url(i) for i in range(len(self.pages))],
                "rates": self.rates,
                "weights": self.weights,
                "versions": [p.version for p in self.pages],
            }


def not_modified(etag, modified, if_none_match, if_modified_since):
    if if_none_match is not None:
        return etag in [x.strip() for x in if_none_match.split(",")] or if_none_match.strip() == "*"
    if if_modified_since is not None:
        try:
            since = email.utils.parsedate_to_datetime(if_modified_since).timestamp()
        except (TypeError, ValueError):
            return False
        return modified <= since
    return False


def split(a, b, n):
    if n <= 0:
        return []
    step = (b - a) / n
    return [(a + k * step, a + (k + 1) * step) for k in range(n)]


def make_handler(site):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_GET(self):
            url = urlsplit(self.path)
            host = self.server.server_address[0]
            query = parse_qs(url.query)
            path = url.path
            try:
                if path.startswith("/p/"):
                    i = int(path[3:])
                    if not 0 <= i < len(site.pages) or site.host_of(i) != site.bases.index(self.server.base):
                        return self.send(404, {}, b"not found\n")
                    status, headers, body = site.fetch(i, host, self.headers.get("If-None-Match"),
                                                       self.headers.get("If-Modified-Since"))
                    return self.send(status, headers, body)
                if path in ("/", "/index.html"):
                    return self.send(200, {}, site.index(host))
                if path == "/sitemap.xml":
                    return self.send(200, {"Content-Type": "application/xml"}, site.sitemap(host))
                if path == "/__stats":
                    return self.send_json(site.stats(query))
                if path == "/__truth":
                    return self.send_json(site.truth())
                if path == "/__reset":
                    site.reset()
                    return self.send_json({"ok": True})
            except ValueError as e:
                return self.send(400, {}, f"bad request: {e}\n".encode())
            return self.send(404, {}, b"not found\n")

        do_POST = do_GET

        def send_json(self, obj):
            self.send(200, {"Content-Type": "application/json"}, json.dumps(obj).encode())

        def send(self, status, headers, body):
            self.send_response(status)
            headers.setdefault("Content-Type", "text/html; charset=utf-8")
            for k, v in headers.items():
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

    return Handler


def bind_hosts(hosts, port):
    """One server per host 127.0.0.<h+1>, all on the same port (any free one if port is 0)."""
    for _ in range(50):
        servers = []
        try:
            first = ThreadingHTTPServer(("127.0.0.1", port), BaseHTTPRequestHandler)
            servers.append(first)
            chosen = first.server_address[1]
            for h in range(1, hosts):
                servers.append(ThreadingHTTPServer((f"127.0.0.{h + 1}", chosen), BaseHTTPRequestHandler))
            return servers
        except OSError:
            for s in servers:
                s.server_close()
            if port != 0:
                raise
    raise OSError("no port free on every host")


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    servers = bind_hosts(args.hosts, args.port)
    bases = [f"http://{s.server_address[0]}:{s.server_address[1]}" for s in servers]
    site = Site(args, bases)
    handler = make_handler(site)
    for s, base in zip(servers, bases):
        s.RequestHandlerClass = handler
        s.daemon_threads = True
        s.base = base
        threading.Thread(target=s.serve_forever, daemon=True).start()
    site.reset()  # site time 0 = now, when the servers accept
    print("READY " + " ".join(b + "/" for b in bases), flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
