package io.crawlsched.nativeapi;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import java.io.File;

/**
 * Finds libcrawlsched, binds the backend and checks its ABI version, once
 * per JVM.
 *
 * <p>Lookup, first match wins: the system property {@code crawlsched.library}
 * or else the environment variable {@code CRAWLSCHED_LIB} naming the library
 * file (for example a system library: {@code /usr/lib/x86_64-linux-gnu/libcrawlsched.so.2});
 * {@code libcrawlsched.so} on {@code jna.library.path} when that property is
 * set; the library inside this jar ({@code <platform>/libcrawlsched.so}, JNA's
 * resource path, extracted to a temporary file); the system's library paths.
 */
public final class NativeLoader {
    /** The ABI version ({@code CRAWLSCHED_ABI_VERSION}) this binding was written for. */
    public static final int BINDING_ABI_VERSION = 2;

    private NativeLoader() {}

    private static final class Holder {
        static final NativeApi API = loadJna();
    }

    /**
     * The process-wide backend. The first call loads the library and throws
     * {@link UnsatisfiedLinkError} if it is missing, of another ABI version,
     * or lacks a function.
     */
    public static NativeApi api() {
        return Holder.API;
    }

    private static NativeApi loadJna() {
        // The raw layer passes pointers and size_t as Java long.
        if (Native.POINTER_SIZE != 8 || Native.SIZE_T_SIZE != 8) {
            throw new UnsatisfiedLinkError("crawlsched: the Java binding needs a 64-bit platform (pointer size "
                    + Native.POINTER_SIZE + ", size_t size " + Native.SIZE_T_SIZE + ")");
        }
        String where = libraryPath();
        if (where == null && System.getProperty("jna.library.path") == null) {
            where = bundledLibrary();
        }
        NativeLibrary lib;
        try {
            lib = NativeLibrary.getInstance(where != null ? where : "crawlsched");
        } catch (UnsatisfiedLinkError e) {
            UnsatisfiedLinkError u = new UnsatisfiedLinkError("crawlsched: cannot load "
                    + (where != null ? where : "libcrawlsched.so (jna.library.path=" + System.getProperty("jna.library.path") + ")")
                    + "; build it with `cargo build --release --lib` and set CRAWLSCHED_LIB (or -Dcrawlsched.library)"
                    + " to target/release/libcrawlsched.so, or install it: " + e.getMessage());
            u.initCause(e);
            throw u;
        }
        // Check the ABI before binding everything: a library of another ABI
        // may lack functions or give them other meanings.
        int abi = lib.getFunction("crawlsched_abi_version").invokeInt(new Object[0]);
        checkAbi(abi, () -> lib.getFunction("crawlsched_version").invokeString(new Object[0], false), lib.getFile());
        try {
            JnaBackend.bind(lib);
        } catch (UnsatisfiedLinkError e) {
            UnsatisfiedLinkError u = new UnsatisfiedLinkError("crawlsched: the loaded library " + lib.getFile()
                    + " lacks a function of the header this binding was generated from (an older library?): " + e.getMessage());
            u.initCause(e);
            throw u;
        }
        file = lib.getFile() == null ? lib.getName() : lib.getFile().getPath();
        return new JnaBackend();
    }

    private static volatile String file;

    /** The path of the loaded library (after {@link #api()}). */
    static String loadedFile() {
        return file;
    }

    /** The library this jar carries for the running platform, extracted to a file; null if none. */
    private static String bundledLibrary() {
        String resource = com.sun.jna.Platform.RESOURCE_PREFIX + "/" + System.mapLibraryName("crawlsched");
        if (NativeLoader.class.getClassLoader().getResource(resource) == null) {
            return null;
        }
        try {
            File f = Native.extractFromResourcePath("crawlsched", NativeLoader.class.getClassLoader());
            return f.getAbsolutePath();
        } catch (java.io.IOException e) {
            UnsatisfiedLinkError u = new UnsatisfiedLinkError("crawlsched: cannot extract the bundled " + resource
                    + ": " + e.getMessage());
            u.initCause(e);
            throw u;
        }
    }

    static String libraryPath() {
        String p = System.getProperty("crawlsched.library");
        if (p == null || p.isEmpty()) {
            p = System.getenv("CRAWLSCHED_LIB");
        }
        return p == null || p.isEmpty() ? null : p;
    }

    /**
     * Refuses a library whose {@code crawlsched_abi_version()} is not
     * {@link #BINDING_ABI_VERSION}, with a message naming both.
     */
    static void checkAbi(int libraryAbi, java.util.function.Supplier<String> libraryVersion, File file) {
        if (NativeApi.ABI_VERSION != BINDING_ABI_VERSION) {
            throw new UnsatisfiedLinkError("crawlsched: this Java binding was written for ABI version "
                    + BINDING_ABI_VERSION + " but its generated NativeApi is of ABI version " + NativeApi.ABI_VERSION
                    + "; update the binding for the new header");
        }
        if (libraryAbi != BINDING_ABI_VERSION) {
            throw new UnsatisfiedLinkError("crawlsched: the loaded library " + (file != null ? file : "")
                    + " (version " + libraryVersion.get() + ") has ABI version " + Integer.toUnsignedString(libraryAbi)
                    + ", but this Java binding needs ABI version " + BINDING_ABI_VERSION + " (libcrawlsched.so."
                    + BINDING_ABI_VERSION + "); install or point CRAWLSCHED_LIB to the matching library");
        }
    }
}
