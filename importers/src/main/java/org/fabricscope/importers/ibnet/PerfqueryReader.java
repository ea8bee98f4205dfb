package org.fabricscope.importers.ibnet;

import java.io.IOException;
import java.io.InputStream;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/** {@code perfquery} (basic, {@code -x}, {@code -a}): {@code # Port counters: Lid N port P} then {@code Name:.....value} fields. */
public final class PerfqueryReader implements FormatReader {
    public static final String ID = "perfquery";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "perfquery";
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.COUNTERS;
    }

    @Override
    public int maxConfidence() {
        return 70;
    }

    @Override
    public int confidence(Head head) {
        IbHead h = IbHead.of(head);
        return !h.prose() && h.perf > 0 && h.perfFields > 0 ? maxConfidence() : NONE; // "# Port counters:" header and Name:....value fields
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        new PerfqueryImporter().read(in, ctx);
    }
}
