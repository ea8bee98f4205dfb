package org.fabricscope.importers.forensics;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.importers.core.Numbers;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.forensics.PerftestEndpoint;
import org.fabricscope.model.forensics.PerftestRow;
import org.fabricscope.model.forensics.PerftestRun;

/**
 * perftest output (linux-rdma/perftest, tag 26.04.17; the layout has been the same since the 4.x
 * releases, except {@code MB/sec} became {@code MiB/sec} in 24.07.0-0.44): {@code ib_write_bw},
 * {@code ib_read_bw}, {@code ib_send_bw}, {@code ib_atomic_bw} and their {@code _lat} twins, either side.
 * Read as {@code src/perftest_parameters.c} and {@code src/perftest_communication.c} print it: the
 * server's {@code * Waiting for client to connect... *} banner, the title ({@code RDMA_Write BW Test},
 * {@code Send Bidirectional BW Test}, {@code RDMA_Read Latency Test}), the header's {@code Device},
 * {@code Number of qps}, {@code Transport type}, {@code Connection type}, {@code Link type},
 * {@code GID index}, the {@code local address: LID ... QPN ... PSN ...} and {@code remote address:} lines
 * with the {@code GID:} under each (bytes in decimal), the result table by its header's columns
 * ({@link PerftestTable}; with {@code -a} a row per size), and the lines that say it failed
 * ({@code Couldn't connect to host:port}, {@code Unable to init the socket connection},
 * {@code ethernet_read_keys: Couldn't read remote address}, {@code Failed to modify QP N to RTR}, ...).
 * A file may hold several runs (a script's loop); a {@code Version: 6.29} line ({@code -V}) names the
 * version of all of them. Rows under {@code Remote results:} ({@code --report-both}) are the other side's
 * and are not kept. Launcher prefixes ({@code 0: }, {@code [1,0]<stdout>:}) are stripped. A row that does
 * not fit its table is reported with its file and line and skipped.
 */
public final class PerftestReader {
    public static final String ID = "perftest";
    public static final String LABEL = "perftest output (ib_write_bw, ib_read_bw, ib_send_bw, ib_*_lat)";
    /** Rows kept per run; the first are kept. */
    static final int MAX_ROWS = 100_000;
    /** Most result rows and failure lines kept per file, over all its runs. */
    static final int MAX_FILE_RECORDS = 250_000;
    /** Unfitting rows reported one by one per file; the rest are counted. */
    private static final int MAX_REPORTED = 20;

    private static final Pattern TITLE = Pattern.compile("^(Send|Send_imm|RDMA_Write|RDMA_Write_imm|RDMA_Read|Atomic)"
            + "(?:\\s+(?:CMP_AND_SWAP|FETCH_AND_ADD))?(\\s+Bidirectional)?(?:\\s+Post List)?\\s+(BW|Latency)"
            + "(?:\\s+forwarding)?(?:\\s+Multicast)?\\s+Test$");
    private static final Pattern WAITING = Pattern.compile("^\\*\\s*Waiting for client to connect\\.*\\s*\\*$");
    private static final Pattern ADDRESS = Pattern.compile("^(local|remote) address:\\s*LID\\s+(\\S+)\\s+QPN\\s+(\\S+)\\s+PSN\\s+\\S+.*");
    private static final Pattern GID = Pattern.compile("^(M?GID):\\s*([0-9A-Fa-f]{1,3}(?::[0-9A-Fa-f]{1,3}){15})\\s*$");
    private static final Pattern DEVICE = Pattern.compile("\\bDevice\\s*:\\s*(\\S+)");
    private static final Pattern QPS = Pattern.compile("\\bNumber of qps\\s*:\\s*(\\d{1,9})\\b");
    private static final Pattern TRANSPORT = Pattern.compile("\\bTransport type\\s*:\\s*(\\S+)");
    private static final Pattern CONNECTION = Pattern.compile("\\bConnection type\\s*:\\s*(\\S+)");
    private static final Pattern LINK = Pattern.compile("^Link type\\s*:\\s*(\\S+)");
    private static final Pattern GID_INDEX = Pattern.compile("^GID index\\s*:\\s*(\\d{1,9})\\b");
    private static final Pattern TX_DEPTH = Pattern.compile("^TX depth\\s*:");
    private static final Pattern VERSION = Pattern.compile("^Version:\\s*(\\S+)$");
    private static final Pattern HEADER_PAIR = Pattern.compile("^Dual-port\\s*:.*Device\\s*:");
    private static final Pattern ROW = Pattern.compile("^\\d+\\s+\\d+\\s.*");
    private static final Pattern ERROR = Pattern.compile("Couldn't connect to \\S+|Unable to init the socket connection"
            + "|ethernet_read_keys: Couldn't read remote address|Failed to modify QP.* to (?:RTR|RTS|INIT)"
            + "|Unable to Connect the HCA's through the link|Failed to exchange data between server and clients"
            + "|Couldn't get context for the device|Unable to find the Infiniband/RoCE device|Completion with error at (?:client|server)"
            + "|Couldn't create IB resources|Failed to create QP|Unable to create QP|Couldn't allocate context"
            + "|Failed to complete run_iter_b[wi] function successfully|Unable to open file descriptor for socket connection"
            + "|Problem in resolving basic address and port|Port number \\d+ state is \\S+|Couldn't set the link layer"
            + "|rdma_resolve_addr failed|Received \\d+ times ADDR_ERROR|Found Incompatibility issue with GID types"
            + "|Unable to set up socket connection|Couldn't listen to port|Parser function exited with Error");
    /** The failures a run meets before it prints anything of its own: after another run's rows, they start the next run. */
    private static final Pattern SETUP = Pattern.compile("Couldn't connect to|Unable to init the socket|Unable to open file descriptor"
            + "|Couldn't get context|Unable to find the Infiniband|Port number \\d+ state|Couldn't set the link layer"
            + "|Problem in resolving|Couldn't listen to port|Parser function exited");

    /** perftest's own words for a connection that did not come up (a client whose server is not there prints nothing else). */
    private static final Pattern OWN_FAILURE = Pattern.compile("^(?:Unable to init the socket connection"
            + "|ethernet_read_keys: Couldn't read remote address)$");

    /** Lines only perftest prints: its titles, table headers, header pairs, address lines, server banner and connection failures. */
    public static boolean looksLike(List<String> head) {
        for (String raw : head) {
            String l = NcclTestsReader.strip(raw);
            if (TITLE.matcher(l).matches() || HEADER_PAIR.matcher(l).find() || ADDRESS.matcher(l).matches()
                    || WAITING.matcher(l).matches() || OWN_FAILURE.matcher(l).matches()
                    || PerftestTable.isHeader(l) && PerftestTable.of(l) != null) {
                return true;
            }
        }
        return false;
    }

    /** One run being read. */
    private static final class Draft {
        int line;
        String verb = "";
        PerftestRun.Measure measure;
        boolean bidirectional;
        boolean server;
        boolean txDepth;
        String device = "";
        String linkType = "";
        String transport = "";
        String connection = "";
        int qps = -1;
        int gidIndex = -1;
        PerftestEndpoint local;
        PerftestEndpoint remote;
        /** Which endpoint a GID line under the last address line belongs to: 'l', 'r', or 0 for none kept. */
        char gidFor;
        PerftestTable table;
        boolean remoteResults;
        boolean rowsCut;
        final List<PerftestRow> rows = new ArrayList<>();
        final List<Evidence> errors = new ArrayList<>();

        boolean titled() {
            return !verb.isEmpty();
        }

        boolean hasContent() {
            return titled() || !rows.isEmpty() || !errors.isEmpty() || local != null;
        }

        PerftestRun run(String source, String version) {
            PerftestRun.Side side = server ? PerftestRun.Side.SERVER
                    : errors.stream().anyMatch(e -> e.text().contains("Couldn't connect to"))
                    || measure == PerftestRun.Measure.BANDWIDTH && !bidirectional && txDepth ? PerftestRun.Side.CLIENT
                    : PerftestRun.Side.UNKNOWN;
            PerftestRun.Measure m = measure != null ? measure : table != null && table.latency() ? PerftestRun.Measure.LATENCY
                    : PerftestRun.Measure.BANDWIDTH;
            return new PerftestRun(source, line, verb, m, bidirectional, side, device, linkType, transport, connection, qps,
                    gidIndex, local, remote, rows, errors, version);
        }
    }

    /** Reads every run of the input into {@code ctx.builder().forensics()}. */
    public void read(InputStream in, ReadContext ctx) throws IOException {
        String source = ctx.source();
        TextLines lines = ctx.lines(in);
        List<Draft> runs = new ArrayList<>();
        Budget budget = new Budget();
        Draft d = null;
        String version = "";
        int bad = 0;
        String raw;
        while ((raw = lines.next()) != null) {
            int n = lines.lineNumber();
            if ((n & 0xfff) == 0 && ctx.cancellation().isCancelled()) {
                throw new ImportCancelledException();
            }
            if (lines.truncated() || raw.indexOf('\0') >= 0) {
                continue;
            }
            String l = NcclTestsReader.strip(raw);
            if (l.isEmpty() || l.startsWith("----")) {
                continue;
            }
            Matcher m;
            if ((m = VERSION.matcher(l)).matches()) {
                version = m.group(1);
                continue;
            }
            if (WAITING.matcher(l).matches()) {
                d = next(d, runs, n, true);
                d.server = true;
                continue;
            }
            if ((m = TITLE.matcher(l)).matches()) {
                if (d == null || d.titled() || !d.rows.isEmpty()) {
                    d = next(d, runs, n, false);
                }
                d.verb = m.group(1);
                d.bidirectional = m.group(2) != null;
                d.measure = m.group(3).equals("BW") ? PerftestRun.Measure.BANDWIDTH : PerftestRun.Measure.LATENCY;
                continue;
            }
            Matcher err = ERROR.matcher(l);
            if (err.find()) {
                if (d == null || !d.rows.isEmpty() && SETUP.matcher(l).find()) {
                    d = next(d, runs, n, false);
                }
                if (d.errors.size() < 100 && budget.keep(source, n, ctx)) {
                    d.errors.add(Evidence.at(source, n, l));
                }
                continue;
            }
            if (d == null) {
                if (!(PerftestTable.isHeader(l) || ADDRESS.matcher(l).matches() || HEADER_PAIR.matcher(l).find())) {
                    continue;
                }
                d = next(null, runs, n, false);
            }
            if (PerftestTable.isHeader(l)) {
                d.table = PerftestTable.of(l);
                if (d.table == null) {
                    ctx.report(Diagnostic.warning(source, n, "perftest table header with a column perftest does not print; "
                            + "the rows under it are not read: " + FlightRecorderReader.abbreviate(l)));
                }
                continue;
            }
            if (ROW.matcher(l).matches()) {
                bad += row(d, l, n, source, ctx, bad, budget);
                continue;
            }
            header(d, l, n, source, ctx);
        }
        next(d, runs, 0, false);
        if (bad > MAX_REPORTED) {
            ctx.report(Diagnostic.warning(source, 0, (bad - MAX_REPORTED) + " more perftest rows did not fit their table's "
                    + "columns and were skipped"));
        }
        for (Draft r : runs) {
            ctx.builder().forensics().perftest(r.run(source, version));
        }
    }

    /** Rows and failure lines kept from one file ({@link #MAX_FILE_RECORDS}). */
    private static final class Budget {
        int kept;
        boolean cut;

        boolean keep(String source, int line, ReadContext ctx) {
            if (kept < MAX_FILE_RECORDS) {
                kept++;
                return true;
            }
            if (!cut) {
                cut = true;
                ctx.report(Diagnostic.warning(source, line, "more than " + MAX_FILE_RECORDS + " rows and failure lines in "
                        + "this perftest file (PerftestReader.MAX_FILE_RECORDS); the rest not kept"));
            }
            return false;
        }
    }

    /** Adds a result row; returns 1 when it did not fit (reported while fewer than {@link #MAX_REPORTED} were). */
    private static int row(Draft d, String l, int n, String source, ReadContext ctx, int bad, Budget budget) {
        if (d.table == null || d.remoteResults) {
            return 0; // no table read (an unknown header was reported), or the other side's results
        }
        if (d.rows.size() >= MAX_ROWS) {
            if (!d.rowsCut) {
                d.rowsCut = true;
                ctx.report(Diagnostic.warning(source, n, "more than " + MAX_ROWS + " rows in one perftest run "
                        + "(PerftestReader.MAX_ROWS); kept the first " + MAX_ROWS));
            }
            return 0;
        }
        PerftestRow row;
        try {
            row = d.table.row(l, Evidence.at(source, n, l));
        } catch (Numbers.OutOfRange e) {
            if (bad < MAX_REPORTED) {
                ctx.report(Diagnostic.warning(source, n, e.getMessage() + "; perftest row skipped: "
                        + FlightRecorderReader.abbreviate(l)));
            }
            return 1;
        }
        if (row != null) {
            if (budget.keep(source, n, ctx)) {
                d.rows.add(row);
            }
            return 0;
        }
        if (bad < MAX_REPORTED) {
            ctx.report(Diagnostic.warning(source, n, "perftest result row does not fit its table's " + d.table.size()
                    + " columns; skipped: " + FlightRecorderReader.abbreviate(l)));
        }
        return 1;
    }

    /** A header, address or GID line of the run being read (anything else is left alone). */
    private static void header(Draft d, String l, int n, String source, ReadContext ctx) {
        Matcher m;
        if ((m = ADDRESS.matcher(l)).matches()) {
            int lid = hex(m.group(2));
            if (lid < 0 || lid > 0xffff) {
                ctx.report(Diagnostic.warning(source, n, "perftest address line with a LID that is no 16-bit number; read "
                        + "without it: " + FlightRecorderReader.abbreviate(l)));
                lid = 0;
            }
            PerftestEndpoint e = new PerftestEndpoint(lid, m.group(3), "", Evidence.at(source, n, l));
            boolean isLocal = m.group(1).equals("local");
            d.gidFor = 0;
            if (isLocal && d.local == null) {
                d.local = e;
                d.gidFor = 'l';
            } else if (!isLocal && d.remote == null) {
                d.remote = e;
                d.gidFor = 'r';
            }
            return;
        }
        if ((m = GID.matcher(l)).matches()) {
            String gid = m.group(1).equals("GID") ? gid(m.group(2)) : null;
            if (gid == null && m.group(1).equals("GID")) {
                ctx.report(Diagnostic.warning(source, n, "perftest GID line with a byte over 255; ignored: " + l));
            } else if (gid != null && d.gidFor == 'l') {
                d.local = d.local.withGid(gid);
            } else if (gid != null && d.gidFor == 'r') {
                d.remote = d.remote.withGid(gid);
            }
            d.gidFor = 0;
            return;
        }
        if (l.equals("Remote results:") || l.equals("Local results:")) {
            d.remoteResults = l.startsWith("Remote");
            return;
        }
        if ((m = DEVICE.matcher(l)).find()) {
            d.device = m.group(1);
        }
        if ((m = QPS.matcher(l)).find()) {
            d.qps = Integer.parseInt(m.group(1));
        }
        if ((m = TRANSPORT.matcher(l)).find()) {
            d.transport = m.group(1);
        }
        if ((m = CONNECTION.matcher(l)).find()) {
            d.connection = m.group(1);
        }
        if ((m = LINK.matcher(l)).find()) {
            d.linkType = m.group(1);
        }
        if ((m = GID_INDEX.matcher(l)).find()) {
            d.gidIndex = Integer.parseInt(m.group(1));
        }
        d.txDepth |= TX_DEPTH.matcher(l).find();
    }

    /** Closes the run being read (kept when it has anything) and starts another at {@code line}. */
    private static Draft next(Draft d, List<Draft> runs, int line, boolean banner) {
        if (d != null && d.hasContent()) {
            runs.add(d);
        } else if (d != null && banner && !d.hasContent()) {
            d.line = line;
            return d;
        }
        Draft fresh = new Draft();
        fresh.line = line;
        return fresh;
    }

    /** {@code 0x1907} or {@code 0000} (perftest's {@code %#04x} of 0) as a number; -1 when it is not hex. */
    static int hex(String s) {
        String h = s.toLowerCase(Locale.ROOT).startsWith("0x") ? s.substring(2) : s;
        if (h.isEmpty() || h.length() > 8 || !h.matches("[0-9a-fA-F]+")) {
            return -1;
        }
        return (int) Long.parseLong(h, 16);
    }

    /** perftest's GID ({@code %02d} per byte: {@code 254:128:00:...:255:255:10:00:00:01}) as 8 groups of 4 hex digits; null when a byte is over 255. */
    static String gid(String bytes) {
        String[] b = bytes.split(":");
        StringBuilder out = new StringBuilder(39);
        for (int i = 0; i < 16; i++) {
            boolean hexDigits = b[i].chars().anyMatch(c -> Character.isLetter(c));
            int v = Integer.parseInt(b[i], hexDigits ? 16 : 10);
            if (v > 255) {
                return null;
            }
            if (i > 0 && i % 2 == 0) {
                out.append(':');
            }
            out.append(String.format(Locale.ROOT, "%02x", v));
        }
        return out.toString();
    }
}
