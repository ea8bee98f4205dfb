package org.fabricscope.importers;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.DeclaredFormat;
import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.importers.core.ZeroRuns;
import org.fabricscope.importers.bundle.BundleReader;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.FabricModelBuilder;

/**
 * Reads any mix of files, folders and archives of one fabric into one model. Each file's format
 * is detected from its {@link Head} by the {@link FormatRegistry}'s readers; files are read phase
 * by phase ({@link ImportPhase}: topology before link state and counters, and so on) so that later
 * files can refer to what earlier ones defined. Plain blocking code: callers run it off the UI
 * thread.
 */
public final class FabricImporter {
    /**
     * The logger, got when a failure is first logged ({@link #debug}): {@code System.getLogger} looks for a logging
     * back-end through every jar on the class path (ServiceLoader), 10 ms of a CLI run that logs nothing.
     */
    private static volatile System.Logger log;

    private final FormatRegistry registry;

    /** An importer of every format FabricScope reads ({@link FormatRegistry#standard()}). */
    public FabricImporter() {
        this(FormatRegistry.standard());
    }

    /** An importer of the registry's formats. */
    public FabricImporter(FormatRegistry registry) {
        this.registry = registry;
    }

    /** Imports the named paths. A path that cannot be read becomes a diagnostic, not an exception. */
    public ImportResult importPaths(List<Path> paths, ImportProgress progress, Cancellation cancel) {
        List<Diagnostic> early = new ArrayList<>();
        BundleReader bundles = new BundleReader(early);
        List<ImportSource> sources = new ArrayList<>();
        for (Path p : paths) {
            try {
                sources.addAll(bundles.expand(p));
            } catch (RuntimeException | Error e) {
                // listing a folder or unpacking an archive is reading too: one that fails ends that path only
                rethrowIfFatal(e);
                early.add(Diagnostic.error(p.toString(), 0, failure(e, "listing or unpacking this path", 0)
                        + ", skipped; the other paths are read"));
                debug(() -> "expanding " + p + " failed", e);
            }
            if (cancel.isCancelled()) {
                throw new ImportCancelledException();
            }
        }
        return importSources(sources, early, progress, cancel);
    }

    public ImportResult importSources(List<ImportSource> sources, List<Diagnostic> early, ImportProgress progress,
                                      Cancellation cancel) {
        return importSources(sources, early, progress, cancel, b -> { });
    }

    /**
     * Imports the sources, then lets {@code more} add to the model before it is built: live inputs
     * that are not files (log lines streamed from pods, fed with their own line numbers).
     */
    public ImportResult importSources(List<ImportSource> sources, List<Diagnostic> early, ImportProgress progress,
                                      Cancellation cancel, java.util.function.Consumer<FabricModelBuilder> more) {
        FabricModelBuilder builder = new FabricModelBuilder();
        early.forEach(builder::diagnostic);
        ReadContext ctx = new ReadContext(builder, cancel);
        Map<String, String> formats = new LinkedHashMap<>();
        List<Sniffed> sniffed = new ArrayList<>();
        long total = 0;
        try (Sniffer sniffer = new Sniffer(sources, cancel)) {
            for (int i = 0; i < sources.size(); i++) {
                ImportSource s = sources.get(i);
                total += Math.max(0, s.size());
                Sniff sniff = sniffer.take(i);
                sniff.problems().forEach(builder::diagnostic);
                if (sniff.detectFailure() != null) {
                    Throwable e = sniff.detectFailure();
                    rethrowIfFatal(e);
                    builder.diagnostic(Diagnostic.error(s.name(), 0, failure(e, "telling this file's format", 0)
                            + "; skipped"));
                    debug(() -> "format detection failed on " + s.name(), e);
                    formats.put(s.name(), null);
                    continue;
                }
                if (!sniff.read()) {
                    formats.put(s.name(), null);
                    continue;
                }
                FormatReader r = sniff.reader();
                formats.put(s.name(), r == null ? FormatRegistry.UNKNOWN : r.id());
                ImportSource source = sniff.declared() ? DeclaredFormat.blanked(s) : s;
                ZeroRuns.Dropping zeros = null;
                if (sniff.zeroBlocks() && r != null) {
                    zeros = ZeroRuns.dropping(source);
                    source = zeros.source();
                }
                if (r == null) {
                    String why = registry.unknownFormatMessage();
                    builder.diagnostic(s.named() ? Diagnostic.warning(s.name(), 1, why) : Diagnostic.info(s.name(), 1, why));
                } else if (r.phase() == ImportPhase.SKIPPED) {
                    read(r, source, ctx); // says why it is skipped, in file order
                    reportZeros(zeros, builder);
                } else {
                    sniffed.add(new Sniffed(source, r, zeros));
                }
            }
        }
        sniffed.sort(Comparator.comparing(x -> x.reader.phase())); // stable: file order within a phase
        long done = 0;
        try (ParallelParses ahead = new ParallelParses(sniffed, ctx, cancel)) {
            for (int i = 0; i < sniffed.size(); i++) {
                Sniffed x = sniffed.get(i);
                if (cancel.isCancelled()) {
                    throw new ImportCancelledException();
                }
                progress.update(done, total, x.source.name());
                builder.source(x.source.name());
                java.util.concurrent.Future<FormatReader.Parsed> parsed = ahead.take(i);
                if (parsed != null) {
                    apply(x.reader, x.source, parsed, ctx);
                } else {
                    read(x.reader, x.source, ctx);
                }
                reportZeros(x.zeros, builder);
                done += Math.max(0, x.source.size());
                progress.update(done, total, x.source.name());
            }
        }
        ctx.applyStates();
        more.accept(builder);
        return new ImportResult(builder.build(), formats, ctx.thresholds());
    }

    /** A file to read by {@code reader}; {@code zeros} when it is read without its zero blocks. */
    private record Sniffed(ImportSource source, FormatReader reader, ZeroRuns.Dropping zeros) {
    }

    /** The one diagnostic for the zero blocks a file's reading left out, if it left any. */
    private static void reportZeros(ZeroRuns.Dropping zeros, FabricModelBuilder builder) {
        Diagnostic d = zeros == null ? null : zeros.report();
        if (d != null) {
            builder.diagnostic(d);
        }
    }

    /**
     * The files whose reader parses on other threads ({@link FormatReader#parallelParse}): parsed a
     * window ahead of the file being added, on as many threads as there are cores (at most 4), so
     * that memory holds only the window's results. A plain executor of daemon threads, shut down with
     * the import.
     */
    private static final class ParallelParses implements AutoCloseable {
        private static final int THREADS = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
        private static final int WINDOW = 4 * THREADS;

        private final List<Sniffed> files;
        private final Cancellation cancel;
        private final Map<FormatReader, FormatReader.Parse> parses = new java.util.IdentityHashMap<>();
        private final Map<Integer, java.util.concurrent.Future<FormatReader.Parsed>> submitted = new java.util.HashMap<>();
        private java.util.concurrent.ExecutorService pool;
        private int next;

        ParallelParses(List<Sniffed> files, ReadContext ctx, Cancellation cancel) {
            this.files = files;
            this.cancel = cancel;
            if (THREADS > 1) {
                for (Sniffed x : files) {
                    if (!parses.containsKey(x.reader)) {
                        parses.put(x.reader, x.reader.parallelParse(ctx));
                    }
                }
            }
        }

        /** The parse of file {@code i}, started now if it was not yet; null when its reader does not parse ahead. */
        java.util.concurrent.Future<FormatReader.Parsed> take(int i) {
            if (parses.get(files.get(i).reader) == null) {
                return null;
            }
            next = Math.max(next, i);
            while (next < files.size() && next < i + WINDOW) {
                Sniffed x = files.get(next);
                FormatReader.Parse parse = parses.get(x.reader);
                if (parse != null) {
                    if (pool == null) {
                        pool = java.util.concurrent.Executors.newFixedThreadPool(THREADS, r -> {
                            Thread t = new Thread(r, "fabricscope-parse");
                            t.setDaemon(true);
                            return t;
                        });
                    }
                    submitted.put(next, pool.submit(() -> {
                        try (InputStream in = x.source.open()) {
                            return parse.parse(in, x.source.name(), x.source.size(), cancel);
                        }
                    }));
                }
                next++;
            }
            return submitted.remove(i);
        }

        @Override
        public void close() {
            if (pool != null) {
                submitted.values().forEach(f -> f.cancel(true));
                pool.shutdownNow();
            }
        }
    }

    /** Adds a file parsed on another thread; its failures are reported as {@link #read} reports them. */
    private static void apply(FormatReader reader, ImportSource source, java.util.concurrent.Future<FormatReader.Parsed> parsed,
                              ReadContext ctx) {
        ctx.file(source.name());
        FormatReader.Parsed p;
        try {
            p = parsed.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ImportCancelledException();
        } catch (java.util.concurrent.ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException || cause instanceof UncheckedIOException) {
                String why = cause instanceof UncheckedIOException u ? u.getCause().getMessage() : cause.getMessage();
                ctx.report(Diagnostic.error(source.name(), 0, "read failed: " + why + "; kept what was read before"));
                return;
            }
            rethrowIfFatal(cause);
            ctx.report(Diagnostic.error(source.name(), 0, failure(cause, "reading this file", 0)
                    + "; stopped there, kept what was read before"));
            debug(() -> "reader " + reader.id() + " failed on " + source.name(), cause);
            return;
        }
        try {
            p.applyTo(ctx);
        } catch (RuntimeException | Error e) {
            rethrowIfFatal(e);
            ctx.report(Diagnostic.error(source.name(), 0, failure(e, "reading this file", 0)
                    + "; stopped there, kept what was read before"));
            debug(() -> "reader " + reader.id() + " failed on " + source.name(), e);
        }
    }

    /**
     * Runs one reader over one file. Nothing a reader throws takes the import down: an I/O error
     * or a failure the reader did not expect stops this file with an error naming it (and the line
     * reached, when the reader reads through {@link ReadContext#lines}); what it read before, and
     * every other file, is kept. Cancellation and running out of memory still propagate.
     */
    private static void read(FormatReader reader, ImportSource source, ReadContext ctx) {
        ctx.file(source.name());
        try (InputStream in = source.open()) {
            reader.read(in, ctx);
        } catch (IOException | UncheckedIOException e) {
            String why = e instanceof UncheckedIOException u ? u.getCause().getMessage() : e.getMessage();
            ctx.report(Diagnostic.error(source.name(), 0, "read failed: " + why + "; kept what was read before"));
        } catch (RuntimeException | Error e) {
            rethrowIfFatal(e);
            int line = ctx.line();
            ctx.report(Diagnostic.error(source.name(), line, failure(e, "reading this file", line)
                    + "; stopped there, kept what was read before"));
            debug(() -> "reader " + reader.id() + " failed on " + source.name()
                    + (line > 0 ? ":" + line : ""), e);
        }
    }

    /**
     * Logs a failure for whoever turned FabricScope's debug logging on. Not a failure for want of memory or stack:
     * that is the input's size, said in the diagnostic, and finding the logger then opens every jar on the class path,
     * whose directories the class loader keeps: with the heap already full, that left no room even to say so. A logger
     * that cannot be had logs nothing.
     */
    private static void debug(java.util.function.Supplier<String> message, Throwable e) {
        if (isInputFailure(e)) {
            return;
        }
        System.Logger l = log;
        if (l == null) {
            try {
                l = System.getLogger(FabricImporter.class.getName());
            } catch (RuntimeException | Error unavailable) {
                return;
            }
            log = l;
        }
        l.log(System.Logger.Level.DEBUG, message, e);
    }

    /**
     * Cancellation ends the import, and so does a broken JVM (an internal error of the VM itself);
     * anything else a reader throws ends one file. A stack overflow is caught: the stack has unwound by
     * the time it arrives here, and it means one input nested too deeply (a hostile YAML or XML). Running
     * out of memory is caught too: what the failed reader held is garbage once the error has unwound
     * its frames, so one hostile file costs that file, not the import and the other files.
     */
    private static void rethrowIfFatal(Throwable e) {
        if (e instanceof ImportCancelledException c) {
            throw c;
        }
        if (e instanceof VirtualMachineError && !isInputFailure(e)) {
            throw (Error) e;
        }
    }

    /** Running out of memory or stack on one input: that input's failure, not the program's. */
    private static boolean isInputFailure(Throwable e) {
        return e instanceof OutOfMemoryError || e instanceof StackOverflowError;
    }

    /** What went wrong {@code doing} what, in words: memory and nesting are the input's size, the rest a bug of ours. */
    private static String failure(Throwable e, String doing, int line) {
        String at = line > 0 ? " at line " + line : "";
        if (e instanceof OutOfMemoryError) {
            return "ran out of memory " + doing + at + " (the input is too large for the memory given to FabricScope; "
                    + "give it more with -Xmx or read the file alone)";
        }
        return "internal error " + doing + at + " (" + ReaderFailure.describe(e) + ")";
    }

    /**
     * What sniffing one file found: whether its head was read (false when the file is unreadable, empty or
     * binary, with the diagnostic that says so), the reader that claims it (null: none), the problems, or the
     * failure of format detection. Made without the model builder, so that heads can be read on several
     * threads and reported in file order.
     */
    private record Sniff(boolean read, FormatReader reader, List<Diagnostic> problems, Throwable detectFailure,
                         boolean declared, boolean zeroBlocks) {
        Sniff(boolean read, FormatReader reader, List<Diagnostic> problems, Throwable detectFailure) {
            this(read, reader, problems, detectFailure, false, false);
        }
    }

    /** Each sniffing thread's read buffer for heads: a fresh 64 KB array per file was most of sniffing's allocation. */
    private static final ThreadLocal<byte[]> HEAD_BUFFER = ThreadLocal.withInitial(() -> new byte[Head.MAX_BYTES]);

    /**
     * The control bytes (not tab, line ends, form feed, vertical tab or escape) of the first {@code length}
     * bytes, counted until there are more than {@code enough}.
     */
    private static int controlBytes(byte[] head, int length, int enough) {
        int n = 0;
        for (int i = 0; i < length && n <= enough; i++) {
            byte b = head[i];
            if (b >= 0 && b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f' && b != 0x0B && b != 0x1B) {
                n++;
            }
        }
        return n;
    }

    /** Reads the head of {@code s} and detects its format; touches nothing shared but its thread's buffer. */
    private Sniff sniff(ImportSource s) {
        List<Diagnostic> problems = new ArrayList<>(1);
        try (InputStream in = s.open()) {
            byte[] head = HEAD_BUFFER.get();
            int length = 0;
            for (int n; length < head.length && (n = in.read(head, length, head.length - length)) > 0; ) {
                length += n;
            }
            if (length == 0) {
                problems.add(Diagnostic.warning(s.name(), 0, "file is empty"));
                return new Sniff(false, null, problems, null);
            }
            String declared = DeclaredFormat.of(head, length);
            if (declared != null) {
                FormatReader r = registry.byId(declared);
                if (r == null) {
                    problems.add(Diagnostic.warning(s.name(), 1, "declares the format '" + declared
                            + "', which FabricScope does not read; skipped"));
                    return new Sniff(false, null, problems, null);
                }
                return new Sniff(true, r, problems, null, true, false);
            }
            // A text file is judged by its text: blocks of zero bytes (a log of a node that lost power ends in
            // them) are left out of the judging and the detection, and out of the reading (ZeroRuns)
            byte[] judged = head;
            int judgedLength = length;
            boolean zeroBlocks = ZeroRuns.firstRun(head, length) >= 0;
            if (zeroBlocks) {
                judged = ZeroRuns.withoutRuns(head, length);
                judgedLength = judged.length;
                if (judgedLength == 0) {
                    problems.add(Diagnostic.warning(s.name(), 1, "file starts with " + length + " zero bytes and nothing "
                            + "else (a file whose writer lost power before any of it reached the disk); skipped"));
                    return new Sniff(false, null, problems, null);
                }
            }
            // Really binary (an image, a core dump, UTF-16) has NULs and control bytes throughout; a stray
            // NUL or two in a text dump only makes its own line unreadable, which the readers report.
            int limit = Math.max(2, judgedLength / 200);
            // counted only until past the limit: a pickle is decided in its first kilobyte, not its 64 KB (while
            // the JIT is cold, the full count was most of sniffing 1,024 flight recorder dumps)
            if (controlBytes(judged, judgedLength, limit) > limit) {
                // a view of this thread's buffer, for the detection only: nothing keeps it
                FormatReader r = registry.detect(Head.binaryView(head, length));
                if (r != null) {
                    return new Sniff(true, r, problems, null); // a binary format a reader knows (a flight recorder pickle)
                }
                problems.add(Diagnostic.warning(s.name(), 1, "binary file (" + controlBytes(head, length, length)
                        + " control bytes in the first " + length + " bytes), not a text dump; skipped"));
                return new Sniff(false, null, problems, null);
            }
            return new Sniff(true, registry.detect(Head.of(judged, judgedLength)), problems, null, false, zeroBlocks);
        } catch (IOException | UncheckedIOException e) {
            String why = e instanceof UncheckedIOException u ? u.getCause().getMessage() : e.getMessage();
            problems.add(Diagnostic.error(s.name(), 0, "cannot read: " + why));
            return new Sniff(false, null, problems, null);
        } catch (RuntimeException | Error e) {
            return new Sniff(false, null, problems, e);
        }
    }

    /**
     * The files' heads, read and detected a window ahead of the one being reported, on as many threads
     * as there are cores (at most 4): 1,024 flight recorder dumps took a second to sniff one by one
     * while the other core idled. One file, or one core: read here, when asked.
     */
    private final class Sniffer implements AutoCloseable {
        private static final int THREADS = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
        private static final int WINDOW = 16 * THREADS;

        private final List<ImportSource> sources;
        private final Cancellation cancel;
        private final Map<Integer, java.util.concurrent.Future<Sniff>> submitted = new java.util.HashMap<>();
        private java.util.concurrent.ExecutorService pool;
        private int next;

        Sniffer(List<ImportSource> sources, Cancellation cancel) {
            this.sources = sources;
            this.cancel = cancel;
        }

        Sniff take(int i) {
            if (cancel.isCancelled()) {
                throw new ImportCancelledException();
            }
            if (THREADS == 1 || sources.size() < 2) {
                return sniff(sources.get(i));
            }
            next = Math.max(next, i);
            while (next < sources.size() && next < i + WINDOW) {
                ImportSource x = sources.get(next);
                if (pool == null) {
                    pool = java.util.concurrent.Executors.newFixedThreadPool(THREADS, r -> {
                        Thread t = new Thread(r, "fabricscope-sniff");
                        t.setDaemon(true);
                        return t;
                    });
                }
                submitted.put(next, pool.submit(() -> sniff(x)));
                next++;
            }
            java.util.concurrent.Future<Sniff> f = submitted.remove(i);
            try {
                return f.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ImportCancelledException();
            } catch (java.util.concurrent.ExecutionException e) {
                // sniff() catches what detection throws; what is left (memory or stack gone before its try) is
                // that file's failure, like any other; a broken JVM ends the import
                Throwable cause = e.getCause();
                rethrowIfFatal(cause);
                return new Sniff(false, null, new ArrayList<>(), cause);
            }
        }

        @Override
        public void close() {
            if (pool != null) {
                submitted.values().forEach(f -> f.cancel(true));
                pool.shutdownNow();
            }
        }
    }
}
