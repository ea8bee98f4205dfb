package org.fabricscope.importers.ibnet;

import java.io.IOException;
import java.io.InputStream;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/** A {@code --node-name-map} file ({@code 0xGUID "name"} lines): read into the import's one {@link NodeNameMap} (a {@link ReadContext#state}), applied after all files. */
public final class NodeNameMapReader implements FormatReader {
    public static final String ID = "node-name-map";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "node-name-map";
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.NAMES_AND_THRESHOLDS;
    }

    @Override
    public int maxConfidence() {
        return 20;
    }

    @Override
    public int confidence(Head head) {
        IbHead h = IbHead.of(head);
        // 0xGUID "name" lines: a shape other lists can have, so weakest of all, and only when they are most lines
        return !h.prose() && h.map > 0 && h.map >= h.other ? maxConfidence() : NONE;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        ctx.state(NodeNameMap.class, NodeNameMap::new).read(in, ctx);
    }
}
