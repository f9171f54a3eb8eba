package io.crawlsched.nutch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.crawlsched.Estimator;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.nutch.crawl.CrawlDatum;
import org.apache.nutch.crawl.CrawlDb;
import org.apache.nutch.crawl.Generator;
import org.apache.nutch.crawl.Injector;
import org.apache.nutch.fetcher.Fetcher;
import org.apache.nutch.parse.ParseSegment;
import org.apache.nutch.util.NutchConfiguration;
import org.junit.jupiter.api.Test;

/**
 * The schedule inside Nutch 1.22's own jobs in Hadoop local mode: inject,
 * then cycles of generate, fetch, parse, PlanTool and updatedb (the real
 * Injector, Generator, Fetcher, ParseSegment and CrawlDb), with stand-in
 * protocol and parser plugins (src/test/resources/plugins) because Nutch's
 * plugins are not published to Maven Central.
 */
class RealNutchCycleTest {
    static final int PAGES = 10;
    static final int CYCLES = 4;

    @Test
    void updatedbRunsTheScheduleWithPlanToolsPlan() throws Exception {
        Path dir = Files.createTempDirectory("nutch-crawl");
        try (TestSite site = new TestSite(PAGES, 3, 1.0)) {
            Configuration c = conf(dir);
            org.apache.hadoop.fs.Path db = hpath(dir, "crawldb");
            org.apache.hadoop.fs.Path segments = hpath(dir, "segments");
            inject(c, site, dir, db);
            for (int cycle = 0; cycle < CYCLES; cycle++) {
                org.apache.hadoop.fs.Path[] seg = new Generator(c).generate(db, segments, 1, PAGES,
                        System.currentTimeMillis() + 2000);
                assertNotNull(seg, "cycle " + cycle + " generated a fetch list");
                new Fetcher(c).fetch(seg[0], 2);
                new ParseSegment(c).parse(seg[0]);
                assertEquals(0, new PlanTool() {{ setConf(c); }}.run(new String[] {db.toString()}));
                new CrawlDb(c).update(db, seg, false, false);
            }
            JsonNode stats = site.get("/__stats");
            assertTrue(stats.get("fetches").asInt() >= 2 * PAGES, "pages revisited");
            checkCrawlDb(c, db, site.get("/__truth").get("urls"), stats.get("fetch_counts"));
        } finally {
            FileSystem.getLocal(new Configuration()).delete(hpath(dir, ""), true);
        }
    }

    /** Every page carries its estimator state, and its interval is the plan's for its estimate. */
    private static void checkCrawlDb(Configuration c, org.apache.hadoop.fs.Path db, JsonNode urls,
            JsonNode fetchCounts) throws Exception {
        List<String> order = new ArrayList<>();
        urls.forEach(u -> order.add(u.asText()));
        CrawlschedFetchSchedule s = new CrawlschedFetchSchedule();
        s.setConf(c); // loads the plan file PlanTool wrote before the last updatedb
        assertNotNull(Plan.from(s.getConf()), "plan file read");
        int pages = eachDatum(c, db, (url, d) -> {
            PageState st = PageState.read(d);
            assertNotNull(st, url + " has its state");
            int fetched = fetchCounts.get(order.indexOf(url.toString())).asInt();
            try (Estimator e = Estimator.fromState(st.estimator)) {
                assertEquals(fetched - 1, e.observations(), url + ": one observation per fetch after the first");
                assertEquals(e.estimate(), st.rate, 0, url + ": the estimate is the state's");
            }
            assertEquals(Math.round(s.interval(st.rate)), d.getFetchInterval(), url + "'s interval");
        });
        assertEquals(PAGES, pages);
    }

    /** What {@link #eachDatum} does with each CrawlDb entry. */
    interface DatumVisitor {
        void visit(Text url, CrawlDatum datum) throws Exception;
    }

    /** Visits every entry of the CrawlDb {@code db} (its current version); returns how many there were. */
    static int eachDatum(Configuration c, org.apache.hadoop.fs.Path db, DatumVisitor visitor) throws Exception {
        int n = 0;
        FileSystem fs = db.getFileSystem(c);
        for (FileStatus part : fs.globStatus(new org.apache.hadoop.fs.Path(db, "current/part-*/data"))) {
            try (SequenceFile.Reader r = new SequenceFile.Reader(c, SequenceFile.Reader.file(part.getPath()))) {
                Text url = new Text();
                CrawlDatum d = new CrawlDatum();
                while (r.next(url, d)) {
                    visitor.visit(url, d);
                    n++;
                }
            }
        }
        return n;
    }

    static Configuration conf(Path dir) throws Exception {
        Configuration c = NutchConfiguration.create();
        File plugins = new File(RealNutchCycleTest.class.getResource("/plugins").toURI());
        c.set("plugin.folders", plugins.getAbsolutePath());
        c.set("plugin.includes", "nutch-extensionpoints|protocol-stand-in|parse-stand-in");
        c.set("parse.plugin.file", "parse-plugins-stand-in.xml");
        c.set("hadoop.tmp.dir", dir.resolve("hadoop").toString());
        c.set("mapreduce.jobtracker.staging.root.dir", dir.resolve("staging").toString());
        c.set("http.agent.name", "crawlsched-test");
        c.setBoolean("fetcher.parse", false); // parsing inside the Fetcher starts NutchServer (CXF)
        c.set("fetcher.server.delay", "0");
        c.setLong("crawl.gen.delay", 1000); // a page may be generated again one cycle later
        c.set("db.fetch.schedule.class", CrawlschedFetchSchedule.class.getName());
        c.set(CrawlschedFetchSchedule.BUDGET, "5.0"); // round robin: every 2 s
        c.setInt("db.fetch.interval.default", 2);
        c.set(PlanTool.PLAN_FILE, dir.resolve("crawldb").resolve(PlanTool.FILE_NAME).toString());
        return c;
    }

    static void inject(Configuration c, TestSite site, Path dir, org.apache.hadoop.fs.Path db)
            throws Exception {
        List<String> urls = new ArrayList<>();
        site.get("/__truth").get("urls").forEach(u -> urls.add(u.asText()));
        Path seeds = Files.createDirectories(dir.resolve("seeds"));
        Files.write(seeds.resolve("seeds.txt"), urls);
        new Injector(c).inject(db, hpath(dir, "seeds"), true, true);
    }

    static org.apache.hadoop.fs.Path hpath(Path dir, String name) {
        return new org.apache.hadoop.fs.Path(dir.resolve(name).toString());
    }
}
