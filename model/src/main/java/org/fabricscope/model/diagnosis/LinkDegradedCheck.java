package org.fabricscope.model.diagnosis;

import org.fabricscope.model.core.Subject;
import org.fabricscope.model.core.Layer;
import org.fabricscope.model.core.FindingSpec;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.fabric.LinkWidth;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.core.Severity;

/**
 * {@code link-degraded}: a cable running narrower or slower than it could. Two references:
 * what iblinkinfo says the ends support ("Could be 4X 53.125 Gbps"), and the prevailing (most
 * common) width and speed of cables of the same tier pair (leaf-host, leaf-spine, spine-core).
 * A lost lane (4x to 1x) is an error: a quarter of the bandwidth and a sign of a failing cable.
 */
public final class LinkDegradedCheck implements FabricCheck {
    static final FindingSpec SPEC = new FindingSpec("link-degraded", Layer.FABRIC, Severity.WARNING,
            "Cables narrower or slower than their ends support or than the rest of their tier",
            "ibdiagnet's speed/width checks; iblinkinfo \"Could be\" rates");

    @Override
    public List<FindingSpec> findings() {
        return List.of(SPEC);
    }

    /** Why a cable is degraded and whether it lost lanes (an error) or only runs slower (a warning). */
    public record Degradation(String why, boolean lostLanes) {
        /** The severity of the link-degraded finding for this cable. */
        public Severity severity() {
            return lostLanes ? Severity.ERROR : Severity.WARNING;
        }
    }

    /** Why a cable is degraded, by cable, in model order; cables running at full rate are absent. */
    public static Map<Cable, String> assess(FabricModel model) {
        Map<Cable, String> out = new LinkedHashMap<>();
        assessAll(model).forEach((c, d) -> out.put(c, d.why()));
        return out;
    }

    /** The key of {@link #assessAll}'s result among the model's derived values. */
    private static final Object ASSESSED = new Object();

    /**
     * {@link #assess} with each cable's severity: lost lanes (narrower than it could run) or a slower speed.
     * Computed once per model (the check and the map's colouring both ask; ten times Selene: about 0.1 s
     * each with the window's C1 compiler); read-only.
     */
    public static Map<Cable, Degradation> assessAll(FabricModel model) {
        return model.derived(ASSESSED, LinkDegradedCheck::computeAssessment);
    }

    private static Map<Cable, Degradation> computeAssessment(FabricModel model) {
        Map<String, Map<LinkWidth, Integer>> widths = new HashMap<>();
        Map<String, Map<LinkSpeed, Integer>> speeds = new HashMap<>();
        List<Cable> all = model.cables();
        String[] pairs = new String[all.size()];
        for (int i = 0; i < pairs.length; i++) {
            Cable c = all.get(i);
            String k = tierPair(c);
            pairs[i] = k;
            if (c.width() != null) {
                widths.computeIfAbsent(k, x -> new EnumMap<>(LinkWidth.class)).merge(c.width(), 1, Integer::sum);
            }
            if (c.speed() != null) {
                speeds.computeIfAbsent(k, x -> new EnumMap<>(LinkSpeed.class)).merge(c.speed(), 1, Integer::sum);
            }
        }
        Map<String, LinkWidth> modeWidth = new HashMap<>();
        widths.forEach((k, m) -> modeWidth.put(k, mode(m)));
        Map<String, LinkSpeed> modeSpeed = new HashMap<>();
        speeds.forEach((k, m) -> modeSpeed.put(k, mode(m)));

        Map<Cable, Degradation> out = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i++) {
            Cable c = all.get(i);
            List<String> why = new ArrayList<>(0);
            boolean lostLanes = false;
            LinkWidth w = c.width();
            LinkSpeed s = c.speed();
            LinkWidth couldW = plausibleWidth(max(c.a().couldBeWidth(), c.b().couldBeWidth()), s);
            LinkSpeed couldS = max(c.a().couldBeSpeed(), c.b().couldBeSpeed());
            if (w != null && couldW != null && w.lanes() < couldW.lanes()) {
                why.add("width " + w.token() + " where the ends support " + couldW.token());
                lostLanes = true;
            }
            if (s != null && couldS != null && s.compareTo(couldS) < 0) {
                why.add("speed " + s + " where the ends support " + couldS);
            }
            String k = pairs[i];
            LinkWidth mw = modeWidth.get(k);
            LinkSpeed ms = modeSpeed.get(k);
            if (w != null && mw != null && w.lanes() < mw.lanes() && !lostLanes) {
                why.add("width " + w.token() + " where other " + k + " cables run " + mw.token());
                lostLanes = true;
            }
            if (s != null && ms != null && s.compareTo(ms) < 0 && why.stream().noneMatch(x -> x.startsWith("speed"))) {
                why.add("speed " + s + " where other " + k + " cables run " + ms);
            }
            if (!why.isEmpty()) {
                out.put(c, new Degradation(String.join("; ", why), lostLanes));
            }
        }
        return Collections.unmodifiableMap(out);
    }

    /** {@code leaf-spine}, {@code host-leaf}, ...: the tiers of the two ends, sorted. */
    public static String tierPair(Cable c) {
        String x = role(c.a().node());
        String y = role(c.b().node());
        return x.compareTo(y) <= 0 ? x + "-" + y : y + "-" + x;
    }

    private static String role(FabricNode n) {
        if (n.isSwitch()) {
            return n.tier().label();
        }
        return switch (n.kind()) {
            case CA -> n.isHostAdapter() ? "host" : "ca";
            case ROUTER -> "router";
            default -> "other";
        };
    }

    /**
     * What this port could run at that it does not, as iblinkinfo's "Could be" says it
     * ({@code 4xHDR}; {@code ?} for the part it did not say), or null when it runs at what it supports:
     * a "Could be 12X" at FDR or faster (every port of some firmware and of ibsim prints it) is not a
     * capability, and a width or speed no better than the running one says nothing. 12X links only ever
     * shipped at SDR, DDR and QDR; at FDR and faster no port runs 12X.
     */
    public static String couldRun(Port p) {
        LinkWidth w = plausibleWidth(p.couldBeWidth(), p.speed());
        LinkSpeed s = p.couldBeSpeed();
        boolean wider = w != null && p.width() != null && w.lanes() > p.width().lanes();
        boolean faster = s != null && p.speed() != null && s.compareTo(p.speed()) > 0;
        if (!wider && !faster) {
            return null;
        }
        return (wider ? w.token() : p.width() == null ? "?" : p.width().token())
                + (faster ? s.name() : p.speed() == null ? "?" : p.speed().name());
    }

    private static LinkWidth plausibleWidth(LinkWidth could, LinkSpeed speed) {
        if (could == LinkWidth.X12 && speed != null && speed.compareTo(LinkSpeed.FDR10) >= 0) {
            return null;
        }
        return could;
    }

    private static <T extends Enum<T>> T mode(Map<T, Integer> counts) {
        T best = null;
        int n = -1;
        for (Map.Entry<T, Integer> e : counts.entrySet()) {
            if (e.getValue() > n || (e.getValue() == n && e.getKey().compareTo(best) > 0)) {
                best = e.getKey();
                n = e.getValue();
            }
        }
        return best;
    }

    private static <T extends Comparable<T>> T max(T x, T y) {
        if (x == null) {
            return y;
        }
        if (y == null) {
            return x;
        }
        return x.compareTo(y) >= 0 ? x : y;
    }

    @Override
    public List<Finding> run(CheckContext context) {
        FabricModel model = context.model();
        List<Finding> out = new ArrayList<>();
        for (Map.Entry<Cable, Degradation> e : assessAll(model).entrySet()) {
            Cable c = e.getKey();
            boolean lostLanes = e.getValue().lostLanes();
            Port a = c.a();
            Port b = c.b();
            List<String> remedies = lostLanes
                    ? List.of("A link that trained to fewer lanes has a damaged cable, a dirty connector or a bad transceiver: reseat, clean or replace the cable between "
                                    + Subjects.portLabel(a) + " and " + Subjects.portLabel(b) + ".",
                            "After the fix, check with iblinkinfo that the link trains at full width.")
                    : List.of("Check that both ends are configured for the same speeds (ibportstate <lid> <port> query) and that the cable is rated for the speed.",
                            "Replace the cable with one rated for the tier's speed; then re-enable the port so it retrains.");
            out.add(new Finding(SPEC.id(), e.getValue().severity(),
                    "Degraded link " + c.rateToken() + ": " + a.label() + " <-> " + b.label(),
                    List.of(Subjects.port(a), Subjects.port(b), Subjects.cable(c)), // the cable last: subjects only grow
                    c.evidence() == null ? List.of() : List.of(org.fabricscope.model.core.Evidence.at(
                            c.evidence().source(), c.evidence().line(), e.getValue().why() + " | " + c.evidence().text())),
                    remedies));
        }
        return out;
    }
}
