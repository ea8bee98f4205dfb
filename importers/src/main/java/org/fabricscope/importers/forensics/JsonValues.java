package org.fabricscope.importers.forensics;

import java.io.Closeable;
import java.io.IOException;

import org.fabricscope.model.core.JsonTrees;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * The JSON values of a text in turn, read as trees by the streaming parser ({@link JsonTrees}), as
 * {@code ObjectMapper.readerFor(JsonNode.class).readValues} reads them: a text that opens with an array gives
 * that array's elements and ends with it; any other text gives its top-level values one after another (JSON
 * lines, or documents written one after the other). Errors are the parser's, with their location.
 */
final class JsonValues implements Closeable {
    private final JsonParser parser;
    private boolean started;
    private boolean ended;

    JsonValues(JsonParser parser) {
        this.parser = parser;
    }

    /** The next value, or null when there is none left. */
    JsonNode next() throws IOException {
        if (ended) {
            return null;
        }
        JsonToken t = parser.nextToken();
        if (!started) {
            started = true;
            if (t == JsonToken.START_ARRAY) {
                parser.clearCurrentToken(); // the array's elements are the values (an error names no token)
                t = parser.nextToken();
            }
        }
        if (t == null || t == JsonToken.END_ARRAY) {
            ended = true;
            return null;
        }
        JsonNode value = JsonTrees.value(parser, t);
        parser.clearCurrentToken(); // as the mapper's iterator does: an error past a value names no token of it
        return value;
    }

    /** The line the parser has reached: the end of the value read last. */
    long line() {
        return parser.currentLocation().getLineNr();
    }

    @Override
    public void close() throws IOException {
        parser.close();
    }
}
