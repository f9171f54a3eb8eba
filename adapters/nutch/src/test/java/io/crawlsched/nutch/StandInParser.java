package io.crawlsched.nutch;

import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.nutch.parse.Outlink;
import org.apache.nutch.parse.ParseData;
import org.apache.nutch.parse.ParseImpl;
import org.apache.nutch.parse.ParseResult;
import org.apache.nutch.parse.ParseStatus;
import org.apache.nutch.parse.Parser;
import org.apache.nutch.protocol.Content;

/**
 * Nutch parser plugin for the tests (parse-html is not on Maven Central):
 * the body as text, no outlinks (the crawl is seeded with every page).
 */
public class StandInParser implements Parser {
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
    public ParseResult getParse(Content c) {
        String text = new String(c.getContent(), StandardCharsets.UTF_8);
        ParseData data = new ParseData(ParseStatus.STATUS_SUCCESS, "", new Outlink[0], c.getMetadata());
        return ParseResult.createParseResult(c.getUrl(), new ParseImpl(text, data));
    }
}
