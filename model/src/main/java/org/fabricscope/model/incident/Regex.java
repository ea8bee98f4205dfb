package org.fabricscope.model.incident;

import java.util.regex.Pattern;

/**
 * A signature's regular expression, compiled when first used. The bundled catalogue holds ~380 patterns and a log
 * is matched against the few whose literal a line holds ({@link LiteralIndex}): compiling them all at every start
 * was half of loading the catalogue (BENCHMARKS.md, issue 27). A user's file is compiled as it loads, so that a bad
 * pattern is a problem of that file ({@link SignatureLoader}); the bundled files are compiled by their test.
 * Thread-safe: two threads may compile it at once, and both get an equal pattern.
 */
public final class Regex {
    private final String source;
    private volatile Pattern compiled;

    private Regex(String source, Pattern compiled) {
        this.source = source;
        this.compiled = compiled;
    }

    /** A pattern compiled now (its syntax was checked). */
    static Regex of(Pattern compiled) {
        return new Regex(compiled.pattern(), compiled);
    }

    /** A pattern compiled on first use: {@code source} must compile (a bundled file's, which a test compiles). */
    static Regex lazy(String source) {
        return new Regex(source, null);
    }

    /** The expression as written. */
    public String source() {
        return source;
    }

    /** The compiled pattern. */
    public Pattern pattern() {
        Pattern p = compiled;
        if (p == null) {
            p = Pattern.compile(source);
            compiled = p;
        }
        return p;
    }

    @Override
    public String toString() {
        return source;
    }
}
