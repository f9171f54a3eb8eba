import io.crawlsched.Crawlsched;
import io.crawlsched.CrawlschedException;
import io.crawlsched.Dist;
import io.crawlsched.Router;
import io.crawlsched.Scheduler;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.LongUnaryOperator;

/**
 * Cost of a call through the Java binding (JNA direct mapping): nanoseconds
 * per call of the cheapest function, a scalar getter, Scheduler.next and
 * nextBatch, Router.next, and a failing call (exception with message).
 *
 * Without --bench: a smoke run (few iterations, prints, writes nothing).
 * With --bench: 5 repetitions of ~1 s each per case, the median printed and
 * written to bench/results/java_calls.json. Run by bench/java/run.sh.
 */
public final class CallOverhead {
    public static void main(String[] args) throws Exception {
        boolean bench = Arrays.asList(args).contains("--bench");
        long target = bench ? 1_000_000_000L : 20_000_000L; // ns per repetition
        int reps = bench ? 5 : 1;

        double[] rates = new double[10_000];
        for (int i = 0; i < rates.length; i++) {
            rates[i] = 0.01 + (i % 100) / 100.0;
        }
        List<String> rows = new ArrayList<>();
        try (Dist d = Dist.exponential(1);
                Scheduler s = Scheduler.create(d, Scheduler.Mode.GOLDEN_RATIO);
                Router r = Router.create(new int[] {0, 1, 1, 2}, 3)) {
            for (int i = 0; i < rates.length; i++) {
                s.addPage(i, rates[i]);
            }
            long[] batch = new long[256];
            rows.add(run("abi_version (floor: one native call)", reps, target, n -> {
                long x = 0;
                for (long i = 0; i < n; i++) {
                    x += Crawlsched.libraryAbiVersion();
                }
                return x;
            }));
            rows.add(run("Dist.mean (handle, out-param, error struct)", reps, target, n -> {
                double x = 0;
                for (long i = 0; i < n; i++) {
                    x += d.mean();
                }
                return (long) x;
            }));
            rows.add(run("Scheduler.next (10^4 pages, golden ratio)", reps, target, n -> {
                long x = 0;
                for (long i = 0; i < n; i++) {
                    x += s.next();
                }
                return x;
            }));
            rows.add(run("Scheduler.nextBatch(256), per page", reps, target, n -> {
                long x = 0;
                for (long i = 0; i < n; i += batch.length) {
                    s.nextBatch(batch);
                    x += batch[0];
                }
                return x;
            }));
            rows.add(run("Router.next", reps, target, n -> {
                long x = 0;
                for (long i = 0; i < n; i++) {
                    x += r.next();
                }
                return x;
            }));
            rows.add(run("failing call (CrawlschedException)", reps, target, n -> {
                long x = 0;
                for (long i = 0; i < n; i++) {
                    try {
                        s.frequency(-1L);
                    } catch (CrawlschedException e) {
                        x += e.code();
                    }
                }
                return x;
            }));
        }
        if (bench) {
            String json = "{\n  \"what\": \"ns per call through the Java binding (JNA " + jnaVersion() + ", "
                    + System.getProperty("java.vm.name") + " " + System.getProperty("java.version")
                    + "), median of 5 runs of ~1 s\",\n  \"library\": \"" + Crawlsched.version() + "\",\n  \"cases\": [\n"
                    + String.join(",\n", rows) + "\n  ]\n}\n";
            java.nio.file.Files.writeString(java.nio.file.Path.of("bench/results/java_calls.json"), json);
            System.out.println("wrote bench/results/java_calls.json");
        }
    }

    static String jnaVersion() {
        return com.sun.jna.Native.VERSION;
    }

    /** Times f over enough iterations to last ~target ns; median ns/iteration of reps runs. */
    static String run(String name, int reps, long target, LongUnaryOperator f) {
        long n = 1000;
        long sink = 0;
        while (true) { // calibrate (and warm up the JIT)
            long t0 = System.nanoTime();
            sink += f.applyAsLong(n);
            long dt = System.nanoTime() - t0;
            if (dt > target / 4) {
                n = Math.max(n, (long) (n * (double) target / dt));
                break;
            }
            n *= 4;
        }
        double[] ns = new double[reps];
        for (int k = 0; k < reps; k++) {
            long t0 = System.nanoTime();
            sink += f.applyAsLong(n);
            ns[k] = (System.nanoTime() - t0) / (double) n;
        }
        Arrays.sort(ns);
        double med = ns[reps / 2];
        System.out.printf(Locale.ROOT, "%-45s %10.1f ns%s%n", name, med, sink == 42 ? " " : "");
        return String.format(Locale.ROOT, "    {\"case\": \"%s\", \"ns_per_call\": %.1f, \"iterations\": %d}", name, med, n);
    }
}
