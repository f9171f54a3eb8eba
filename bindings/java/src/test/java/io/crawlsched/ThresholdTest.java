package io.crawlsched;

import static io.crawlsched.Checks.fails;
import static io.crawlsched.Checks.near;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ThresholdTest {
    /** Birth-death stationary law on 0..cap with birth lam, death mu + (n-1) theta. */
    static double[] birthDeath(double lam, double mu, double theta, int cap) {
        double[] p = new double[cap + 1];
        p[0] = 1;
        double s = 1;
        for (int n = 1; n <= cap; n++) {
            p[n] = p[n - 1] * lam / (mu + (n - 1) * theta);
            s += p[n];
        }
        for (int n = 0; n <= cap; n++) {
            p[n] /= s;
        }
        return p;
    }

    @Test
    void bmap() {
        try (Bmap poi = Bmap.poisson(2);
                Bmap mm = Bmap.of(2, new double[] {-4, 1, 2, -8, 3, 0, 0, 6});
                Bmap real = Bmap.fit(212.03, 51352.38, 0.622, 3.263389905223716, 8)) {
            assertEquals(1, poi.order());
            near("rate", poi.fundamentalRate(), 2, 1e-15);
            near("E[T^2]", poi.interarrivalMoment(2), 0.5, 1e-15);
            near("lag 1", poi.lagCorrelation(1), 0, 1e-12);
            // MMPP: theta = (2/3, 1/3), rates 3 and 6.
            near("mmpp rate", mm.fundamentalRate(), 2.0 / 3 * 3 + 1.0 / 3 * 6, 1e-14);
            // Section 7's real-data fit.
            double m1 = real.interarrivalMoment(1);
            double m2 = real.interarrivalMoment(2);
            near("fit mean", m1, 212.03, 1e-10);
            near("fit variance", (m2 - m1 * m1) / 51352.38, 1, 1e-9);
            near("fit lag 1", real.lagCorrelation(1), 0.622, 1e-9);
            try (Bmap a = poi.compose(Bmap.Compose.INDEPENDENT, 3, 4, 0);
                    Bmap b = poi.compose(Bmap.Compose.THINNING, 0, 0, 0.25);
                    Bmap c = poi.compose(Bmap.Compose.SCALED, 2, 2, 0)) {
                near("independent", a.fundamentalRate(), 6, 1e-14);
                near("thinning", b.fundamentalRate(), 0.5, 1e-14);
                near("scaled", c.fundamentalRate(), 4, 1e-14);
            }
            fails("moment 0", Status.INVALID_ARGUMENT, () -> poi.interarrivalMoment(0));
            fails("lag 0", Status.INVALID_ARGUMENT, () -> poi.lagCorrelation(0));
            fails("thinning prob 0", Status.INVALID_ARGUMENT, () -> poi.compose(Bmap.Compose.THINNING, 0, 0, 0));
        }
        fails("rows do not sum to 0", Status.INVALID_ARGUMENT, () -> Bmap.of(2, new double[] {-4, 1, 2, -8, 3, 0, 0, 5}));
        fails("NaN entry", Status.INVALID_ARGUMENT, () -> Bmap.of(2, new double[] {-4, 1, 2, -8, 3, 0, 0, Double.NaN}));
        fails("negative rate", Status.INVALID_ARGUMENT, () -> Bmap.poisson(-1));
        assertThrows(CrawlschedException.class, () -> Bmap.fit(-1, 1, 0, 1, 8));
        Bmap c = Bmap.poisson(1);
        c.close();
        fails("closed bmap", Status.NULL_ARGUMENT, c::order);
        fails("closed bmap", Status.NULL_ARGUMENT, () -> c.compose(Bmap.Compose.SCALED, 1, 1, 0));
    }

    @Test
    void phaseTypeFits() {
        try (Dist ph = Dist.fitAph2(1, 2, 6); Dist e2 = Dist.fitAph2(1, 1.5, 3);
                Dist h2 = Dist.fitH2(49207.0356, 2.0527e11, 2.5773e18)) {
            near("aph2 exponential", ph.moment(3), 6, 1e-12);
            near("aph2 erlang-2 variance", e2.variance(), 0.5, 1e-10);
            near("h2 mean", h2.mean() / 49207.0356, 1, 1e-10);
            near("h2 m3", h2.moment(3) / 2.5773e18, 1, 1e-9);
        }
        fails("aph2 outside region", Status.INFEASIBLE, () -> Dist.fitAph2(1, 1.2, 3));
        fails("h2 outside region", Status.INFEASIBLE, () -> Dist.fitH2(1, 1.5, 3));
    }

    @Test
    void thresholdModel() {
        try (Bmap p08 = Bmap.poisson(0.8); Dist srv = Dist.exponential(1); Bmap p1 = Bmap.poisson(1)) {
            int[] one = {1};
            int[] none = {};
            // M/M/1/K: Poisson 0.8, exponential service 1, buffer 5.
            ThresholdModel m = ThresholdModel.create(new Bmap[] {p08}, srv, null, 5);
            assertEquals(7, m.stateCount());
            double[] meas = m.measures(one, none);
            double[] p = birthDeath(0.8, 1, 0, 6);
            near("loss", meas[ThresholdModel.MEASURE_LOSS], p[6], 1e-13);
            near("starvation", meas[ThresholdModel.MEASURE_STARVATION], p[0], 1e-13);
            near("throughput", meas[ThresholdModel.MEASURE_THROUGHPUT], 1 - p[0], 1e-13);
            double l = 0;
            for (int i = 0; i < p.length; i++) {
                l += i * p[i];
            }
            near("mean pages", meas[ThresholdModel.MEASURE_MEAN_PAGES], l, 1e-13);
            near("response", meas[ThresholdModel.MEASURE_RESPONSE_TIME], l / (0.8 * (1 - p[6])), 1e-12);
            double[] lev = m.levelDistribution(one, none);
            assertEquals(7, lev.length);
            for (int i = 0; i < lev.length; i++) {
                near("level " + i, lev[i], p[i], 1e-13);
            }
            fails("mode above robots", Status.INVALID_ARGUMENT, () -> m.measures(new int[] {2}, none));
            fails("mode 0", Status.INVALID_ARGUMENT, () -> m.levelDistribution(new int[] {0}, none));
            m.close();
            fails("closed model", Status.NULL_ARGUMENT, () -> m.measures(one, none));
            fails("closed model", Status.NULL_ARGUMENT, m::stateCount);

            // Talim et al.'s static cost at rho = 1, K = 15: (1.13 + 1)/16.
            try (ThresholdModel t = ThresholdModel.create(new Bmap[] {p1}, srv, null, 14)) {
                near("Talim", t.cost(one, none, new double[] {1, 0, 0, 0, 1.13}), 0.133125, 1e-13);
                fails("negative weight", Status.INVALID_ARGUMENT, () -> t.cost(one, none, new double[] {1, -1, 0, 0, 1}));
                fails("short weights", Status.INVALID_ARGUMENT, () -> t.cost(one, none, new double[] {1, 0}));
            }

            // Optimal threshold with 1 or 2 robots: enumeration equals the best cost.
            try (Bmap r2 = p1.compose(Bmap.Compose.SCALED, 2, 2, 0);
                    Dist hx = Dist.hyperexponential(new double[] {0.5, 0.5}, new double[] {1, 3});
                    ThresholdModel t = ThresholdModel.create(new Bmap[] {p1, r2}, srv, hx, 4);
                    Dist det = Dist.deterministic(1)) {
                int[] modes = {2, 1};
                double[] w = {2, 1, 0.1, 0.3, 3};
                ThresholdModel.Plan plan = t.optimize(modes, w, 100);
                assertEquals(5, plan.evaluated());
                assertEquals(1, plan.thresholds().length);
                double best = Double.POSITIVE_INFINITY;
                for (int th = 0; th < 5; th++) {
                    best = Math.min(best, t.cost(modes, new int[] {th}, w));
                }
                near("optimal threshold cost", plan.cost(), best, 1e-15);
                fails("too many evaluations", Status.TOO_LARGE, () -> t.optimize(modes, w, 2));

                fails("no arrivals", Status.INVALID_ARGUMENT, () -> ThresholdModel.create(new Bmap[0], srv, null, 5));
                fails("service not PH", Status.INVALID_ARGUMENT, () -> ThresholdModel.create(new Bmap[] {p1}, det, null, 5));
                CrawlschedException e = fails("huge chain", Status.TOO_LARGE, () -> ThresholdModel.create(new Bmap[] {p1}, srv, hx, 40));
                assertTrue(e.detail().contains("2199023255552 states"), e.detail());
                fails("null arrival", Status.NULL_ARGUMENT, () -> ThresholdModel.create(new Bmap[] {p1, null}, srv, null, 5));
            }
        }
    }
}
