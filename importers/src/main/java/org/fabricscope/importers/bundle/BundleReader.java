package org.fabricscope.importers.bundle;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.function.LongSupplier;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import org.fabricscope.importers.core.CountingInputStream;
import org.fabricscope.importers.core.ImportSource;
import org.tukaani.xz.MemoryLimitException;
import org.tukaani.xz.XZInputStream;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.NaturalOrder;

/**
 * Turns what the user named (files, folders, {@code .tar.gz}, {@code .tgz}, {@code .tar.xz},
 * {@code .txz}, {@code .tar}, {@code .zip}, {@code .gz}, {@code .xz}) into the list of files to read. Archives are recognised by their
 * magic bytes and read in memory, never extracted to disk, so entry names like {@code ../x} are
 * harmless. Against archive bombs every entry is measured on its own: its size
 * ({@link #MAX_ENTRY_BYTES}) and how many times its compressed bytes it expands to
 * ({@link #MAX_RATIO}, past {@link #RATIO_FLOOR}), each a diagnostic naming the entry and the limit;
 * the entries kept add up to at most {@link #MAX_TOTAL_BYTES}, and at most {@link #MAX_ENTRIES}
 * are read. An entry larger than the limit is skipped by reading through it, up to
 * {@link #MAX_SKIP_BYTES}; past that the rest of the archive is not read. Symbolic links inside
 * folders are not followed.
 */
public final class BundleReader {
    /** The largest entry kept (uncompressed). */
    public static final long MAX_ENTRY_BYTES = 256L << 20;
    /** All entries kept, together (they are held in memory). */
    public static final long MAX_TOTAL_BYTES = 1L << 30;
    /** Text dumps compress 10-30x; an entry expanding more than this from its own compressed bytes is a bomb. */
    public static final long MAX_RATIO = 200;
    /** Entries smaller than this are not judged by their ratio (a tiny file of zeros is no bomb). */
    public static final long RATIO_FLOOR = 16L << 20;
    /** The most bytes inflated to step over one refused entry; past it the archive's rest is not read. */
    public static final long MAX_SKIP_BYTES = 2L << 30;
    public static final int MAX_ENTRIES = 100_000;
    private static final int MAX_DEPTH = 16;
    private static final int CHUNK = 1 << 20;
    /** Memory the xz decoder may use, in KiB: {@code xz -9} needs about 65 MiB; more is refused, not allocated. */
    static final int XZ_MEMORY_LIMIT_KIB = 128 * 1024;

    private final List<Diagnostic> diagnostics;
    private long totalBytes;
    private int entries;

    public BundleReader(List<Diagnostic> diagnostics) {
        this.diagnostics = diagnostics;
    }

    /** The files under {@code path}, in natural name order; problems go to the diagnostics. */
    public List<ImportSource> expand(Path path) {
        List<ImportSource> out = new ArrayList<>();
        String name = path.toString();
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS) && !Files.exists(path)) {
            diagnostics.add(Diagnostic.error(name, 0, "no such file or folder"));
            return out;
        }
        if (Files.isDirectory(path)) {
            try (Stream<Path> s = Files.walk(path, MAX_DEPTH, new FileVisitOption[0])) {
                List<Path> files = s.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                        .filter(p -> !isHidden(path.relativize(p)))
                        .sorted((a, b) -> NaturalOrder.INSTANCE.compare(a.toString(), b.toString()))
                        .toList();
                for (Path f : files) {
                    expandFile(f, out, false);
                }
            } catch (IOException | java.io.UncheckedIOException e) {
                diagnostics.add(Diagnostic.error(name, 0, "cannot list folder: " + message(e)));
            }
            return out;
        }
        if (!Files.isRegularFile(path)) {
            // A named pipe would block the read until a writer comes (forever, for a stray FIFO);
            // a socket or device is no capture either.
            diagnostics.add(Diagnostic.error(name, 0,
                    "not a regular file (a named pipe, socket or device); not read: save the output to a file first"));
            return out;
        }
        if (!Files.isReadable(path)) {
            diagnostics.add(Diagnostic.error(name, 0, "file is not readable (permissions?)"));
            return out;
        }
        expandFile(path, out, true);
        return out;
    }

    private static boolean isHidden(Path rel) {
        for (Path part : rel) {
            String s = part.toString();
            if (s.startsWith(".") || s.equals("__MACOSX")) {
                return true;
            }
        }
        return false;
    }

    private void expandFile(Path f, List<ImportSource> out, boolean named) {
        String name = f.toString();
        // the first bytes read straight, not through a buffered stream: a folder of 1,024 flight recorder
        // dumps allocated 8 MB of buffers (and their page faults) to look at 512 bytes of each
        try (InputStream raw = Files.newInputStream(f)) {
            byte[] head = raw.readNBytes(512);
            ArchiveKind kind = kindOf(head);
            if (kind == ArchiveKind.NONE) {
                long size = Files.size(f);
                out.add(new ImportSource(name, size, () -> Files.newInputStream(f), named));
                return;
            }
            // an archive is read from a stream of its own: the file's stream skips by seeking (a tar's entries
            // that are not read), where one that replays the first bytes would read through them
            try (InputStream in = new BufferedInputStream(Files.newInputStream(f))) {
                readArchive(kind, in, name, out);
            }
        } catch (IOException e) {
            diagnostics.add(Diagnostic.error(name, 0, "cannot read: " + message(e)));
        }
    }

    private enum ArchiveKind { NONE, GZIP, XZ, ZIP, TAR }

    /** Looks at the first bytes without consuming them (the stream must support mark). */
    private static ArchiveKind sniff(InputStream in) throws IOException {
        in.mark(600);
        byte[] head = in.readNBytes(512);
        in.reset();
        return kindOf(head);
    }

    /** The archive format whose magic the first (up to 512) bytes hold. */
    private static ArchiveKind kindOf(byte[] head) {
        if (head.length >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b) {
            return ArchiveKind.GZIP;
        }
        if (head.length >= 6 && (head[0] & 0xff) == 0xfd && head[1] == '7' && head[2] == 'z' && head[3] == 'X'
                && head[4] == 'Z' && head[5] == 0) {
            return ArchiveKind.XZ;
        }
        if (head.length >= 4 && head[0] == 'P' && head[1] == 'K' && head[2] == 3 && head[3] == 4) {
            return ArchiveKind.ZIP;
        }
        if (TarReader.looksLikeTar(head)) {
            return ArchiveKind.TAR;
        }
        return ArchiveKind.NONE;
    }

    private void readArchive(ArchiveKind kind, InputStream in, String name, List<ImportSource> out) {
        int before = out.size();
        try {
            switch (kind) {
                case GZIP -> {
                    CountingGzip gzip = new CountingGzip(in);
                    readCompressed(new BufferedInputStream(gzip, 65536), name, ".gz", gzip::compressedBytes, out);
                }
                case XZ -> {
                    CountingInputStream raw = new CountingInputStream(in);
                    readCompressed(new BufferedInputStream(new XZInputStream(raw, XZ_MEMORY_LIMIT_KIB), 65536), name, ".xz",
                            raw::count, out);
                }
                case TAR -> readTar(in, name, out, () -> -1);
                case ZIP -> readZip(in, name, out);
                default -> { }
            }
        } catch (MemoryLimitException e) {
            diagnostics.add(Diagnostic.error(name, 0, "xz archive needs " + e.getMemoryNeeded() / 1024
                    + " MiB to decompress, more than the " + XZ_MEMORY_LIMIT_KIB / 1024 + " MiB allowed; kept the "
                    + (out.size() - before) + " entries read before it"));
        } catch (IOException e) {
            diagnostics.add(Diagnostic.error(name, 0, "archive is damaged or truncated: " + message(e)
                    + "; kept the " + (out.size() - before) + " entries read before it"));
        } catch (IllegalArgumentException e) {
            // ZipInputStream throws this for an entry name that is not valid UTF-8 (found by ReaderFuzzTest)
            diagnostics.add(Diagnostic.error(name, 0, "archive is damaged: an entry name is not valid text"
                    + "; kept the " + (out.size() - before) + " entries read before it"));
        } catch (IndexOutOfBoundsException | IllegalStateException e) {
            // the decompressors' own checks should say CorruptedInput; should one miss, the bundle is still damaged, not a crash
            diagnostics.add(Diagnostic.error(name, 0, "archive is damaged: its compressed data cannot be decoded"
                    + "; kept the " + (out.size() - before) + " entries read before it"));
        }
    }

    /** A gzip or xz stream: a tar inside, or one compressed file (named as the archive less its suffix). */
    private void readCompressed(InputStream data, String name, String suffix, LongSupplier compressed, List<ImportSource> out)
            throws IOException {
        ArchiveKind inner = sniff(data);
        if (inner == ArchiveKind.TAR) {
            readTar(data, name, out, compressed);
        } else if (inner == ArchiveKind.NONE) {
            String entry = name.endsWith(suffix) ? name.substring(0, name.length() - suffix.length()) : name + "!";
            Chunks chunks = readCapped(data, entry, compressed);
            if (chunks != null) {
                out.add(new ImportSource(entry, chunks.size(), chunks::open));
            }
        } else {
            diagnostics.add(Diagnostic.warning(name, 0, "archive inside a " + suffix.substring(1)
                    + " file other than tar is not read"));
        }
    }

    private void readTar(InputStream in, String name, List<ImportSource> out, LongSupplier compressed) throws IOException {
        TarReader tar = new TarReader(in);
        TarReader.Entry e;
        while ((e = tar.next()) != null) {
            String entryName = name + "!/" + e.name();
            if (e.refused() != null) {
                diagnostics.add(Diagnostic.warning(entryName, 0, e.refused()));
                if (!skippable(entryName, e.size())) {
                    return;
                }
                continue;
            }
            if (!e.regularFile() || isHiddenEntry(e.name())) {
                if (e.size() > MAX_SKIP_BYTES && !skippable(entryName, e.size())) {
                    return;
                }
                continue;
            }
            if (!countEntry(name)) {
                return;
            }
            if (e.size() > MAX_ENTRY_BYTES) {
                diagnostics.add(Diagnostic.warning(entryName, 0, "entry of " + mib(e.size()) + " is larger than "
                        + mib(MAX_ENTRY_BYTES) + " (the per-entry limit): skipped"));
                if (!skippable(entryName, e.size())) {
                    return;
                }
                continue;
            }
            Chunks data = readCapped(tar.content(), entryName, compressed);
            if (data == null) {
                if (!skippable(entryName, tar.remaining())) {
                    return;
                }
                continue;
            }
            addEntry(entryName, data, out);
        }
    }

    /** Whether stepping over {@code bytes} more of a refused entry is within {@link #MAX_SKIP_BYTES}; said when not. */
    private boolean skippable(String entryName, long bytes) {
        if (bytes <= MAX_SKIP_BYTES) {
            return true;
        }
        diagnostics.add(Diagnostic.error(entryName, 0, "the rest of the archive lies behind " + mib(bytes)
                + " of this entry, more than " + mib(MAX_SKIP_BYTES) + " to step over: stopped reading the archive"));
        return false;
    }

    private void readZip(InputStream in, String name, List<ImportSource> out) throws IOException {
        try (CountingZip zip = new CountingZip(in)) {
            ZipEntry e;
            while ((e = zip.getNextEntry()) != null) {
                if (e.isDirectory() || isHiddenEntry(e.getName())) {
                    continue;
                }
                if (!countEntry(name)) {
                    return;
                }
                String entryName = name + "!/" + e.getName();
                if (e.getSize() > MAX_ENTRY_BYTES) {
                    diagnostics.add(Diagnostic.warning(entryName, 0, "entry of " + mib(e.getSize()) + " is larger than "
                            + mib(MAX_ENTRY_BYTES) + " (the per-entry limit): skipped"));
                    continue;
                }
                Chunks data = readCapped(zip, entryName, e.getMethod() == ZipEntry.STORED ? () -> -1 : zip::compressedBytes);
                if (data != null) {
                    addEntry(entryName, data, out);
                }
            }
        }
    }

    /** An archive inside an archive (a bundle of per-host tarballs) is opened too, once. */
    private void addEntry(String entryName, Chunks data, List<ImportSource> out) throws IOException {
        InputStream in = new BufferedInputStream(data.open());
        ArchiveKind kind = sniff(in);
        if (kind == ArchiveKind.NONE || entryName.chars().filter(c -> c == '!').count() > 1) {
            out.add(new ImportSource(entryName, data.size(), data::open));
        } else {
            totalBytes -= data.size(); // the archive's entries count instead
            readArchive(kind, in, entryName, out);
        }
    }

    private static boolean isHiddenEntry(String entry) {
        for (String part : entry.split("/")) {
            if (part.startsWith(".") && !part.equals(".") || part.equals("__MACOSX")) {
                return true;
            }
        }
        return false;
    }

    private boolean countEntry(String archive) {
        if (++entries > MAX_ENTRIES) {
            diagnostics.add(Diagnostic.error(archive, 0, "more than " + MAX_ENTRIES + " entries; stopped reading"));
            return false;
        }
        return true;
    }

    /**
     * Reads one entry into memory, or returns null (with a diagnostic naming the entry and the limit)
     * when it grows past {@link #MAX_ENTRY_BYTES}, past {@link #MAX_TOTAL_BYTES} with the entries kept
     * before it, or past {@link #MAX_RATIO} times the compressed bytes it was inflated from
     * ({@code compressed} counts them; -1 for an entry that is stored uncompressed). The caller
     * steps over what is left of it.
     */
    private Chunks readCapped(InputStream in, String entryName, LongSupplier compressed) throws IOException {
        Chunks data = new Chunks();
        long start = compressed.getAsLong();
        byte[] buf = new byte[65536];
        long n = 0;
        int r;
        while ((r = in.read(buf)) > 0) {
            n += r;
            long packed = compressed.getAsLong() - start;
            if (start >= 0 && n > RATIO_FLOOR && n > MAX_RATIO * Math.max(1, packed)) {
                diagnostics.add(Diagnostic.error(entryName, 0, "expands more than " + MAX_RATIO + " times its "
                        + "compressed size (" + mib(n) + " from " + kib(packed) + " so far, the per-entry limit): "
                        + "skipped, as an archive bomb"));
                return null;
            }
            if (n > MAX_ENTRY_BYTES) {
                diagnostics.add(Diagnostic.error(entryName, 0, "expands past " + mib(MAX_ENTRY_BYTES)
                        + " (the per-entry limit): skipped, as an archive bomb"));
                return null;
            }
            if (totalBytes + n > MAX_TOTAL_BYTES) {
                diagnostics.add(Diagnostic.error(entryName, 0, "the entries read add up to more than "
                        + mib(MAX_TOTAL_BYTES) + " (the limit for all entries together): skipped, as an archive bomb"));
                return null;
            }
            data.write(buf, r);
        }
        totalBytes += n;
        return data.trim();
    }

    private static String mib(long bytes) {
        return bytes >= 10L << 20 ? (bytes >> 20) + " MiB" : String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / 1048576.0);
    }

    private static String kib(long bytes) {
        return bytes >= 10L << 20 ? mib(bytes) : ((bytes + 1023) >> 10) + " KiB";
    }

    /** An entry's bytes in 1 MiB chunks: no doubling copies while it grows, each open() a fresh stream. */
    private static final class Chunks {
        private final List<byte[]> chunks = new ArrayList<>();
        private int last;
        private long size;

        void write(byte[] b, int len) {
            int off = 0;
            while (off < len) {
                if (chunks.isEmpty()) {
                    chunks.add(new byte[Math.min(CHUNK, Math.max(len, 8192))]);
                    last = 0;
                }
                byte[] c = chunks.get(chunks.size() - 1);
                if (last == c.length) {
                    if (c.length < CHUNK) {
                        c = java.util.Arrays.copyOf(c, Math.min(CHUNK, c.length * 2)); // only the first chunk grows
                        chunks.set(chunks.size() - 1, c);
                    } else {
                        c = new byte[CHUNK];
                        chunks.add(c);
                        last = 0;
                    }
                }
                int k = Math.min(len - off, c.length - last);
                System.arraycopy(b, off, c, last, k);
                last += k;
                off += k;
                size += k;
            }
        }

        /** Gives back the unused end of the last chunk. */
        Chunks trim() {
            if (!chunks.isEmpty()) {
                byte[] c = chunks.get(chunks.size() - 1);
                if (c.length - last > 65536) {
                    chunks.set(chunks.size() - 1, java.util.Arrays.copyOf(c, last));
                }
            }
            return this;
        }

        long size() {
            return size;
        }

        InputStream open() {
            List<InputStream> parts = new ArrayList<>();
            for (int i = 0; i < chunks.size(); i++) {
                parts.add(new ByteArrayInputStream(chunks.get(i), 0, i == chunks.size() - 1 ? last : chunks.get(i).length));
            }
            return new java.io.SequenceInputStream(java.util.Collections.enumeration(parts));
        }
    }

    /** Gzip that says how many compressed bytes it has inflated so far (over all its members). */
    private static final class CountingGzip extends GZIPInputStream {
        private long earlier;
        private long last;

        CountingGzip(InputStream in) throws IOException {
            super(in, 65536);
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            long now = inf.getBytesRead();
            if (now < last) {
                earlier += last; // a new gzip member reset the inflater
            }
            last = now;
            return n;
        }

        long compressedBytes() {
            return earlier + last;
        }
    }

    /** Zip that says how many compressed bytes of the current entry it has inflated (0 for stored entries). */
    private static final class CountingZip extends ZipInputStream {
        CountingZip(InputStream in) {
            super(in);
        }

        long compressedBytes() {
            return inf.getBytesRead();
        }
    }

    private static String message(Exception e) {
        String m = e.getMessage();
        return m == null ? "read failed" : m;
    }
}
