package io.crawlsched.nutch;

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

/** adapters/testsite/site.py in a child process (one host). */
final class TestSite implements AutoCloseable {
    static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Process process;
    final String base;

    TestSite(int pages, int seed, double rateMax) throws IOException {
        Path script = Path.of(System.getProperty("user.dir")).resolve("../testsite/site.py").normalize();
        process = new ProcessBuilder("python3", script.toString(), "--pages", Integer.toString(pages), "--seed",
                Integer.toString(seed), "--time-scale", "1", "--rate-max", Double.toString(rateMax))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line = out.readLine();
        if (line == null || !line.startsWith("READY ")) {
            process.destroy();
            throw new IOException("test site did not start: " + line);
        }
        String b = line.split(" ")[1];
        base = b.endsWith("/") ? b.substring(0, b.length() - 1) : b;
    }

    JsonNode get(String path) throws IOException, InterruptedException {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        return JSON.readTree(r.body());
    }

    @Override
    public void close() {
        process.destroy();
    }
}
