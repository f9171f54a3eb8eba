package io.crawlsched;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Loading in a fresh JVM: a library of another ABI version, and a missing
 * library, are refused with a clear message before any call.
 */
class LoaderTest {
    /** Run by the child JVM: uses the library, reports how loading went. */
    public static final class Probe {
        public static void main(String[] args) {
            try {
                System.out.println("loaded " + Crawlsched.version());
            } catch (UnsatisfiedLinkError e) {
                System.out.println("refused: " + e.getMessage());
                System.exit(3);
            }
        }
    }

    static String runChild(String library) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Process p = new ProcessBuilder(java, "-cp", cp, "-Dcrawlsched.library=" + library, Probe.class.getName())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        return out;
    }

    /** A library with only the two version functions, reporting ABI version abi. */
    static Path fakeLibrary(int abi) throws IOException, InterruptedException {
        Path dir = Files.createDirectories(Path.of("target", "fake-abi" + abi));
        Path src = dir.resolve("fake.c");
        Files.writeString(src, "#include <stdint.h>\n"
                + "uint32_t crawlsched_abi_version(void) { return " + abi + "; }\n"
                + "const char *crawlsched_version(void) { return \"" + abi + ".0.0\"; }\n");
        Path lib = dir.resolve("libcrawlsched.so").toAbsolutePath();
        Process cc;
        try {
            cc = new ProcessBuilder("cc", "-shared", "-fPIC", "-o", lib.toString(), src.toString())
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            assumeTrue(false, "no C compiler: " + e.getMessage());
            return null;
        }
        String ccOut = new String(cc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, cc.waitFor(), ccOut);
        return lib;
    }

    @Test
    void otherAbiIsRefused() throws IOException, InterruptedException {
        String out = runChild(fakeLibrary(1).toString());
        for (String want : List.of("refused: crawlsched: the loaded library", "(version 1.0.0) has ABI version 1",
                "needs ABI version 2 (libcrawlsched.so.2)")) {
            assertTrue(out.contains(want), out);
        }
    }

    @Test
    void missingFunctionIsExplained() throws IOException, InterruptedException {
        String out = runChild(fakeLibrary(2).toString());
        assertTrue(out.contains("refused: crawlsched: the loaded library") && out.contains("lacks a function"), out);
    }

    @Test
    void missingLibraryIsExplained() throws IOException, InterruptedException {
        String out = runChild("/nonexistent/libcrawlsched.so");
        assertTrue(out.contains("refused: crawlsched: cannot load /nonexistent/libcrawlsched.so")
                && out.contains("cargo build --release --lib"), out);
    }

    @Test
    void realLibraryLoads() throws IOException, InterruptedException {
        String real = io.crawlsched.nativeapi.NativeLoaderAccess.loadedFile();
        String out = runChild(real);
        assertTrue(out.startsWith("loaded " + Crawlsched.version()), out);
    }
}
