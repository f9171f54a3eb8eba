package io.crawlsched;

import static io.crawlsched.Checks.fails;
import static io.crawlsched.Checks.near;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class DistTest {
    @Test
    void closedForms() {
        try (Dist d = Dist.exponential(2)) {
            near("mean", d.mean(), 0.5, 1e-15);
            near("variance", d.variance(), 0.25, 1e-15);
            near("E[X^3]", d.moment(3), 6.0 / 8.0, 1e-14);
            near("laplace", d.laplace(1), 2.0 / 3.0, 1e-15);
            near("cdf", d.cdf(1), 1 - Math.exp(-2), 1e-15);

            // The seed fixes the draws; the sample mean is near 1/2.
            double[] a = d.sample(7, 20000);
            assertArrayEquals(a, d.sample(7, 20000));
            double sum = 0;
            for (double x : a) {
                sum += x;
            }
            near("sample mean", sum / a.length, 0.5, 5 * 0.5 / Math.sqrt(a.length));

            fails("huge moment", Status.NUMERICAL, () -> d.moment(2000));
            fails("cdf(inf)", Status.INVALID_ARGUMENT, () -> d.cdf(Double.POSITIVE_INFINITY));
            fails("laplace(-1)", Status.INVALID_ARGUMENT, () -> d.laplace(-1));
            fails("negative n", Status.INVALID_ARGUMENT, () -> d.sample(1, -1));
        }
        try (Dist er = Dist.erlang(3, 2); Dist g = Dist.gamma(2.5, 2);
                Dist h = Dist.hyperexponential(new double[] {0.25, 0.75}, new double[] {1, 3});
                Dist ph = Dist.phaseType(new double[] {1, 0}, new double[] {-1, 1, 0, -2});
                Dist cx = Dist.coxian(new double[] {1, 2}, new double[] {0.5});
                Dist em = Dist.empirical(new double[] {1, 2, 3, 6});
                Dist det = Dist.deterministic(2)) {
            near("erlang mean", er.mean(), 1.5, 1e-14);
            near("erlang laplace", er.laplace(1), Math.pow(2.0 / 3.0, 3), 1e-14);
            near("gamma variance", g.variance(), 2.5 / 4, 1e-14);
            near("hyperexp mean", h.mean(), 0.25 + 0.75 / 3, 1e-14);
            near("PH mean", ph.mean(), 1.5, 1e-13);
            near("coxian mean", cx.mean(), 1 + 0.5 * 0.5, 1e-13);
            near("empirical mean", em.mean(), 3, 1e-14);
            near("deterministic cdf", det.cdf(1.999), 0, 0);
        }
    }

    @Test
    void errors() {
        fails("NaN rate", Status.INVALID_ARGUMENT, () -> Dist.exponential(Double.NaN));
        fails("length mismatch", Status.INVALID_ARGUMENT, () -> Dist.hyperexponential(new double[] {0.5}, new double[] {1, 2}));
        fails("PH size", Status.INVALID_ARGUMENT, () -> Dist.phaseType(new double[] {1, 0}, new double[] {-1, 1, 0}));
        fails("empty empirical", Status.INVALID_ARGUMENT, () -> Dist.empirical(new double[0]));
        fails("coxian cont length", Status.INVALID_ARGUMENT, () -> Dist.coxian(new double[] {1, 2}, new double[0]));
        fails("erlang k=0", Status.INVALID_ARGUMENT, () -> Dist.erlang(0, 1));
        fails("gamma shape 0", Status.INVALID_ARGUMENT, () -> Dist.gamma(0, 1));
        fails("deterministic -1", Status.INVALID_ARGUMENT, () -> Dist.deterministic(-1));

        // A closed handle gives a clear error; close is idempotent.
        Dist det = Dist.deterministic(2);
        det.close();
        det.close();
        assertTrue(det.isClosed());
        CrawlschedException e = fails("closed dist", Status.NULL_ARGUMENT, det::mean);
        assertTrue(e.detail().contains("Dist is closed"), e.detail());
        fails("closed sample", Status.NULL_ARGUMENT, () -> det.sample(1, 3));
    }
}
