package io.crawlsched.nutch;

import crawlercommons.robots.BaseRobotRules;
import crawlercommons.robots.SimpleRobotRules;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
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
 * Central): a plain HTTP/1.1 GET on a new connection with
 * {@code Connection: close}, as Nutch's protocol-http does (a kept-alive
 * connection to the test site costs about 40 ms a request: Python's
 * http.server writes headers and body in two segments, and the second waits
 * for the client's delayed ACK); robots.txt allows everything.
 */
public class StandInProtocol implements Protocol {
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
            URI u = URI.create(url.toString());
            byte[] response;
            try (Socket s = new Socket(u.getHost(), u.getPort())) {
                s.setSoTimeout(10_000);
                OutputStream out = s.getOutputStream();
                out.write(("GET " + u.getRawPath() + " HTTP/1.1\r\nHost: " + u.getHost() + ":" + u.getPort()
                        + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = s.getInputStream();
                ByteArrayOutputStream all = new ByteArrayOutputStream();
                in.transferTo(all);
                response = all.toByteArray();
            }
            int headerEnd = indexOf(response, "\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            if (headerEnd < 0) {
                throw new java.io.IOException(url + ": no HTTP response");
            }
            String statusLine = new String(response, 0, Math.min(headerEnd, 64), StandardCharsets.US_ASCII);
            int code = Integer.parseInt(statusLine.split(" ")[1]);
            byte[] body = Arrays.copyOfRange(response, headerEnd + 4, response.length);
            Content c = new Content(url.toString(), url.toString(), body, "text/html", new Metadata(), conf);
            ProtocolStatus status = code == 200 ? ProtocolStatus.STATUS_SUCCESS
                    : new ProtocolStatus(ProtocolStatus.FAILED);
            return new ProtocolOutput(c, status);
        } catch (Exception e) {
            return new ProtocolOutput(null, new ProtocolStatus(e));
        }
    }

    private static int indexOf(byte[] a, byte[] b) {
        outer:
        for (int i = 0; i + b.length <= a.length; i++) {
            for (int j = 0; j < b.length; j++) {
                if (a[i + j] != b[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Override
    public BaseRobotRules getRobotRules(Text url, CrawlDatum datum, List<Content> robotsTxtContent) {
        return new SimpleRobotRules(SimpleRobotRules.RobotRulesMode.ALLOW_ALL);
    }
}
