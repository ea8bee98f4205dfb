package org.fabricscope.importers.forensics;

import java.io.IOException;
import java.io.InputStream;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/** {@link NcclTestsReader} in the reader registry: the perf binaries' output, text or -J JSON. */
public final class NcclTestsFormat implements FormatReader {
    @Override
    public String id() {
        return NcclTestsReader.ID;
    }

    @Override
    public String label() {
        return NcclTestsReader.LABEL;
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
        return NcclTestsReader.looksLike(head.lines()) ? maxConfidence() : NONE;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        new NcclTestsReader().read(in, ctx.source(), ctx.builder(), ctx.cancellation());
    }
}
