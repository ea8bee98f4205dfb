package org.fabricscope.importers.ibnet;

import java.io.IOException;
import java.io.InputStream;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/** {@code ibnetdiscover -p}: one line per port, {@code SW   LID PORT 0xGUID 4x HDR - CA ...}. */
public final class IbnetdiscoverPortsReader implements FormatReader {
    public static final String ID = "ibnetdiscover-ports";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "ibnetdiscover -p";
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.TOPOLOGY_DETAIL;
    }

    @Override
    public int maxConfidence() {
        return 45;
    }

    @Override
    public int confidence(Head head) {
        IbHead h = IbHead.of(head);
        return !h.prose() && h.ports > 0 ? maxConfidence() : NONE; // "SW  LID PORT 0xGUID ..." lines, below the other tools' shapes
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        new IbnetdiscoverPortsImporter().read(in, ctx);
    }
}
