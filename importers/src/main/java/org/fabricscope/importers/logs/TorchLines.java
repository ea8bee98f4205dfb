package org.fabricscope.importers.logs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.incident.GroupRanks;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.training.NcclEvent;
import org.fabricscope.model.training.TrainingLogBuilder;

/**
 * The PyTorch side of a training log (FORMATS.md §3.6): ProcessGroupNCCL watchdog lines of every
 * era ({@code [Rank N]}, {@code [PG 0 Rank N]}, {@code [PG ID 0 PG GUID 0(default_pg) Rank N]}),
 * flight-recorder notices, NCCL errors with their {@code Last error:} text, aborts, torchrun/elastic
 * failures and the {@code ChildFailedError} summary. Messages that span lines are held per stream
 * (source and {@code [rankN]:} tag) until they end: a line wrapped by a terminal is rejoined with
 * no separator, the lines of a multi-line message with {@code \n}; the event cites the first line.
 * Ordinary lines cost a few {@code indexOf} calls. This class holds the messages and routes each
 * line; each kind of message is read by its own class: {@link TorchWatchdog}, {@link TorchNcclError},
 * {@link TorchChildFailed}, {@link TorchPgNotices} and {@link TorchrunWorkers}.
 */
final class TorchLines {
    /** A held message no line of its stream extended for this many lines of any stream is emitted. */
    private static final int STALE_AFTER = 500;

    private final TrainingLogBuilder log;
    private final List<Diagnostic> diagnostics;
    private final Map<String, TorchHeld> held = new HashMap<>();
    private long seen;
    private final LineCitation citation;
    private final GroupRanks groupRanks = new GroupRanks();

    TorchLines(TrainingLogBuilder log, List<Diagnostic> diagnostics, LineCitation citation) {
        this.log = log;
        this.diagnostics = diagnostics;
        this.citation = citation;
    }

    /**
     * Emits a held message. A number in it past its field's range (a pid, rank or exit code beyond
     * 32 bits, a sequence number beyond 64) skips that message with a diagnostic at its first line.
     */
    private void emit(TorchHeld h) {
        try {
            h.emit(this);
        } catch (Numbers.OutOfRange e) {
            diagnostics.add(Diagnostic.warning(h.source, h.line, e.getMessage() + "; record skipped"));
        }
    }

    // ---- entry points ----

    void line(String l, String source, int lineNumber) {
        seen++;
        int rank = -1;
        String body = l;
        if (l.startsWith("[rank")) { // torch 2.2+: [rank3]:[E...] or [rank3]: Traceback ...
            int close = l.indexOf("]:", 5);
            if (close > 5 && close < 12 && allDigits(l, 5, close)) {
                rank = Integer.parseInt(l, 5, close, 10);
                body = l.substring(close + 2);
                if (body.startsWith(" ")) {
                    body = body.substring(1);
                }
            }
        }
        if (!held.isEmpty()) {
            // A message whose lines carry the [rankN]: tag continues on that rank's lines; a wrapped
            // line continues on untagged ones (a terminal adds no tag), which a tagged line ends.
            if (rank >= 0 && feed(key(source, rank), body, -1)) {
                return;
            }
            if (feed(key(source, -1), rank >= 0 ? l : body, rank)) {
                return;
            }
            if ((seen & 0xff) == 0) {
                expire();
            }
        }
        if (body.indexOf("NCCL") < 0 && body.indexOf("exitcode") < 0 && body.indexOf("ChildFailedError") < 0
                && body.indexOf("ignal") < 0) {
            return;
        }
        start(body, source, lineNumber, rank);
    }

    /** Offers a line to the message held under {@code key}; true when it took it. */
    private boolean feed(String key, String l, int lineRank) {
        TorchHeld h = held.get(key);
        if (h == null) {
            return false;
        }
        if (lineRank >= 0 && h.rank >= 0 && lineRank != h.rank) {
            return false; // another rank's line between a message's lines: neither continues nor ends it
        }
        if (h.lines < h.maxLines() && h.offer(l)) {
            h.lines++;
            h.lastSeen = seen;
            if (h.done()) {
                held.remove(key);
                emit(h);
            }
            return true;
        }
        held.remove(key);
        emit(h);
        return false;
    }

    /** An NCCL line arrived on this source: a held single-line wrap cannot continue across it. */
    void interrupt(String source) {
        if (held.isEmpty()) {
            return;
        }
        TorchHeld h = held.remove(key(source, -1));
        if (h != null) {
            emit(h);
        }
    }

    void finish(String source) {
        for (Iterator<TorchHeld> it = held.values().iterator(); it.hasNext(); ) {
            TorchHeld h = it.next();
            if (source == null ? h.source == null : source.equals(h.source)) {
                it.remove();
                emit(h);
            }
        }
    }

    void finishAll() {
        List<TorchHeld> all = new ArrayList<>(held.values());
        held.clear();
        all.forEach(this::emit);
    }

    private void expire() {
        for (Iterator<TorchHeld> it = held.values().iterator(); it.hasNext(); ) {
            TorchHeld h = it.next();
            if (seen - h.lastSeen > STALE_AFTER) {
                it.remove();
                emit(h);
            }
        }
    }

    private static String key(String source, int rank) {
        return rank < 0 ? String.valueOf(source) : source + "\u0000" + rank;
    }

    private void hold(TorchHeld h) {
        h.lastSeen = seen;
        TorchHeld old = held.put(key(h.source, h.untagged ? -1 : h.rank), h);
        if (old != null) {
            emit(old);
        }
    }

    // ---- what a line starts ----

    private void start(String l, String source, int lineNumber, int rank) {
        if (l.indexOf("ChildFailedError") >= 0) {
            TorchChildFailed c = new TorchChildFailed(source, rank, lineNumber, l, diagnostics, citation);
            c.untagged = rank < 0;
            hold(c);
            return;
        }
        if (l.indexOf("NCCL error") >= 0 || l.indexOf("DistBackendError") >= 0) {
            TorchNcclError e = new TorchNcclError(source, rank, lineNumber, l);
            e.untagged = rank < 0 || TorchPrefix.glogLevel(l) != null;
            hold(e);
            return;
        }
        if (l.indexOf("WorkNCCL(") >= 0 || l.indexOf("Watchdog caught") >= 0 || l.indexOf("ast enqueued") >= 0
                || l.indexOf("watchdog got stuck") >= 0) {
            TorchWatchdog r = new TorchWatchdog(source, rank, lineNumber, l);
            if (r.done()) {
                emit(r);
            } else {
                hold(r);
            }
            return;
        }
        single(l, citation.cite(source, lineNumber, l.strip()), rank);
    }

    /** One-line records: flight recorder, aborts, torchrun failures and signals. */
    void single(String l, Evidence ev, int tagRank) {
        Map<String, String> f = new LinkedHashMap<>();
        int rank = TorchPrefix.pgRank(l, f, tagRank, groupRanks);
        if (!TorchPgNotices.read(this, l, f, rank, ev)) {
            TorchrunWorkers.read(this, l, ev);
        }
    }

    /** The global ranks of the process groups' ranks seen so far in this log. */
    GroupRanks groupRanks() {
        return groupRanks;
    }

    /** The evidence of {@code text}, line {@code line} of {@code source}, as this reader's citation makes it. */
    Evidence cite(String source, int line, String text) {
        return citation.cite(source, line, text);
    }

    void add(NcclEvent.Kind kind, String host, int pid, int rank, String message, Map<String, String> f, Evidence ev) {
        log.addEvent(new NcclEvent(kind, host, pid, rank, message.strip(), f, ev));
    }

    /** A sequence number, count or duration PyTorch prints from a 64-bit unsigned: checked, kept as its text. */
    static String seq(String text, String field) {
        Numbers.unsigned64(text, field);
        return text;
    }

    private static boolean allDigits(String s, int from, int to) {
        for (int i = from; i < to; i++) {
            if (s.charAt(i) < '0' || s.charAt(i) > '9') {
                return false;
            }
        }
        return from < to;
    }
}
