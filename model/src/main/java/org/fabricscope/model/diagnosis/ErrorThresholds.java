package org.fabricscope.model.diagnosis;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Severity;

/**
 * Per-counter limits above which a port counter is an error. The defaults are those of
 * infiniband-diags' {@code /etc/infiniband-diags/error_thresholds} (rdma-core): 10 for the
 * physical-layer counters, 100 for relay/discard/constraint counters, 1000 for PortXmitWait.
 * A file in that same {@code Name=value} format overrides them.
 *
 * <p>Severity follows ibdiagnet's split: counters that mean a bad cable or transceiver
 * (symbol errors, link recoveries, link downs, integrity and overrun errors, receive errors) are
 * errors once far (10x) over their threshold and warnings above it; congestion counters
 * (discards, XmitWait) are warnings at most.
 */
public final class ErrorThresholds {
    /** Counters that point at the physical link rather than at congestion. */
    public static final Set<String> PHYSICAL = Set.of("SymbolErrorCounter", "LinkErrorRecoveryCounter",
            "LinkDownedCounter", "PortRcvErrors", "LocalLinkIntegrityErrors", "ExcessiveBufferOverrunErrors",
            "PortRcvRemotePhysicalErrors");

    private final Map<String, Long> limits;

    private ErrorThresholds(Map<String, Long> limits) {
        this.limits = Collections.unmodifiableMap(limits);
    }

    public static ErrorThresholds defaults() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("SymbolErrorCounter", 10L);
        m.put("LinkErrorRecoveryCounter", 10L);
        m.put("LinkDownedCounter", 10L);
        m.put("PortRcvErrors", 10L);
        m.put("PortRcvRemotePhysicalErrors", 100L);
        m.put("PortRcvSwitchRelayErrors", 100L);
        m.put("PortXmitDiscards", 100L);
        m.put("PortXmitConstraintErrors", 100L);
        m.put("PortRcvConstraintErrors", 100L);
        m.put("LocalLinkIntegrityErrors", 10L);
        m.put("ExcessiveBufferOverrunErrors", 10L);
        m.put("VL15Dropped", 100L);
        m.put("PortXmitWait", 1000L);
        return new ErrorThresholds(m);
    }

    /**
     * Reads {@code Name=value} lines over the defaults; {@code #} starts a comment. Bad lines are
     * reported to {@code problems} and skipped.
     */
    public static ErrorThresholds parse(Reader in, String source, java.util.List<Diagnostic> problems) throws IOException {
        Map<String, Long> m = new LinkedHashMap<>(defaults().limits);
        BufferedReader r = new BufferedReader(in);
        String line;
        int n = 0;
        while ((line = r.readLine()) != null) {
            n++;
            String t = line.strip();
            int hash = t.indexOf('#');
            if (hash >= 0) {
                t = t.substring(0, hash).strip();
            }
            if (t.isEmpty()) {
                continue;
            }
            int eq = t.indexOf('=');
            if (eq <= 0) {
                problems.add(new Diagnostic(Severity.WARNING, source, n, "expected Name=value, got \"" + t + "\""));
                continue;
            }
            String name = t.substring(0, eq).strip();
            try {
                long v = Long.parseLong(t.substring(eq + 1).strip());
                if (v < 0) {
                    throw new NumberFormatException();
                }
                m.put(name, v);
            } catch (NumberFormatException e) {
                problems.add(new Diagnostic(Severity.WARNING, source, n,
                        "threshold for " + name + " is not a non-negative whole number"));
            }
        }
        return new ErrorThresholds(m);
    }

    public Map<String, Long> limits() {
        return limits;
    }

    /** The limit for a counter, or -1 when the counter is not an error counter (data, packets). */
    public long limit(String counter) {
        Long v = limits.get(counter);
        return v == null ? -1 : v;
    }

    /**
     * The severity of a counter value, or null when it is within its threshold. PMA counters are
     * 64-bit unsigned: {@code value} is compared as unsigned (a count past {@link Long#MAX_VALUE} is
     * a negative long and still over any threshold).
     */
    public Severity judge(String counter, long value) {
        long limit = limit(counter);
        if (limit < 0 || Long.compareUnsigned(value, limit) <= 0) {
            return null;
        }
        if (PHYSICAL.contains(counter)) {
            java.math.BigInteger tenfold = java.math.BigInteger.valueOf(Math.max(1, limit)).multiply(java.math.BigInteger.TEN);
            return new java.math.BigInteger(Long.toUnsignedString(value)).compareTo(tenfold) > 0 ? Severity.ERROR
                    : Severity.WARNING;
        }
        return Severity.WARNING;
    }
}
