"""crawlsched's streaming recrawl scheduler as a Scrapy SCHEDULER.

settings.py::

    SCHEDULER = "crawlsched_scrapy.CrawlschedScheduler"
    CRAWLSCHED_BUDGET = 2.0  # requests per second, all hosts together

See the README for every CRAWLSCHED_* setting.
"""

from .scheduler import CrawlschedScheduler, page_id

__all__ = ["CrawlschedScheduler", "page_id"]
