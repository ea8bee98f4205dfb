package org.fabricscope.importers.ibnet;

import java.io.InputStream;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Diagnostic;

/**
 * ibsim's net file: the simulator's input, shaped like ibnetdiscover output but with symbolic
 * node ids ({@code "S-leaf-01"}). Recognised only to say it is skipped: it is not a capture.
 */
public final class IbsimNetReader implements FormatReader {
    public static final String ID = "ibsim-net";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "ibsim net file";
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.SKIPPED;
    }

    @Override
    public int maxConfidence() {
        return 75;
    }

    @Override
    public int confidence(Head head) {
        // above every other infiniband-diags shape: its node lines would otherwise pass for ibnetdiscover's
        return IbHead.of(head).ibsimNet() ? maxConfidence() : NONE;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) {
        ctx.report(Diagnostic.info(ctx.source(), 1, "ibsim net file: the simulator's input, not a capture of the fabric; skipped"));
    }
}
