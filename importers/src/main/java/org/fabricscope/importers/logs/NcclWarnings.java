package org.fabricscope.importers.logs;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.training.NcclEvent;
import org.fabricscope.model.training.NcclProcess;
import org.fabricscope.model.training.TrainingLogBuilder;

/** What an NCCL {@code WARN} line says, sorted into the training log's events (docs/formats.md). */
final class NcclWarnings {
    private static final Pattern VERBS = Pattern.compile("Call to (\\w+) failed(?: with error (.*?))?(?: errno (\\d+))?\\s*$");
    private static final Pattern COMPLETION = Pattern.compile(
            "Got completion (?:from peer (\\S+) )?with (?:error (\\d+)|status=(?:(\\w+)\\()?(\\d+)\\)?)"
                    + ".*?vendor[ _]err[ =]?(\\d+)");
    /** NCCL 2.18 and older: {@code Error: network IB not found.} when the network NCCL_NET names did not initialize. */
    private static final Pattern NETWORK_NOT_FOUND = Pattern.compile("^Error: network (\\S{0,64}) ?not found");

    private NcclWarnings() {
    }

    /**
     * One NCCL WARN as an event: an ibv_* call that failed, an IB completion error, a socket closed by its peer,
     * a NET plugin that did not initialize (recorded on the process too), or any other warning. {@code env}:
     * what the process logged as its NCCL_* settings so far.
     */
    static void warn(TrainingLogBuilder log, Map<String, String> env, String host, int pid, String msg, Evidence ev) {
        Map<String, String> f = new LinkedHashMap<>();
        Matcher m;
        NcclEvent.Kind kind = NcclEvent.Kind.WARN;
        if ((m = VERBS.matcher(msg)).find()) {
            kind = NcclEvent.Kind.VERBS_FAILURE;
            f.put("call", m.group(1));
            if (m.group(2) != null) {
                f.put("error", m.group(2));
            }
            if (m.group(3) != null) {
                f.put("errno", m.group(3));
            }
        } else if ((m = COMPLETION.matcher(msg)).find()) {
            kind = NcclEvent.Kind.IB_COMPLETION_ERROR;
            if (m.group(1) != null) {
                f.put("peer", m.group(1));
            }
            String status = m.group(2) != null ? m.group(2) : m.group(4);
            f.put("status", status);
            f.put("statusName", m.group(3) != null ? m.group(3) : wcStatus(NcclLogParser.num(status, "completion status")));
            f.put("vendorErr", m.group(5));
        } else if ((m = NcclLogParser.SOCKET_CLOSED.matcher(msg)).find()) {
            kind = NcclEvent.Kind.SOCKET_CLOSED;
            f.put("peer", m.group(1));
        } else if (msg.startsWith("Failed to initialize any NET plugin")) {
            // 2.19+: no network left (NCCL_NET named one that failed): init fails with ncclInvalidUsage
            log.netInitFailed(host, pid, NcclProcess.ANY, ev);
        } else if ((m = NETWORK_NOT_FOUND.matcher(msg)).find()) {
            // up to 2.18: Error: network IB not found. (NCCL_NET named a network that did not initialize)
            if (!m.group(1).isEmpty()) {
                log.netInitFailed(host, pid, m.group(1), ev);
            }
            log.netInitFailed(host, pid, NcclProcess.ANY, ev);
        } else if (msg.contains("no socket interface found") && env.get("NCCL_SOCKET_IFNAME") != null) {
            // before Init there is no rank to carry the env: the WARN carries the interface NCCL looked for
            f.put("NCCL_SOCKET_IFNAME", env.get("NCCL_SOCKET_IFNAME"));
        }
        log.addEvent(new NcclEvent(kind, host, pid, -1, msg.strip(), f, ev));
    }

    /** ibv_wc_status names for the codes NCCL prints as numbers. */
    static String wcStatus(int s) {
        return switch (s) {
            case 0 -> "IBV_WC_SUCCESS";
            case 1 -> "IBV_WC_LOC_LEN_ERR";
            case 2 -> "IBV_WC_LOC_QP_OP_ERR";
            case 4 -> "IBV_WC_LOC_PROT_ERR";
            case 5 -> "IBV_WC_WR_FLUSH_ERR";
            case 9 -> "IBV_WC_REM_INV_REQ_ERR";
            case 10 -> "IBV_WC_REM_ACCESS_ERR";
            case 11 -> "IBV_WC_REM_OP_ERR";
            case 12 -> "IBV_WC_RETRY_EXC_ERR";
            case 13 -> "IBV_WC_RNR_RETRY_EXC_ERR";
            default -> "status " + s;
        };
    }
}
