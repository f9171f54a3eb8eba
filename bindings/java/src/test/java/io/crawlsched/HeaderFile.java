package io.crawlsched;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** The checkout's include/crawlsched.h and the binding's sources. */
final class HeaderFile {
    private HeaderFile() {}

    static final Path ROOT = Path.of("").toAbsolutePath().resolve("../..").normalize();

    /** Names of the functions declared in the header, in order. */
    static Set<String> functions() throws IOException {
        String h = Files.readString(ROOT.resolve("include/crawlsched.h"));
        Matcher m = Pattern.compile("(?m)^[a-z][a-z0-9_ *]*?\\b(crawlsched_[a-z0-9_]+)\\(").matcher(h);
        Set<String> out = new LinkedHashSet<>();
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** The idiomatic layer's sources (package io.crawlsched, not the generated raw layer). */
    static String idiomaticSources() throws IOException {
        StringBuilder sb = new StringBuilder();
        try (Stream<Path> files = Files.list(ROOT.resolve("bindings/java/src/main/java/io/crawlsched"))) {
            for (Path p : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java")).sorted()::iterator) {
                sb.append(Files.readString(p));
            }
        }
        return sb.toString();
    }
}
