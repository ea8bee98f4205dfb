package org.fabricscope.importers.ibnet;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.diagnosis.ErrorThresholds;

/**
 * infiniband-diags' {@code error_thresholds} file ({@code SymbolErrorCounter=10} lines, what
 * {@code ibqueryerrors --threshold-file} reads): the thresholds of the import.
 */
public final class ErrorThresholdsReader implements FormatReader {
    public static final String ID = "error-thresholds";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "error_thresholds";
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.NAMES_AND_THRESHOLDS;
    }

    @Override
    public int maxConfidence() {
        return 30;
    }

    @Override
    public int confidence(Head head) {
        IbHead h = IbHead.of(head);
        return !h.prose() && h.thresholds > 0 ? maxConfidence() : NONE; // Name=value lines of the physical error counters
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        List<Diagnostic> problems = new ArrayList<>();
        try {
            ctx.setThresholds(ErrorThresholds.parse(new InputStreamReader(in, StandardCharsets.UTF_8), ctx.source(),
                    problems));
        } finally {
            problems.forEach(ctx::report);
        }
    }
}
