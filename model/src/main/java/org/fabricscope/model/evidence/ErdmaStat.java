package org.fabricscope.model.evidence;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

import org.fabricscope.model.core.Evidence;

/**
 * One Alibaba Cloud eRDMA device as {@code eadm stat} on its host showed it (Alibaba Cloud ACK: eRDMA for PyTorch distributed training with Arena: ACK/Arena
 * eRDMA guide, step 5; Alibaba's "Monitor and diagnose eRDMA" page): present, with the live traffic
 * of {@code eadm stat -d erdma_0 -l} ({@code rx (download): 914.89 MiB/s 150423 p/s; tx (upload):914.66
 * MiB/s 147128 p/s}, one line per sample) and the counters of {@code eadm stat -d erdma_0}; or absent,
 * when eadm printed no statistics for the device it was asked about ({@code message}: what it printed).
 *
 * @param device     the device ({@code erdma_0}) from the command's {@code -d}, else empty (eadm's
 *                   default: the host's only eRDMA device)
 * @param present    whether eadm printed statistics for it
 * @param samples    how many live traffic lines were read
 * @param busy       how many of them show packets in either direction
 * @param peakRxMiBps the highest receive rate seen, MiB/s; {@code peakTxMiBps} likewise
 * @param peakRxPps  the highest receive packet rate, packets/s; {@code peakTxPps} likewise
 * @param counters   counters by name (the erdma driver's names: {@code connect_failed_cnt} ...)
 * @param message    for an absent device, the first line eadm printed instead of statistics
 * @param evidence   the line that shows the state: the busiest sample, the first counter, or the message
 */
public record ErdmaStat(String device, boolean present, int samples, int busy, double peakRxMiBps, double peakTxMiBps,
                        long peakRxPps, long peakTxPps, Map<String, Long> counters, String message, Evidence evidence) {
    public ErdmaStat {
        device = device == null ? "" : device;
        counters = Collections.unmodifiableMap(new LinkedHashMap<>(counters));
        message = message == null ? "" : message;
    }

    /** {@code erdma_0}, or {@code the eRDMA device} when the command named none. */
    public String label() {
        return device.isEmpty() ? "the eRDMA device" : device;
    }

    /** Whether any live sample showed packets, or the counters show packets or bytes moved. */
    public boolean passesTraffic() {
        if (busy > 0) {
            return true;
        }
        return counters.entrySet().stream().anyMatch(e -> e.getValue() > 0 && isTraffic(e.getKey()));
    }

    /** The counters whose names say a failure ({@code connect_failed_cnt}, {@code verbs_create_qp_failed_cnt}, drops), above 0. */
    public Map<String, Long> failures() {
        Map<String, Long> out = new LinkedHashMap<>();
        counters.forEach((k, v) -> {
            String n = k.toLowerCase(Locale.ROOT);
            if (v > 0 && (n.contains("fail") || n.contains("timeout") || n.contains("reset") || n.contains("drop"))) {
                out.put(k, v);
            }
        });
        return out;
    }

    private static boolean isTraffic(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        return !n.contains("drop") && (n.contains("pkts") || n.contains("packets") || n.contains("bytes"));
    }

    /** One line: {@code erdma_0 present, passing traffic (peak rx 914.89 MiB/s 150423 p/s, tx ...) in 3 of 3 samples}. */
    public String summary() {
        if (!present) {
            return label() + ": eadm stat printed no statistics" + (message.isEmpty() ? "" : " (" + message + ")");
        }
        StringBuilder b = new StringBuilder(label()).append(" present");
        if (samples > 0) {
            if (busy > 0) {
                b.append(", passing traffic (peak rx ").append(rate(peakRxMiBps)).append(" MiB/s ").append(peakRxPps)
                        .append(" p/s, tx ").append(rate(peakTxMiBps)).append(" MiB/s ").append(peakTxPps).append(" p/s) in ")
                        .append(busy).append(" of ").append(org.fabricscope.model.core.Plural.of(samples, "sample"));
            } else {
                b.append(", idle: no packets in ").append(samples).append(" sample(s)");
            }
        } else if (!counters.isEmpty()) {
            b.append(passesTraffic() ? ", its counters show traffic" : ", its counters show no traffic");
        }
        Map<String, Long> f = failures();
        if (!f.isEmpty()) {
            b.append("; ");
            f.entrySet().stream().limit(3).forEach(e -> b.append(e.getKey()).append('=').append(e.getValue()).append(' '));
            b.setLength(b.length() - 1);
        }
        return b.toString();
    }

    private static String rate(double d) {
        return String.format(Locale.ROOT, "%.2f", d);
    }
}
