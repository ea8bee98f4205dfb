package org.fabricscope.importers.ibnet;

import java.io.IOException;
import java.io.InputStream;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/** {@code ibqueryerrors}: {@code Errors for 0x... "name"}, {@code GUID 0x... port N: [Counter == v]}, {@code ## Summary:}. */
public final class IbqueryerrorsReader implements FormatReader {
    public static final String ID = "ibqueryerrors";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "ibqueryerrors";
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.COUNTERS;
    }

    @Override
    public int maxConfidence() {
        return 65;
    }

    @Override
    public int confidence(Head head) {
        IbHead h = IbHead.of(head);
        return !h.prose() && h.qerr > 0 ? maxConfidence() : NONE; // "Errors for 0x...", "GUID 0x... port N:", "## Summary:"
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        new IbqueryerrorsImporter().read(in, ctx);
    }
}
