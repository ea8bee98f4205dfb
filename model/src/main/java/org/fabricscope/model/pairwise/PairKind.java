package org.fabricscope.model.pairwise;

/**
 * What a pairwise measurement is: a perftest bandwidth ({@code ib_*_bw}, the highest average over its
 * sizes, Gb/s), a perftest latency ({@code ib_*_lat}, the typical latency at its smallest size,
 * microseconds) or an nccl-tests run between two hosts (the peak bus bandwidth over sizes from 64 MiB,
 * GB/s). Bandwidths are better higher, latencies lower.
 */
public enum PairKind {
    PERFTEST_BW("perftest-bw", "Gb/s", true, "the highest BW average over each run's sizes"),
    PERFTEST_LAT("perftest-lat", "usec", false, "the typical (median) latency at each run's smallest size"),
    NCCL_TESTS_BUSBW("nccl-tests-busbw", "GB/s", true, "the peak bus bandwidth over sizes from 64 MiB");

    private final String id;
    private final String unit;
    private final boolean higherIsBetter;
    private final String measure;

    PairKind(String id, String unit, boolean higherIsBetter, String measure) {
        this.id = id;
        this.unit = unit;
        this.higherIsBetter = higherIsBetter;
        this.measure = measure;
    }

    /** What a cell's value is, in words: {@code the highest BW average over each run's sizes}. */
    public String measure() {
        return measure;
    }

    /** {@code perftest-bw}, {@code perftest-lat}, {@code nccl-tests-busbw}: as JSON and the report name it. */
    public String id() {
        return id;
    }

    /** The unit of every value of this kind. */
    public String unit() {
        return unit;
    }

    public boolean higherIsBetter() {
        return higherIsBetter;
    }

    /**
     * How good {@code value} is against {@code reference}, as a fraction where 1 is as good and less is
     * worse: {@code value / reference} for bandwidths, {@code reference / value} for latencies.
     */
    public double score(double value, double reference) {
        if (reference <= 0 || value <= 0) {
            return value <= 0 && higherIsBetter ? 0 : 1;
        }
        return higherIsBetter ? value / reference : reference / value;
    }
}
