package org.fabricscope.importers.forensics;

import java.io.IOException;
import java.io.InputStream;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/** {@link FlightRecorderReader} in the reader registry: per-rank dumps, pickled (a binary head) or JSON. */
public final class FlightRecorderFormat implements FormatReader {
    @Override
    public String id() {
        return FlightRecorderReader.ID;
    }

    @Override
    public String label() {
        return FlightRecorderReader.LABEL;
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.LOGS;
    }

    /** Below kubectl objects (which declare themselves), above NCCL logs (which these outputs may quote). */
    @Override
    public int maxConfidence() {
        return 90;
    }

    @Override
    public int confidence(Head head) {
        return head.isBinary() ? (FlightRecorderReader.looksLikePickle(head.bytes()) ? maxConfidence() : NONE)
                : FlightRecorderReader.looksLike(head.lines()) ? maxConfidence() : NONE;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        new FlightRecorderReader().read(in, ctx.source(), ctx.builder(), ctx.cancellation());
    }
}
