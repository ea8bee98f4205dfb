package org.fabricscope.importers.logs;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.training.NcclEvent;

/**
 * A ProcessGroupNCCL watchdog line: a collective's timeout (WATCHDOG_TIMEOUT), the work progress
 * it reports (WATCHDOG_PROGRESS, or FLIGHT_RECORDER for a dump signal) or a stuck watchdog
 * (WATCHDOG_HANG). A one-line record (watchdog timeout, progress, heartbeat) that a terminal may
 * have wrapped: held until its pattern matches, then emitted; the next lines are appended with no
 * separator.
 */
final class TorchWatchdog extends TorchHeld {
    static final Pattern WORK = Pattern.compile(
            "WorkNCCL\\(SeqNum=(\\d+), OpType=(\\w+)(.*?)Timeout\\(ms\\)=(\\d+)\\)");
    private static final Pattern RAN_FOR = Pattern.compile("\\) ran for (\\d+) milliseconds");
    private static final Pattern NUMEL = Pattern.compile("NumelIn=(\\d+), NumelOut=(\\d+)");
    private static final Pattern PROGRESS = Pattern.compile(
            "[Ll]ast enqueued (?:NCCL )?work: (\\d+), last completed (?:NCCL )?work: (\\d+)");
    private static final Pattern AT_WORK = Pattern.compile("at work(?: sequence id)?: (\\d+)");
    private static final Pattern DUMP_FROM = Pattern.compile("collective timeout from +(this local rank|rank \\d+)");
    private static final Pattern STUCK = Pattern.compile("watchdog got stuck for (\\d+) seconds");

    TorchWatchdog(String source, int rank, int line, String first) {
        super(source, rank, line, first);
    }

    @Override
    boolean offer(String l) {
        if (TorchPrefix.startsRecord(l)) {
            return false;
        }
        if (PROGRESS.matcher(text).find() && !(Character.isDigit(l.charAt(0)) || l.charAt(0) == '.')) {
            return false; // complete but for a number the wrap may have cut: only digits continue it
        }
        text.append(l);
        return true;
    }

    @Override
    boolean done() {
        String t = text.toString();
        if (t.indexOf("WorkNCCL(") >= 0 || t.indexOf("Watchdog caught") >= 0) {
            return RAN_FOR.matcher(t).find() || t.indexOf("raised the following async exception") >= 0;
        }
        if (t.indexOf("ast enqueued") >= 0) {
            return PROGRESS.matcher(t).find() && (t.endsWith(".") || t.indexOf(" PG status: ") >= 0
                    && !Character.isDigit(t.charAt(t.length() - 1)));
        }
        return STUCK.matcher(t).find();
    }

    @Override
    void emit(TorchLines tl) {
        String t = text.toString();
        Map<String, String> f = new LinkedHashMap<>();
        int r = TorchPrefix.pgRank(t, f, rank, tl.groupRanks());
        Evidence ev = evidence(tl);
        Matcher m;
        if ((m = WORK.matcher(t)).find() && RAN_FOR.matcher(t).find()) {
            Matcher ran = RAN_FOR.matcher(t);
            ran.find(m.start());
            f.put("seqNum", TorchLines.seq(m.group(1), "sequence number"));
            f.put("opType", m.group(2));
            Matcher n = NUMEL.matcher(m.group(3));
            if (n.find()) {
                f.put("numelIn", n.group(1));
                f.put("numelOut", n.group(2));
            }
            f.put("timeoutMs", TorchLines.seq(m.group(4), "timeout"));
            f.put("ranForMs", TorchLines.seq(ran.group(1), "run time"));
            tl.add(NcclEvent.Kind.WATCHDOG_TIMEOUT, "", -1, r, t, f, ev);
        } else if ((m = PROGRESS.matcher(t)).find()) {
            Matcher at = AT_WORK.matcher(t);
            if (at.find()) {
                f.put("atWork", TorchLines.seq(at.group(1), "sequence number"));
            }
            f.put("lastEnqueued", TorchLines.seq(m.group(1), "sequence number"));
            f.put("lastCompleted", TorchLines.seq(m.group(2), "sequence number"));
            Matcher from = DUMP_FROM.matcher(t);
            if (from.find()) {
                f.put("action", "dump-signal");
                f.put("from", from.group(1));
                tl.add(NcclEvent.Kind.FLIGHT_RECORDER, "", -1, r, t, f, ev);
            } else {
                tl.add(NcclEvent.Kind.WATCHDOG_PROGRESS, "", -1, r, t, f, ev);
            }
        } else if ((m = STUCK.matcher(t)).find()) {
            f.put("stuckSeconds", TorchLines.seq(m.group(1), "watchdog time"));
            tl.add(NcclEvent.Kind.WATCHDOG_HANG, "", -1, r, t, f, ev);
        } else {
            tl.single(t, ev, rank);
        }
    }
}
