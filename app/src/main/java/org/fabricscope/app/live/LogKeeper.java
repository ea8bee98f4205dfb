package org.fabricscope.app.live;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.app.live.source.LogLine;
import org.fabricscope.importers.logs.NcclLogParser;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.FabricModelBuilder;

/**
 * The log lines of a live job kept for re-parsing: per stream the newest lines, and the lines the
 * NCCL parser reads (NCCL, PyTorch, torchrun) kept longer once they age out, within a budget over
 * all streams. {@link #feed} parses them into a model being built, each with its real line number,
 * so evidence cites {@code <prefix>/<pod>/<container>:<line>}. Thread-safe.
 */
public final class LogKeeper {
    private final int budget;
    private final Map<String, Stream> streams = new LinkedHashMap<>();

    private static final class Stream {
        final ArrayDeque<LogLine> recent = new ArrayDeque<>();
        final ArrayDeque<LogLine> relevant = new ArrayDeque<>();
    }

    /** @param budget lines kept over all streams (each stream gets an equal share, at least 500) */
    public LogKeeper(int budget) {
        this.budget = budget;
    }

    public synchronized void add(List<LogLine> lines) {
        for (LogLine l : lines) {
            Stream s = streams.computeIfAbsent(l.source(), k -> new Stream());
            int perStream = Math.max(500, budget / Math.max(1, streams.size()));
            s.recent.addLast(l);
            while (s.recent.size() > perStream) {
                LogLine old = s.recent.removeFirst();
                if (relevant(old.text())) {
                    s.relevant.addLast(old);
                    if (s.relevant.size() > perStream) {
                        s.relevant.removeFirst();
                    }
                }
            }
        }
    }

    /** What the NCCL parser reads: NCCL and PyTorch/torchrun lines (the rest is kept only while recent). */
    static boolean relevant(String text) {
        return text.contains(" NCCL ") || text.contains("ProcessGroupNCCL") || text.contains("torch")
                || text.contains("exitcode") || text.contains("Last error") || text.contains("Signal ");
    }

    /** Lines kept now, over all streams. */
    public synchronized int size() {
        int n = 0;
        for (Stream s : streams.values()) {
            n += s.recent.size() + s.relevant.size();
        }
        return n;
    }

    /** Parses the kept lines into {@code builder}'s training layer, one parser per stream, in line order. */
    public void feed(FabricModelBuilder builder, String sourcePrefix) {
        List<List<LogLine>> copy = new ArrayList<>();
        synchronized (this) {
            for (Stream s : streams.values()) {
                List<LogLine> all = new ArrayList<>(s.relevant.size() + s.recent.size());
                all.addAll(s.relevant);
                all.addAll(s.recent);
                copy.add(all);
            }
        }
        for (List<LogLine> stream : copy) {
            List<Diagnostic> problems = new ArrayList<>();
            NcclLogParser parser = new NcclLogParser(builder.training(), builder.incident(), problems);
            for (LogLine l : stream) {
                parser.line(l.text(), sourcePrefix + l.source(), l.lineNumber());
            }
            parser.finish();
            problems.forEach(builder::diagnostic);
        }
    }
}
