# %% [markdown]
# # A crawl plan with every crawlsched module
#
# A notebook-style tour (cells marked `# %%`, runnable as a plain script or
# cell by cell in Jupyter/VS Code): we plan the recrawling of a small site
# with each of crawlsched's modules. Run: `python bindings/python/examples/tour.py`.

# %%
import numpy as np

import crawlsched as cs
from crawlsched import BMAP, Dist

print(f"crawlsched {cs.version()} (ABI {cs.abi_version()}) from {cs.library_path}")
rng = np.random.default_rng(1)

# %% [markdown]
# ## dist: how long a crawl takes
# Crawl times with mean 50 ms and a heavy tail (coefficient of variation 2):
# a two-phase hyperexponential fitted to three moments.

# %%
crawl_time = Dist.fit_h2(0.05, 0.0125, 0.009375)
print(f"crawl time: mean {crawl_time.mean():.3f} s, sd {crawl_time.variance() ** 0.5:.3f} s, "
      f"P(> 0.5 s) = {1 - crawl_time.cdf(0.5):.4f}")

# %% [markdown]
# ## freshness: how often to recrawl each page
# 200 pages with log-normal change rates. Optimal frequencies (Theorem 3.4)
# against round robin, then a golden-ratio cycle realising them.

# %%
rates = rng.lognormal(mean=-4.0, sigma=1.5, size=200)  # changes per second
with cs.FreshnessModel(crawl_time, rates) as model:
    freq = model.optimal_frequencies()
    uniform = np.full(rates.size, 1 / rates.size)
    print(f"cost C: optimal {model.cost(freq):.4f}, round robin {model.cost(uniform):.4f}, "
          f"lower bound {model.lower_bound():.4f} (changes missed per second)")
    counts = cs.integer_counts(freq, cs.fibonacci_at_least(8 * rates.size), at_least_one=True)
    cycle = cs.golden_ratio_sequence(counts)
    print(f"golden-ratio cycle of {cycle.size} crawls: exact cost {model.cyclic_cost(cycle):.4f} "
          f"(never-crawled pages: {(counts == 0).sum()})")

# %% [markdown]
# ## estimator and scheduler: learning change rates while crawling
# A streaming scheduler starts from a guess and learns each page's rate from
# whether it had changed at each visit.

# %%
true_rates = {page: r for page, r in enumerate(rates[:20])}
with cs.Scheduler(crawl_time, "golden_ratio") as sched:
    for page in true_rates:
        sched.add_page(page, 0.1)
    last = dict.fromkeys(true_rates, 0.0)
    clock = 0.0
    for page in sched.next_batch(5000).tolist():
        clock += 1.0
        gap = clock - last[page]
        last[page] = clock
        sched.observe(page, gap, rng.random() < 1 - np.exp(-true_rates[page] * gap))
    fastest = max(true_rates, key=true_rates.get)
    print(f"page {fastest}: true rate {true_rates[fastest]:.3f}, learned {sched.change_rate(fastest):.3f}, "
          f"share of crawls {sched.frequency(fastest):.3f}")

# %% [markdown]
# ## robots: how many crawler robots to run
# Pages arrive at 0.1 per robot; the optimal dynamic policy against the best
# static number of robots (Talim et al., Table 1).

# %%
with cs.Robots.solve(7, 5, 0.1, 1.0, 0.4) as robots:
    n_static, c_static = cs.robots.optimal_static(0.1, 1.0, 0.4, 5)
    print(f"robots: dynamic cost {robots.cost().cost:.5f} with {robots.counts().n_mean:.2f} robots on average; "
          f"best static ({n_static} robots) {c_static:.5f}")

# %% [markdown]
# ## mdp: the same kind of model, by hand
# A two-state toy: crawl now (cost 1) or wait (cost 0.5, but the page goes stale).

# %%
with cs.MDPBuilder(2) as b:
    b.add_action(0, [0], [1.0], 1.0)
    b.add_action(0, [1], [1.0], 0.5)
    b.add_action(1, [0], [1.0], 0.0)
    b.add_action(1, [1], [1.0], 2.0)
    mdp = b.build()
solver = cs.MDPSolver("policy_iteration")
solver.run(mdp)
print(f"mdp: gain {solver.gain().gain:.4f}, policy {solver.policy().tolist()}")

# %% [markdown]
# ## threshold: when to add robots, with pages going obsolete

# %%
arrivals = [BMAP.poisson(0.8 * r) for r in (1, 2, 3)]
with cs.ThresholdModel(arrivals, Dist.erlang(2, 3.0), Dist.exponential(0.2), 8) as tm:
    plan = tm.optimize([3, 2, 1], {"loss": 1.0, "obsolescence": 1.0, "response": 0.1, "robots": 0.3})
    m = tm.measures_dict([3, 2, 1], plan.thresholds)
    print(f"threshold: switch at {plan.thresholds.tolist()} pages, cost {plan.cost:.4f}, "
          f"loss {m['loss']:.4f}, obsolete {m['obsolescence']:.4f}, robots {m['mean_robots']:.2f}")

# %% [markdown]
# ## routing: splitting requests among mirrors

# %%
with cs.Servers(cs.Arrivals.poisson(1.0), [1.0, 2.0, 4.0]) as servers:
    best = servers.optimize_exhaustive(1, 7)
    print(f"routing: best period {best.period.tolist()} loses {best.cost:.4f} per request "
          f"(round robin: {servers.cost([0, 1, 2]).per_packet:.4f})")
    router = cs.Router(best.period, 3)
    print(f"         next 10 requests go to {router.next_batch(10).tolist()}")

# %% [markdown]
# ## probe: polling a source under a politeness limit
# DBWorld's weekly update profile, 14 probes a week, work hours 4x as important.

# %%
profile = cs.Profile.dbworld(4.0, 7.0)
probes, cost = cs.Planner(profile, 7 * 24 * 4).plan(14)
print(f"probe: optimal cost {cost:.3f} vs uniform {profile.expected_cost(profile.uniform(14)):.3f}; "
      f"first probes (days) {np.round(probes[:4], 2).tolist()}")
