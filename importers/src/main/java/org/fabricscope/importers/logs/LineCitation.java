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

    /**
     * Lines of a file whose texts are packed in one {@link org.fabricscope.model.core.LineStore} (a parser
     * of a log of thousands of ranks cites hundreds of thousands of lines): one per file read, used by one
     * thread.
     */
    static LineCitation packedFile() {
        org.fabricscope.model.core.LineStore store = new org.fabricscope.model.core.LineStore();
        return new LineCitation() {
            @Override
            public Evidence cite(String source, int line, String text) {
                return Evidence.at(source, line, text, store);
            }

            @Override
            public Evidence cite(String source, int line, String text, boolean ascii) {
                return Evidence.at(source, line, text, store, ascii);
            }
        };
    }

    Evidence cite(String source, int line, String text);

    /**
     * As {@link #cite(String, int, String)}; {@code ascii}: the text is known to be all ASCII (what a store may skip
     * checking).
     */
    default Evidence cite(String source, int line, String text, boolean ascii) {
        return cite(source, line, text);
    }
}
