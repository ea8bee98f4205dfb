package org.fabricscope.importers.ibnet;

import java.io.IOException;
import java.io.InputStream;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/** {@code iblinkinfo} (and {@code -l}): {@code Switch: 0x... name:} headers and {@code ==( 4X 53.125 Gbps Active/ LinkUp)==>} lines. */
public final class IblinkinfoReader implements FormatReader {
    public static final String ID = "iblinkinfo";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "iblinkinfo";
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.LINK_STATE;
    }

    @Override
    public int maxConfidence() {
        return 55;
    }

    @Override
    public int confidence(Head head) {
        IbHead h = IbHead.of(head);
        return !h.prose() && h.linkinfo > 0 ? maxConfidence() : NONE; // "Switch: 0x..." headers and "==( 4X ... )==>" lines
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        new IblinkinfoImporter().read(in, ctx);
    }
}
