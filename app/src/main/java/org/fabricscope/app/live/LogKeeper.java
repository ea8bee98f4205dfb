package org.fabricscope.app.live;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.app.live.source.LogLine;
import org.fabricscope.importers.logs.LineCitation;
import org.fabricscope.importers.logs.NcclLogParser;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.FabricModelBuilder;

/**
 * The log lines of a live job kept for re-parsing: per stream the newest lines, and the lines the
 * NCCL parser reads (NCCL, PyTorch, torchrun) kept longer once they age out, within a budget over
 * all streams. {@link #feed} parses them into a model being built, each with its real line number,
 * so evidence cites {@code <prefix>/<pod>/<container>:<line>} as a line of a stream, with its time. Thread-safe.
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

    /** The time of line {@code line} of a stream kept in line order, or null when unknown (no timestamp, not kept). */
    static Instant timeOf(List<LogLine> stream, int line) {
        int lo = 0;
        int hi = stream.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int at = stream.get(mid).lineNumber();
            if (at < line) {
                lo = mid + 1;
            } else if (at > line) {
                hi = mid - 1;
            } else {
                LogLine l = stream.get(mid);
                return l.epochNanos() == 0 ? null : l.timestamp();
            }
        }
        return null;
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
            // evidence from these lines is a line of a live stream, with the kubelet's time of the line
            LineCitation cite = (source, line, text) -> Evidence.stream(source, line, timeOf(stream, line), text);
            NcclLogParser parser = new NcclLogParser(builder.training(), builder.incident(), problems, cite);
            for (LogLine l : stream) {
                parser.line(l.text(), sourcePrefix + l.source(), l.lineNumber());
            }
            parser.finish();
            problems.forEach(builder::diagnostic);
        }
    }
}
