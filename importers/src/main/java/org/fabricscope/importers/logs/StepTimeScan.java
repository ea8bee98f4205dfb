package org.fabricscope.importers.logs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.training.StepTime;
import org.fabricscope.model.training.TrainingLogBuilder;

/**
 * The step-time scan of a log parser's lines ({@link StepTimeLines}), per source: Megatron's timer block over
 * its lines, the Hugging Face training bar told from its evaluation bars, a progress bar redrawn at the same
 * step kept once, and the host. The step times of a source reach the builder when it ends
 * ({@link #finish(String)}), when the host is known: the pod of a {@code kubectl logs --prefix} tag, else the
 * one host the source's NCCL lines name (none when they name several). Not thread-safe: one per parser.
 */
final class StepTimeScan {
    private final TrainingLogBuilder log;
    private final Map<String, Source> sources = new LinkedHashMap<>();
    private String lastName;
    private Source last;

    /** One step line read, placed when its source ends. */
    private record Pending(StepLine step, int line, String text) {
    }

    /** What one source showed so far. */
    private static final class Source {
        final MegatronTimers timers = new MegatronTimers();
        long megatronStep = -1;
        /** Hugging Face's {@code Total optimization steps = N}: the training bar's total. */
        long hfTotal = -1;
        /** The total of the first progress bar without a description, when no Hugging Face total was read. */
        long firstBarTotal = Long.MIN_VALUE;
        /** Whether the source is a Hugging Face Trainer's (its totals line, loss dicts or run summary). */
        boolean hf;
        String ncclHost;
        boolean manyHosts;
        final Map<String, Long> lastStep = new HashMap<>();
        final List<Pending> pending = new ArrayList<>();
    }

    private final LineCitation citation;

    StepTimeScan(TrainingLogBuilder log, LineCitation citation) {
        this.log = log;
        this.citation = citation;
    }

    private Source source(String name) {
        if (last == null || !name.equals(lastName)) {
            lastName = name;
            last = sources.computeIfAbsent(name, k -> new Source());
        }
        return last;
    }

    /** An NCCL line of {@code source} named {@code host}. */
    void ncclHost(String source, String host) {
        Source s = source(key(source));
        if (s.ncclHost == null) {
            s.ncclHost = host;
        } else if (!s.manyHosts && !s.ncclHost.equals(host)) {
            s.manyHosts = true;
        }
    }

    /** One line of {@code source} (not an NCCL line). */
    void line(String raw, String source, int lineNumber) {
        Source s = source(key(source));
        if (s.timers.open()) {
            StepPrefix p = StepPrefix.of(raw);
            List<StepLine> out = new ArrayList<>(2);
            if (s.timers.offer(p, s.megatronStep, out)) {
                for (StepLine x : out) {
                    keep(s, x, lineNumber, p);
                }
                return;
            }
        }
        if (!StepTimeLines.mayHold(raw)) {
            if (raw.indexOf("{'loss'") >= 0 || raw.indexOf("optimization steps = ") >= 0) {
                hfLine(s, raw);
            }
            return;
        }
        StepPrefix p = StepPrefix.of(raw);
        if (p.text.indexOf("across ranks (ms):") >= 0 && s.timers.header(p)) {
            return;
        }
        StepLine x = StepTimeLines.parse(p);
        if (x == null) {
            return;
        }
        switch (x.format()) {
            case "megatron" -> s.megatronStep = x.step();
            case "hf-trainer-summary" -> s.hf = true;
            case "tqdm" -> {
                if (!trainingBar(s, x)) {
                    return;
                }
            }
            default -> {
            }
        }
        keep(s, x, lineNumber, p);
    }

    /** Hugging Face's {@code   Total optimization steps = 1,000} (its training bar's total) or a logged loss dict. */
    private static void hfLine(Source s, String raw) {
        s.hf = true;
        int at = raw.indexOf("Total optimization steps = ");
        if (at >= 0) {
            StepCursor c = new StepCursor(raw, at + 27);
            long total = c.integer();
            if (c.ok && total > 0) {
                s.hfTotal = total;
            }
        }
    }

    /** Whether a bar without a description is the training bar: its total is the run's steps (or the first bar's). */
    private static boolean trainingBar(Source s, StepLine x) {
        if (s.hfTotal > 0) {
            return x.total() == s.hfTotal;
        }
        if (s.firstBarTotal == Long.MIN_VALUE) {
            s.firstBarTotal = x.total();
        }
        return x.total() == s.firstBarTotal;
    }

    private static void keep(Source s, StepLine x, int lineNumber, StepPrefix p) {
        if (x.step() >= 0) {
            String key = x.format() + '/' + x.rank() + '/' + x.localRank();
            Long before = s.lastStep.put(key, x.step());
            if (before != null && before == x.step()) {
                return; // a progress bar redrawn at the same step
            }
        }
        s.pending.add(new Pending(x, lineNumber, p.text.strip()));
    }

    /** The source ended: its step times go to the builder, with the host. */
    void finish(String source) {
        Source s = sources.remove(key(source));
        if (s == null) {
            return;
        }
        if (s == last) {
            last = null;
        }
        String host = s.manyHosts || s.ncclHost == null ? "" : s.ncclHost;
        for (Pending pd : s.pending) {
            StepLine x = pd.step();
            boolean cross = x.format().startsWith("megatron-timers"); // the last rank's report of other ranks
            String h = !x.pod().isEmpty() ? x.pod() : cross ? "" : host;
            String format = s.hf && x.format().equals("tqdm") ? "hf-trainer" : x.format();
            log.addStepTime(new StepTime(key(source), pd.line(), h, x.rank(), x.localRank(), x.step(),
                    x.stepMs(), x.throughput(), x.throughputUnit(), x.epochMillis(), format,
                    citation.cite(source, pd.line(), pd.text())));
        }
    }

    private static String key(String source) {
        return source == null ? "" : source;
    }

    /** All input ended. */
    void finishAll() {
        for (String name : new ArrayList<>(sources.keySet())) {
            finish(name);
        }
    }
}
