package io.crawlsched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The generated raw layer matches include/crawlsched.h: the API description
 * bindings/api/crawlsched-api.json matches the header (gen_api.py --check),
 * and NativeApi/JnaBackend match the description (gen_native_api.py --check).
 */
class HeaderDriftTest {
    @Test
    void apiDescriptionMatchesTheHeader() throws IOException, InterruptedException {
        check("bindings/api/gen_api.py");
    }

    @Test
    void generatedFilesMatchTheApiDescription() throws IOException, InterruptedException {
        check("bindings/java/gen_native_api.py");
    }

    private static void check(String script) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("python3", script, "--check")
                    .directory(HeaderFile.ROOT.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "python3 not available: " + e.getMessage());
            return;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
    }
}
