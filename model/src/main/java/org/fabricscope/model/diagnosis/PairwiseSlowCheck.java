package org.fabricscope.model.diagnosis;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.FindingSpec;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.core.Subject;
import org.fabricscope.model.pairwise.PairCell;
import org.fabricscope.model.pairwise.PairMatrices;
import org.fabricscope.model.pairwise.PairMatrix;
import org.fabricscope.model.pairwise.PairVerdict;

/**
 * {@code pairwise-slow}: what the bisection over node pairs finds in the loaded pairwise tests (perftest
 * {@code ib_*_bw} and {@code ib_*_lat} runs, nccl-tests runs between two hosts; {@link PairMatrices}). One
 * finding per node that is slow in every pair it is part of, and per pair that is slow alone while both its
 * nodes are fine in their other pairs (the path between them). The rule is {@link PairVerdict}'s:
 *
 * <ul>
 * <li>a node needs at least {@value PairVerdict#MIN_OWN_PAIRS} pairs of its own and
 * {@value PairVerdict#MIN_REFERENCE_PAIRS} measured pairs without it, or it is not judged (one slow pair
 * cannot tell the node from the other end or the path; one pair is no median). Too few pairs: no finding;</li>
 * <li>each of its pairs must be below {@value PairVerdict#BANDWIDTH_FRACTION} of the median of the pairs
 * without it (bandwidths), or above {@value PairVerdict#LATENCY_FACTOR} times it (latencies). Healthy pairs of
 * one kind of HCA and switch are within a few percent of each other in bandwidth and, with one to three switch
 * hops, within some 40% in latency; the faults a bisection is run for (a port at a lower speed or width, a NIC's
 * PCIe link at half its lanes, a NIC on the far socket) cost a quarter of the bandwidth or more;</li>
 * <li>a single pair is a slow link by the same bounds against the median of the other pairs that involve no
 * slow node, when both its nodes have other pairs and all of those are fine.</li>
 * </ul>
 *
 * A pair whose every run failed ({@code Couldn't connect to ...}) counts as slow. Matrices of different tests
 * are judged apart.
 */
public final class PairwiseSlowCheck implements FabricCheck {
    static final FindingSpec SLOW = new FindingSpec("pairwise-slow", Layer.FABRIC, Severity.WARNING,
            "A node slow in every pairwise test it is part of (perftest ib_*_bw/ib_*_lat, nccl-tests between two hosts), "
                    + "or one pair slow while both its nodes are fine with the others",
            "linux-rdma/perftest output (src/perftest_parameters.c, src/perftest_communication.c, tag 26.04.17); "
                    + "NVIDIA/nccl-tests src/common.cu; the pairwise bisection over nodes (each pair against the median of the pairs without it)");
    private static final int MAX_EVIDENCE = 12;

    @Override
    public List<FindingSpec> findings() {
        return List.of(SLOW);
    }

    @Override
    public List<Finding> run(CheckContext context) {
        List<Finding> out = new ArrayList<>();
        for (PairMatrix m : PairMatrices.of(context.model()).matrices()) {
            PairVerdict v = m.verdict();
            for (PairVerdict.SlowNode s : v.slowNodes()) {
                out.add(node(m, s));
            }
            for (PairVerdict.SlowLink l : v.slowLinks()) {
                out.add(link(m, l));
            }
        }
        return out;
    }

    private static Finding node(PairMatrix m, PairVerdict.SlowNode s) {
        String unit = m.kind().unit();
        double lo = Double.MAX_VALUE;
        double hi = -Double.MAX_VALUE;
        int failed = 0;
        for (PairCell c : s.cells()) {
            if (c.failed()) {
                failed++;
            } else {
                lo = Math.min(lo, c.value());
                hi = Math.max(hi, c.value());
            }
        }
        String values = failed == s.cells().size() ? "every run failed"
                : (PairVerdict.num(lo).equals(PairVerdict.num(hi)) ? PairVerdict.num(lo) : PairVerdict.num(lo) + "-" + PairVerdict.num(hi))
                        + " " + unit
                        + (failed > 0 ? " (" + failed + " failed)" : "");
        String title = String.format(Locale.ROOT, "%s is slow in all %d of its %s pairs: %s, %s of the median of the %d pairs "
                        + "without it (%s %s)", s.node(), s.cells().size(), m.test(), values, range(s.worst(), s.best()),
                s.referencePairs(), PairVerdict.num(s.reference()), unit);
        List<Subject> refs = List.of(new Subject.HostRef(s.node(), s.node()));
        return new Finding(SLOW.id(), Severity.WARNING, title, refs, evidence(s.cells()), nodeRemedies(m, s.node()));
    }

    private static Finding link(PairMatrix m, PairVerdict.SlowLink l) {
        PairCell c = l.cell();
        String unit = m.kind().unit();
        String title = String.format(Locale.ROOT, "%s %s is slow while both nodes are fine in their other pairs: %s, %d%% of "
                        + "the median of the other %d pairs (%s %s)", m.test(), c.label(),
                c.failed() ? "every run failed" : PairVerdict.num(c.value()) + " " + unit, Math.round(l.score() * 100),
                l.referencePairs(), PairVerdict.num(l.reference()), unit);
        List<Subject> refs = List.of(new Subject.HostRef(c.a(), c.a()), new Subject.HostRef(c.b(), c.b()));
        List<String> remedies = new ArrayList<>();
        remedies.add("Both hosts are fine with every other node, so look at the path between them: ibtracert between their "
                + "LIDs (or the RoCE route) shows the switches it takes; compare the error counters and rates of those switch "
                + "ports (perfquery, iblinkinfo) with the paths of healthy pairs.");
        remedies.add("Rerun " + m.test() + " for this pair in both directions and at another time: one slow run among good ones may be "
                + "congestion from other traffic rather than a fault.");
        return new Finding(SLOW.id(), Severity.WARNING, title, refs, evidence(List.of(c)), remedies);
    }

    private static List<String> nodeRemedies(PairMatrix m, String node) {
        List<String> r = new ArrayList<>();
        r.add("Take " + node + " out of the job's node list until it is explained: every pair it is part of is slow, "
                + "whatever the other node, so the fault is on " + node + " or its link to the first switch.");
        r.add("On " + node + ": ibstat / ibv_devinfo (port rate and width against the other nodes'), iblinkinfo for its "
                + "switch port, perfquery error counters (symbol errors, link downed, port rcv errors), and the HCA's "
                + "PCIe link (lspci -vv: LnkSta speed and width against LnkCap).");
        r.add("Check that the test ran on the HCA and CPU socket it should (-d, and numactl --cpunodebind to the HCA's "
                + "NUMA node): a NIC driven from the far socket loses bandwidth in every pair.");
        if (m.kind().higherIsBetter()) {
            r.add("Rerun " + m.test() + " between " + node + " and a known-good node after any change, with the same options "
                    + "(-a or -s, -q, --report_gbits) as the other pairs.");
        }
        return r;
    }

    private static List<Evidence> evidence(List<PairCell> cells) {
        Set<Evidence> ev = new LinkedHashSet<>();
        for (PairCell c : cells) { // each pair's value line first
            if (!c.evidence().isEmpty()) {
                ev.add(c.evidence().get(0));
            }
        }
        for (PairCell c : cells) {
            ev.addAll(c.evidence());
        }
        return new ArrayList<>(ev).subList(0, Math.min(MAX_EVIDENCE, ev.size()));
    }

    private static String range(double lo, double hi) {
        long a = Math.round(lo * 100);
        long b = Math.round(hi * 100);
        return a == b ? a + "%" : a + "-" + b + "%";
    }
}
