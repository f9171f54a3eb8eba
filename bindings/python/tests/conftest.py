import pytest

import crawlsched as cs


@pytest.fixture
def raises_status():
    """raises_status(ErrorClass): pytest.raises that also checks the error
    carries its status name and a non-empty message."""

    class Checker:
        def __init__(self, cls):
            self.cls = cls
            self.ctx = pytest.raises(cls)

        def __enter__(self):
            self.info = self.ctx.__enter__()
            return self.info

        def __exit__(self, *exc):
            handled = self.ctx.__exit__(*exc)
            e = self.info.value
            assert isinstance(e, cs.CrawlschedError)
            assert e.status == self.cls.status
            assert e.status_name == cs.status_string(self.cls.status)
            assert e.message, "empty error message"
            return handled

    return Checker
