package org.fabricscope.importers.forensics;

import java.io.IOException;
import java.io.InputStream;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/** {@link NcclInspectorReader} in the reader registry: the Inspector plugin's JSON per collective. */
public final class NcclInspectorFormat implements FormatReader {
    @Override
    public String id() {
        return NcclInspectorReader.ID;
    }

    @Override
    public String label() {
        return NcclInspectorReader.LABEL;
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
        return NcclInspectorReader.looksLike(head.lines()) ? maxConfidence() : NONE;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        new NcclInspectorReader().read(in, ctx.source(), ctx.builder(), ctx.cancellation());
    }
}
