package org.fabricscope.model.flows;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.flows.FlowContext.Failure;
import org.fabricscope.model.k8s.K8sPod;
import org.fabricscope.model.training.NcclEvent;
import org.fabricscope.model.training.Rank;

/**
 * How the job's processes failed: the {@link Failure}s read from torchrun's {@code ChildFailedError}
 * entries, else its {@code failed (exitcode: N)} lines, else the Failed training pods; and the signal an
 * exit code implies.
 */
final class Failures {
    /** Linux signal numbers to names, for exit codes that only give the number. */
    private static final Map<Integer, String> SIGNALS = Map.ofEntries(Map.entry(1, "SIGHUP"), Map.entry(2, "SIGINT"),
            Map.entry(3, "SIGQUIT"), Map.entry(4, "SIGILL"), Map.entry(6, "SIGABRT"), Map.entry(7, "SIGBUS"),
            Map.entry(8, "SIGFPE"), Map.entry(9, "SIGKILL"), Map.entry(11, "SIGSEGV"), Map.entry(13, "SIGPIPE"),
            Map.entry(15, "SIGTERM"));

    private Failures() {
    }

    /**
     * The signal an exit code implies (a negative exit code is torchrun's -N for signal N; 128 + N is how
     * a shell or a container runtime reports signal N, e.g. 137 for SIGKILL); empty when it implies none.
     */
    static String signalOf(String exitCode) {
        int code = FlowContext.intOf(exitCode, 0);
        int n = code < 0 ? -code : code > 128 && code < 160 ? code - 128 : 0;
        return SIGNALS.getOrDefault(n, n > 0 && code < 0 ? "signal " + n : "");
    }

    /** The failed ranks (root cause first) or, with no process failure in the logs, the Failed training pods. */
    static List<Failure> find(FlowContext c) {
        List<Failure> out = new ArrayList<>();
        List<NcclEvent> child = new ArrayList<>();
        List<NcclEvent> process = new ArrayList<>();
        for (NcclEvent e : c.log().events()) {
            if (e.kind() == NcclEvent.Kind.CHILD_FAILED) {
                child.add(e);
            } else if (e.kind() == NcclEvent.Kind.PROCESS_FAILED) {
                process.add(e);
            }
        }
        for (NcclEvent e : child) {
            int rank = FlowContext.intOf(e.field("rank"), -1);
            String host = e.field("host") == null ? e.host() : e.field("host");
            out.add(new Failure(rank, FlowContext.intOf(e.field("localRank"), -1), FlowContext.intOf(e.field("pid"), -1), host,
                    nz(e.field("exitcode")), nz(e.field("signal")), "true".equals(e.field("rootCause")), podOf(c, host),
                    e.evidence(), new Subject.RankRef("", rank, host, "rank " + rank + " (" + nz(e.field("exitcode")) + ")")));
        }
        if (out.isEmpty()) {
            for (NcclEvent e : process) {
                long pid = FlowContext.intOf(e.field("pid"), e.pid());
                Rank r = rankOfPid(c, pid, e.evidence());
                int rank = r == null ? -1 : r.rank();
                String host = r == null ? e.host() : r.host();
                String label = (rank >= 0 ? "rank " + rank : "local rank " + e.field("localRank")) + " exit " + nz(e.field("exitcode"));
                out.add(new Failure(rank, FlowContext.intOf(e.field("localRank"), -1), pid, host, nz(e.field("exitcode")),
                        nz(e.field("signal")), false, podOf(c, host), e.evidence(),
                        new Subject.RankRef(r == null ? "" : r.commId(), rank, host, label)));
            }
        }
        if (out.isEmpty()) {
            for (K8sPod p : c.trainingPods()) {
                if ("Failed".equalsIgnoreCase(p.phase())) {
                    // the exit code of its first container that ended (137: killed by SIGKILL)
                    String exit = p.containers().stream().filter(x -> !x.init() && x.exitCode() != null)
                            .map(x -> String.valueOf(x.exitCode())).findFirst().orElse("");
                    out.add(new Failure(-1, -1, -1, p.node() == null ? "" : p.node(), exit, "", false, p.name(), p.evidence(),
                            new Subject.PodRef(p.namespace(), p.name(), "pod " + p.key())));
                }
            }
        }
        // the root cause torchrun names first; otherwise log order
        List<Failure> sorted = new ArrayList<>(out);
        sorted.sort((a, b) -> Boolean.compare(b.rootCause(), a.rootCause()));
        return Collections.unmodifiableList(sorted);
    }

    /** The NCCL rank of a process id, preferring one logged in the same file, then the largest communicator. */
    private static Rank rankOfPid(FlowContext c, long pid, Evidence where) {
        Rank best = null;
        for (Rank r : c.log().ranks()) {
            if (r.pid() != pid) {
                continue;
            }
            boolean same = r.evidence() != null && where != null && r.evidence().source().equals(where.source());
            boolean bestSame = best != null && best.evidence() != null && where != null
                    && best.evidence().source().equals(where.source());
            if (best == null || same && !bestSame || same == bestSame && r.nranks() > best.nranks()) {
                best = r;
            }
        }
        return best;
    }

    private static String podOf(FlowContext c, String host) {
        if (host == null || host.isEmpty()) {
            return null;
        }
        for (K8sPod p : c.model().pods()) {
            if (p.name().equals(host)) {
                return p.name();
            }
        }
        return null;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
