package org.fabricscope.model.core;

import java.time.Instant;

/**
 * What supports a finding, of one of three kinds (decision 0013): a {@link FileLine line of a file},
 * a {@link Query query at a time} (a live source's list or poll: which source, which query, when) or
 * a {@link StreamLine line of a live stream} (a followed pod log: which stream, its line, when if
 * known). Each has a {@link #source()} and a {@link #text()}; {@link #where()} says where it was seen
 * for text and Markdown, and the JSON gives {@code source}, {@code line}, {@code text} (as before),
 * {@code kind} and the kind's own fields.
 */
public sealed interface Evidence permits Evidence.FileLine, Evidence.Query, Evidence.StreamLine {
    /** The file, the live source ({@code kube://ctx/ns/pods}) or the stream ({@code kube://ctx/ns/pods/p/c}). */
    String source();

    /** The line's text, or what the query returned about the subject. */
    String text();

    /** The line in the file or the stream, from 1 (0: the file as a whole); 0 for a query, which has no lines. */
    int line();

    /** {@code file}, {@code query} or {@code stream}: the kind as JSON names it. */
    String kind();

    /**
     * Where it was seen, for text and Markdown: {@code file:line} (as always), {@code source [query at
     * time]}, or {@code stream:line at time} ({@code stream:line} when the stream gave no time).
     */
    String where();

    /** The same place (file line, query or stream line, with its time) said with another text. */
    Evidence withText(String text);

    /** A line of a file. */
    static FileLine at(String source, int line, String text) {
        return new FileLine(source, line, text);
    }

    /**
     * A line of a file whose text is packed in {@code store} (one per file read: see {@link LineStore}),
     * or held as it is when the store does not take it.
     */
    static FileLine at(String source, int line, String text, LineStore store) {
        return at(source, line, text, store, false);
    }

    /** As {@link #at(String, int, String, LineStore)}; {@code ascii}: the text is known to be all ASCII. */
    static FileLine at(String source, int line, String text, LineStore store, boolean ascii) {
        String t = text == null ? "" : text;
        int handle = store.add(t, ascii);
        return handle < 0 ? new FileLine(source, line, t) : new FileLine(source, line, null, store, handle);
    }

    /** What {@code query} to {@code source} returned at {@code time} (null: not known). */
    static Query query(String source, String query, Instant time, String text) {
        return new Query(source, query, time, text);
    }

    /** Line {@code line} of a live stream, written at {@code time} (null: the stream did not say). */
    static StreamLine stream(String source, int line, Instant time, String text) {
        return new StreamLine(source, line, time, text);
    }

    /**
     * A line of a file: its name, its line number (0: the whole file) and its text. A value (equal when
     * all three are), as the record it once was; its text is held as a string, or packed in a
     * {@link LineStore} ({@link #at(String, int, String, LineStore)}) and decoded when asked for.
     */
    final class FileLine implements Evidence {
        private final String source;
        private final int line;
        /** The text, or null when it is in {@link #store}. */
        private final String text;
        private final LineStore store;
        private final int handle;

        public FileLine(String source, int line, String text) {
            this(source, line, text == null ? "" : text, null, -1);
        }

        private FileLine(String source, int line, String text, LineStore store, int handle) {
            this.source = source == null ? "" : source;
            this.line = line;
            this.text = text;
            this.store = store;
            this.handle = handle;
        }

        @Override
        public String source() {
            return source;
        }

        @Override
        public int line() {
            return line;
        }

        @Override
        public String text() {
            return text != null ? text : store.text(handle);
        }

        @Override
        public String kind() {
            return "file";
        }

        @Override
        public FileLine withText(String other) {
            return new FileLine(source, line, other);
        }

        @Override
        public String where() {
            return source + ":" + line;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof FileLine f && line == f.line && source.equals(f.source) && text().equals(f.text());
        }

        @Override
        public int hashCode() {
            return (source.hashCode() * 31 + Integer.hashCode(line)) * 31 + text().hashCode();
        }

        @Override
        public String toString() {
            return "FileLine[source=" + source + ", line=" + line + ", text=" + text() + "]";
        }
    }

    /** A query to a live source at a time: {@code list pods in namespace team-a} at 12:03:07Z. */
    record Query(String source, String query, Instant time, String text) implements Evidence {
        public Query {
            source = source == null ? "" : source;
            query = query == null ? "" : query;
            text = text == null ? "" : text;
        }

        @Override
        public int line() {
            return 0;
        }

        @Override
        public String kind() {
            return "query";
        }

        @Override
        public Query withText(String other) {
            return new Query(source, query, time, other);
        }

        @Override
        public String where() {
            return source + " [" + query + (time == null ? "" : " at " + time) + "]";
        }
    }

    /** A line of a live stream (a followed container log): the stream, the line's number in it, when it was written. */
    record StreamLine(String source, int line, Instant time, String text) implements Evidence {
        public StreamLine {
            source = source == null ? "" : source;
            text = text == null ? "" : text;
        }

        @Override
        public String kind() {
            return "stream";
        }

        @Override
        public StreamLine withText(String other) {
            return new StreamLine(source, line, time, other);
        }

        @Override
        public String where() {
            return source + ":" + line + (time == null ? "" : " at " + time);
        }
    }
}
