package org.fabricscope.importers.nccl;

import java.io.InputStream;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/**
 * NCCL's topology XML (root {@code <system version="1|2">}, what {@code NCCL_TOPO_DUMP_FILE}
 * writes and {@code NCCL_TOPO_FILE} reads). XML of another root with a DOCTYPE or ENTITY comes
 * here too, to be refused with a diagnostic at its line instead of being skipped silently.
 */
public final class NcclTopologyReader implements FormatReader {
    public static final String ID = "nccl-topology";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "NCCL topology XML";
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.HOSTS;
    }

    @Override
    public int confidence(Head head) {
        XmlRoot x = XmlRoot.of(head);
        if (x.is("system")) {
            return CERTAIN;
        }
        return x.xml && x.dtd && !x.is("graphs") && !x.is("topology") ? CERTAIN : NONE;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) {
        new NcclXmlImporter().read(in, ctx.source(), ctx.builder(), ctx.cancellation());
    }
}
