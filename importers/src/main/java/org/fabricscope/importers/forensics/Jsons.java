package org.fabricscope.importers.forensics;

import java.io.IOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The JSON mapper of the forensics readers: Jackson's stream constraints on untrusted input (nesting,
 * string and number length), trees and plain maps only, no bean binding or polymorphic typing.
 */
final class Jsons {
    static final int MAX_DEPTH = 64;
    private static final StreamReadConstraints LIMITS = StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH)
            .maxStringLength(16 * 1024 * 1024).maxNumberLength(64).build();

    /**
     * The parser factory with those constraints: trees are built from its parsers by {@link org.fabricscope.model.core.JsonTrees} and
     * {@link JsonValues}, with no {@code ObjectMapper}. A mapper's first use (its date format, locale data and
     * introspection) was 50-60 ms of a {@code diagnose} of a hang capture (BENCHMARKS.md, issue 27).
     */
    static final JsonFactory FACTORY = JsonFactory.builder().streamReadConstraints(LIMITS).build();

    /** The mappers, made on first use: only a flight recorder dump in JSON is bound to plain values by one. */
    private static final class Mappers {
        static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder().streamReadConstraints(LIMITS).build());

        /**
         * The flight recorder's JSON form read strictly: a key given twice in one object, or anything after the
         * document (garbage, a second document), fails the dump instead of being dropped. Same constraints.
         */
        static final ObjectMapper STRICT = new ObjectMapper(JsonFactory.builder().streamReadConstraints(LIMITS)
                .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build())
                .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    }

    /** A mapper with the constraints (plain values; duplicate keys keep the last). */
    static ObjectMapper mapper() {
        return Mappers.MAPPER;
    }

    /** The strict mapper of flight recorder JSON ({@link Mappers#STRICT}). */
    static ObjectMapper strict() {
        return Mappers.STRICT;
    }

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
