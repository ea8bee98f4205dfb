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
    static final ObjectMapper MAPPER = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH)
                    .maxStringLength(16 * 1024 * 1024).maxNumberLength(64).build())
            .build());

    /**
     * The flight recorder's JSON form read strictly: a key given twice in one object, or anything after the
     * document (garbage, a second document), fails the dump instead of being dropped. Same constraints.
     */
    static final ObjectMapper STRICT = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH)
                    .maxStringLength(16 * 1024 * 1024).maxNumberLength(64).build())
            .enable(com.fasterxml.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build())
            .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

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
