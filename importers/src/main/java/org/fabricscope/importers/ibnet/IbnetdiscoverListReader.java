package org.fabricscope.importers.ibnet;

import java.io.IOException;
import java.io.InputStream;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/** {@code ibnetdiscover -l/-S/-H/-R}: one line per node, {@code Switch : 0x... ports 36 devid ...}. */
public final class IbnetdiscoverListReader implements FormatReader {
    public static final String ID = "ibnetdiscover-list";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "ibnetdiscover -l";
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.TOPOLOGY_DETAIL;
    }

    @Override
    public int maxConfidence() {
        return 50;
    }

    @Override
    public int confidence(Head head) {
        IbHead h = IbHead.of(head);
        return !h.prose() && h.list > 0 ? maxConfidence() : NONE; // "Switch : 0x... ports 36 devid ..." lines
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        new IbnetdiscoverListImporter().read(in, ctx);
    }
}
