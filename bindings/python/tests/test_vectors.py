"""The shared test vectors (bindings/testdata/vectors.json, format in
bindings/testdata/README.md): every case replayed through this package,
every number compared exactly (==) with the Rust generator's."""

import json
import math
import pathlib

import numpy as np
import pytest

import crawlsched as cs
from crawlsched import BMAP, Dist

VECTORS = pathlib.Path(__file__).resolve().parents[2] / "testdata" / "vectors.json"


def load():
    with open(VECTORS) as f:
        return json.load(f)


def finite_or_0(x):
    """The vectors' "never due" (0) for the binding's inf."""
    return 0.0 if x == math.inf else x


class Runner:
    """Builds handles from specs and closes them all at the end."""

    def __init__(self):
        self.open = []

    def keep(self, h):
        self.open.append(h)
        return h

    def close(self):
        for h in self.open:
            h.close()

    def estimator(self, i):
        """The estimator of an estimator.* case: prior, then visits."""
        p = i["prior"]
        x = self.keep(cs.Estimator() if p is None else cs.Estimator(p["rate_guess"], p["weight_time"]))
        for v in i["visits"]:
            x.observe(v["interval"], v["changed"])
        return x

    @staticmethod
    def add_pages_of(s, i):
        """A scheduler.* case's pages added one by one; their ids."""
        for p in i["pages"]:
            s.add_page(p["id"], p["change_rate"], p["weight"])
        return [p["id"] for p in i["pages"]]

    @staticmethod
    def scheduler_due(s, i, pages):
        """The rest of a scheduler.due case: observations, imports, bulk
        intervals by id, then per page its interval, due time and state
        (the vectors write "never due" as 0, the binding as inf)."""
        for v in i["observe"]:
            s.observe(v["id"], v["interval"], v["changed"])
        for v in i["import"]:
            s.set_page_state(v["id"], bytes.fromhex(v["state_hex"]))
        ids, bulk = s.revisit_intervals()
        due = [s.next_due(p, i["last_visit"]) for p in pages]
        return {
            "ids": ids,
            "revisit_intervals": [finite_or_0(x) for x in bulk.tolist()],
            "revisit_interval": [finite_or_0(s.revisit_interval(p)) for p in pages],
            "next_due": [finite_or_0(d) for d in due],
            "has_due": [d != math.inf for d in due],
            "page_states_hex": [s.page_state(p).hex() for p in pages],
        }

    def dist(self, s):
        t = s["type"]
        if t == "deterministic":
            d = Dist.deterministic(s["value"])
        elif t == "exponential":
            d = Dist.exponential(s["rate"])
        elif t == "erlang":
            d = Dist.erlang(s["k"], s["rate"])
        elif t == "gamma":
            d = Dist.gamma(s["shape"], s["rate"])
        elif t == "hyperexponential":
            d = Dist.hyperexponential(s["probs"], s["rates"])
        elif t == "phase_type":
            d = Dist.phase_type(s["alpha"], s["s"])
        elif t == "coxian":
            d = Dist.coxian(s["rates"], s["cont"])
        elif t == "empirical":
            d = Dist.empirical(s["samples"])
        elif t == "aph2":
            d = Dist.fit_aph2(s["m1"], s["m2"], s["m3"])
        elif t == "h2":
            d = Dist.fit_h2(s["m1"], s["m2"], s["m3"])
        else:
            raise AssertionError(f"unknown dist type {t}")
        return self.keep(d)

    def bmap(self, s):
        t = s["type"]
        if t == "poisson":
            m = BMAP.poisson(s["rate"])
        elif t == "matrices":
            n = s["n"]
            m = BMAP(np.array(s["matrices"]).reshape(-1, n, n))
        elif t == "fit":
            m = BMAP.fit(s["mean"], s["variance"], s["lag1"], s["batch_mean"], s["max_batch"])
        elif t == "compose":
            m = self.bmap(s["robot"]).compose(s["how"], s["active"], s["total"], s["prob"])
        else:
            raise AssertionError(f"unknown bmap type {t}")
        return self.keep(m)

    def model(self, i):
        return self.keep(cs.FreshnessModel(self.dist(i["access"]), i["change_rates"], i["weights"]))

    def arrivals(self, s):
        t = s["type"]
        if t == "poisson":
            a = cs.Arrivals.poisson(s["rate"])
        elif t == "mmpp":
            a = cs.Arrivals.mmpp(s["q"], s["rates"])
        elif t == "map":
            n = s["n"]
            a = cs.Arrivals.map(np.reshape(s["d0"], (n, n)), np.reshape(s["d1"], (n, n)))
        else:
            raise AssertionError(f"unknown arrivals type {t}")
        return self.keep(a)

    def servers(self, i):
        return self.keep(cs.Servers(self.arrivals(i["arrivals"]), i["rates"], i["weights"], i["objective"]))

    def profile(self, s):
        t = s["type"]
        if t == "dbworld":
            p = cs.Profile.dbworld(s["ratio"], s["horizon_days"])
        elif t == "micronet":
            p = cs.Profile.micronet(s["ratio"], s["horizon_days"])
        elif t == "piecewise":
            p = cs.Profile(s["lambda_breaks"], s["lambda_values"], s["a_breaks"], s["a_values"], s["horizon"],
                           lambda_periodic=s["lambda_periodic"], a_periodic=s["a_periodic"])
        else:
            raise AssertionError(f"unknown profile type {t}")
        return self.keep(p)

    def threshold_model(self, i):
        arr = [self.bmap(s) for s in i["arrivals"]]
        obs = None if i["obsolescence"] is None else self.dist(i["obsolescence"])
        return self.keep(cs.ThresholdModel(arr, self.dist(i["service"]), obs, i["buffer"]))

    def scheduler_picks(self, s, i, pages):
        """The rest of a scheduler.* case once its pages are added:
        observations, n picks, length, each page's frequency and rate."""
        for v in i["observe"]:
            s.observe(v["id"], v["interval"], v["changed"])
        ids = s.next_batch(i["n"])
        return {"ids": ids, "len": len(s), "frequencies": [s.frequency(p) for p in pages],
                "change_rates": [s.change_rate(p) for p in pages]}

    def scheduler_hosts(self, i):
        """A scheduler.hosts case: pages, hosts set and cleared, delays,
        next_at at each now, then each page's host and each delay."""
        s = self.keep(cs.Scheduler(self.dist(i["access"]), i["mode"]))
        self.add_pages_of(s, i)
        for v in i["hosts"]:
            s.set_host(v["id"], v["host"])
        for page in i["clear"]:
            s.clear_host(page)
        for v in i["delays"]:
            s.set_host_delay(v["host"], v["delay"])
        picks = [s.next_at(now) for now in i["now"]]
        hosts = [s.host(p["id"]) for p in i["pages"]]
        return {"ready": [p.ready for p in picks], "ids": [p.page_id for p in picks], "waits": [p.wait for p in picks],
                "has_host": [h is not None for h in hosts], "host": [0 if h is None else h for h in hosts],
                "delays": [s.host_delay(v["host"]) for v in i["delays"]]}

    def run(self, kind, i):
        if kind == "status_string":
            return {"names": [cs.status_string(s) for s in i["statuses"]]}
        if kind == "dist.moment":
            d = self.dist(i["dist"])
            return {"mean": d.mean(), "variance": d.variance(), "moments": [d.moment(k) for k in i["k"]]}
        if kind == "dist.transform":
            d = self.dist(i["dist"])
            return {"laplace": d.laplace(np.array(i["s"])), "cdf": d.cdf(np.array(i["x"]))}
        if kind == "dist.sample":
            return {"samples": self.dist(i["dist"]).sample(i["n"], i["seed"])}
        if kind == "bmap.measures":
            m = self.bmap(i["bmap"])
            return {
                "order": m.order(),
                "fundamental_rate": m.fundamental_rate(),
                "moments": [m.interarrival_moment(k) for k in i["moments"]],
                "lag_correlations": [m.lag_correlation(k) for k in i["lags"]],
            }
        if kind == "freshness.optimal_frequencies":
            m = self.model(i)
            n = len(m)
            h = m.h()
            f = m.optimal_frequencies()
            lb = m.lower_bound()
            return {"len": n, "h": h, "frequencies": f, "lower_bound": lb, "cost": m.cost(f),
                    "obsolescence_bound": m.obsolescence_bound(f)}
        if kind == "freshness.randomized":
            m = self.model(i)
            f = m.randomized_optimal_frequencies()
            opt = m.randomized_optimal_cost()
            return {"frequencies": f, "optimal_cost": opt, "cost": m.randomized_cost(i["freq"])}
        if kind == "freshness.integer_counts":
            return {"counts": cs.integer_counts(i["freq"], i["total"], i["at_least_one"])}
        if kind == "freshness.fibonacci_at_least":
            return {"value": cs.fibonacci_at_least(i["n"])}
        if kind == "freshness.golden_ratio_sequence":
            return {"sequence": cs.golden_ratio_sequence(i["counts"])}
        if kind == "freshness.round_robin_sequence":
            return {"sequence": cs.round_robin_sequence(i["counts"])}
        if kind == "routing.balanced_sequence":
            return {"sequence": cs.balanced_sequence(i["counts"])}
        if kind == "freshness.cyclic_cost":
            m = self.model(i)
            cost = m.cyclic_cost(i["sequence"])
            return {"cost": cost, "obsolescence": m.cyclic_obsolescence(i["sequence"])}
        if kind == "freshness.golden_ratio_bound":
            return {"value": self.model(i).golden_ratio_bound()}
        if kind == "freshness.bound_ratio":
            return {"value": cs.bound_ratio(i["q"])}
        if kind == "freshness.simulate_cyclic":
            cost, se = self.model(i).simulate_cyclic(i["sequence"], i["cycles"], i["seed"])
            return {"cost": cost, "std_error": se}
        if kind == "estimator.estimate":
            x = self.estimator(i)
            n = x.observations
            return {"estimate": x.estimate(), "observations": n}
        if kind == "estimator.export_state":
            x = self.estimator(i)
            text = x.state_text()
            # The text form reads back to the same estimator.
            y = self.keep(cs.Estimator.from_state_text(text))
            return {"state_hex": x.state().hex(), "state_text": text, "estimate": y.estimate()}
        if kind == "estimator.import_state":
            x = self.keep(cs.Estimator.from_state(bytes.fromhex(i["state_hex"])))
            n = x.observations
            return {"estimate": x.estimate(), "observations": n, "state_hex": x.state().hex()}
        if kind == "scheduler.sequence":
            s = self.keep(cs.Scheduler(self.dist(i["access"]), i["mode"]))
            return self.scheduler_picks(s, i, self.add_pages_of(s, i))
        if kind == "scheduler.hosts":
            return self.scheduler_hosts(i)
        if kind == "freshness.polite_frequencies":
            plan = self.model(i).polite_frequencies(
                i["hosts"], [float(x) for x in i["max_rates"]], objective=cs.PoliteObjective(i["objective"]),
                allow_slack=i["allow_slack"])
            return plan._asdict()
        if kind == "scheduler.due":
            s = self.keep(cs.Scheduler(self.dist(i["access"]), i["mode"]))
            return self.scheduler_due(s, i, self.add_pages_of(s, i))
        if kind == "scheduler.add_pages":
            s = self.keep(cs.Scheduler(self.dist(i["access"]), i["mode"]))
            s.add_pages(i["ids"], i["change_rates"], i["weights"])
            return self.scheduler_picks(s, i, i["ids"])
        if kind == "mdp.solve":
            b = self.keep(cs.MDPBuilder(i["n_states"]))
            for a in i["actions"]:
                b.add_action(a["state"], a["next"], a["prob"], a["cost"])
            m = self.keep(b.build())
            size = m.size()
            s = self.keep(cs.MDPSolver(i["method"]))
            s.set_limits(i["tolerance"], i["max_iterations"], i["stopping"])
            s.set_criterion(i["criterion"], i["discount"], i["tau"])
            s.run(m)
            g = s.gain()
            st = s.stats()
            return {"states": size.states, "actions": size.actions, "transitions": size.transitions,
                    "gain": g.gain, "lo": g.lo, "hi": g.hi, "iterations": st.iterations,
                    "converged": st.converged, "recurrent_classes": st.recurrent_classes,
                    "policy": s.policy(), "values": s.values()}
        if kind == "robots.solve":
            args = (i["k"], i["lambda"], i["mu"], i["gamma"])
            r = self.keep(cs.Robots.solve_unlimited(*args) if i["n"] is None else cs.Robots.solve(i["n"], *args))
            n, k = r.size()
            c = r.cost()
            cnt = r.counts()
            dep, is_dep = r.switching_curve(0)
            arr, is_arr = r.switching_curve(1)
            return {"n": n, "k": k, "cost": c.cost, "starvation": c.starvation, "loss_rate": c.loss_rate,
                    "n_min": cnt.n_min, "n_mean": cnt.n_mean, "n_max": cnt.n_max,
                    "curve_departure": dep, "curve_arrival": arr,
                    "is_curve_departure": is_dep, "is_curve_arrival": is_arr,
                    "static_costs": [r.evaluate_static(x) for x in i["static_n"]]}
        if kind == "robots.static":
            sc = cs.robots.static_cost(i["lambda"] / i["mu"], i["gamma"], i["k"], i["mu"])
            n, cost = cs.robots.optimal_static(i["lambda"], i["mu"], i["gamma"], i["k"])
            return {"static_cost": sc, "optimal_n": n, "optimal_cost": cost}
        if kind == "threshold.measures":
            m = self.threshold_model(i)
            count = m.state_count()
            meas = m.measures(i["modes"], i["thresholds"])
            levels = m.level_distribution(i["modes"], i["thresholds"])
            return {"state_count": count, "measures": meas, "level_distribution": levels,
                    "cost": m.cost(i["modes"], i["thresholds"], i["weights"])}
        if kind == "threshold.optimize":
            plan = self.threshold_model(i).optimize(i["modes"], i["weights"], i["max_evaluations"])
            return {"thresholds": plan.thresholds, "cost": plan.cost, "evaluated": plan.evaluated}
        if kind == "routing.cost":
            s = self.servers(i)
            m = len(s)
            rate = self.arrivals(i["arrivals"]).rate()
            c = s.cost(i["sequence"])
            return {"servers": m, "rate": rate, "per_packet": c.per_packet, "per_unit_time": c.per_unit_time}
        if kind == "routing.optimize_exhaustive":
            plan = self.servers(i).optimize_exhaustive(i["min_period"], i["max_period"])
            return {"period": plan.period, "cost": plan.cost, "evaluations": plan.evaluations}
        if kind == "routing.switch_point":
            return {"value": cs.routing.switch_point(i["n"])}
        if kind == "routing.two_server_cost":
            return {"value": cs.routing.two_server_cost(i["n"], i["mu2"])}
        if kind == "routing.router":
            r = self.keep(cs.Router(i["sequence"], i["servers"]))
            return {"next": r.next_batch(i["n"])}
        if kind == "probe.optimal":
            pl = self.keep(cs.Planner(self.profile(i["profile"]), i["grid"], i["delta"]))
            probes, cost = pl.plan(i["n"], i["method"])
            return {"probes": probes, "cost": cost}
        if kind == "probe.cost":
            p = self.profile(i["profile"])
            return {"interval_cost": p.interval_cost(i["s"], i["f"]),
                    "expected_cost": p.expected_cost(i["probes"]),
                    "realized_cost": p.realized_cost(i["probes"], i["updates"])}
        if kind == "probe.policy":
            return {"probes": self.profile(i["profile"]).policy_schedule(i["policy"], i["parameter"])}
        raise AssertionError(f"unknown kind {kind!r}: teach tests/test_vectors.py about it")


def same(got, want):
    """Exact comparison: doubles with ==, integers, bools and strings by
    value and type family, arrays element by element with equal length."""
    if isinstance(want, list):
        got = list(got.tolist() if isinstance(got, np.ndarray) else got)
        return len(got) == len(want) and all(same(g, w) for g, w in zip(got, want))
    if isinstance(got, np.generic):
        got = got.item()
    if isinstance(want, bool) or isinstance(got, bool):
        return isinstance(got, bool) and isinstance(want, bool) and got == want
    if want in ("inf", "-inf"):  # an infinite double (README: Numbers)
        return isinstance(got, float) and got == float(want)
    if isinstance(want, float):
        return isinstance(got, float) and got == want
    if isinstance(want, int):
        return isinstance(got, int) and got == want
    return got == want


DOC = load()


def test_vectors_are_for_this_abi():
    assert DOC["abi_version"] == cs.ABI_VERSION == cs.abi_version()
    assert len(DOC["cases"]) >= 20


@pytest.mark.parametrize("case", DOC["cases"], ids=[c["name"] for c in DOC["cases"]])
def test_vector(case):
    r = Runner()
    want = case["expected"]
    try:
        if "error" in want:
            with pytest.raises(cs.CrawlschedError) as e:
                r.run(case["kind"], case["input"])
            assert e.value.status_name == want["error"]["status"]
            assert want["error"]["message"] in e.value.message
            return
        got = r.run(case["kind"], case["input"])
    finally:
        r.close()
    assert set(got) == set(want)
    for k, w in want.items():
        assert same(got[k], w), f"{k}: got {got[k]!r}, want {w!r}"
