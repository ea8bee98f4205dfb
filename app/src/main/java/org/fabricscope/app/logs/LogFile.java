package org.fabricscope.app.logs;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import org.fabricscope.importers.bundle.BundleReader;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.core.Diagnostic;

/**
 * One loaded log file, browsable without holding its lines as strings: the bytes stay in a read-only
 * memory mapping of the file (or, for a member of a bundle, the entry's bytes, which the bundle reader
 * holds in memory anyway, at most {@link BundleReader#MAX_ENTRY_BYTES}), and an index keeps the byte
 * offset of every {@value #BLOCK}th line: 8 bytes per {@value #BLOCK} lines, 1.25 MB for 10 million lines.
 * A line is decoded (UTF-8, without its terminator, at most {@value #MAX_LINE_CHARS} characters) when
 * asked for, from its block's start; the offsets of the last blocks asked for are cached, so a list
 * scrolling through the file finds each line in a few steps. Indexing reads the file once, on a
 * background thread; afterwards reads are memory accesses, safe from any thread (absolute reads only).
 * Files past {@link #MAX_BYTES} (one mapping) show their first {@link #MAX_BYTES} bytes, and say so.
 * No toolkit.
 */
public final class LogFile {
    /** Lines per index entry. */
    public static final int BLOCK = 64;
    /** The most bytes of one file shown: what one mapping can address. */
    public static final long MAX_BYTES = Integer.MAX_VALUE;
    /** A longer line is cut, with a mark, when shown. */
    public static final int MAX_LINE_CHARS = 10_000;
    private static final int CACHED_BLOCKS = 64;

    private final String source;
    private final ByteBuffer bytes;
    private final long[] blockStarts;
    private final int lines;
    private final long fileBytes;
    private final Map<Integer, int[]> blockCache = new LinkedHashMap<>(CACHED_BLOCKS, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Integer, int[]> e) {
            return size() > CACHED_BLOCKS;
        }
    };

    private LogFile(String source, ByteBuffer bytes, long fileBytes, BooleanSupplier cancelled) {
        this.source = source;
        this.bytes = bytes;
        this.fileBytes = fileBytes;
        int limit = bytes.limit();
        long[] starts = new long[16];
        int n = 0;
        int at = 0;
        while (at < limit) {
            if ((n & (BLOCK - 1)) == 0) {
                if (n / BLOCK == starts.length) {
                    starts = Arrays.copyOf(starts, starts.length * 2);
                }
                starts[n / BLOCK] = at;
                if (cancelled.getAsBoolean()) {
                    throw new java.util.concurrent.CancellationException("indexing " + source + " cancelled");
                }
            }
            at = nextLine(at, limit);
            n++;
        }
        this.lines = n;
        this.blockStarts = Arrays.copyOf(starts, Math.max(1, (n + BLOCK - 1) / BLOCK));
    }

    /** The offset after the line starting at {@code at}: past its {@code \n}, or the end. */
    private int nextLine(int at, int limit) {
        for (int i = at; i < limit; i++) {
            if (bytes.get(i) == '\n') {
                return i + 1;
            }
        }
        return limit;
    }

    /** Maps and indexes a file on disk (a background thread's work). */
    public static LogFile open(Path file, String source, BooleanSupplier cancelled) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            ByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, 0, Math.min(size, MAX_BYTES));
            return new LogFile(source, map, size, cancelled);
        }
    }

    /** Indexes bytes already in memory (a bundle's member). */
    public static LogFile of(String source, byte[] data, BooleanSupplier cancelled) {
        return new LogFile(source, ByteBuffer.wrap(data).asReadOnlyBuffer(), data.length, cancelled);
    }

    /**
     * Opens an input as the importer named it: a file on disk, or a member of a bundle
     * ({@code archive!/entry}, or {@code x.log} read from {@code x.log.gz}), re-read from the archive.
     * A source that is neither says which, naming it.
     */
    public static LogFile load(String source, BooleanSupplier cancelled) throws IOException {
        Path p = Path.of(source);
        if (Files.isRegularFile(p)) {
            return open(p, source, cancelled);
        }
        int bang = source.indexOf("!/");
        Path archive = bang > 0 ? Path.of(source.substring(0, bang)) : Path.of(source + ".gz");
        if (!Files.isRegularFile(archive)) {
            throw new java.nio.file.NoSuchFileException(source, null, "no such file, and no bundle holds it");
        }
        List<ImportSource> entries = new BundleReader(new java.util.ArrayList<Diagnostic>()).expand(archive);
        for (ImportSource s : entries) {
            if (s.name().equals(source)) {
                try (InputStream in = s.open()) {
                    return of(source, in.readNBytes((int) Math.min(BundleReader.MAX_ENTRY_BYTES, Integer.MAX_VALUE - 8)),
                            cancelled);
                }
            }
        }
        throw new java.nio.file.NoSuchFileException(source, null, "not in " + archive + " any more");
    }

    public String source() {
        return source;
    }

    /** The number of lines (a last line without a terminator counts; an empty file has none). */
    public int lineCount() {
        return lines;
    }

    /** Empty, or why not all of the file is shown. */
    public String note() {
        return fileBytes > bytes.limit() ? "only the first " + (bytes.limit() >> 20) + " MiB of " + (fileBytes >> 20)
                + " MiB are shown" : "";
    }

    /** Line {@code index} (0-based), without its terminator. */
    public String line(int index) {
        if (index < 0 || index >= lines) {
            throw new IndexOutOfBoundsException(index + " of " + lines + " lines");
        }
        int[] offsets = block(index / BLOCK);
        int from = offsets[index % BLOCK];
        int to = index % BLOCK + 1 < offsets.length ? offsets[index % BLOCK + 1] : end(index / BLOCK);
        return decode(from, to);
    }

    private int end(int block) {
        return block + 1 < blockStarts.length ? (int) blockStarts[block + 1] : bytes.limit();
    }

    /** The start offsets of a block's lines (synchronized: the list and a filter scan may read at once). */
    private synchronized int[] block(int block) {
        int[] offsets = blockCache.get(block);
        if (offsets == null) {
            int count = Math.min(BLOCK, lines - block * BLOCK);
            offsets = new int[count];
            int at = (int) blockStarts[block];
            int limit = end(block);
            for (int i = 0; i < count; i++) {
                offsets[i] = at;
                at = nextLine(at, limit);
            }
            blockCache.put(block, offsets);
        }
        return offsets;
    }

    private String decode(int from, int to) {
        int end = to;
        if (end > from && bytes.get(end - 1) == '\n') {
            end--;
        }
        if (end > from && bytes.get(end - 1) == '\r') {
            end--;
        }
        boolean cut = end - from > MAX_LINE_CHARS * 4;
        int n = cut ? MAX_LINE_CHARS * 4 : end - from;
        byte[] b = new byte[n];
        bytes.get(from, b, 0, n);
        String s = new String(b, StandardCharsets.UTF_8);
        return s.length() > MAX_LINE_CHARS || cut ? s.substring(0, Math.min(s.length(), MAX_LINE_CHARS)) + " …[line cut]" : s;
    }

    /** What a sequential scan hands over: each line's 0-based index and text. */
    @FunctionalInterface
    public interface LineVisitor {
        /** False stops the scan. */
        boolean line(int index, String text);
    }

    /** Every line in order, from the first; stops when the visitor says so or when cancelled. */
    public void forEach(LineVisitor visitor, BooleanSupplier cancelled) {
        int limit = bytes.limit();
        int at = 0;
        for (int i = 0; i < lines; i++) {
            int next = nextLine(at, limit);
            if (((i & 4095) == 0 && cancelled.getAsBoolean()) || !visitor.line(i, decode(at, next))) {
                return;
            }
            at = next;
        }
    }
}
