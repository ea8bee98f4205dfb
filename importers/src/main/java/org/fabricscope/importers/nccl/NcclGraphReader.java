package org.fabricscope.importers.nccl;

import java.io.InputStream;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/** NCCL's graph XML (root {@code <graphs>}, what {@code NCCL_GRAPH_DUMP_FILE} writes). */
public final class NcclGraphReader implements FormatReader {
    public static final String ID = "nccl-graph";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "NCCL graph XML";
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.HOSTS;
    }

    @Override
    public int confidence(Head head) {
        return XmlRoot.of(head).is("graphs") ? CERTAIN : NONE;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) {
        new NcclXmlImporter().read(in, ctx.source(), ctx.builder(), ctx.cancellation());
    }
}
