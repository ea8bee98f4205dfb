package org.fabricscope.importers.forensics;

import java.io.IOException;
import java.io.InputStream;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/** {@link RasStatusReader} in the reader registry: ncclras status reports, text or JSON, and monitor events. */
public final class RasStatusFormat implements FormatReader {
    @Override
    public String id() {
        return RasStatusReader.ID;
    }

    @Override
    public String label() {
        return RasStatusReader.LABEL;
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
        return RasStatusReader.looksLike(head.lines()) ? maxConfidence() : NONE;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        new RasStatusReader().read(in, ctx.source(), ctx.builder(), ctx.cancellation());
    }
}
