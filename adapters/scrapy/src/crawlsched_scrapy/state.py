"""What the adapter keeps across runs (JOBDIR/crawlsched.json).

The pair export_page_state/import_page_state is the one place that knows how
a page's learnt change rate is carried over: the library's estimator state
(Scheduler.page_state_text: the page's visits, bucketed, and its prior, at
most Estimator.STATE_MAX_BYTES bytes as base64url text), which continues the
page exactly where the previous run left it, plus the current estimate
("rate", readable, and the guess the page is added with).
"""

import base64
import json
import os
import pickle

FORMAT = 1
FILE_NAME = "crawlsched.json"


def export_page_state(scheduler, page_id):
    """A page's learnt state as a JSON-serialisable dict."""
    return {"rate": scheduler.change_rate(page_id), "estimator": scheduler.page_state_text(page_id)}


def import_page_state(scheduler, page_id, state, weight):
    """Adds page_id to scheduler with the state export_page_state gave: the
    same estimate, bit for bit, and the same results for every later visit.
    (Files written before the estimator state was kept have only "rate",
    which then becomes the page's guess.)"""
    scheduler.add_page(page_id, float(state["rate"]), weight)
    if "estimator" in state:
        scheduler.set_page_state_text(page_id, state["estimator"])


def path(jobdir):
    return os.path.join(jobdir, FILE_NAME)


def save(jobdir, pages):
    """Writes pages (a list of JSON-serialisable dicts) atomically."""
    os.makedirs(jobdir, exist_ok=True)
    tmp = path(jobdir) + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({"format": FORMAT, "pages": pages}, f)
    os.replace(tmp, path(jobdir))


def load(jobdir):
    """The pages saved in jobdir ([] when none or of another format)."""
    try:
        with open(path(jobdir), encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        return []
    return data["pages"] if data.get("format") == FORMAT else []


def encode_request(d):
    """A Request.to_dict() as a JSON string (bodies and headers are bytes)."""
    return base64.b64encode(pickle.dumps(d, protocol=4)).decode("ascii")


def decode_request(s):
    return pickle.loads(base64.b64decode(s))
