package org.fabricscope.importers.logs;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.model.training.NcclEvent;

/**
 * An NCCL error as PyTorch raises it: {@code NCCL error in: file:line, <error>, NCCL version X},
 * then {@code ncclXxxError: ...}, {@code Last error:}, the NCCL text (same or next line), and
 * {@code Exception raised from ...}.
 */
final class TorchNcclError extends TorchHeld {
    private static final Pattern NCCL_RESULT = Pattern.compile("^(nccl\\w+): ?(.*)$");
    private static final Pattern RAISED_FROM = Pattern.compile("^Exception raised from (\\S+) at (\\S+)");
    private static final Pattern NCCL_ERROR_HEAD = Pattern.compile(
            "NCCL error(?: in: (\\S+?),)?:? ?(.*?)(?: \\(run with NCCL_DEBUG=INFO for details\\))?(?:, NCCL version (\\S+?))?\\.?\\s*$");
    private static final Pattern COMPLETION = Pattern.compile(
            "Got completion (?:from peer (\\S+) )?with (?:error (\\d+)|status=(?:(\\w+)\\()?(\\d+)\\)?)");
    private static final Pattern SOCKET_CLOSED = Pattern.compile("Connection closed by remote peer (\\S+)");

    String result;
    String lastError;
    boolean expectLast;
    String raisedFrom;
    String raisedAt;
    boolean headerOpen;

    TorchNcclError(String source, int rank, int line, String first) {
        super(source, rank, line, first);
        headerOpen = first.indexOf("NCCL error") >= 0 && first.indexOf("NCCL version") < 0;
        int le = first.indexOf("Last error:");
        if (le >= 0) {
            lastOn(first.substring(le + 11));
        }
    }

    private void lastOn(String rest) {
        String t = rest.strip();
        if (t.isEmpty()) {
            expectLast = true;
        } else {
            lastError = t;
        }
    }

    @Override
    boolean offer(String l) {
        String t = l.strip();
        Matcher m;
        if (expectLast) {
            if (t.startsWith("Exception raised from")) {
                expectLast = false;
                lastError = "";
                return raised(l);
            }
            expectLast = false;
            lastError = t;
            text.append('\n').append(l);
            return true;
        }
        if (t.startsWith("Last error:")) {
            headerOpen = false;
            text.append('\n').append(l);
            lastOn(t.substring(11));
            return true;
        }
        if (t.startsWith("Exception raised from")) {
            return raised(l);
        }
        if (result == null && (m = NCCL_RESULT.matcher(t)).find()) {
            headerOpen = false;
            result = m.group(1);
            text.append('\n').append(l);
            return true;
        }
        if (headerOpen && !TorchPrefix.startsRecord(t)) { // the header wrapped mid-way (e.g. before "NCCL version")
            text.append(l);
            if (text.indexOf("NCCL version") >= 0 && !text.toString().endsWith("NCCL version")) {
                headerOpen = false;
            }
            return true;
        }
        return false;
    }

    private boolean raised(String l) {
        Matcher m = RAISED_FROM.matcher(l.strip());
        if (m.find()) {
            raisedFrom = m.group(1);
            raisedAt = m.group(2);
        }
        text.append('\n').append(l);
        return true;
    }

    @Override
    boolean done() {
        return raisedFrom != null;
    }

    @Override
    void emit(TorchLines tl) {
        String t = text.toString();
        String head = t.indexOf('\n') < 0 ? t : t.substring(0, t.indexOf('\n'));
        Map<String, String> f = new LinkedHashMap<>();
        int r = TorchPrefix.pgRank(head, f, rank, tl.groupRanks());
        Matcher m;
        int at = head.indexOf("NCCL error");
        if (at >= 0 && (m = NCCL_ERROR_HEAD.matcher(head)).find(at)) {
            if (m.group(1) != null) {
                f.put("where", m.group(1));
            }
            f.put("error", m.group(2));
            if (m.group(3) != null) {
                f.put("ncclVersion", m.group(3));
            }
        } else {
            int c = head.indexOf("DistBackendError:");
            f.put("error", c >= 0 ? head.substring(c + 17).strip() : head.strip());
        }
        if ((m = TorchWatchdog.WORK.matcher(head)).find()) {
            f.put("seqNum", TorchLines.seq(m.group(1), "sequence number"));
            f.put("opType", m.group(2));
        }
        if (result != null) {
            f.put("result", result);
        }
        if (lastError != null) {
            f.put("lastError", lastError);
            if ((m = COMPLETION.matcher(lastError)).find()) {
                if (m.group(1) != null) {
                    f.put("peer", m.group(1));
                }
                String status = m.group(2) != null ? m.group(2) : m.group(4);
                f.put("status", status);
                f.put("statusName", m.group(3) != null ? m.group(3) : NcclWarnings.wcStatus(NcclLogParser.num(status, "completion status")));
            } else if ((m = SOCKET_CLOSED.matcher(lastError)).find()) {
                f.put("peer", m.group(1));
            }
        }
        if (raisedFrom != null) {
            f.put("raisedFrom", raisedFrom + " at " + raisedAt);
        }
        tl.add(NcclEvent.Kind.NCCL_ERROR, "", -1, r, head, f, evidence(tl));
    }
}
