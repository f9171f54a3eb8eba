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
/** Nutch protocol plugin for the test (protocol-http is not on Maven Central): GET over java.net.http, robots allow all. */
public class StandInProtocol implements Protocol {
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private Configuration conf;
  public void setConf(Configuration c) { conf = c; }
  public Configuration getConf() { return conf; }
  public ProtocolOutput getProtocolOutput(Text url, CrawlDatum datum) {
    try {
      HttpResponse<byte[]> r = HTTP.send(HttpRequest.newBuilder(URI.create(url.toString())).build(), HttpResponse.BodyHandlers.ofByteArray());
      Metadata m = new Metadata();
      Content c = new Content(url.toString(), url.toString(), r.body(), "text/html", m, conf);
      return new ProtocolOutput(c, r.statusCode() == 200 ? ProtocolStatus.STATUS_SUCCESS : new ProtocolStatus(ProtocolStatus.FAILED));
    } catch (Exception e) {
      return new ProtocolOutput(null, new ProtocolStatus(e));
    }
  }
  public BaseRobotRules getRobotRules(Text url, CrawlDatum datum, List<Content> robotsTxtContent) {
    return new SimpleRobotRules(SimpleRobotRules.RobotRulesMode.ALLOW_ALL);
  }
}
