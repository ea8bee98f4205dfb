package org.fabricscope.importers.host;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.Numbers;
import org.fabricscope.importers.core.ReadContext;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.evidence.ErdmaStat;
import org.fabricscope.model.evidence.HostEvidenceBuilder.Draft;

/**
 * Alibaba Cloud's {@code eadm stat} (the eRDMA driver's diagnosis tool; the ACK eRDMA guide, the ACK/Arena eRDMA
 * guide, step 5, and Alibaba's "Monitor and diagnose eRDMA" page). {@code eadm stat -d erdma_0 -l}
 * prints the device's live traffic, one line per sample, as the seed shows it:
 * {@code rx (download): 914.89 MiB/s 150423 p/s; tx (upload):914.66 MiB/s 147128 p/s}.
 * {@code eadm stat -d erdma_0} prints its counters; Alibaba documents their layout only as a
 * screenshot, so counter lines are read as {@code name value}, {@code name: value} or
 * {@code name = value}, and a file is recognised by them only when at least two carry the erdma
 * driver's own counter names ({@code erdma_stats.c}: {@code connect_failed_cnt},
 * {@code verbs_create_qp_cnt} ...). The device is the command's {@code -d} (from a prompt line such
 * as {@code # eadm stat -d erdma_0 -l}), else the one named in the file's name, else eadm's default
 * (the host's only eRDMA device). When a prompt shows {@code eadm stat} was run and it printed no
 * statistics, the device is recorded as absent with the line eadm printed instead.
 */
public final class EadmStatReader extends HostEvidenceReader {
    public static final String ID = "eadm-stat";
    /** The seed's line; units may be B, KiB, MiB or GiB per second, the space after the colons is optional. */
    private static final Pattern RATE = Pattern.compile("^\\s*rx \\(download\\):\\s*(\\d{1,12}(?:\\.\\d{1,6})?)\\s*([KMGT]?i?B)/s\\s+"
            + "(\\d{1,18})\\s*p/s\\s*;\\s*tx \\(upload\\):\\s*(\\d{1,12}(?:\\.\\d{1,6})?)\\s*([KMGT]?i?B)/s\\s+(\\d{1,18})\\s*p/s\\s*$");
    private static final Pattern COUNTER = Pattern.compile("^\\s*([A-Za-z][A-Za-z0-9_]{1,63})\\s*(?:[:=]\\s*|\\s+)(\\d{1,19})\\s*$");
    /**
     * The command itself, after the prompt: {@code eadm stat} with only options after it ({@code -d erdma_0 -l}),
     * perhaps through sudo, a path or a pipe; a comment such as {@code # eadm stat on two nodes} is not one.
     */
    private static final Pattern EADM_STAT = Pattern.compile(
            "^(?:sudo\\s+)?(?:\\S*/)?eadm\\s+stat((?:\\s+-{1,2}[A-Za-z][\\w-]*(?:[ =][A-Za-z0-9_.][A-Za-z0-9_.-]*)?)*)\\s*(?:[|>;&].*)?$");
    private static final Pattern DEVICE_ARG = Pattern.compile("(?:^|\\s)-d\\s*([A-Za-z0-9_.-]{1,32})");
    private static final Pattern DEVICE_IN_NAME = Pattern.compile("(erdma_\\d{1,3})");
    /** The erdma driver's hardware counter names (erdma_stats.c), as {@code rdma statistic} and eadm name them. */
    static final Set<String> DRIVER_COUNTERS = Set.of("listen_create_cnt", "listen_ipv6_cnt", "listen_success_cnt",
            "listen_failed_cnt", "listen_destroy_cnt", "accept_total_cnt", "accept_success_cnt", "accept_failed_cnt",
            "reject_cnt", "reject_failed_cnt", "connect_total_cnt", "connect_success_cnt", "connect_failed_cnt",
            "connect_timeout_cnt", "connect_reset_cnt", "cmdq_submitted_cnt", "cmdq_comp_cnt", "cmdq_eq_notify_cnt",
            "cmdq_eq_event_cnt", "cmdq_cq_armed_cnt", "erdma_aeq_event_cnt", "erdma_aeq_notify_cnt", "verbs_alloc_mr_cnt",
            "verbs_alloc_mr_failed_cnt", "verbs_alloc_pd_cnt", "verbs_alloc_pd_failed_cnt", "verbs_alloc_uctx_cnt",
            "verbs_alloc_uctx_failed_cnt", "verbs_create_cq_cnt", "verbs_create_cq_failed_cnt", "verbs_create_qp_cnt",
            "verbs_create_qp_failed_cnt", "verbs_dealloc_pd_cnt", "verbs_dealloc_uctx_cnt", "verbs_dereg_mr_cnt",
            "verbs_dereg_mr_failed_cnt", "verbs_destroy_cq_cnt", "verbs_destroy_cq_failed_cnt", "verbs_destroy_qp_cnt",
            "verbs_destroy_qp_failed_cnt", "verbs_get_dma_mr_cnt", "verbs_get_dma_mr_failed_cnt", "verbs_reg_usr_mr_cnt",
            "verbs_reg_usr_mr_failed_cnt");
    private static final int MAX_COUNTERS = 256;

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "eadm stat (eRDMA)";
    }

    @Override
    public int maxConfidence() {
        return 75;
    }

    @Override
    public int confidence(Head head) {
        int known = 0;
        for (String l : content(head)) {
            if (RATE.matcher(l).matches()) {
                return maxConfidence();
            }
            Matcher m = COUNTER.matcher(l);
            if (m.matches() && DRIVER_COUNTERS.contains(m.group(1))) {
                known++;
            }
        }
        if (known >= 2) {
            return 65;
        }
        // a prompt that ran eadm stat, whatever it printed (an error when the device is missing)
        for (String l : head.lines()) {
            String cmd = commandOf(l);
            if (cmd != null && EADM_STAT.matcher(cmd).matches()) {
                return 60;
            }
        }
        return NONE;
    }

    @Override
    Parser parser(Draft draft, ReadContext ctx) {
        Matcher named = DEVICE_IN_NAME.matcher(ctx.source() == null ? "" : ctx.source());
        String fromName = named.find() ? named.group(1) : "";
        return new Parser() {
            private Acc acc = new Acc(fromName);

            @Override
            public void command(String command, Evidence at) {
                Matcher m = EADM_STAT.matcher(command);
                if (!m.matches()) {
                    return;
                }
                acc.flush(draft);
                Matcher d = DEVICE_ARG.matcher(m.group(1));
                acc = new Acc(d.find() ? d.group(1) : fromName);
                acc.asked = true;
            }

            @Override
            public void line(String line, Evidence at) {
                Matcher m = RATE.matcher(line);
                if (m.matches()) {
                    double rx = mib(m.group(1), m.group(2));
                    double tx = mib(m.group(4), m.group(5));
                    long rxp = longOr(m.group(3));
                    long txp = longOr(m.group(6));
                    if (rx < 0 || tx < 0 || rxp < 0 || txp < 0) {
                        return;
                    }
                    acc.sample(rx, tx, rxp, txp, at);
                    return;
                }
                m = COUNTER.matcher(line);
                if (m.matches()) {
                    long v = longOr(m.group(2));
                    if (v >= 0 && acc.counters.size() < MAX_COUNTERS) {
                        acc.counters.putIfAbsent(m.group(1), v);
                        if (acc.counterEvidence == null) {
                            acc.counterEvidence = at;
                        }
                    }
                    return;
                }
                if (acc.message == null) {
                    acc.message = at;
                }
            }

            @Override
            public void end() {
                acc.flush(draft);
            }
        };
    }

    /** One device's lines, until the next eadm command or the end of the file. */
    private static final class Acc {
        final String device;
        boolean asked;
        int samples;
        int busy;
        double peakRx;
        double peakTx;
        long peakRxPps;
        long peakTxPps;
        long busiest = -1;
        Evidence busiestAt;
        Evidence firstSample;
        final Map<String, Long> counters = new LinkedHashMap<>();
        Evidence counterEvidence;
        Evidence message;

        Acc(String device) {
            this.device = device;
        }

        void sample(double rx, double tx, long rxp, long txp, Evidence at) {
            samples++;
            if (firstSample == null) {
                firstSample = at;
            }
            if (rxp > 0 || txp > 0) {
                busy++;
            }
            peakRx = Math.max(peakRx, rx);
            peakTx = Math.max(peakTx, tx);
            peakRxPps = Math.max(peakRxPps, rxp);
            peakTxPps = Math.max(peakTxPps, txp);
            long load = rxp + txp;
            if (load > busiest) {
                busiest = load;
                busiestAt = at;
            }
        }

        void flush(Draft draft) {
            if (samples > 0 || !counters.isEmpty()) {
                Evidence ev = busy > 0 ? busiestAt : firstSample != null ? firstSample : counterEvidence;
                draft.erdma(new ErdmaStat(device, true, samples, busy, peakRx, peakTx, peakRxPps, peakTxPps, counters, "", ev));
            } else if (asked && message != null) {
                draft.erdma(new ErdmaStat(device, false, 0, 0, 0, 0, 0, 0, Map.of(), message.text(), message));
            }
        }
    }

    /** A rate in MiB/s, or -1 when it is not a finite number. */
    private static double mib(String value, String unit) {
        double v;
        try {
            v = Double.parseDouble(value);
        } catch (NumberFormatException e) {
            return -1;
        }
        if (!Double.isFinite(v)) {
            return -1;
        }
        return switch (unit.toUpperCase(Locale.ROOT).replace("I", "")) {
            case "B" -> v / (1024.0 * 1024.0);
            case "KB" -> v / 1024.0;
            case "GB" -> v * 1024.0;
            case "TB" -> v * 1024.0 * 1024.0;
            default -> v;
        };
    }

    /** A count, -1 when the text is no number; past 2^63-1 {@link Numbers.OutOfRange}. */
    private static long longOr(String s) {
        try {
            return Long.parseLong(s);
        } catch (NumberFormatException e) {
            if (HostEvidenceReader.isNumber(s.strip(), 10)) {
                throw new Numbers.OutOfRange("counter", s.strip(), "0.." + Long.MAX_VALUE);
            }
            return -1;
        }
    }
}
