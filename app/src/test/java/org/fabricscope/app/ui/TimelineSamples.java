package org.fabricscope.app.ui;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.fabricscope.app.nav.Samples;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.incident.CauseClass;
import org.fabricscope.model.incident.reasoning.Incident;
import org.fabricscope.model.incident.reasoning.IncidentEvent;
import org.fabricscope.model.incident.Role;
import org.fabricscope.model.incident.Stamp;
import org.fabricscope.model.incident.reasoning.Who;

/**
 * An incident over the training-incident sample's own lines, as the reasoning would conclude it with a
 * catalogue that knows them: rank 12's IB completion error first (the root cause, on dgx-su2-h07), rank
 * 12's watchdog two seconds later and rank 0's collective timeout ten minutes later (consequences), and
 * the master pod's phase with no time (context). The lines are the ones the checks cite, so they open
 * in the Logs tab; the incident itself does not depend on the signature catalogue.
 */
final class TimelineSamples {
    static final Who RANK_12 = new Who(12, "ml-train", "gpt-train-worker-0", "dgx-su2-h07", "gpt-train-worker-0", "4", "");
    static final Who RANK_0 = new Who(0, "ml-train", "gpt-train-master-0", "dgx-su1-h05", "gpt-train-master-0", "0", "");
    static final Who MASTER_POD = new Who(-1, "ml-train", "gpt-train-master-0", "dgx-su1-h05", "", "", "");

    private TimelineSamples() {
    }

    static Incident incident(Analysis a) {
        Evidence ib = Samples.finding(a.findings(), "ib-completion-error").evidence().get(0);
        Evidence timeout = Samples.finding(a.findings(), "nccl-timeout").evidence().get(0);
        Evidence watchdog = Evidence.at(ib.source(), ib.line() + 2, "[rank12]:[E1121 23:14:07.512004101 ProcessGroupNCCL.cpp:1785]"
                + " [PG ID 0 PG GUID 0(default_pg) Rank 12] Exception (either an error or timeout) detected by watchdog at work: 4811");
        IncidentEvent root = event(0, "nccl.ib-completion-error", "IB completion error (status 12, retry exceeded)", Role.CAUSE,
                CauseClass.NETWORK_LINK, Severity.ERROR, "2026-11-21T23:14:05Z", RANK_12, ib, "src/transport/net_ib.cc (NCCL 2.19-2.28)");
        IncidentEvent wd = event(1, "pytorch.watchdog-exception", "watchdog caught an exception at work 4811", Role.CONSEQUENCE,
                CauseClass.COLLECTIVE_HANG, Severity.WARNING, "2026-11-21T23:14:07.512Z", RANK_12, watchdog, "ProcessGroupNCCL.cpp");
        IncidentEvent to = event(2, "pytorch.watchdog-timeout", "collective ALLREDUCE SeqNum 4812 timed out", Role.CONSEQUENCE,
                CauseClass.COLLECTIVE_HANG, Severity.ERROR, "2026-11-21T23:24:06Z", RANK_0, timeout, "ProcessGroupNCCL.cpp");
        IncidentEvent phase = new IncidentEvent(3, "kubernetes.pod-phase", "pod phase Failed", Role.CONTEXT, CauseClass.SCHEDULING,
                Severity.INFO, Stamp.NONE, MASTER_POD, Who.NOBODY, Map.of(), List.of(), Evidence.at("", 0, "pod phase Failed"),
                "Kubernetes pod status");
        return new Incident(List.of(root, wd, to, phase), root, Map.of(1, 0, 2, 0), List.of("1 event carries no time"));
    }

    private static IncidentEvent event(int seq, String id, String title, Role role, CauseClass c, Severity s, String time, Who who,
                                       Evidence ev, String origin) {
        Stamp stamp = new Stamp(Instant.parse(time).toEpochMilli(), true, true);
        return new IncidentEvent(seq, id, title, role, c, s, stamp, who, Who.NOBODY, Map.of(), List.of("check the link"), ev, origin);
    }
}
