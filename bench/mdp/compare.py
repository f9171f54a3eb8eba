"""Times pymdptoolbox and mdpsolver on a model written by
examples/mdp_export.rs and prints one JSON line. Maximisation tools:
rewards are the negated costs. States with fewer actions than the
largest count repeat their last action (same MDP)."""
import json, sys, time
import numpy as np
import scipy.sparse as sp


def load(path):
    with open(path) as f:
        n = int(f.readline())
        acts = []
        for _ in range(n):
            na = int(f.readline())
            rows = []
            for _ in range(na):
                t = f.readline().split()
                c, m = float(t[0]), int(t[1])
                js = [int(x) for x in t[2:2 + 2 * m:2]]
                ps = [float(x) for x in t[3:3 + 2 * m:2]]
                rows.append((c, js, ps))
            acts.append(rows)
    return n, acts


def main():
    path, crawl = sys.argv[1], json.loads(sys.argv[2])
    n, acts = load(path)
    amax = max(len(a) for a in acts)
    padded = [a + [a[-1]] * (amax - len(a)) for a in acts]
    out = {"states": n, "crawlsched": crawl}
    # pymdptoolbox: one sparse S x S matrix per action, R as S x A.
    P = []
    for a in range(amax):
        r, c, v = [], [], []
        for s in range(n):
            _, js, ps = padded[s][a]
            r += [s] * len(js); c += js; v += ps
        P.append(sp.csr_matrix((v, (r, c)), shape=(n, n)))
    R = np.array([[-padded[s][a][0] for a in range(amax)] for s in range(n)])
    import mdptoolbox.mdp as tb
    t = time.perf_counter()
    rvi = tb.RelativeValueIteration(P, R, epsilon=1e-9, max_iter=100000)
    rvi.run()
    out["pymdptoolbox_rvi_avg_s"] = time.perf_counter() - t
    out["pymdptoolbox_rvi_avg_gain"] = -float(rvi.average_reward)
    out["pymdptoolbox_rvi_iterations"] = int(rvi.iter)
    t = time.perf_counter()
    pi = tb.PolicyIteration(P, R, 0.99, eval_type=0, max_iter=1000)
    pi.run()
    out["pymdptoolbox_pi_disc_s"] = time.perf_counter() - t
    out["pymdptoolbox_pi_disc_v0"] = -float(pi.V[0])
    # mdpsolver (C++): sparse rows as nested lists.
    import mdpsolver
    probs = [[list(padded[s][a][2]) for a in range(amax)] for s in range(n)]
    cols = [[list(padded[s][a][1]) for a in range(amax)] for s in range(n)]
    rew = [[-padded[s][a][0] for a in range(amax)] for s in range(n)]
    for crit, key in (("discounted", "disc"), ("average", "avg")):
        mdl = mdpsolver.model()
        mdl.mdp(discount=0.99, rewards=rew, tranMatProbs=probs, tranMatColumns=cols)
        t = time.perf_counter()
        mdl.solve(algorithm="pi" if crit == "discounted" else "mpi", tolerance=1e-9, criterion=crit, verbose=False)
        out[f"mdpsolver_{key}_s"] = time.perf_counter() - t
        out[f"mdpsolver_{key}_value0"] = -float(mdl.getValue(0))
    c = crawl
    out["ratio_pymdptoolbox_rvi_avg"] = out["pymdptoolbox_rvi_avg_s"] / c["average_pi_s"]
    out["ratio_pymdptoolbox_pi_disc"] = out["pymdptoolbox_pi_disc_s"] / c["discounted_pi_s"]
    out["ratio_mdpsolver_pi_disc"] = out["mdpsolver_disc_s"] / c["discounted_pi_s"]
    out["ratio_mdpsolver_mpi_avg"] = out["mdpsolver_avg_s"] / c["average_pi_s"]
    print(json.dumps(out))


if __name__ == "__main__":
    main()
