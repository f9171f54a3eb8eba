package io.crawlsched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The generated raw layer matches include/crawlsched.h (gen_native_api.py --check). */
class HeaderDriftTest {
    @Test
    void generatedFilesMatchTheHeader() throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("python3", "bindings/java/gen_native_api.py", "--check")
                    .directory(HeaderFile.ROOT.toFile()).redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "python3 not available: " + e.getMessage());
            return;
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), out);
    }
}
