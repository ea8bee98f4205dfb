package org.fabricscope.importers.logs;

import org.fabricscope.model.core.Evidence;

/**
 * A message held while it may continue on its stream's next lines: {@link TorchLines} keeps one per
 * stream (source and {@code [rankN]:} tag), offers it each next line of its stream, and emits it
 * when it is done, when a line does not continue it, or when it grows past its line limit.
 */
abstract class TorchHeld {
    /** Longest a held message may grow, in lines, before it is emitted as it is. */
    private static final int MAX_LINES = 12;

    final String source;
    final int rank;
    final int line;
    final StringBuilder text = new StringBuilder();
    int lines = 1;
    long lastSeen;
    /**
     * Whether its next lines come without the {@code [rankN]:} tag: a terminal's wrap, and a glog
     * message (tag added once, before the severity) whose text has newlines; a Python traceback
     * printed by a torchrun worker tags every line.
     */
    boolean untagged = true;

    TorchHeld(String source, int rank, int line, String first) {
        this.source = source;
        this.rank = rank;
        this.line = line;
        text.append(first);
    }

    /** Takes {@code l} as part of this message, or false when it is not (the message then ends). */
    abstract boolean offer(String l);

    /** Longest this message may grow, in lines, before it is emitted as it is. */
    int maxLines() {
        return MAX_LINES;
    }

    /** Whether the message is complete and can be emitted now. */
    abstract boolean done();

    abstract void emit(TorchLines t);

    Evidence evidence(TorchLines t) {
        return t.cite(source, line, text.toString().strip());
    }
}
