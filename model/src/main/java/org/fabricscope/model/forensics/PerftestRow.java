package org.fabricscope.model.forensics;

import org.fabricscope.model.core.Evidence;

/**
 * One result line of a perftest run: the message size, the iterations, and either the bandwidth
 * columns ({@code BW peak}, {@code BW average}, {@code MsgRate}) or the latency columns
 * ({@code t_min} ... {@code 99.9% percentile}). {@code evidence} is the line.
 */
public record PerftestRow(long bytes, long iterations, Bandwidth bandwidth, Latency latency, Evidence evidence) {

    /**
     * The bandwidth columns as printed, in {@code unit} ({@code Gb/sec} with {@code --report_gbits},
     * {@code MiB/sec} by default since perftest 24.07.0-0.44, {@code MB/sec} before it, both 2^20 bytes),
     * and the message rate in millions of packets a second. Peak is 0 when perftest did not measure
     * it ({@code -N}, {@code -D}, {@code --run_infinitely}).
     */
    public record Bandwidth(double peak, double average, double msgRateMpps, String unit) {
        public Bandwidth {
            unit = unit == null ? "" : unit;
        }

        /** Peak in Gb/s (10^9 bits a second), whatever unit was printed. */
        public double peakGbps() {
            return gbps(peak, unit);
        }

        /** Average in Gb/s (10^9 bits a second), whatever unit was printed. */
        public double averageGbps() {
            return gbps(average, unit);
        }

        /**
         * A value in Gb/s: perftest divides bytes by 0x100000 for {@code MB/sec} and {@code MiB/sec}, and by
         * 125,000,000 (10^9 bits) for {@code Gb/sec} ({@code print_report_bw}, {@code format_factor}).
         */
        public static double gbps(double value, String unit) {
            return unit.startsWith("Gb") ? value : value * 1048576.0 * 8 / 1e9;
        }
    }

    /**
     * The latency columns in microseconds: minimum, maximum, typical (the median), average, standard
     * deviation and the 99% and 99.9% percentiles; NaN where the run did not print them (with
     * {@code -D} perftest prints only the average and transactions a second, {@code tps}; NaN otherwise).
     */
    public record Latency(double min, double max, double typical, double average, double stdev, double p99,
                          double p999, double tps) {
        /** The typical (median) latency, else the average when only that was printed. */
        public double usual() {
            return Double.isNaN(typical) ? average : typical;
        }
    }
}
