package org.fabricscope.importers.logs;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.SharedMaps;
import org.fabricscope.model.core.SharedStrings;
import org.fabricscope.model.training.NcclEvent;
import org.fabricscope.model.training.Rank;
import org.fabricscope.model.training.TrainingLogBuilder;

/**
 * The NCCL INFO lines that start and end a rank's part in a communicator: {@code ... comm %p rank %d nranks %d cudaDev
 * %d [nvmlDev %d] busId %lx [commId 0x%llx] - Init START|COMPLETE} (src/init.cc, with the function's name or
 * {@code [Rank %d]} before it in later versions) and {@code comm %p rank %d nRanks %d ... - Abort START|COMPLETE}.
 * An Init line names the communicator the process is setting up, so the channel lines it printed before wait for it
 * ({@link NcclChannelLines#flushPending}).
 */
final class NcclInitLines {
    private static final Pattern INIT = Pattern.compile(
            "(?:\\[Rank \\d+\\] )?(?:\\w+ )?comm (0x[0-9a-fA-F]+) rank (\\d+) nranks (\\d+) cudaDev (\\d+)"
                    + "(?: nvmlDev (\\d+))? busId ([0-9a-fA-F]+)(?: commId (0x[0-9a-fA-F]+))?.*? ?- Init (START|COMPLETE)");
    private static final Pattern ABORT = Pattern.compile(
            "comm (0x[0-9a-fA-F]+) rank (\\d+) n[Rr]anks (\\d+).*? - Abort (START|COMPLETE)");

    private final TrainingLogBuilder log;
    private final NcclChannelLines channels;
    /** The evidence of a raw line, citing the line being read. */
    private final Function<String, Evidence> evidenceOf;
    private final SharedStrings strings;
    /** The processes' settings, alike in every process: one map each. */
    private final SharedMaps envs = new SharedMaps();

    NcclInitLines(TrainingLogBuilder log, NcclChannelLines channels, Function<String, Evidence> evidenceOf,
                  SharedStrings strings) {
        this.log = log;
        this.channels = channels;
        this.evidenceOf = evidenceOf;
        this.strings = strings;
    }

    /**
     * Reads the message of process {@code p} that starts at {@code at} in {@code l} if it is an Init line (a rank
     * of a communicator) or an Abort line, and does nothing otherwise. One look for {@code "- "} serves both, where
     * two scans of every unknown line for each word did.
     */
    void line(NcclProcessState p, String host, int pid, String l, int at, String raw) {
        boolean init = false;
        boolean abort = false;
        // "- " rather than " - ": ncclCommSplit's Init START has no space before the dash in 2.23 to 2.29
        for (int q = l.indexOf("- ", at); q >= 0; q = l.indexOf("- ", q + 1)) {
            if (l.startsWith("Init ", q + 2)) {
                init = true;
                break;
            }
            abort |= l.startsWith("Abort ", q + 2);
        }
        Matcher m;
        String msg;
        if (init) {
            if ((m = INIT.matcher(msg = l.substring(at))).find()) {
                boolean complete = m.group(8).equals("COMPLETE");
                // every number first: a line with one out of range changes no state
                int nranks = NcclLogParser.num(m.group(3), "nranks");
                int rank = NcclLogParser.num(m.group(2), "rank");
                int cudaDev = NcclLogParser.num(m.group(4), "cudaDev");
                int nvmlDev = m.group(5) == null ? -1 : NcclLogParser.num(m.group(5), "nvmlDev");
                // Before commId was printed (2.16 and older), and in ncclCommSplit's lines, the comm pointer
                // differs in every process: the k-th communicator of N ranks that each process completes is taken
                // to be the same one, and a START belongs to the communicator its process completes next.
                String commId = strings.of(m.group(7) != null ? m.group(7) : "size" + nranks + "#" + (complete
                        ? p.commsOfSize.merge(nranks, 1, Integer::sum) : p.commsOfSize.getOrDefault(nranks, 0) + 1));
                if (!complete) {
                    p.sawStart = true;
                }
                channels.flushPending(p, commId, rank);
                p.currentComm = commId;
                p.currentRank = rank;
                log.putRank(new Rank(host, pid, cudaDev, nvmlDev,
                        strings.of(m.group(6)), commId, rank, nranks, p.nNodes, p.version, true, complete,
                        p.netDevices, p.oob, p.network, p.noIbDevice, envs.of(p.env), evidenceOf.apply(raw)));
                if (complete) {
                    p.nNodes = -1;
                }
            }
        } else if (abort) {
            if ((m = ABORT.matcher(msg = l.substring(at))).find()) {
                Map<String, String> f = new LinkedHashMap<>();
                f.put("action", m.group(4).equals("COMPLETE") ? "abort-complete" : "abort-start");
                f.put("comm", m.group(1));
                f.put("nranks", m.group(3));
                log.addEvent(new NcclEvent(NcclEvent.Kind.ABORT, host, pid, NcclLogParser.num(m.group(2), "rank"), msg.strip(), f,
                        evidenceOf.apply(raw)));
            }
        }
    }
}
