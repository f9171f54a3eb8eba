"""One real Scrapy crawl of the test site (run as a subprocess by the tests).

python crawl.py --site http://127.0.0.1:PORT/ --scheduler crawlsched|default --budget B --duration D [--jobdir DIR]
    [--initial-rate R] [--host-delay S]

crawlsched: SCHEDULER = CrawlschedScheduler at CRAWLSCHED_BUDGET = B. default: Scrapy's own scheduler with FIFO
queues, revisits the way a Scrapy user writes them (each page callback re-requests its page with dont_filter, so
pages go round robin) and the budget as Scrapy's DOWNLOAD_DELAY = 1/B on the site's one host. Both follow links
and stop after D seconds (CLOSESPIDER_TIMEOUT). --host-delay S: DOWNLOAD_DELAY = S for crawlsched (Scrapy's slots
and, through it, the library's per-host model).
"""

import argparse

import scrapy
from scrapy.crawler import CrawlerProcess


class SiteSpider(scrapy.Spider):
    name = "site"

    def __init__(self, site, revisit, **kw):
        super().__init__(**kw)
        self.start_urls = [site]
        self.revisit = revisit

    def parse(self, response):
        for href in response.css("a::attr(href)").getall():
            yield response.follow(href, callback=self.parse_page)

    def parse_page(self, response):
        yield {"url": response.url, "version": response.css("#version::text").get()}
        for href in response.css("a::attr(href)").getall():
            if "/p/" in href:
                yield response.follow(href, callback=self.parse_page)
        if self.revisit:
            yield scrapy.Request(response.url, callback=self.parse_page, dont_filter=True)


def settings(args):
    common = {
        "LOG_LEVEL": "INFO",
        "TELNETCONSOLE_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "COOKIES_ENABLED": False,
        "RANDOMIZE_DOWNLOAD_DELAY": False,
        "CLOSESPIDER_TIMEOUT": args.duration,
        "ITEM_PIPELINES": {},
    }
    if args.jobdir:
        common["JOBDIR"] = args.jobdir
    if args.scheduler == "crawlsched":
        return {
            **common,
            "SCHEDULER": "crawlsched_scrapy.CrawlschedScheduler",
            "CRAWLSCHED_BUDGET": args.budget,
            "CRAWLSCHED_INITIAL_RATE": args.initial_rate,
            "DOWNLOAD_DELAY": args.host_delay,
        }
    return {
        **common,
        "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
        "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
        "DOWNLOAD_DELAY": 1.0 / args.budget,
    }


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--site", required=True)
    p.add_argument("--scheduler", choices=["crawlsched", "default"], required=True)
    p.add_argument("--budget", type=float, required=True)
    p.add_argument("--duration", type=float, required=True)
    p.add_argument("--initial-rate", type=float, default=0.1)
    p.add_argument("--jobdir")
    p.add_argument("--host-delay", type=float, default=0.0)
    args = p.parse_args()
    process = CrawlerProcess(settings(args))
    process.crawl(SiteSpider, site=args.site, revisit=args.scheduler == "default")
    process.start()


if __name__ == "__main__":
    main()
