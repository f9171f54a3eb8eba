package io.crawlsched.nutch;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.conf.Configured;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.SequenceFile;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.apache.nutch.crawl.CrawlDatum;
import org.apache.nutch.util.NutchConfiguration;

/**
 * Computes the crawl's {@link Plan} from a CrawlDb and writes it next to it
 * ({@code <crawldb>/crawlsched.plan}), where {@link CrawlschedFetchSchedule}
 * finds it through {@value #PLAN_FILE}. Run once per cycle before updatedb:
 * {@code bin/nutch io.crawlsched.nutch.PlanTool crawl/crawldb}. Reads every
 * page's rate from its metadata (the guess for pages without state);
 * weights are 1 (the unweighted fraction of fresh pages).
 */
public class PlanTool extends Configured implements Tool {
    public static final String PLAN_FILE = "crawlsched.plan.file";
    static final String FILE_NAME = "crawlsched.plan";

    @Override
    public int run(String[] args) throws Exception {
        if (args.length != 1) {
            System.err.println("Usage: PlanTool <crawldb>");
            return 1;
        }
        Plan plan = compute(getConf(), new Path(args[0]));
        write(getConf(), new Path(args[0], FILE_NAME), plan);
        System.out.printf("crawlsched plan: ln multiplier %s, median rate %s per second%n", plan.lnMultiplier,
                plan.medianRate);
        return 0;
    }

    /** The plan of every page in {@code crawlDb}/current. */
    public static Plan compute(Configuration conf, Path crawlDb) throws IOException {
        CrawlschedFetchSchedule schedule = new CrawlschedFetchSchedule();
        schedule.setConf(conf);
        FileSystem fs = crawlDb.getFileSystem(conf);
        double[] rates = new double[64];
        int n = 0;
        for (FileStatus part : fs.globStatus(new Path(crawlDb, "current/part-*/data"))) {
            try (SequenceFile.Reader r = new SequenceFile.Reader(conf, SequenceFile.Reader.file(part.getPath()))) {
                Text url = new Text();
                CrawlDatum datum = new CrawlDatum();
                while (r.next(url, datum)) {
                    if (n == rates.length) {
                        rates = Arrays.copyOf(rates, 2 * n);
                    }
                    rates[n++] = schedule.rate(datum);
                }
            }
        }
        if (n == 0) {
            throw new IOException(crawlDb + ": no pages in current/part-*/data");
        }
        double[] weights = new double[n];
        Arrays.fill(weights, 1.0);
        return Plan.compute(Arrays.copyOf(rates, n), weights, conf.getDouble(CrawlschedFetchSchedule.BUDGET, 0));
    }

    static void write(Configuration conf, Path file, Plan plan) throws IOException {
        Properties p = new Properties();
        p.setProperty(Plan.LN_MULTIPLIER, Double.toString(plan.lnMultiplier));
        p.setProperty(Plan.MEDIAN_RATE, Double.toString(plan.medianRate));
        try (OutputStream out = file.getFileSystem(conf).create(file, true)) {
            p.store(out, "crawlsched plan (io.crawlsched.nutch.PlanTool)");
        }
    }

    /** Copies the plan file named by {@value #PLAN_FILE}, if any, into {@code conf}'s plan keys. */
    static void load(Configuration conf) throws IOException {
        String name = conf.get(PLAN_FILE);
        if (name == null) {
            return;
        }
        Path file = new Path(name);
        FileSystem fs = file.getFileSystem(conf);
        if (!fs.exists(file)) {
            return; // no plan yet: the first cycle runs on the default interval
        }
        Properties p = new Properties();
        try (InputStream in = fs.open(file)) {
            p.load(new java.io.InputStreamReader(in, StandardCharsets.ISO_8859_1));
        }
        for (String k : new String[] {Plan.LN_MULTIPLIER, Plan.MEDIAN_RATE}) {
            if (p.getProperty(k) != null) {
                conf.set(k, p.getProperty(k));
            }
        }
    }

    public static void main(String[] args) throws Exception {
        System.exit(ToolRunner.run(NutchConfiguration.create(), new PlanTool(), args));
    }
}
