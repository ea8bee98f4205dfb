package org.fabricscope.importers.forensics;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Numbers;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.forensics.PerftestRow;

/**
 * The columns of a perftest result table, read from its header line (linux-rdma/perftest
 * {@code src/perftest_parameters.h}, tag 26.04.17: {@code RESULT_FMT}, {@code RESULT_FMT_G} with
 * {@code --report_gbits}, {@code RESULT_FMT_PER_PORT}, {@code RESULT_FMT_QOS} with its {@code #sl} column,
 * {@code RESULT_FMT_LAT}, {@code RESULT_FMT_LAT_DUR} with {@code -D}, and {@code CPU_Util[%]} after any of
 * them), and the rows under it by those columns.
 */
final class PerftestTable {
    private static final Pattern COLUMN = Pattern.compile("#bytes|#sl|#iterations|BW peak\\[([^\\]]+)\\]|BW average\\[([^\\]]+)\\]"
            + "|MsgRate\\[Mpps\\]|BW Port\\d\\[[^\\]]+\\]|MsgRate Port\\d\\[Mpps\\]|t_min\\[[^\\]]+\\]|t_max\\[[^\\]]+\\]"
            + "|t_typical\\[[^\\]]+\\]|t_avg\\[[^\\]]+\\]|t_stdev\\[[^\\]]+\\]|99\\.9% percentile\\[[^\\]]+\\]"
            + "|99% percentile\\[[^\\]]+\\]|tps average|CPU_Util\\[%\\]");

    /** The columns, as short names: bytes, sl, iterations, peak, average, msgrate, port, tmin, ..., p99, p999, tps, cpu. */
    private final List<String> columns;
    private final String unit;

    private PerftestTable(List<String> columns, String unit) {
        this.columns = List.copyOf(columns);
        this.unit = unit;
    }

    /** Whether a line is a table header: it starts with {@code #bytes}. */
    static boolean isHeader(String line) {
        return line.startsWith("#bytes");
    }

    /** The table of a header line; null when a part of it is no column perftest prints. */
    static PerftestTable of(String header) {
        Matcher m = COLUMN.matcher(header);
        List<String> cols = new ArrayList<>();
        String unit = "";
        int end = 0;
        while (m.find()) {
            if (!header.substring(end, m.start()).isBlank()) {
                return null;
            }
            end = m.end();
            String t = m.group();
            if (m.group(1) != null || m.group(2) != null) {
                unit = m.group(1) != null ? m.group(1) : m.group(2);
            }
            cols.add(name(t));
        }
        if (!header.substring(end).isBlank() || !cols.contains("bytes")) {
            return null;
        }
        return new PerftestTable(cols, unit);
    }

    private static String name(String t) {
        if (t.startsWith("#")) {
            return t.substring(1);
        }
        if (t.startsWith("BW Port") || t.startsWith("MsgRate Port")) {
            return "port";
        }
        if (t.startsWith("99.9%")) {
            return "p999";
        }
        if (t.startsWith("99%")) {
            return "p99";
        }
        return switch (t.substring(0, Math.min(t.length(), 5))) {
            case "BW pe" -> "peak";
            case "BW av" -> "average";
            case "MsgRa" -> "msgrate";
            case "t_min" -> "tmin";
            case "t_max" -> "tmax";
            case "t_typ" -> "typical";
            case "t_avg" -> "tavg";
            case "t_std" -> "tstdev";
            case "tps a" -> "tps";
            default -> "cpu";
        };
    }

    /** A latency table (t_min ... or t_avg and tps), not a bandwidth one. */
    boolean latency() {
        return columns.contains("tavg");
    }

    int size() {
        return columns.size();
    }

    /** The row a result line gives; null when its fields do not fit the columns (count or numbers). */
    PerftestRow row(String line, Evidence evidence) {
        String[] f = line.strip().split("\\s+");
        if (f.length != columns.size()) {
            return null;
        }
        long bytes = -1;
        long iterations = -1;
        double[] v = new double[10];
        java.util.Arrays.fill(v, Double.NaN);
        try {
            for (int i = 0; i < f.length; i++) {
                switch (columns.get(i)) {
                    case "bytes" -> bytes = count(f[i], "bytes");
                    case "iterations" -> iterations = count(f[i], "iterations");
                    case "peak" -> v[0] = number(f[i]);
                    case "average" -> v[1] = number(f[i]);
                    case "msgrate" -> v[2] = number(f[i]);
                    case "tmin" -> v[3] = number(f[i]);
                    case "tmax" -> v[4] = number(f[i]);
                    case "typical" -> v[5] = number(f[i]);
                    case "tavg" -> v[6] = number(f[i]);
                    case "tstdev" -> v[7] = number(f[i]);
                    case "p99" -> v[8] = number(f[i]);
                    case "p999" -> v[9] = number(f[i]);
                    case "tps" -> v[2] = number(f[i]);
                    default -> number(f[i]); // #sl, per-port columns, CPU_Util: read, not kept
                }
            }
        } catch (NumberFormatException e) {
            return null;
        }
        if (bytes < 0 || iterations < 0) {
            return null;
        }
        if (latency()) {
            return new PerftestRow(bytes, iterations, null,
                    new PerftestRow.Latency(v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[2]), evidence);
        }
        return new PerftestRow(bytes, iterations, new PerftestRow.Bandwidth(v[0], v[1], v[2], unit), null, evidence);
    }

    /** A count, 0..2^63-1 ({@link Numbers.OutOfRange} past it); NumberFormatException when it is no decimal. */
    private static long count(String s, String field) {
        if (!Numbers.isDecimal(s)) {
            throw new NumberFormatException(s);
        }
        return Numbers.decimal(s, 0, Long.MAX_VALUE, field);
    }

    private static double number(String s) {
        double d = Double.parseDouble(s);
        if (!Double.isFinite(d) || s.endsWith("d") || s.endsWith("f") || s.endsWith("D") || s.endsWith("F")) {
            throw new NumberFormatException(s);
        }
        return d;
    }
}
