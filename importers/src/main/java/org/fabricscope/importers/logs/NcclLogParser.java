package org.fabricscope.importers.logs;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.importers.core.TextLines;
import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.incident.IncidentLogBuilder;
import org.fabricscope.model.training.GdrSupport;
import org.fabricscope.model.training.NcclEvent;
import org.fabricscope.model.training.TrainingLogBuilder;

/**
 * Reads NCCL {@code NCCL_DEBUG=INFO} output and the PyTorch/torchrun lines around it, as per-rank
 * files, launcher-combined output or {@code kubectl logs} (with or without timestamps). Launcher
 * decorations are stripped first ({@code [N] }, {@code [1,0]<stdout>:}, OpenMPI and Kubernetes
 * timestamps, NCCL 2.26+'s {@code [YYYY-MM-DD HH:MM:SS] } before WARN), then each line is matched
 * by the formats of NCCL 2.7 to 2.30 (see docs/formats.md). Lines it does not know are ignored:
 * logs are mostly other text.
 */
public final class NcclLogParser {
    private static final Pattern VERSION = Pattern.compile("^NCCL version (\\d+\\.\\d+\\.\\d+)\\S*");
    private static final Pattern NET_IB_USING = Pattern.compile("^NET/IB\\w* ?: Using((?: \\[\\d+\\]\\S+?:\\d+/\\w+)*)");
    private static final Pattern NET_DEVICE = Pattern.compile("\\[\\d+\\](\\S+?:\\d+/\\w+)");
    private static final Pattern NET_SOCKET_USING = Pattern.compile("^NET/Socket ?: Using((?: \\[\\d+\\]\\S+)*)");
    private static final Pattern SOCKET_DEVICE = Pattern.compile("\\[\\d+\\](\\S+)");
    private static final Pattern USING_NETWORK = Pattern.compile("^Using network (\\S+)");
    private static final Pattern ENV = Pattern.compile("^(NCCL_\\w+) set (?:by environment )?to (.*?)\\.?$");
    private static final Pattern COMM_INFO = Pattern.compile(
            "^comm (0x[0-9a-fA-F]+) rank (\\d+) nRanks (\\d+) nNodes (\\d+)");
    private static final Pattern GDR_HCA = Pattern.compile(
            "^NET/(\\S+?) ?: GPU Direct RDMA (Enabled|Disabled) for HCA (\\d+) '([^']*)'(?: \\((.*)\\))?");
    private static final Pattern GDR_GPU = Pattern.compile(
            "^(?:NET/\\S+ ?: )?GPU Direct RDMA (Enabled|Disabled) for GPU (\\w+) / HCA (\\d+)(?: \\((.*?)\\))?");
    private static final Pattern OOB = Pattern.compile("; OOB (\\S+)");
    static final Pattern SOCKET_CLOSED = Pattern.compile("Connection closed by remote peer (\\S+)");
    private static final Pattern CLOSED_BY_LOCAL_RANK = Pattern.compile("Connection closed by localRank (\\d+)");

    private final TrainingLogBuilder log;
    private final List<Diagnostic> diagnostics;
    private final TorchLines torch;
    /** The channel, ring and tree lines of the communicators the processes set up. */
    private final NcclChannelLines channels;
    /** The lines that start and end a rank's part in a communicator ({@code - Init}, {@code - Abort}). */
    private final NcclInitLines inits;
    /** The trainers' step-time lines (Megatron-LM, DeepSpeed, Hugging Face, Lightning, torchtitan, plain prints). */
    private final StepTimeScan steps;
    private final LineCitation citation;
    private String source;
    private int lineNumber;
    /** Per process ({@code host:pid}): its version, network facts, env, and the communicator it is setting up. */
    private final Map<String, NcclProcessState> processes = new LinkedHashMap<>();
    /** The short values every process states alike (versions, networks, bus ids, settings), one object each. */
    private final org.fabricscope.model.core.SharedStrings strings = new org.fabricscope.model.core.SharedStrings();
    /** Unprefixed {@code NCCL version} lines per source: the version of that source's processes that print none. */
    private final Map<String, String> sourceVersions = new HashMap<>();

    public NcclLogParser(TrainingLogBuilder log, List<Diagnostic> diagnostics) {
        this(log, null, diagnostics);
    }

    /**
     * A parser that also scans every line for failure signatures into {@code incident} (one
     * {@link LineScanner} per source, closed by {@link #finish(String)}); null scans nothing.
     */
    public NcclLogParser(TrainingLogBuilder log, IncidentLogBuilder incident, List<Diagnostic> diagnostics) {
        this(log, incident, diagnostics, LineCitation.packedFile());
    }

    /**
     * A parser whose evidence {@code citation} makes: lines of a file ({@link LineCitation#packedFile()}), or
     * lines of a live stream with their times (the live job's followed pod logs).
     */
    public NcclLogParser(TrainingLogBuilder log, IncidentLogBuilder incident, List<Diagnostic> diagnostics,
                         LineCitation citation) {
        this(log, incident, diagnostics, citation, true);
    }

    /** With {@code fastChannels} false, the channel lines are read by the regular expressions alone (tests). */
    NcclLogParser(TrainingLogBuilder log, IncidentLogBuilder incident, List<Diagnostic> diagnostics,
                  LineCitation citation, boolean fastChannels) {
        this.log = log;
        this.scan = incident == null ? null : new SignatureScan(incident);
        this.diagnostics = diagnostics;
        this.citation = citation;
        this.torch = new TorchLines(log, diagnostics, citation);
        this.channels = new NcclChannelLines(log, this::evidence, fastChannels);
        this.inits = new NcclInitLines(log, channels, this::evidence, strings);
        this.steps = new StepTimeScan(log, citation);
    }

    /** The failure-signature scan of every line, one scanner per source (none without an incident builder). */
    private final SignatureScan scan;

    private void scan(String raw) {
        if (scan != null) {
            scan.line(source, raw, lineNumber);
        }
    }

    /**
     * Reads a whole file or stream, then {@link #finish(String) finishes} its source. The signature scan
     * of its lines runs meanwhile on a thread of its own ({@link SignatureScan#startBeside()}).
     */
    public void read(TextLines lines, String source, Cancellation cancel) throws IOException {
        if (scan == null) {
            readLines(lines, source, cancel);
            return;
        }
        scan.startBeside();
        try {
            readLines(lines, source, cancel);
        } catch (ImportCancelledException e) {
            scan.endBeside(true);
            throw e;
        } catch (RuntimeException | IOException | Error e) {
            try {
                scan.endBeside(false); // the lines before the failure are scanned: the reader keeps what they said
            } catch (RuntimeException | Error again) {
                e.addSuppressed(again);
            }
            throw e;
        }
        scan.endBeside(false);
    }

    private void readLines(TextLines lines, String source, Cancellation cancel) throws IOException {
        this.source = source;
        String raw;
        int binaryLines = 0;
        int firstBinary = 0;
        while ((raw = lines.next()) != null) {
            lineNumber = lines.lineNumber();
            if ((lineNumber & 0xfff) == 0 && cancel.isCancelled()) {
                throw new ImportCancelledException();
            }
            if (lines.truncated()) {
                diagnostics.add(Diagnostic.warning(source, lineNumber, "line longer than " + TextLines.MAX_LINE
                        + " bytes; ignored"));
                continue;
            }
            if (lines.hasNul()) {
                // a crashed writer leaves blocks of NUL bytes: only those lines are lost
                if (binaryLines++ == 0) {
                    firstBinary = lineNumber;
                }
                continue;
            }
            line(raw, lines.ascii(), prefix.sameStart(lines));
        }
        if (binaryLines > 0) {
            diagnostics.add(Diagnostic.warning(source, firstBinary, (binaryLines == 1 ? "line holds" : binaryLines
                    + " lines, the first here, hold") + " binary data (NUL bytes); ignored"));
        }
        finish(source);
    }

    /**
     * Parses one line of a live stream (or any line source): {@code source} and {@code lineNumber}
     * are what the evidence of anything read from it cites. Messages that continue over several
     * lines (a wrapped watchdog line, a {@code DistBackendError} with its {@code Last error:}, a
     * torchrun failure summary) are held per source until they end; call {@link #finish(String)}
     * when a source ends and {@link #finish()} at the end of all input.
     */
    public void line(String raw, String source, int lineNumber) {
        this.source = source;
        this.lineNumber = lineNumber;
        line(raw);
    }

    /**
     * Parses one line, citing the source and line number set last. A number on it past the range of
     * its field (a rank, pid, channel or exit code beyond 32 bits) skips the line with a diagnostic.
     */
    public void line(String raw) {
        line(raw, false, -1);
    }

    /**
     * As {@link #line(String)}; {@code ascii}: the line is known to hold only ASCII characters; {@code same}: whether
     * it begins with the last NCCL line's prefix, when known from its bytes (1 yes, 0 no, -1 not known).
     */
    private void line(String raw, boolean ascii, int same) {
        try {
            parse(raw, ascii, same);
        } catch (Numbers.OutOfRange e) {
            diagnostics.add(Diagnostic.warning(source, lineNumber, e.getMessage() + "; line skipped"));
        }
    }

    private void parse(String raw, boolean ascii, int same) {
        lineAscii = ascii;
        scan(raw);
        // a line that begins with the last NCCL line's prefix has no decoration: no decoration can start with a host
        // and a colon that a digit follows
        String l = same == 1 ? raw : stripDecoration(raw); // part of the line: ASCII when the line is
        // what the line's bytes said of its beginning holds for l when no decoration was cut off
        boolean prefixed = same >= 0 && l == raw ? same == 1 : prefix.same(l, ascii);
        if (!prefixed) {
            int nccl = l.indexOf(" NCCL ");
            if (prefix.scan(l, nccl, lastHost, ascii)) {
                prefixed = true;
            } else if (nccl > 0) {
                // a launcher's tag this parser does not know (srun --label, torchrun's prefix template, pdsh, a
                // user's own): NCCL's prefix found after it
                int host = NcclPrefix.hostStart(l, nccl);
                if (host > 0) {
                    String t = l.substring(host);
                    if (prefix.same(t, ascii) || prefix.scan(t, nccl - host, lastHost, ascii)) {
                        l = t;
                        prefixed = true;
                    }
                }
            }
        }
        if (prefixed) {
            torch.interrupt(source);
            steps.ncclHost(source, prefix.host);
            ncclLine(prefix.host, prefix.pid, prefix.level, l, prefix.at, raw);
            return;
        }
        if (l.startsWith("NCCL version ")) { // the unprefixed version line (rank 0 only, in older versions)
            Matcher m = VERSION.matcher(l);
            if (m.find()) {
                sourceVersions.put(source, m.group(1));
            }
            return;
        }
        steps.line(raw, source, lineNumber);
        torch.line(l, source, lineNumber);
    }

    /**
     * Ends one source (a file, or a pod's stream that closed): emits the message it was holding.
     * Lines of processes whose communicator never got named stay under the name they have.
     */
    public void finish(String source) {
        torch.finish(source);
        steps.finish(source);
        if (scan != null) {
            scan.finish(source);
        }
        for (NcclProcessState p : processes.values()) {
            if (source == null ? p.source == null : source.equals(p.source)) {
                channels.flushPending(p, p.currentComm, p.currentRank);
            }
        }
    }

    /** Ends all input: every held message is emitted and every process's unplaced channels, rings and trees kept. */
    public void finish() {
        torch.finishAll();
        steps.finishAll();
        if (scan != null) {
            scan.finishAll();
        }
        for (NcclProcessState p : processes.values()) {
            channels.flushPending(p, p.currentComm, p.currentRank);
        }
    }

    /** The prefix fields of the last NCCL line read: {@code host:pid:tid [dev] [file:line [(func)]] NCCL LEVEL message}. */
    private final NcclPrefix prefix = new NcclPrefix();

    /**
     * Whether the first lines of a file are a NCCL / PyTorch log: at least one NCCL INFO/WARN line
     * (after launcher decorations), or a ProcessGroupNCCL or torch.distributed (torchrun) line.
     */
    public static boolean looksLikeLog(List<String> head) {
        NcclLogParser probe = new NcclLogParser(new TrainingLogBuilder(), new ArrayList<>());
        for (String rawLine : head) {
            // the head may come split at LF only: a CR-only file is one line with CRs in it
            for (String raw : rawLine.replace("\uFEFF", "").split("\r")) {
                if (isLogLine(probe, raw)) {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean isLogLine(NcclLogParser probe, String raw) {
        String l = stripDecoration(raw);
        int at = l.indexOf(" NCCL ");
        try {
            if (at > 0 && probe.prefix.scan(l, at, null)) {
                return true;
            }
            int host = at > 0 ? NcclPrefix.hostStart(l, at) : -1;
            if (host > 0 && probe.prefix.scan(l.substring(host), at - host, null)) {
                return true;
            }
        } catch (Numbers.OutOfRange e) {
            return true; // an NCCL line whose pid is out of range: the parser reports it
        }
        return l.contains("ProcessGroupNCCL.cpp") || l.contains("torch.distributed.") || l.contains("torch/distributed/");
    }

    static String stripDecoration(String raw) {
        if (raw.isEmpty()) {
            return raw;
        }
        int end = LogDecoration.end(raw);
        return end == 0 ? raw : raw.substring(end);
    }

    /**
     * One NCCL line of process {@code host:pid}: its message is {@code l} from {@code at} on. The message is
     * read in place; it is cut out only for the lines that become part of the model (most lines are not).
     */
    private void ncclLine(String host, int pid, String level, String l, int at, String raw) {
        NcclProcessState p = process(host, pid);
        p.source = source;
        if (p.version == null && !sourceVersions.isEmpty()) {
            p.version = sourceVersions.get(source);
        }
        if (level.equals("WARN") || level.equals("ERROR")) {
            NcclWarnings.warn(log, process(host, pid).env, host, pid, l.substring(at), evidence(raw));
            return;
        }
        Matcher m;
        String msg;
        char c0 = at < l.length() ? l.charAt(at) : ' ';
        // NCCL prints "[Service thread] Connection closed by localRank %d" (src/proxy.cc, the same words from 2.12.12
        // to master): only a message that opens with '[' is searched, not every line
        if (c0 == '[' && l.indexOf("Connection closed by localRank", at) >= 0
                && (m = CLOSED_BY_LOCAL_RANK.matcher(msg = l.substring(at))).find()) {
            // the proxy service thread of a process whose peer on this host went away (or shut down): an INFO line
            log.addEvent(new NcclEvent(NcclEvent.Kind.SOCKET_CLOSED, host, pid, -1, msg.strip(),
                    Map.of("peer", "localRank " + m.group(1), "localRank", m.group(1), "info", "true"), evidence(raw)));
            return;
        }
        NcclProcessFacts.read(log, host, pid, l, at);
        if (channels.line(p, c0, l, at, raw)) {
            return;
        }
        if (c0 == 'N' && l.startsWith("NCCL version ", at)) {
            if ((m = VERSION.matcher(l.substring(at))).find()) {
                p.version = strings.of(m.group(1));
            }
        } else if (c0 == 'N' && l.startsWith("NET/", at)) {
            netLine(p, host, pid, l.substring(at), raw);
        } else if (c0 == 'G' && l.startsWith("GPU Direct RDMA", at)) {
            gdr(host, pid, l.substring(at), raw);
        } else if (c0 == 'U' && l.startsWith("Using network ", at)) {
            if ((m = USING_NETWORK.matcher(l.substring(at))).find()) {
                p.network = strings.of(m.group(1));
            }
        } else if (c0 == 'N' && l.startsWith("NCCL_", at) && l.indexOf(" set ", at) >= 0) {
            if ((m = ENV.matcher(l.substring(at))).find()) {
                String name = strings.of(m.group(1));
                String value = strings.of(m.group(2).strip());
                p.env.put(name, value);
                log.processEnv(host, pid, name, value);
            }
        } else if (c0 == 'F' && l.startsWith("Failed to initialize NET plugin ", at)) {
            // 2.19+: the plugin NCCL_NET (or the default order) asked for found no device or failed to start
            String net = l.substring(at + "Failed to initialize NET plugin ".length()).strip();
            log.netInitFailed(host, pid, net.isEmpty() || net.length() > 64 ? "?" : net, evidence(raw));
        } else if (c0 == 'c' && l.startsWith("comm 0x", at) && l.indexOf(" nNodes ", at) > at) {
            if ((m = COMM_INFO.matcher(l.substring(at))).find()) {
                p.nNodes = num(m.group(4), "nNodes");
            }
        } else {
            inits.line(p, host, pid, l, at, raw);
        }
    }

    /** A {@code NET/...} message: GPU Direct RDMA per HCA, no IB device, the IB or socket devices in use. */
    private void netLine(NcclProcessState p, String host, int pid, String msg, String raw) {
        Matcher m;
        if (msg.indexOf("GPU Direct RDMA") > 0) {
            gdr(host, pid, msg, raw);
        } else if (msg.startsWith("NET/IB") && msg.contains("No device found")) {
            p.noIbDevice = true;
            log.noIbDevice(host, pid, evidence(raw));
        } else if ((m = NET_IB_USING.matcher(msg)).find()) {
            Matcher d = NET_DEVICE.matcher(m.group(1));
            List<String> devices = new ArrayList<>();
            while (d.find()) {
                String dev = d.group(1); // mlx5_0:1/IB: the HCA port is an InfiniBand port number, 8 bits
                Numbers.port(dev.substring(dev.lastIndexOf(':') + 1, dev.lastIndexOf('/')));
                devices.add(strings.of(dev));
            }
            p.netDevices.addAll(devices);
            Matcher o = OOB.matcher(msg);
            if (o.find()) {
                p.oob = strings.of(o.group(1));
            }
        } else if ((m = NET_SOCKET_USING.matcher(msg)).find()) {
            if (p.netDevices.isEmpty()) {
                Matcher d = SOCKET_DEVICE.matcher(m.group(1));
                while (d.find()) {
                    p.netDevices.add(strings.of("socket " + d.group(1)));
                }
            }
        }
    }

    private void gdr(String host, int pid, String msg, String raw) {
        Matcher m;
        if ((m = GDR_HCA.matcher(msg)).find()) {
            log.addGdrSupport(new GdrSupport(host, pid, strings.of(m.group(1)), num(m.group(3), "HCA index"),
                    strings.of(m.group(4)), m.group(2).equals("Enabled"),
                    m.group(5) == null ? "" : strings.of(m.group(5)), evidence(raw)));
        } else if ((m = GDR_GPU.matcher(msg)).find()) {
            String reason = m.group(4) == null ? "" : m.group(4);
            log.addGdrSupport(new GdrSupport(host, pid, "", num(m.group(3), "HCA index"), "", m.group(1).equals("Enabled"),
                    reason.isEmpty() ? "GPU " + m.group(2) : "GPU " + m.group(2) + ", " + reason, evidence(raw)));
        }
    }

    /** A rank, channel, device, count or index: a C int that is never negative, else the line is skipped. */
    static int num(String text, String field) {
        return Numbers.nonNegativeInt(text, field);
    }

    /** Whether the line being parsed is known to be all ASCII (its reader saw its bytes). */
    private boolean lineAscii;

    /** Evidence is made only for the lines that become part of the model. */
    private Evidence evidence(String raw) {
        return citation.cite(source, lineNumber, raw.strip(), lineAscii);
    }

    private String lastHost;
    private int lastPid = -1;
    private NcclProcessState lastProcess;

    /** Logs are runs of lines from one process: remember the last one instead of hashing host:pid per line. */
    private NcclProcessState process(String host, int pid) {
        if (pid != lastPid || !host.equals(lastHost)) {
            lastProcess = processes.computeIfAbsent(host + ":" + pid, k -> new NcclProcessState());
            lastHost = host;
            lastPid = pid;
        }
        return lastProcess;
    }
}
