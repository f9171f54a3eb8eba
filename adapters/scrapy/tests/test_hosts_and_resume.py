"""Two hosts with a politeness delay, then a second run resuming from the first one's JOBDIR."""

import json
import pathlib
import subprocess
import sys
import urllib.request

import crawlsched

HERE = pathlib.Path(__file__).resolve().parent
SITE = HERE.parents[1] / "testsite" / "site.py"

PAGES, HOSTS = 20, 2
BUDGET = 20.0
DELAY = 0.08  # per host: at most 12.5 requests per second each


def get_json(url):
    with urllib.request.urlopen(url, timeout=30) as r:
        return json.load(r)


def crawl(base, jobdir, duration, log):
    args = [sys.executable, str(HERE / "crawl.py"), "--site", base, "--scheduler", "crawlsched", "--budget",
            str(BUDGET), "--duration", str(duration), "--jobdir", str(jobdir), "--host-delay", str(DELAY)]
    subprocess.run(args, stdout=open(log, "w"), stderr=subprocess.STDOUT, check=True, timeout=duration + 120)
    return log.read_text()


def test_hosts_and_resume(tmp_path):
    site = subprocess.Popen([sys.executable, str(SITE), "--pages", str(PAGES), "--hosts", str(HOSTS), "--seed", "3",
                             "--time-scale", "10", "--rate-min", "1e-4", "--rate-max", "1"],
                            stdout=subprocess.PIPE, text=True)
    try:
        ready = site.stdout.readline().split()
        assert ready[0] == "READY" and len(ready) == 1 + HOSTS, ready
        base, job = ready[1], tmp_path / "job"

        crawl(base, job, 8, tmp_path / "run1.log")
        stats = get_json(base + "__stats")
        hosts = stats["hosts"]
        assert sorted(hosts) == ["127.0.0.1", "127.0.0.2"]
        for h in hosts.values():
            assert h["min_gap"] >= 0.75 * DELAY, hosts  # measured at the server: arrival jitter
            assert h["max_in_one_second"] <= 1 / DELAY + 1, hosts
        total = sum(h["requests"] for h in hosts.values())
        print("hosts", json.dumps(hosts))
        assert total >= 0.7 * BUDGET * 7, hosts
        first = {p["url"]: p for p in json.loads((job / "crawlsched.json").read_text())["pages"]}
        assert len(first) == PAGES + 1  # and the index

        log = crawl(base, job, 5, tmp_path / "run2.log")
        assert f"crawlsched: restored {PAGES + 1} pages" in log
        assert "crawlsched/first_fetch" not in log and "'crawlsched/revisit'" in log
        second = {p["url"]: p for p in json.loads((job / "crawlsched.json").read_text())["pages"]}
        assert second.keys() == first.keys()
        assert all(sum(second[u]["seen"]) >= sum(first[u]["seen"]) for u in first)
        assert sum(sum(p["seen"]) for p in second.values()) > sum(sum(p["seen"]) for p in first.values())
        # Each page's estimator state came through the restart: it holds the visits of both runs.
        for run in (first, second):
            for p in run.values():
                est = crawlsched.Estimator.from_state_text(p["state"]["estimator"])
                assert est.observations == sum(p["seen"]) and est.estimate() == p["state"]["rate"]
    finally:
        site.kill()
        site.wait()
