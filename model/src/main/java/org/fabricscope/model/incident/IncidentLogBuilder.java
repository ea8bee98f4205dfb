package org.fabricscope.model.incident;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collects what the log readers' {@link LineScanner}s found, one scanner per file or stream.
 * Readers on several threads each get their own scanner; the scanners' results are added here
 * under a lock, and {@link #build()} orders them by source and line.
 */
public final class IncidentLogBuilder {
    /** Matches kept at most: a log that repeats one failure a million times says it no better. */
    public static final int MAX_MATCHES = 200_000;
    private final java.util.Set<String> capped = new java.util.LinkedHashSet<>();
    private final List<SignatureMatch> matches = new ArrayList<>();
    private final Map<String, LogSource> sources = new LinkedHashMap<>();
    private final SignatureCatalogue catalogue;
    private int dropped;

    public IncidentLogBuilder() {
        this(null);
    }

    /** A builder whose scanners use {@code catalogue} (null: the {@linkplain SignatureCatalogue#active() active} one). */
    public IncidentLogBuilder(SignatureCatalogue catalogue) {
        this.catalogue = catalogue;
    }

    /** A scanner for one log file or stream; call {@link LineScanner#close()} when it ends. */
    public LineScanner scanner(String source, boolean kernel) {
        return new LineScanner(this, catalogue != null ? catalogue : SignatureCatalogue.active(), source, kernel);
    }

    synchronized void add(List<SignatureMatch> found, LogSource source) {
        int room = MAX_MATCHES - matches.size();
        if (found.size() > room) {
            dropped += found.size() - Math.max(0, room);
            found = found.subList(0, Math.max(0, room));
        }
        matches.addAll(found);
        LogSource old = sources.get(source.name());
        if (old == null) {
            sources.put(source.name(), source);
        } else { // a stream read again (a live pod's log after a reconnect): lines add up
            java.util.Set<String> procs = new java.util.LinkedHashSet<>(old.processes()); // sets: thousands of ranks
            procs.addAll(source.processes());
            java.util.Set<Integer> ranks = new java.util.LinkedHashSet<>(old.ranks());
            ranks.addAll(source.ranks());
            sources.put(source.name(), new LogSource(source.name(), Math.max(old.lines(), source.lines()),
                    old.first().known() ? old.first() : source.first(), source.last().known() ? source.last() : old.last(),
                    new ArrayList<>(procs), new ArrayList<>(ranks), old.kernel() || source.kernel()));
        }
    }

    /**
     * Events a live source observed without a log line (a counter that rose between two samples of a
     * Prometheus query): matches made by the source with {@link Signature#match}, each citing its query
     * and time, under the source's name ({@code prometheus://host:9090}). Kept within {@link #MAX_MATCHES}.
     */
    public void observed(String source, List<SignatureMatch> found) {
        Stamp first = found.stream().map(SignatureMatch::stamp).filter(Stamp::known).min(Stamp::compareTo).orElse(Stamp.NONE);
        Stamp last = found.stream().map(SignatureMatch::stamp).filter(Stamp::known).max(Stamp::compareTo).orElse(Stamp.NONE);
        add(new ArrayList<>(found), new LogSource(source, 0, first, last, List.of(), List.of(), false));
    }

    /** Matches left out past {@link #MAX_MATCHES}. */
    public synchronized int dropped() {
        return dropped;
    }

    /** A file whose processes or rank tags went past {@link LineScanner#MAX_PROCESSES}: those past it were left out. */
    synchronized void capped(String source) {
        capped.add(source);
    }

    /** The files whose processes or rank tags went past {@link LineScanner#MAX_PROCESSES}, in the order read. */
    public synchronized List<String> cappedSources() {
        return List.copyOf(capped);
    }

    public synchronized boolean isEmpty() {
        return matches.isEmpty() && sources.isEmpty();
    }

    public synchronized IncidentLog build() {
        return new IncidentLog(matches, new ArrayList<>(sources.values()));
    }
}
