package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.analysis.FabricSummary;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Plural;
import org.fabricscope.model.core.Severity;

/**
 * The status bar's summary of one load: the fabric's counts (tiers that have switches, host HCAs,
 * cables, degraded cables, ports with errors) and the findings, each noun in its number. No answer
 * passes for healthy: with cables but no error counters read it says so instead of "0 ports with
 * errors", and a load without a fabric says that instead of "0 switches".
 */
final class StatusLine {
    private StatusLine() {
    }

    static String of(FabricSummary sum, List<Finding> findings) {
        List<String> parts = new ArrayList<>();
        if (sum.switches() + sum.cas() == 0) {
            parts.add("No fabric loaded");
        } else {
            List<String> tiers = new ArrayList<>();
            sum.switchTiers().forEach((tier, n) -> {
                if (n > 0) {
                    tiers.add(n + " " + tier);
                }
            });
            parts.add(Plural.of(sum.switches(), "switch") + (tiers.isEmpty() ? "" : " (" + String.join(", ", tiers) + ")"));
            parts.add(Plural.of(sum.hosts(), "host") + " (" + Plural.of(sum.hostCas(), "HCA") + ")");
            parts.add(Plural.of(sum.cables(), "cable") + " (" + sum.cablesDegraded() + " degraded)");
            if (!sum.countersUnread()) {
                parts.add(Plural.of(sum.portsWithErrors(), "port") + " with errors");
            }
        }
        if (sum.k8sNodes() + sum.pods() > 0) {
            parts.add(Plural.of(sum.k8sNodes(), "Kubernetes node") + ", " + Plural.of(sum.pods(), "pod"));
        }
        if (sum.ranks() > 0) {
            parts.add(Plural.of(sum.ranks(), "rank"));
        }
        long errors = findings.stream().filter(f -> f.severity() == Severity.ERROR).count();
        parts.add(Plural.of(findings.size(), "finding") + " (" + Plural.of(errors, "error") + ")");
        if (sum.switches() + sum.cas() > 0 && sum.countersUnread()) {
            parts.add(FabricSummary.NO_COUNTERS); // in place of "0 ports with errors", after the findings: all fits 1280 px
        }
        return String.join(" · ", parts);
    }
}
