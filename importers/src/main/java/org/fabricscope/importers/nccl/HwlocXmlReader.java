package org.fabricscope.importers.nccl;

import java.io.InputStream;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Diagnostic;

/**
 * hwloc's topology XML (root {@code <topology>}, what {@code lstopo} writes): often taken for
 * NCCL's. Recognised only to say so and skip it.
 */
public final class HwlocXmlReader implements FormatReader {
    public static final String ID = "hwloc-xml";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "hwloc topology XML";
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.SKIPPED;
    }

    @Override
    public int confidence(Head head) {
        return XmlRoot.of(head).is("topology") ? CERTAIN : NONE;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) {
        ctx.report(Diagnostic.warning(ctx.source(), 1, "hwloc topology XML (<topology>, as lstopo and "
                + "aws-ofi-nccl's test fixtures write it), not NCCL's topology format (<system version=\"1\">, "
                + "what NCCL_TOPO_DUMP_FILE writes); skipped"));
    }
}
