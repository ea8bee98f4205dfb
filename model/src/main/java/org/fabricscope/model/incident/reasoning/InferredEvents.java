package org.fabricscope.model.incident.reasoning;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Severity;
import org.fabricscope.model.incident.CauseClass;
import org.fabricscope.model.incident.Role;
import org.fabricscope.model.incident.Stamp;

/**
 * The events the reasoning concludes rather than reads: a party that died without a word
 * ({@code fabricscope.silent-death}) and a connection lost to a peer that was still alive
 * ({@code fabricscope.link-lost}), each citing the report that led to it.
 */
final class InferredEvents {
    private InferredEvents() {
    }

    /** A peer reported gone that was still alive after: the connection between them broke, not the peer. */
    static IncidentEvent linkLost(int seq, IncidentEvent report, Stamp peerAlive) {
        Map<String, String> f = new LinkedHashMap<>(report.fields());
        f.put("peer", report.blamed().label());
        return new IncidentEvent(seq, "fabricscope.link-lost", "lost its connection to " + report.blamed().label()
                + " while that peer was still running (it printed at " + peerAlive.clock() + "): the network path between"
                + " them failed, not the peer (" + report.title() + ")", Role.CAUSE, CauseClass.NETWORK_LINK, Severity.ERROR,
                report.stamp(), report.who(), report.blamed(), f, List.of(
                        "Check the links on the path between " + report.who().label() + " and " + report.blamed().label()
                                + ": their HCA ports' and the switch ports' error counters (perfquery, ibqueryerrors; the"
                                + " rank-path-errors finding when the fabric is loaded) and link flaps in both nodes' kernel logs.",
                        "IB retry exceeded (status 12) on a live peer means packets were lost on the way: a flapping or"
                                + " erroring cable, a congested or misconfigured switch, or NCCL_IB_TIMEOUT too short for the fabric."),
                report.evidence(), "FabricScope: a peer reported gone that was seen alive after the report");
    }

    /** A party its peers report gone that printed no failure and nothing after: killed from outside. */
    static IncidentEvent silent(int seq, Who who, IncidentEvent report) {
        Map<String, String> f = new LinkedHashMap<>();
        f.put("reportedBy", report.who().label());
        return new IncidentEvent(seq, "fabricscope.silent-death", "died without a word of its own while its peers report it gone"
                + " (killed from outside: SIGKILL, the OOM killer or the loss of its node)", Role.CAUSE, CauseClass.DEAD_RANK,
                Severity.ERROR, report.stamp(), who, Who.NOBODY, f, List.of(
                        "Look for why " + who.label() + " was killed: the node's kernel log (dmesg | grep -i 'killed process'),"
                                + " kubectl describe pod (Last State: OOMKilled, exit code 137), the node's events (NodeNotReady)"
                                + " and the scheduler's preemptions.",
                        "If nothing killed it, check the node itself (dmesg for Xid or machine-check errors, uptime for a reboot)."),
                report.evidence(), "FabricScope: a party that peers report gone and that printed no failure of its own");
    }
}
