package io.crawlsched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The shared test vectors (bindings/testdata/vectors.json, format in its
 * README.md): every case is replayed through this binding's classes and
 * every number compared exactly (same bits), so Java agrees with Go,
 * Python and the C API to the last digit.
 */
class VectorsTest {
    static final Path FILE = HeaderFile.ROOT.resolve("bindings/testdata/vectors.json");

    static JsonNode load() throws IOException {
        // Doubles as Java parses them (exact: shortest round-trip forms).
        return new ObjectMapper().disable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).readTree(FILE.toFile());
    }

    @Test
    void fileIsForThisAbi() throws IOException {
        JsonNode root = load();
        assertEquals(Crawlsched.ABI_VERSION, root.get("abi_version").asInt());
        assertTrue(root.get("cases").size() >= 20, "too few cases");
    }

    @TestFactory
    Stream<DynamicTest> cases() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (JsonNode c : load().get("cases")) {
            String name = c.get("name").asText();
            tests.add(DynamicTest.dynamicTest(name, () -> replay(name, c)));
        }
        return tests.stream();
    }

    static void replay(String name, JsonNode c) throws Exception {
        String kind = c.get("kind").asText();
        JsonNode in = c.get("input");
        JsonNode want = c.get("expected");
        List<AutoCloseable> open = new ArrayList<>();
        Map<String, Object> got = new LinkedHashMap<>();
        try {
            run(kind, in, got, open);
            if (want.has("error")) {
                fail(name + ": no error, want " + want.get("error"));
            }
        } catch (CrawlschedException e) {
            if (!want.has("error")) {
                throw new AssertionError(name + ": " + e.getMessage(), e);
            }
            JsonNode err = want.get("error");
            assertEquals(err.get("status").asText(), Status.libraryName(e.code()), name + ": " + e.getMessage());
            assertTrue(e.detail().contains(err.get("message").asText()),
                    name + ": message \"" + e.detail() + "\" lacks \"" + err.get("message").asText() + "\"");
            return;
        } finally {
            for (int i = open.size() - 1; i >= 0; i--) {
                open.get(i).close();
            }
        }
        List<String> fields = new ArrayList<>();
        want.fieldNames().forEachRemaining(fields::add);
        assertEquals(new java.util.TreeSet<>(fields), new java.util.TreeSet<>(got.keySet()), name + ": output fields");
        for (String f : fields) {
            compare(name + "." + f, want.get(f), got.get(f));
        }
    }

    // ---- exact comparison ----

    static void compare(String what, JsonNode want, Object got) {
        if (got instanceof Double d) {
            same(what, want, d);
        } else if (got instanceof Long || got instanceof Integer) {
            assertTrue(want.isIntegralNumber(), what + ": expected " + want + ", got an integer");
            assertEquals(unsigned(want), ((Number) got).longValue(), what);
        } else if (got instanceof Boolean b) {
            assertTrue(want.isBoolean(), what);
            assertEquals(want.asBoolean(), b, what);
        } else if (got instanceof String s) {
            assertEquals(want.asText(), s, what);
        } else if (got instanceof double[] a) {
            size(what, want, a.length);
            for (int i = 0; i < a.length; i++) {
                same(what + "[" + i + "]", want.get(i), a[i]);
            }
        } else if (got instanceof long[] a) {
            size(what, want, a.length);
            for (int i = 0; i < a.length; i++) {
                assertEquals(unsigned(want.get(i)), a[i], what + "[" + i + "]");
            }
        } else if (got instanceof int[] a) {
            size(what, want, a.length);
            for (int i = 0; i < a.length; i++) {
                assertEquals(unsigned(want.get(i)), Integer.toUnsignedLong(a[i]), what + "[" + i + "]");
            }
        } else if (got instanceof List<?> l) {
            size(what, want, l.size());
            for (int i = 0; i < l.size(); i++) {
                compare(what + "[" + i + "]", want.get(i), l.get(i));
            }
        } else {
            fail(what + ": unexpected output type " + got);
        }
    }

    static void size(String what, JsonNode want, int n) {
        assertTrue(want.isArray(), what + ": expected " + want + ", got an array");
        assertEquals(want.size(), n, what + ": length");
    }

    /** A double that may be written "inf" or "-inf" (README: Numbers). */
    static double orInf(JsonNode n) {
        if (n.isTextual()) {
            return switch (n.asText()) {
                case "inf" -> Double.POSITIVE_INFINITY;
                case "-inf" -> Double.NEGATIVE_INFINITY;
                default -> throw new IllegalArgumentException("not a double: " + n);
            };
        }
        assertTrue(n.isNumber(), n + " is not a number");
        return n.asDouble();
    }

    /** Same double to the last bit. */
    static void same(String what, JsonNode want, double got) {
        double w = orInf(want);
        if (Double.doubleToLongBits(w) != Double.doubleToLongBits(got)) {
            fail(String.format(Locale.ROOT, "%s = %s, want %s (differs by %s)", what, Double.toString(got), Double.toString(w), got - w));
        }
    }

    /** A JSON integer as the 64 bits of a C uint64_t/int64_t. */
    static long unsigned(JsonNode n) {
        return n.bigIntegerValue().longValue();
    }

    // ---- reading inputs ----

    static double d(JsonNode in, String k) {
        return field(in, k).asDouble();
    }

    static long l(JsonNode in, String k) {
        return unsigned(field(in, k));
    }

    static int i(JsonNode in, String k) {
        return (int) l(in, k);
    }

    static boolean b(JsonNode in, String k) {
        JsonNode n = field(in, k);
        assertTrue(n.isBoolean(), k + " is not a boolean");
        return n.asBoolean();
    }

    static String s(JsonNode in, String k) {
        return field(in, k).asText();
    }

    static JsonNode field(JsonNode in, String k) {
        JsonNode n = in.get(k);
        if (n == null) {
            throw new IllegalArgumentException("missing field " + k + " in " + in);
        }
        return n;
    }

    static double[] da(JsonNode in, String k) {
        JsonNode a = field(in, k);
        if (a.isNull()) {
            return null;
        }
        double[] out = new double[a.size()];
        for (int j = 0; j < out.length; j++) {
            out[j] = a.get(j).asDouble();
        }
        return out;
    }

    static long[] la(JsonNode in, String k) {
        JsonNode a = field(in, k);
        long[] out = new long[a.size()];
        for (int j = 0; j < out.length; j++) {
            out[j] = unsigned(a.get(j));
        }
        return out;
    }

    static int[] ia(JsonNode in, String k) {
        long[] a = la(in, k);
        int[] out = new int[a.length];
        for (int j = 0; j < a.length; j++) {
            out[j] = (int) a[j];
        }
        return out;
    }

    static String constant(JsonNode in, String k) {
        return s(in, k).toUpperCase(Locale.ROOT);
    }

    static <T extends AutoCloseable> T keep(List<AutoCloseable> open, T h) {
        open.add(h);
        return h;
    }

    static Dist dist(JsonNode spec, List<AutoCloseable> open) {
        Dist d = switch (s(spec, "type")) {
            case "deterministic" -> Dist.deterministic(d(spec, "value"));
            case "exponential" -> Dist.exponential(d(spec, "rate"));
            case "erlang" -> Dist.erlang(i(spec, "k"), d(spec, "rate"));
            case "gamma" -> Dist.gamma(d(spec, "shape"), d(spec, "rate"));
            case "hyperexponential" -> Dist.hyperexponential(da(spec, "probs"), da(spec, "rates"));
            case "phase_type" -> Dist.phaseType(da(spec, "alpha"), da(spec, "s"));
            case "coxian" -> Dist.coxian(da(spec, "rates"), da(spec, "cont"));
            case "empirical" -> Dist.empirical(da(spec, "samples"));
            case "aph2" -> Dist.fitAph2(d(spec, "m1"), d(spec, "m2"), d(spec, "m3"));
            case "h2" -> Dist.fitH2(d(spec, "m1"), d(spec, "m2"), d(spec, "m3"));
            default -> throw new IllegalArgumentException("unknown dist type " + spec);
        };
        return keep(open, d);
    }

    static Bmap bmap(JsonNode spec, List<AutoCloseable> open) {
        Bmap b = switch (s(spec, "type")) {
            case "poisson" -> Bmap.poisson(d(spec, "rate"));
            case "matrices" -> Bmap.of(i(spec, "n"), da(spec, "matrices"));
            case "fit" -> Bmap.fit(d(spec, "mean"), d(spec, "variance"), d(spec, "lag1"), d(spec, "batch_mean"), i(spec, "max_batch"));
            case "compose" -> bmap(field(spec, "robot"), open).compose(Bmap.Compose.valueOf(constant(spec, "how")),
                    i(spec, "active"), i(spec, "total"), d(spec, "prob"));
            default -> throw new IllegalArgumentException("unknown bmap type " + spec);
        };
        return keep(open, b);
    }

    static FreshnessModel model(JsonNode in, List<AutoCloseable> open) {
        return keep(open, FreshnessModel.create(dist(field(in, "access"), open), da(in, "change_rates"), da(in, "weights")));
    }

    static Arrivals arrivals(JsonNode spec, List<AutoCloseable> open) {
        Arrivals a = switch (s(spec, "type")) {
            case "poisson" -> Arrivals.poisson(d(spec, "rate"));
            case "mmpp" -> Arrivals.mmpp(da(spec, "q"), da(spec, "rates"));
            case "map" -> Arrivals.map(i(spec, "n"), da(spec, "d0"), da(spec, "d1"));
            default -> throw new IllegalArgumentException("unknown arrivals type " + spec);
        };
        return keep(open, a);
    }

    static ProbeProfile profile(JsonNode spec, List<AutoCloseable> open) {
        ProbeProfile p = switch (s(spec, "type")) {
            case "dbworld" -> ProbeProfile.dbworld(d(spec, "ratio"), d(spec, "horizon_days"));
            case "micronet" -> ProbeProfile.micronet(d(spec, "ratio"), d(spec, "horizon_days"));
            case "piecewise" -> ProbeProfile.create(
                    new ProbeProfile.PiecewiseConstant(da(spec, "lambda_breaks"), da(spec, "lambda_values"), b(spec, "lambda_periodic")),
                    new ProbeProfile.PiecewiseConstant(da(spec, "a_breaks"), da(spec, "a_values"), b(spec, "a_periodic")),
                    d(spec, "horizon"));
            default -> throw new IllegalArgumentException("unknown profile type " + spec);
        };
        return keep(open, p);
    }

    static ThresholdModel thresholdModel(JsonNode in, List<AutoCloseable> open) {
        JsonNode specs = field(in, "arrivals");
        Bmap[] arr = new Bmap[specs.size()];
        for (int j = 0; j < arr.length; j++) {
            arr[j] = bmap(specs.get(j), open);
        }
        JsonNode obs = field(in, "obsolescence");
        return keep(open, ThresholdModel.create(arr, dist(field(in, "service"), open),
                obs.isNull() ? null : dist(obs, open), i(in, "buffer")));
    }

    /** Runs one case's calls in the README's order, collecting outputs in expected-field order. */
    /** The empty scheduler of a scheduler.* case. */
    static Scheduler scheduler(JsonNode in, List<AutoCloseable> open) {
        return keep(open, Scheduler.create(dist(field(in, "access"), open), Scheduler.Mode.valueOf(constant(in, "mode"))));
    }

    /** The rest of a scheduler.* case once its pages (ids) are added: observations, n picks, length, each page's frequency and rate. */
    static void schedulerPicks(Scheduler s, JsonNode in, long[] ids, Map<String, Object> out) {
        for (JsonNode v : field(in, "observe")) {
            s.observe(l(v, "id"), d(v, "interval"), b(v, "changed"));
        }
        out.put("ids", s.nextBatch(i(in, "n")));
        out.put("len", (long) s.len());
        double[] f = new double[ids.length];
        double[] r = new double[ids.length];
        for (int j = 0; j < ids.length; j++) {
            f[j] = s.frequency(ids[j]);
            r[j] = s.changeRate(ids[j]);
        }
        out.put("frequencies", f);
        out.put("change_rates", r);
    }

    /** The estimator of an estimator.* case: prior, then visits. */
    static Estimator estimator(JsonNode in, List<AutoCloseable> open) {
        JsonNode prior = field(in, "prior");
        Estimator e = keep(open, prior.isNull() ? Estimator.create()
                : Estimator.withPrior(d(prior, "rate_guess"), d(prior, "weight_time")));
        for (JsonNode v : field(in, "visits")) {
            e.observe(d(v, "interval"), b(v, "changed"));
        }
        return e;
    }

    /** A scheduler.* case's pages added one by one; their ids. */
    static long[] addEach(Scheduler s, JsonNode in) {
        JsonNode pages = field(in, "pages");
        long[] ids = new long[pages.size()];
        Iterator<JsonNode> it = pages.iterator();
        for (int j = 0; it.hasNext(); j++) {
            JsonNode p = it.next();
            ids[j] = l(p, "id");
            if (field(p, "weight").isNull()) {
                s.addPage(ids[j], d(p, "change_rate"));
            } else {
                s.addWeightedPage(ids[j], d(p, "change_rate"), d(p, "weight"));
            }
        }
        return ids;
    }

    /** A scheduler.hosts case: hosts set and cleared, delays, nextAt at each now, hosts and delays read back. */
    static void schedulerHosts(JsonNode in, Map<String, Object> out, List<AutoCloseable> open) {
        Scheduler s = scheduler(in, open);
        long[] pages = addEach(s, in);
        for (JsonNode v : field(in, "hosts")) {
            s.setHost(l(v, "id"), i(v, "host"));
        }
        for (long id : la(in, "clear")) {
            s.clearHost(id);
        }
        JsonNode delays = field(in, "delays");
        for (JsonNode v : delays) {
            s.setHostDelay(i(v, "host"), d(v, "delay"));
        }
        double[] now = da(in, "now");
        List<Boolean> ready = new ArrayList<>();
        long[] ids = new long[now.length];
        double[] waits = new double[now.length];
        for (int j = 0; j < now.length; j++) {
            Scheduler.Pick p = s.nextAt(now[j]);
            ready.add(p.ready());
            ids[j] = p.id();
            waits[j] = p.waitTime();
        }
        List<Boolean> has = new ArrayList<>();
        int[] hosts = new int[pages.length];
        for (int j = 0; j < pages.length; j++) {
            java.util.OptionalInt h = s.host(pages[j]);
            has.add(h.isPresent());
            hosts[j] = h.orElse(0);
        }
        double[] ds = new double[delays.size()];
        for (int j = 0; j < ds.length; j++) {
            ds[j] = s.hostDelay(i(delays.get(j), "host"));
        }
        out.put("ready", ready);
        out.put("ids", ids);
        out.put("waits", waits);
        out.put("has_host", has);
        out.put("host", hosts);
        out.put("delays", ds);
    }

    /** The vectors' "never due" (0) for the binding's +infinity. */
    static double finiteOr0(double x) {
        return x == Double.POSITIVE_INFINITY ? 0.0 : x;
    }

    /** The rest of a scheduler.due case: observations, imports, bulk intervals by id, then per page its interval, due time, state. */
    static void schedulerDue(Scheduler s, JsonNode in, long[] pages, Map<String, Object> out) {
        for (JsonNode v : field(in, "observe")) {
            s.observe(l(v, "id"), d(v, "interval"), b(v, "changed"));
        }
        for (JsonNode v : field(in, "import")) {
            s.setPageState(l(v, "id"), HexFormat.of().parseHex(s(v, "state_hex")));
        }
        java.util.SortedMap<Long, Double> all = s.revisitIntervals();
        out.put("ids", all.keySet().stream().mapToLong(Long::longValue).toArray());
        out.put("revisit_intervals", all.values().stream().mapToDouble(VectorsTest::finiteOr0).toArray());
        double[] one = new double[pages.length];
        double[] due = new double[pages.length];
        List<Boolean> has = new ArrayList<>();
        List<String> states = new ArrayList<>();
        for (int j = 0; j < pages.length; j++) {
            one[j] = finiteOr0(s.revisitInterval(pages[j]));
            double t = s.nextDue(pages[j], d(in, "last_visit"));
            due[j] = finiteOr0(t);
            has.add(t != Double.POSITIVE_INFINITY);
            states.add(HexFormat.of().formatHex(s.pageState(pages[j])));
        }
        out.put("revisit_interval", one);
        out.put("next_due", due);
        out.put("has_due", has);
        out.put("page_states_hex", states);
    }

    static void run(String kind, JsonNode in, Map<String, Object> out, List<AutoCloseable> open) {
        switch (kind) {
            case "status_string" -> {
                List<String> names = new ArrayList<>();
                for (long st : la(in, "statuses")) {
                    names.add(Status.libraryName((int) st));
                }
                out.put("names", names);
            }
            case "dist.moment" -> {
                Dist x = dist(field(in, "dist"), open);
                out.put("mean", x.mean());
                out.put("variance", x.variance());
                long[] ks = la(in, "k");
                double[] m = new double[ks.length];
                for (int j = 0; j < ks.length; j++) {
                    m[j] = x.moment((int) ks[j]);
                }
                out.put("moments", m);
            }
            case "dist.transform" -> {
                Dist x = dist(field(in, "dist"), open);
                double[] s = da(in, "s");
                double[] lap = new double[s.length];
                for (int j = 0; j < s.length; j++) {
                    lap[j] = x.laplace(s[j]);
                }
                double[] xs = da(in, "x");
                double[] cdf = new double[xs.length];
                for (int j = 0; j < xs.length; j++) {
                    cdf[j] = x.cdf(xs[j]);
                }
                out.put("laplace", lap);
                out.put("cdf", cdf);
            }
            case "dist.sample" -> out.put("samples", dist(field(in, "dist"), open).sample(l(in, "seed"), i(in, "n")));
            case "bmap.measures" -> {
                Bmap x = bmap(field(in, "bmap"), open);
                out.put("order", (long) x.order());
                out.put("fundamental_rate", x.fundamentalRate());
                long[] ks = la(in, "moments");
                double[] m = new double[ks.length];
                for (int j = 0; j < ks.length; j++) {
                    m[j] = x.interarrivalMoment((int) ks[j]);
                }
                long[] lags = la(in, "lags");
                double[] c = new double[lags.length];
                for (int j = 0; j < lags.length; j++) {
                    c[j] = x.lagCorrelation((int) lags[j]);
                }
                out.put("moments", m);
                out.put("lag_correlations", c);
            }
            case "freshness.optimal_frequencies" -> {
                FreshnessModel m = model(in, open);
                out.put("len", (long) m.len());
                out.put("h", m.h());
                double[] f = m.optimalFrequencies();
                out.put("frequencies", f);
                out.put("lower_bound", m.lowerBound());
                out.put("cost", m.cost(f));
                out.put("obsolescence_bound", m.obsolescenceBound(f));
            }
            case "freshness.randomized" -> {
                FreshnessModel m = model(in, open);
                out.put("frequencies", m.randomizedOptimalFrequencies());
                out.put("optimal_cost", m.randomizedOptimalCost());
                out.put("cost", m.randomizedCost(da(in, "freq")));
            }
            case "freshness.integer_counts" -> out.put("counts", Freshness.integerCounts(da(in, "freq"), l(in, "total"), b(in, "at_least_one")));
            case "freshness.fibonacci_at_least" -> out.put("value", Freshness.fibonacciAtLeast(l(in, "n")));
            case "freshness.golden_ratio_sequence" -> out.put("sequence", Freshness.goldenRatioSequence(la(in, "counts")));
            case "freshness.round_robin_sequence" -> out.put("sequence", Freshness.roundRobinSequence(la(in, "counts")));
            case "freshness.cyclic_cost" -> {
                FreshnessModel m = model(in, open);
                int[] seq = ia(in, "sequence");
                out.put("cost", m.cyclicCost(seq));
                out.put("obsolescence", m.cyclicObsolescence(seq));
            }
            case "freshness.golden_ratio_bound" -> out.put("value", model(in, open).goldenRatioBound());
            case "freshness.bound_ratio" -> out.put("value", Freshness.boundRatio(d(in, "q")));
            case "freshness.simulate_cyclic" -> {
                FreshnessModel.Estimate e = model(in, open).simulateCyclic(ia(in, "sequence"), l(in, "cycles"), l(in, "seed"));
                out.put("cost", e.value());
                out.put("std_error", e.stdError());
            }
            case "estimator.estimate" -> {
                Estimator e = estimator(in, open);
                long n = e.observations();
                out.put("estimate", e.estimate());
                out.put("observations", n);
            }
            case "estimator.export_state" -> {
                Estimator e = estimator(in, open);
                byte[] state = e.state();
                String text = e.stateText();
                out.put("state_hex", HexFormat.of().formatHex(state));
                out.put("state_text", text);
                // The text form reads back to the same estimator.
                out.put("estimate", keep(open, Estimator.fromStateText(text)).estimate());
            }
            case "estimator.import_state" -> {
                Estimator e = keep(open, Estimator.fromState(HexFormat.of().parseHex(s(in, "state_hex"))));
                long n = e.observations();
                out.put("estimate", e.estimate());
                out.put("observations", n);
                out.put("state_hex", HexFormat.of().formatHex(e.state()));
            }
            case "scheduler.sequence" -> {
                Scheduler s = scheduler(in, open);
                schedulerPicks(s, in, addEach(s, in), out);
            }
            case "scheduler.hosts" -> schedulerHosts(in, out, open);
            case "freshness.polite_frequencies" -> {
                JsonNode caps = field(in, "max_rates");
                double[] maxRates = new double[caps.size()];
                for (int j = 0; j < maxRates.length; j++) {
                    maxRates[j] = orInf(caps.get(j));
                }
                PolitePlan p = model(in, open).politeFrequencies(ia(in, "hosts"), maxRates,
                        PoliteObjective.valueOf(constant(in, "objective")), b(in, "allow_slack"));
                out.put("frequencies", p.frequencies());
                List<Boolean> sat = new ArrayList<>();
                for (boolean x : p.saturated()) {
                    sat.add(x);
                }
                out.put("saturated", sat);
                out.put("ln_host_multipliers", p.lnHostMultipliers());
                out.put("ln_multiplier", p.lnMultiplier());
                out.put("objective", p.objective());
                out.put("crawl_rate", p.crawlRate());
            }
            case "scheduler.due" -> {
                Scheduler s = scheduler(in, open);
                schedulerDue(s, in, addEach(s, in), out);
            }
            case "scheduler.add_pages" -> {
                Scheduler s = scheduler(in, open);
                long[] ids = la(in, "ids");
                s.addPages(ids, da(in, "change_rates"), da(in, "weights"));
                schedulerPicks(s, in, ids, out);
            }
            case "mdp.solve" -> {
                MdpBuilder bld = keep(open, MdpBuilder.create(l(in, "n_states")));
                for (JsonNode a : field(in, "actions")) {
                    bld.addAction(i(a, "state"), ia(a, "next"), da(a, "prob"), d(a, "cost"));
                }
                Mdp m = keep(open, bld.build());
                Mdp.Size size = m.size();
                MdpSolver s = keep(open, MdpSolver.create(MdpSolver.Method.valueOf(constant(in, "method"))));
                s.setLimits(d(in, "tolerance"), l(in, "max_iterations"), MdpSolver.Stopping.valueOf(constant(in, "stopping")));
                s.setCriterion(MdpSolver.Criterion.valueOf(constant(in, "criterion")), d(in, "discount"), d(in, "tau"));
                s.run(m);
                MdpSolver.Gain g = s.gain();
                MdpSolver.Stats st = s.stats();
                out.put("states", size.states());
                out.put("actions", size.actions());
                out.put("transitions", size.transitions());
                out.put("gain", g.gain());
                out.put("lo", g.lo());
                out.put("hi", g.hi());
                out.put("iterations", st.iterations());
                out.put("converged", st.converged());
                out.put("recurrent_classes", st.recurrentClasses());
                out.put("policy", s.policy());
                out.put("values", s.values());
            }
            case "robots.solve" -> {
                JsonNode n = field(in, "n");
                Robots r = keep(open, n.isNull()
                        ? Robots.solveUnlimited(l(in, "k"), d(in, "lambda"), d(in, "mu"), d(in, "gamma"))
                        : Robots.solve(unsigned(n), l(in, "k"), d(in, "lambda"), d(in, "mu"), d(in, "gamma")));
                Robots.Cost c = r.cost();
                Robots.Counts cn = r.counts();
                Robots.SwitchingCurve f0 = r.switchingCurve(0);
                Robots.SwitchingCurve f1 = r.switchingCurve(1);
                long[] sn = la(in, "static_n");
                double[] sc = new double[sn.length];
                for (int j = 0; j < sn.length; j++) {
                    sc[j] = r.evaluateStatic(sn[j]);
                }
                out.put("n", r.robots());
                out.put("k", r.buffer());
                out.put("cost", c.cost());
                out.put("starvation", c.starvation());
                out.put("loss_rate", c.lossRate());
                out.put("n_min", cn.min());
                out.put("n_mean", cn.mean());
                out.put("n_max", cn.max());
                out.put("curve_departure", f0.curve());
                out.put("curve_arrival", f1.curve());
                out.put("is_curve_departure", f0.isCurve());
                out.put("is_curve_arrival", f1.isCurve());
                out.put("static_costs", sc);
            }
            case "robots.static" -> {
                double lambda = d(in, "lambda");
                double mu = d(in, "mu");
                out.put("static_cost", Robots.staticCost(lambda / mu, d(in, "gamma"), l(in, "k"), mu));
                Robots.StaticPlan p = Robots.optimalStatic(lambda, mu, d(in, "gamma"), l(in, "k"));
                out.put("optimal_n", p.robots());
                out.put("optimal_cost", p.cost());
            }
            case "threshold.measures" -> {
                ThresholdModel m = thresholdModel(in, open);
                int[] modes = ia(in, "modes");
                int[] th = ia(in, "thresholds");
                out.put("state_count", m.stateCount());
                out.put("measures", m.measures(modes, th));
                out.put("level_distribution", m.levelDistribution(modes, th));
                out.put("cost", m.cost(modes, th, da(in, "weights")));
            }
            case "threshold.optimize" -> {
                ThresholdModel.Plan p = thresholdModel(in, open).optimize(ia(in, "modes"), da(in, "weights"), l(in, "max_evaluations"));
                out.put("thresholds", p.thresholds());
                out.put("cost", p.cost());
                out.put("evaluated", p.evaluated());
            }
            case "routing.cost" -> {
                Arrivals a = arrivals(field(in, "arrivals"), open);
                Servers s = servers(in, a, open);
                out.put("servers", (long) s.len());
                out.put("rate", a.rate());
                Servers.Cost c = s.cost(ia(in, "sequence"));
                out.put("per_packet", c.perPacket());
                out.put("per_unit_time", c.perUnitTime());
            }
            case "routing.optimize_exhaustive" -> {
                Servers s = servers(in, arrivals(field(in, "arrivals"), open), open);
                Servers.Plan p = s.optimizeExhaustive(l(in, "min_period"), l(in, "max_period"));
                out.put("period", p.period());
                out.put("cost", p.cost());
                out.put("evaluations", p.evaluations());
            }
            case "routing.switch_point" -> out.put("value", Routing.switchPoint(i(in, "n")));
            case "routing.two_server_cost" -> out.put("value", Routing.twoServerCost(i(in, "n"), d(in, "mu2")));
            case "routing.balanced_sequence" -> out.put("sequence", Routing.balancedSequence(la(in, "counts")));
            case "routing.router" -> {
                Router r = keep(open, Router.create(ia(in, "sequence"), i(in, "servers")));
                out.put("next", r.nextBatch(i(in, "n")));
            }
            case "probe.optimal" -> {
                ProbePlanner pl = keep(open, ProbePlanner.create(profile(field(in, "profile"), open), l(in, "grid"), d(in, "delta")));
                ProbePlanner.Plan p = pl.plan(i(in, "n"), ProbePlanner.Method.valueOf(constant(in, "method")));
                out.put("probes", p.probes());
                out.put("cost", p.cost());
            }
            case "probe.cost" -> {
                ProbeProfile p = profile(field(in, "profile"), open);
                out.put("interval_cost", p.intervalCost(d(in, "s"), d(in, "f")));
                out.put("expected_cost", p.expectedCost(da(in, "probes")));
                out.put("realized_cost", p.realizedCost(da(in, "probes"), da(in, "updates")));
            }
            case "probe.policy" -> out.put("probes", profile(field(in, "profile"), open)
                    .policySchedule(ProbeProfile.Policy.valueOf(constant(in, "policy")), d(in, "parameter")));
            default -> throw new IllegalArgumentException("unknown kind " + kind + " (update VectorsTest)");
        }
    }

    static Servers servers(JsonNode in, Arrivals a, List<AutoCloseable> open) {
        return keep(open, Servers.create(a, da(in, "rates"), da(in, "weights"), Servers.Objective.valueOf(constant(in, "objective"))));
    }
}
