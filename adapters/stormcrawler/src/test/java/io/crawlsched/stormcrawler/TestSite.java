package io.crawlsched.stormcrawler;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** adapters/testsite/site.py in a child process: its base URL and its referee's JSON. */
final class TestSite implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final Process process;
    final String base;

    private TestSite(Process process, String base) {
        this.process = process;
        this.base = base;
    }

    /** Starts the site with the given arguments and waits for its READY line. */
    static TestSite start(String... args) throws IOException {
        Path script = Path.of(System.getProperty("user.dir")).resolve("../testsite/site.py").normalize();
        List<String> cmd = new ArrayList<>(List.of("python3", script.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith("READY ")) {
            p.destroy();
            throw new IOException("test site did not start: " + line);
        }
        return new TestSite(p, line.split(" ")[1]);
    }

    /** GET base + path as JSON (a control endpoint: /__stats, /__truth, /__reset). */
    JsonNode get(String path) throws IOException, InterruptedException {
        HttpRequest req = HttpRequest.newBuilder(URI.create(base + path.replaceFirst("^/", ""))).build();
        HttpResponse<String> r = HTTP.send(req, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IOException(path + ": HTTP " + r.statusCode());
        }
        return JSON.readTree(r.body());
    }

    @Override
    public void close() {
        process.destroy();
    }
}
