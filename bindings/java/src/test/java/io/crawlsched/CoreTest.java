package io.crawlsched;

import static io.crawlsched.Checks.fails;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.crawlsched.nativeapi.NativeApi;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class CoreTest {
    @Test
    void versionAndAbi() {
        assertEquals(Crawlsched.ABI_VERSION, Crawlsched.libraryAbiVersion());
        assertEquals(NativeApi.ABI_VERSION, Crawlsched.ABI_VERSION);
        String v = Crawlsched.version();
        assertEquals(NativeApi.VERSION_MAJOR + "." + NativeApi.VERSION_MINOR + "." + NativeApi.VERSION_PATCH, v);
    }

    @Test
    void statusNamesAndExceptions() {
        assertEquals("CRAWLSCHED_INVALID_ARGUMENT", Status.libraryName(Status.INVALID_ARGUMENT.code()));
        assertEquals("CRAWLSCHED_UNKNOWN_STATUS", Status.libraryName(999));
        assertEquals(Status.UNKNOWN, Status.of(999));
        for (Status s : Status.values()) {
            if (s != Status.UNKNOWN) {
                assertEquals(s, Status.of(s.code()));
                assertEquals("CRAWLSCHED_" + s.name(), Status.libraryName(s.code()));
            }
        }
        CrawlschedException e = fails("exponential(-1)", Status.INVALID_ARGUMENT, () -> Dist.exponential(-1));
        assertTrue(e.getMessage().startsWith("crawlsched: CRAWLSCHED_INVALID_ARGUMENT: "), e.getMessage());
        CrawlschedException u = new CrawlschedException(42, "later status");
        assertEquals(Status.UNKNOWN, u.status());
        assertEquals(42, u.code());
    }

    /** The thread-local last error agrees with the call's own error struct (same OS thread here). */
    @Test
    void threadLastError() {
        CrawlschedException e = fails("gamma(-1, 1)", Status.INVALID_ARGUMENT, () -> Dist.gamma(-1, 1));
        Crawlsched.LastError last = Crawlsched.threadLastError();
        assertEquals(Status.INVALID_ARGUMENT, last.status());
        assertEquals(e.detail(), last.message());
    }

    /** The error struct's layout as the binding reads it: status then message. */
    @Test
    void errorStructLayout() {
        byte[] err = Lib.err();
        int st = Lib.API.crawlsched_dist_exponential_new(Double.NaN, new long[1], err);
        assertEquals(Status.INVALID_ARGUMENT.code(), st);
        assertEquals(st, Lib.status(err));
        assertTrue(!Lib.message(err).isEmpty());
        // NULL out-pointer: the raw layer passes null arrays as NULL.
        st = Lib.API.crawlsched_dist_exponential_new(1.0, null, err);
        assertEquals(Status.NULL_ARGUMENT.code(), st);
        assertEquals(Status.NULL_ARGUMENT.code(), Lib.status(err));
    }

    /** Every function of the header is a method of the raw layer (and the JNA backend bound it at load). */
    @Test
    void everyHeaderFunctionIsBound() throws Exception {
        Set<String> declared = HeaderFile.functions();
        assertTrue(declared.size() >= 140, "only " + declared.size() + " functions found in the header");
        Set<String> methods = Arrays.stream(NativeApi.class.getDeclaredMethods()).map(Method::getName).collect(Collectors.toSet());
        for (String f : declared) {
            assertTrue(methods.contains(f), f + " is not in NativeApi: run python3 bindings/java/gen_native_api.py");
        }
        assertEquals(declared, Set.copyOf(NativeApi.FUNCTIONS));
        assertEquals(declared.size(), methods.size());
    }

    /** Every function of the header is called by the idiomatic layer. */
    @Test
    void everyHeaderFunctionIsWrapped() throws Exception {
        String src = HeaderFile.idiomaticSources();
        for (String f : HeaderFile.functions()) {
            assertTrue(src.contains("." + f + "(") || src.contains("::" + f), f + " is not wrapped in io.crawlsched");
        }
    }

    @Test
    void abiMismatchIsRefused() {
        io.crawlsched.nativeapi.NativeLoaderAccess.checkAbi(2);
        UnsatisfiedLinkError e = assertThrows(UnsatisfiedLinkError.class, () -> io.crawlsched.nativeapi.NativeLoaderAccess.checkAbi(1));
        assertTrue(e.getMessage().contains("ABI version 1") && e.getMessage().contains("needs ABI version 2")
                && e.getMessage().contains("9.9.9"), e.getMessage());
    }
}
