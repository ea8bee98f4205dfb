package org.fabricscope.importers.logs;

import org.fabricscope.model.core.Evidence;

/**
 * Makes the evidence of a log line the parsers keep: a line of a file ({@link #FILE}), or, for the
 * live job's followed pod logs, a line of a stream with the time the kubelet stamped on it
 * (decision 0013).
 */
@FunctionalInterface
public interface LineCitation {
    LineCitation FILE = Evidence::at;

    Evidence cite(String source, int line, String text);
}
