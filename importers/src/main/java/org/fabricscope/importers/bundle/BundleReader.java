package org.fabricscope.importers.bundle;

import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileVisitOption;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.NaturalOrder;

/**
 * Turns what the user named (files, folders, {@code .tar.gz}, {@code .tgz}, {@code .tar},
 * {@code .zip}, {@code .gz}) into the list of files to read. Archives are recognised by their
 * magic bytes and read in memory, never extracted to disk, so entry names like {@code ../x} are
 * harmless; entry count, entry size and total size are capped against archive bombs. Symbolic
 * links inside folders are not followed.
 */
public final class BundleReader {
    public static final long MAX_ENTRY_BYTES = 256L << 20;
    public static final long MAX_TOTAL_BYTES = 1L << 30;
    /** Text dumps compress about 10-30x; past this ratio (and 32 MiB) an entry is treated as a bomb. */
    static final long MAX_RATIO = 200;
    private static final long RATIO_FLOOR = 32L << 20;
    public static final int MAX_ENTRIES = 100_000;
    private static final int MAX_DEPTH = 16;

    private final List<Diagnostic> diagnostics;
    private long totalBytes;
    private int entries;
    /** Counts the bytes read from the archive file itself, to tell expansion ratio. */
    private CountingStream raw;

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
        try (CountingStream counting = new CountingStream(Files.newInputStream(f));
             InputStream in = new BufferedInputStream(counting)) {
            raw = counting;
            ArchiveKind kind = sniff(in);
            if (kind == ArchiveKind.NONE) {
                long size = Files.size(f);
                out.add(new ImportSource(name, size, () -> Files.newInputStream(f), named));
                return;
            }
            readArchive(kind, in, name, out);
        } catch (IOException e) {
            diagnostics.add(Diagnostic.error(name, 0, "cannot read: " + message(e)));
        }
    }

    private enum ArchiveKind { NONE, GZIP, ZIP, TAR }

    /** Looks at the first bytes without consuming them (the stream must support mark). */
    private static ArchiveKind sniff(InputStream in) throws IOException {
        in.mark(600);
        byte[] head = in.readNBytes(512);
        in.reset();
        if (head.length >= 2 && (head[0] & 0xff) == 0x1f && (head[1] & 0xff) == 0x8b) {
            return ArchiveKind.GZIP;
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
        try {
            switch (kind) {
                case GZIP -> {
                    InputStream gz = new BufferedInputStream(new GZIPInputStream(in, 65536), 65536);
                    ArchiveKind inner = sniff(gz);
                    if (inner == ArchiveKind.TAR) {
                        readTar(gz, name, out);
                    } else if (inner == ArchiveKind.NONE) {
                        byte[] data = readCapped(gz, name);
                        if (data != null) {
                            String entry = name.endsWith(".gz") ? name.substring(0, name.length() - 3) : name + "!";
                            out.add(new ImportSource(entry, data.length, () -> new ByteArrayInputStream(data)));
                        }
                    } else {
                        diagnostics.add(Diagnostic.warning(name, 0, "archive inside a gzip file other than tar is not read"));
                    }
                }
                case TAR -> readTar(in, name, out);
                case ZIP -> readZip(in, name, out);
                default -> { }
            }
        } catch (IOException e) {
            diagnostics.add(Diagnostic.error(name, 0, "archive is damaged or truncated: " + message(e)
                    + "; kept the " + out.size() + " entries read before it"));
        }
    }

    private void readTar(InputStream in, String name, List<ImportSource> out) throws IOException {
        TarReader tar = new TarReader(in);
        TarReader.Entry e;
        while ((e = tar.next()) != null) {
            if (!e.regularFile() || isHiddenEntry(e.name())) {
                continue;
            }
            if (!countEntry(name)) {
                return;
            }
            if (e.size() > MAX_ENTRY_BYTES) {
                diagnostics.add(Diagnostic.warning(name + "!/" + e.name(), 0, "entry larger than "
                        + (MAX_ENTRY_BYTES >> 20) + " MiB skipped"));
                continue;
            }
            byte[] data = readCapped(tar.content(), name + "!/" + e.name());
            if (data != null) {
                addEntry(name + "!/" + e.name(), data, out);
            }
        }
    }

    private void readZip(InputStream in, String name, List<ImportSource> out) throws IOException {
        try (ZipInputStream zip = new ZipInputStream(in)) {
            ZipEntry e;
            while ((e = zip.getNextEntry()) != null) {
                if (e.isDirectory() || isHiddenEntry(e.getName())) {
                    continue;
                }
                if (!countEntry(name)) {
                    return;
                }
                byte[] data = readCapped(zip, name + "!/" + e.getName());
                if (data != null) {
                    addEntry(name + "!/" + e.getName(), data, out);
                }
            }
        }
    }

    /** An archive inside an archive (a bundle of per-host tarballs) is opened too, once. */
    private void addEntry(String entryName, byte[] data, List<ImportSource> out) throws IOException {
        InputStream in = new BufferedInputStream(new ByteArrayInputStream(data));
        ArchiveKind kind = sniff(in);
        if (kind == ArchiveKind.NONE || entryName.chars().filter(c -> c == '!').count() > 1) {
            out.add(new ImportSource(entryName, data.length, () -> new ByteArrayInputStream(data)));
        } else {
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

    private byte[] readCapped(InputStream in, String entryName) throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        byte[] buf = new byte[65536];
        long n = 0;
        int r;
        while ((r = in.read(buf)) > 0) {
            n += r;
            if (raw != null && n > RATIO_FLOOR && n > MAX_RATIO * Math.max(1, raw.count)) {
                diagnostics.add(Diagnostic.error(entryName, 0, "expands more than " + MAX_RATIO
                        + " times its compressed size: skipped, as an archive bomb"));
                return null;
            }
            if (n > MAX_ENTRY_BYTES || totalBytes + n > MAX_TOTAL_BYTES) {
                diagnostics.add(Diagnostic.error(entryName, 0, "expands past the size limit ("
                        + (n > MAX_ENTRY_BYTES ? (MAX_ENTRY_BYTES >> 20) + " MiB per entry" : (MAX_TOTAL_BYTES >> 20) + " MiB in all")
                        + "): skipped, as an archive bomb"));
                return null;
            }
            bos.write(buf, 0, r);
        }
        totalBytes += n;
        return bos.toByteArray();
    }

    private static final class CountingStream extends java.io.FilterInputStream {
        long count;

        CountingStream(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }

        @Override
        public long skip(long n) throws IOException {
            long k = super.skip(n);
            count += Math.max(0, k);
            return k;
        }
    }

    private static String message(Exception e) {
        String m = e.getMessage();
        return m == null ? e.getClass().getSimpleName() : m;
    }
}
