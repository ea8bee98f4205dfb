package org.fabricscope.importers.ibnet;

import java.io.IOException;
import java.io.InputStream;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/** {@code ibnetdiscover} (plain, {@code -g}, {@code --diff}): node headers, {@code switchguid=}/{@code caguid=} lines, port lines. */
public final class IbnetdiscoverReader implements FormatReader {
    public static final String ID = "ibnetdiscover";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "ibnetdiscover";
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.TOPOLOGY;
    }

    @Override
    public int maxConfidence() {
        return 60;
    }

    @Override
    public int confidence(Head head) {
        IbHead h = IbHead.of(head);
        return !h.prose() && h.ibnet > 0 ? maxConfidence() : NONE; // node headers and guid lines
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        new IbnetdiscoverImporter().read(in, ctx);
    }
}
