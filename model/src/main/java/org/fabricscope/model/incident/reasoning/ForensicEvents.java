package org.fabricscope.model.incident.reasoning;

import org.fabricscope.model.incident.CauseClass;
import org.fabricscope.model.incident.Role;
import org.fabricscope.model.incident.Stamp;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.forensics.FlightRecorderAnalysis;
import org.fabricscope.model.forensics.FrEntry;
import org.fabricscope.model.forensics.ProcessGroupProgress;
import org.fabricscope.model.forensics.RankProgress;
import org.fabricscope.model.forensics.RasCommunicator;
import org.fabricscope.model.forensics.RasRank;
import org.fabricscope.model.forensics.RasStatus;

/**
 * The events of the hang forensics: from flight recorder dumps, each member of a hung process group
 * that never enqueued the collective its peers wait in is a cause ({@code fabricscope.fr-rank-behind},
 * at the time it enqueued its last collective), and each member that waits is a consequence of it
 * ({@code fabricscope.fr-waiting}, at the time it enqueued the collective it waits in); from NCCL RAS,
 * each rank a communicator reports missing or dead ({@code fabricscope.ras-rank-missing}). The ids are
 * a contract, like the catalogue's.
 */
final class ForensicEvents {
    private static final String FR_ORIGIN = "PyTorch flight recorder dumps (torch/csrc/distributed/c10d/FlightRecorder*), "
            + "compared per process group as tools/flight_recorder's fr_trace does";
    private static final String RAS_ORIGIN = "NCCL RAS (src/ras/client_support.cc: the communicators' missing ranks)";

    private ForensicEvents() {
    }

    static void collect(FabricModel model, Places places, List<IncidentEvent> out) {
        if (model.forensics().isEmpty()) {
            return;
        }
        for (ProcessGroupProgress pg : FlightRecorderAnalysis.progress(model.forensics().flightRecorder())) {
            if (!pg.hangs()) {
                continue;
            }
            long max = pg.maxEnqueued();
            for (RankProgress r : pg.behind()) {
                Map<String, String> f = new LinkedHashMap<>();
                f.put("processGroup", pg.label());
                f.put("lastEnqueued", String.valueOf(r.lastEnqueued()));
                f.put("waitedFor", String.valueOf(max));
                out.add(new IncidentEvent(out.size(), "fabricscope.fr-rank-behind", "never enqueued collective #" + max + " of "
                        + pg.label() + " that its peers wait in (its last enqueued: #" + r.lastEnqueued() + ")", Role.CAUSE,
                        CauseClass.COLLECTIVE_HANG, Severity.ERROR, stamp(r.last()), places.complete(Who.NOBODY.withRank(r.rank())),
                        Who.NOBODY, f, List.of("Find what rank " + r.rank() + " was doing instead of collective #" + max
                                + ": the stack in its dump's last entry, py-spy dump of its process, its own log's last lines.",
                                "A rank held up by its data loader, a checkpoint, a slow or faulty GPU or an uneven branch in"
                                        + " the training code makes every peer wait at the next collective."),
                        Evidence.at(r.source(), 0, "last enqueued #" + r.lastEnqueued() + ", last completed #" + r.lastCompleted()),
                        FR_ORIGIN));
            }
            for (RankProgress r : pg.leaders()) {
                if (r.lastCompleted() >= max) {
                    continue;
                }
                FrEntry waiting = r.entry(max);
                Map<String, String> f = new LinkedHashMap<>();
                f.put("processGroup", pg.label());
                f.put("waitingIn", String.valueOf(max));
                out.add(new IncidentEvent(out.size(), "fabricscope.fr-waiting", "waits in collective #" + max + " of " + pg.label()
                        + (waiting == null ? "" : " (" + waiting.profilingName() + ")"), Role.CONSEQUENCE, CauseClass.COLLECTIVE_HANG,
                        Severity.WARNING, stamp(waiting != null ? waiting : r.last()),
                        places.complete(Who.NOBODY.withRank(r.rank())), Who.NOBODY, f, List.of(),
                        Evidence.at(r.source(), 0, "last enqueued #" + r.lastEnqueued() + ", last completed #" + r.lastCompleted()),
                        FR_ORIGIN));
            }
        }
        for (RasStatus s : model.forensics().ras()) {
            for (RasCommunicator c : s.communicators()) {
                for (RasRank r : c.missingRanks()) {
                    Map<String, String> f = new LinkedHashMap<>();
                    f.put("communicator", c.label());
                    if (r.pid() >= 0) {
                        f.put("pid", String.valueOf(r.pid()));
                    }
                    Who who = places.complete(new Who(r.rank(), "", "", "", r.host(), r.cudaDev() >= 0 ? String.valueOf(r.cudaDev())
                            : "", ""));
                    out.add(new IncidentEvent(out.size(), "fabricscope.ras-rank-missing", (r.dead() ? "dead" : "missing")
                            + " from communicator " + c.label() + " as NCCL RAS reports it", Role.CAUSE,
                            r.dead() ? CauseClass.DEAD_RANK : CauseClass.COLLECTIVE_HANG, Severity.ERROR, Stamp.NONE, who, Who.NOBODY,
                            f, List.of("Check the process of rank " + r.rank() + ": is it alive (ps, its pod's status), stuck (py-spy"
                                    + " dump) or gone (its node's kernel log, the pod's events)?"),
                            r.evidence() != null ? r.evidence() : c.evidence(), RAS_ORIGIN));
                }
            }
        }
    }

    private static Stamp stamp(FrEntry e) {
        return e == null || e.createdNs() <= 0 ? Stamp.NONE : new Stamp(e.createdNs() / 1_000_000, true, true);
    }
}
