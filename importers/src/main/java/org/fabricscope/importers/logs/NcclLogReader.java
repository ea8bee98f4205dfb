package org.fabricscope.importers.logs;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Diagnostic;

/**
 * NCCL {@code NCCL_DEBUG=INFO} output and the PyTorch / torchrun lines around it (per-rank files,
 * launcher output, {@code kubectl logs}), read by {@link NcclLogParser}, one parser per file.
 */
public final class NcclLogReader implements FormatReader {
    public static final String ID = "nccl-log";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "NCCL / PyTorch log";
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.LOGS;
    }

    @Override
    public int maxConfidence() {
        return 85;
    }

    @Override
    public int confidence(Head head) {
        int first = firstConfidence(head);
        return first != NONE ? first : lateConfidence(head);
    }

    @Override
    public int firstConfidence(Head head) {
        // an NCCL INFO/WARN prefix or a ProcessGroupNCCL/torch.distributed line; below the formats that
        // declare themselves (XML, kubectl objects), which can quote log lines, above nvidia-smi's
        // matrix, which logs often print
        return !head.jsonDocument() && NcclLogParser.looksLikeLog(head.lines()) ? maxConfidence() : NONE;
    }

    @Override
    public int lateCeiling() {
        return SIGNATURE_CONFIDENCE;
    }

    /**
     * A log without NCCL lines in its head, read for its step times or a failure the catalogue knows: asked
     * only when no surer format claimed the head (the catalogue is loaded for it, and every line matched).
     */
    @Override
    public int lateConfidence(Head head) {
        if (head.jsonDocument()) {
            return NONE;
        }
        // a training log without NCCL lines (NCCL_DEBUG unset) whose head already shows a trainer's step line
        // (Megatron, DeepSpeed, Hugging Face, Lightning, torchtitan, nanoGPT, a step time): read for its step times
        if (head.lines().stream().anyMatch(l -> StepTimeLines.parse(l).isPresent())) {
            return SIGNATURE_CONFIDENCE;
        }
        // a training log without NCCL or torch.distributed lines in its head (a pod that died of CUDA out of
        // memory, a DataLoader bus error, a rendezvous timeout): read when a line of it is a known failure of
        // NCCL or PyTorch; below the kernel log's reader, whose lines the catalogue also knows
        return failureLine(head.lines()) ? SIGNATURE_CONFIDENCE : NONE;
    }

    /** How sure a log whose head holds only a failure signature's line is: below the kernel log's 60. */
    static final int SIGNATURE_CONFIDENCE = 50;

    /** Words one of which every failure line the catalogue knows holds, in practice: a head without any is not read further. */
    private static final java.util.regex.Pattern FAILURE_WORDS = java.util.regex.Pattern.compile(
            "rror|ailed|ailure|ill|xception|imed? ?out|Traceback|emory|OOM|Xid|cannot|Unable|unable|refused|reset|abort|Abort|exit");

    private static boolean failureLine(java.util.List<String> lines) {
        if (lines.stream().noneMatch(l -> FAILURE_WORDS.matcher(l).find())) {
            return false; // no need to load the catalogue to know
        }
        for (String l : lines) {
            // a document or a program that quotes failure messages is not a log of them
            if (l.startsWith("# ") || l.startsWith("## ") || l.startsWith("| ") || l.startsWith("```") || l.startsWith("import ")
                    || l.startsWith("def ") || l.startsWith("from ") || l.startsWith("#!")) {
                return false;
            }
        }
        org.fabricscope.model.incident.SignatureCatalogue.Matcher m = org.fabricscope.model.incident.SignatureCatalogue.active()
                .matcher(org.fabricscope.model.incident.Target.LOG);
        for (String l : lines) {
            org.fabricscope.model.incident.SignatureCatalogue.Hit h = m.first(l);
            if (h != null && !h.signature().source().equals("kernel") && !h.signature().source().equals("kubernetes")) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        List<Diagnostic> problems = new ArrayList<>();
        NcclLogParser parser = new NcclLogParser(ctx.builder().training(), ctx.builder().incident(), problems);
        try {
            parser.read(ctx.lines(in), ctx.source(), ctx.cancellation());
        } catch (ImportCancelledException e) {
            throw e;
        } catch (RuntimeException e) {
            // keep what the lines before the failure said: messages held for their next line, channels
            // waiting for the Init line that names their communicator
            try {
                parser.finish(ctx.source());
            } catch (RuntimeException again) {
                e.addSuppressed(again);
            }
            throw e;
        } finally {
            problems.forEach(ctx::report);
        }
    }
}
