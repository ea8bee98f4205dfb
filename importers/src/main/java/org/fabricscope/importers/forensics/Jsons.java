package org.fabricscope.importers.forensics;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;

/**
 * The JSON parsers of the forensics readers: Jackson's stream constraints on untrusted input (nesting,
 * string and number length); trees and plain maps only, built from the token stream, no bean binding or
 * polymorphic typing and no {@code ObjectMapper}.
 */
final class Jsons {
    static final int MAX_DEPTH = 64;
    private static final StreamReadConstraints LIMITS = StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH)
            .maxStringLength(16 * 1024 * 1024).maxNumberLength(64).build();

    /**
     * The parser factory with those constraints: trees are built from its parsers by
     * {@link org.fabricscope.model.core.JsonTrees} and {@link JsonValues}, plain values by {@link PlainJson}, with
     * no {@code ObjectMapper}. A mapper's first use (its date format, locale data and introspection) was 50-60 ms
     * of a {@code diagnose} of a hang capture (BENCHMARKS.md, issue 27).
     */
    static final JsonFactory FACTORY = JsonFactory.builder().streamReadConstraints(LIMITS).build();

    /**
     * The flight recorder's JSON form is read strictly: a key given twice in one object fails the dump instead of
     * being dropped (and {@link PlainJson#readStrict} refuses anything after the document). Same constraints.
     */
    static final JsonFactory STRICT_FACTORY = JsonFactory.builder().streamReadConstraints(LIMITS)
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private Jsons() {
    }

    /** The parser's message without Jackson's source excerpt: {@code Unexpected character ... at line 3, column 5}. */
    static String brief(IOException e) {
        if (e instanceof JsonProcessingException j) {
            String m = j.getOriginalMessage();
            var loc = j.getLocation();
            if (m != null && m.length() > 160) {
                m = m.substring(0, 157) + "...";
            }
            return (m == null ? "malformed JSON" : m.replace('\n', ' '))
                    + (loc == null ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr());
        }
        return String.valueOf(e.getMessage());
    }
}
