package io.crawlsched.nutch;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.io.Text;
import org.apache.nutch.crawl.CrawlDatum;
import org.apache.nutch.metadata.Metadata;
import org.apache.nutch.protocol.Content;
import org.apache.nutch.protocol.Protocol;
import org.apache.nutch.protocol.ProtocolOutput;
import org.apache.nutch.protocol.ProtocolStatus;

/**
 * Nutch protocol plugin for the tests (protocol-http is not on Maven
 * Central): a plain GET over java.net.http; robots.txt allows everything.
 */
public class StandInProtocol implements Protocol {
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private Configuration conf;

    @Override
    public void setConf(Configuration c) {
        conf = c;
    }

    @Override
    public Configuration getConf() {
        return conf;
    }

    @Override
    public ProtocolOutput getProtocolOutput(Text url, CrawlDatum datum) {
        try {
            HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(url.toString())).build(),
                    HttpResponse.BodyHandlers.ofByteArray());
            Content c = new Content(url.toString(), url.toString(), r.body(), "text/html", new Metadata(), conf);
            ProtocolStatus status = r.statusCode() == 200 ? ProtocolStatus.STATUS_SUCCESS
                    : new ProtocolStatus(ProtocolStatus.FAILED);
            return new ProtocolOutput(c, status);
        } catch (Exception e) {
            return new ProtocolOutput(null, new ProtocolStatus(e));
        }
    }

    @Override
    public BaseRobotRules getRobotRules(Text url, CrawlDatum datum, List<Content> robotsTxtContent) {
        return new SimpleRobotRules(SimpleRobotRules.RobotRulesMode.ALLOW_ALL);
    }
}
