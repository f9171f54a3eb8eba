package io.crawlsched.nativeapi;

/** Test access to the loader's package-private ABI check. */
public final class NativeLoaderAccess {
    private NativeLoaderAccess() {}

    public static void checkAbi(int libraryAbi) {
        NativeLoader.checkAbi(libraryAbi, () -> "9.9.9", new java.io.File("/x/libcrawlsched.so"));
    }

    /** The file of the loaded library. */
    public static String loadedFile() {
        NativeLoader.api();
        return NativeLoader.loadedFile();
    }
}
