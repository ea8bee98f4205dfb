package org.fabricscope.importers.forensics;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.importers.core.Numbers;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.importers.logs.NcclLogParser;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.forensics.NcclTestDevice;
import org.fabricscope.model.forensics.NcclTestRow;
import org.fabricscope.model.forensics.NcclTestRun;

/**
 * nccl-tests output ({@code all_reduce_perf} and the other {@code *_perf} binaries): the header
 * (version, {@code nThread}/{@code nGpus}, one {@code Rank N Group N Pid N on HOST device N [bus] NAME}
 * line per rank), the table (out-of-place and in-place time, algbw, busbw and {@code #wrong}; the
 * columns are read from the header line, so {@code -C} cputime, {@code -I} per-iteration and
 * {@code -S} timestamp columns and older layouts without {@code root} or with an {@code error}
 * column work), the footer ({@code Out of bounds values}, {@code Avg bus bandwidth}) and failure
 * lines. Launcher prefixes ({@code 0: } from srun -l, {@code [1,0]<stdout>:} from mpirun
 * --tag-output) are stripped. Several runs in one file, and the {@code -J} JSON form, are read.
 */
public final class NcclTestsReader {
    public static final String ID = "nccl-tests";
    public static final String LABEL = "nccl-tests output (*_perf text or -J JSON)";
    /** Most table rows kept per run. */
    static final int MAX_ROWS = 100_000;
    /** Most rows, devices and failure lines kept per file, over all its runs. */
    static final int MAX_FILE_RECORDS = 250_000;
    /** Most columns of a table header (nccl-tests prints at most 17: {@code -C}, {@code -S} and both sides). */
    static final int MAX_COLUMNS = 64;
    private static final long INT = Integer.MAX_VALUE;

    private static final Pattern PREFIX = Pattern.compile("^(?:\\s*\\d{1,6}:\\s?|\\[\\d+,\\d+\\]<std(?:out|err)>:\\s?)");
    private static final Pattern VERSION = Pattern.compile("^#\\s*nccl-tests version (\\S+)(?:.*nccl-library=(\\d+))?.*");
    private static final Pattern STARTING = Pattern.compile("^#\\s*Collective test starting: (\\S+).*");
    private static final Pattern CONCLUDED = Pattern.compile("^#\\s*Collective test concluded: (\\S+).*");
    private static final Pattern NTHREAD = Pattern.compile("^#\\s*nThread (\\d+) nGpus (\\d+) minBytes (\\d+) maxBytes (\\d+).*");
    private static final Pattern DEVICE = Pattern.compile(
            "^#\\s*Rank\\s+(\\d+)(?:\\s+Group\\s+(\\d+))?\\s+Pid\\s+(\\d+)\\s+on\\s+(\\S+)\\s+device\\s+(\\d+)\\s+\\[([^\\]]*)\\]\\s*(.*?)\\s*$");
    private static final Pattern HEADER = Pattern.compile("^#\\s+size\\s+count\\s+type\\b.*");
    private static final Pattern OOB = Pattern.compile("^#\\s*Out of bounds values\\s*:\\s*(\\d+)\\s*(\\S*).*");
    private static final Pattern AVG = Pattern.compile("^#\\s*Avg bus bandwidth\\s*:\\s*([-+0-9.eE]+|nan|inf).*");
    private static final Pattern ROW_START = Pattern.compile("^\\s*\\d+\\s+\\d+\\s+\\S+.*");
    private static final Pattern WRONG_LINE = Pattern.compile(
            "^(?:.*Test (?:failure|FAILED)|rank=\\d+ #wrong=\\d+|.*Data corruption|.*NCCL failure|.*CUDA failure).*");
    private static final Pattern TIMESTAMP = Pattern.compile("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d");

    /** Lines only nccl-tests print: its version and header lines, after a launcher prefix. */
    public static boolean looksLike(List<String> head) {
        String first = FlightRecorderReader.firstNonBlank(head);
        if (first != null && first.startsWith("{")) {
            String joined = String.join("\n", head);
            return (joined.contains("\"start_time\"") && joined.contains("\"args\"") && joined.contains("_perf"))
                    || (joined.contains("\"results\"") && (joined.contains("\"average_bus_bandwidth\"")
                            || joined.contains("\"out_of_bounds\"")));
        }
        int strong = 0;
        for (String raw : head) {
            String l = strip(raw);
            if (VERSION.matcher(l).matches() || STARTING.matcher(l).matches() || NTHREAD.matcher(l).matches()
                    || DEVICE.matcher(l).matches()) {
                strong++;
            }
        }
        return strong > 0;
    }

    static String strip(String raw) {
        Matcher m = PREFIX.matcher(raw);
        return (m.lookingAt() ? raw.substring(m.end()) : raw).strip();
    }

    /** Reads every run in the input into {@code builder.forensics()}. */
    public void read(InputStream raw, String source, FabricModelBuilder builder, Cancellation cancel) throws IOException {
        InputStream in = new BufferedInputStream(raw);
        in.mark(16);
        int c;
        do {
            c = in.read();
        } while (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == 0xEF || c == 0xBB || c == 0xBF);
        in.reset();
        if (c == '{') {
            new NcclTestsJson(this).read(in, source, builder);
            return;
        }
        text(new TextLines(in), source, builder, cancel);
    }

    /** One run being read. */
    private static final class Draft {
        int line;
        String test = "";
        String version = "";
        String ncclVersion = "";
        int nThreads = -1;
        int nGpus = -1;
        final List<NcclTestDevice> devices = new ArrayList<>();
        final List<NcclTestRow> rows = new ArrayList<>();
        long oob = -1;
        boolean oobOk = true;
        boolean rowsCut;
        double avg = Double.NaN;
        final List<Evidence> errors = new ArrayList<>();
        Evidence footer;
        List<String> columns;

        boolean hasContent() {
            return !rows.isEmpty() || !devices.isEmpty() || oob >= 0 || !Double.isNaN(avg);
        }
    }

    /** The NCCL lines of the output being read, when it has any (a run with NCCL_DEBUG=INFO). */
    private NcclLogParser ncclLog;
    private final List<Diagnostic> ncclProblems = new ArrayList<>();

    /** Rows, devices and failure lines kept from the file so far ({@link #MAX_FILE_RECORDS}). */
    int kept;
    boolean fileCut;

    /** Whether one more record may be kept; the first refused one is reported. */
    boolean keep(String source, int line, FabricModelBuilder builder) {
        if (kept < MAX_FILE_RECORDS) {
            kept++;
            return true;
        }
        if (!fileCut) {
            fileCut = true;
            builder.diagnostic(Diagnostic.warning(source, line, "more than " + MAX_FILE_RECORDS + " rows, devices and "
                    + "failure lines in this nccl-tests file (NcclTestsReader.MAX_FILE_RECORDS); the rest not kept"));
        }
        return false;
    }

    private void text(TextLines lines, String source, FabricModelBuilder builder, Cancellation cancel) throws IOException {
        kept = 0;
        fileCut = false;
        Draft d = null;
        int badRows = 0;
        String raw;
        while ((raw = lines.next()) != null) {
            int n = lines.lineNumber();
            if ((n & 0xfff) == 0 && cancel.isCancelled()) {
                throw new ImportCancelledException();
            }
            if (lines.truncated() || raw.indexOf('\0') >= 0) {
                continue;
            }
            String l = strip(raw);
            if (l.isEmpty()) {
                continue;
            }
            if (!l.startsWith("#") && (l.indexOf(" NCCL INFO ") > 0 || l.indexOf(" NCCL WARN ") > 0)) {
                // NCCL_DEBUG=INFO writes NCCL's own lines into the test's output: they name the transport, the
                // channels and the variables set, which is why a run falls short
                if (ncclLog == null) {
                    ncclLog = new NcclLogParser(builder.training(), builder.incident(), ncclProblems);
                }
                ncclLog.line(raw, source, n);
                continue;
            }
            try {
                d = line(l, n, d, source, builder);
            } catch (Numbers.OutOfRange e) {
                if (++badRows <= 20) {
                    builder.diagnostic(Diagnostic.warning(source, n, e.getMessage() + "; nccl-tests line skipped: "
                            + FlightRecorderReader.abbreviate(l)));
                }
            } catch (BadRow e) {
                if (++badRows <= 20) {
                    builder.diagnostic(Diagnostic.warning(source, n, "nccl-tests row does not fit the header's columns; "
                            + "ignored: " + FlightRecorderReader.abbreviate(l)));
                }
            }
        }
        next(d, source, builder, 0);
        if (ncclLog != null) {
            ncclLog.finish(source);
            ncclProblems.forEach(builder::diagnostic);
            ncclProblems.clear();
            ncclLog = null;
        }
    }

    /** A row that does not fit the header's columns. */
    private static final class BadRow extends RuntimeException {
        private static final long serialVersionUID = 1L;

        BadRow() {
            super(null, null, false, false);
        }
    }

    /**
     * One line of the text form; returns the run being read. Its numbers are read before the run is
     * changed: one out of range ({@link Numbers.OutOfRange}) leaves the run as it was.
     */
    private Draft line(String l, int n, Draft d, String source, FabricModelBuilder builder) {
        {
            Matcher m;
            if ((m = VERSION.matcher(l)).matches()) {
                d = next(d, source, builder, n);
                d.version = m.group(1);
                d.ncclVersion = m.group(2) == null ? "" : ncclVersion(m.group(2));
                return d;
            }
            if ((m = STARTING.matcher(l)).matches()) {
                if (d == null || !d.test.isEmpty() || d.hasContent()) {
                    d = next(d, source, builder, n);
                }
                d.test = m.group(1);
                return d;
            }
            if ((m = NTHREAD.matcher(l)).matches()) {
                int threads = Numbers.nonNegativeInt(m.group(1), "nThread");
                int gpus = Numbers.nonNegativeInt(m.group(2), "nGpus");
                Numbers.decimal(m.group(3), 0, Long.MAX_VALUE, "minBytes");
                Numbers.decimal(m.group(4), 0, Long.MAX_VALUE, "maxBytes");
                if (d == null || d.nThreads >= 0 || d.hasContent()) {
                    d = next(d, source, builder, n);
                }
                d.nThreads = threads;
                d.nGpus = gpus;
                return d;
            }
            if (d == null) {
                if (DEVICE.matcher(l).matches() || HEADER.matcher(l).matches()) {
                    d = next(null, source, builder, n);
                } else {
                    return null;
                }
            }
            Evidence ev = Evidence.at(source, n, l);
            if ((m = DEVICE.matcher(l)).matches()) {
                NcclTestDevice dev = new NcclTestDevice(Numbers.nonNegativeInt(m.group(1), "rank"),
                        m.group(2) == null ? 0 : Numbers.nonNegativeInt(m.group(2), "group"),
                        Numbers.nonNegativeInt(m.group(3), "pid"), m.group(4), Numbers.nonNegativeInt(m.group(5), "device"),
                        m.group(6), m.group(7));
                if (keep(source, n, builder)) {
                    d.devices.add(dev);
                }
            } else if (HEADER.matcher(l).matches()) {
                d.columns = columns(l);
                if (d.columns.size() > MAX_COLUMNS) {
                    builder.diagnostic(Diagnostic.warning(source, n, "nccl-tests table header with " + d.columns.size()
                            + " columns, more than " + MAX_COLUMNS + " (NcclTestsReader.MAX_COLUMNS): no nccl-tests "
                            + "table; the rows under it are not read"));
                    d.columns = List.of();
                }
            } else if ((m = OOB.matcher(l)).matches()) {
                d.oob = Numbers.decimal(m.group(1), 0, Long.MAX_VALUE, "out of bounds values");
                d.oobOk = !m.group(2).equalsIgnoreCase("FAILED") && d.oob == 0;
                if (!d.oobOk) {
                    d.footer = ev;
                }
            } else if ((m = AVG.matcher(l)).matches()) {
                d.avg = parseDouble(m.group(1));
            } else if ((m = CONCLUDED.matcher(l)).matches()) {
                if (d.test.isEmpty()) {
                    d.test = m.group(1);
                }
            } else if (!l.startsWith("#") && ROW_START.matcher(l).matches()) {
                if (d.rows.size() >= MAX_ROWS) {
                    if (d.rows.size() == MAX_ROWS && !d.rowsCut) {
                        d.rowsCut = true;
                        builder.diagnostic(Diagnostic.warning(source, n, "more than " + MAX_ROWS
                                + " rows in one nccl-tests run (NcclTestsReader.MAX_ROWS); kept the first " + MAX_ROWS));
                    }
                    return d;
                }
                NcclTestRow row = row(l, d.columns, ev);
                if (row == null) {
                    throw new BadRow();
                }
                if (keep(source, n, builder)) {
                    d.rows.add(row);
                }
            } else if (WRONG_LINE.matcher(l).matches() && d.errors.size() < 100 && keep(source, n, builder)) {
                d.errors.add(ev);
            }
        }
        return d;
    }

    /** Closes the run being read (when it has anything) and starts another at {@code line}. */
    private static Draft next(Draft d, String source, FabricModelBuilder builder, int line) {
        if (d != null && d.hasContent()) {
            builder.forensics().ncclTest(new NcclTestRun(source, d.line, d.test.isEmpty() ? "nccl-tests" : d.test,
                    d.version, d.ncclVersion, d.nThreads, d.nGpus, d.devices, d.rows, d.oob, d.oobOk, d.avg, d.errors,
                    d.footer));
        } else if (d != null && d.line > 0 && !d.errors.isEmpty()) {
            builder.diagnostic(Diagnostic.warning(source, d.errors.get(0).line(), "nccl-tests run with no results: "
                    + d.errors.get(0).text()));
        }
        Draft fresh = new Draft();
        fresh.line = line;
        return fresh;
    }

    /** {@code 22809} is NCCL 2.28.9, {@code 2708} is 2.7.8. */
    static String ncclVersion(String code) {
        try {
            int v = Integer.parseInt(code);
            return v >= 10000 ? (v / 10000) + "." + (v / 100 % 100) + "." + (v % 100)
                    : (v / 1000) + "." + (v / 100 % 10) + "." + (v % 100);
        } catch (NumberFormatException e) {
            return code;
        }
    }

    /** The column names of the header line, lower case, {@code #wrong} and {@code error} kept apart. */
    static List<String> columns(String header) {
        List<String> out = new ArrayList<>();
        for (String t : header.substring(1).strip().split("\\s+")) {
            out.add(t.toLowerCase(Locale.ROOT));
        }
        return out;
    }

    /** One row by the header's columns (the layout of nccl-tests 2.x when there was no header). */
    static NcclTestRow row(String l, List<String> columns, Evidence ev) {
        List<String> cols = columns != null ? columns
                : List.of("size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw",
                        "busbw", "#wrong");
        String timestamp = "";
        Matcher ts = TIMESTAMP.matcher(l);
        String body = l;
        if (ts.find()) {
            timestamp = ts.group();
            body = l.substring(0, ts.start()) + l.substring(ts.end());
        }
        String[] v = body.strip().split("\\s+");
        int tsCols = cols.contains("timestamp") ? 1 : 0;
        if (v.length != cols.size() - tsCols) {
            return null;
        }
        int timeAt = -1;
        int secondTime = -1;
        for (int i = 0; i < cols.size(); i++) {
            String c = cols.get(i);
            if (c.equals("time") || c.equals("cputime")) {
                if (timeAt < 0) {
                    timeAt = i;
                } else if (secondTime < 0) {
                    secondTime = i;
                }
            }
        }
        if (timeAt < 0) {
            return null;
        }
        try {
            long bytes = Numbers.decimal(v[0], 0, Long.MAX_VALUE, "size");
            long count = Numbers.decimal(v[1], 0, Long.MAX_VALUE, "count");
            String type = v[2];
            int redopAt = cols.indexOf("redop");
            int rootAt = cols.indexOf("root");
            String redop = redopAt >= 0 && redopAt < timeAt ? v[redopAt] : "";
            int root = rootAt >= 0 && rootAt < timeAt && Numbers.isDecimal(v[rootAt])
                    ? Numbers.checkedInt(v[rootAt], "root") : -1;
            NcclTestRow.Result oop = result(v, timeAt);
            NcclTestRow.Result ip = secondTime >= 0 ? result(v, secondTime) : null;
            return new NcclTestRow(bytes, count, type, redop, root, oop, ip, timestamp, ev);
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            return null;
        }
    }

    /** time, algbw, busbw, then {@code #wrong} (a count, or N/A) or {@code error} (a max error: wrong when above 0). */
    private static NcclTestRow.Result result(String[] v, int at) {
        double time = parseDouble(v[at]);
        double alg = parseDouble(v[at + 1]);
        double bus = parseDouble(v[at + 2]);
        String w = v[at + 3];
        long wrong;
        if (w.equalsIgnoreCase("N/A")) {
            wrong = -1;
        } else if (w.contains("e") || w.contains(".")) {
            wrong = parseDouble(w) > 0 ? 1 : 0;
        } else {
            wrong = Numbers.isDecimal(w) ? Numbers.decimal(w, 0, Long.MAX_VALUE, "#wrong") : Long.parseLong(w);
        }
        return new NcclTestRow.Result(time, alg, bus, wrong);
    }

    private static double parseDouble(String s) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    static long parseLong(String s, long dflt) {
        try {
            return Long.parseLong(s.strip());
        } catch (NumberFormatException e) {
            return dflt;
        }
    }
}
