package org.fabricscope.model.forensics;

import java.util.List;

import org.fabricscope.model.core.Evidence;

/**
 * One run of an nccl-tests binary ({@code all_reduce_perf}, ...), from its text output or its
 * {@code -J} JSON: the test name, versions, threads and GPUs per process, the devices of the header,
 * the rows, and the footer: out-of-bounds values (-1 when the run did not print them), whether they
 * were {@code OK}, the average bus bandwidth (NaN when not printed), and error lines (a failed check,
 * {@code Test failure common.cu:1454}). {@code line} is where the run starts in its file.
 */
public record NcclTestRun(String source, int line, String test, String version, String ncclVersion, int nThreads,
                          int nGpus, List<NcclTestDevice> devices, List<NcclTestRow> rows, long outOfBounds,
                          boolean outOfBoundsOk, double avgBusBw, List<Evidence> errors, Evidence footer) {
    public NcclTestRun {
        source = source == null ? "" : source;
        test = test == null ? "" : test;
        version = version == null ? "" : version;
        ncclVersion = ncclVersion == null ? "" : ncclVersion;
        devices = List.copyOf(devices);
        rows = List.copyOf(rows);
        errors = List.copyOf(errors);
    }

    /** Wrong elements over every row, both placements. */
    public long wrong() {
        long w = 0;
        for (NcclTestRow r : rows) {
            w += r.wrong();
        }
        return w;
    }

    /** The ranks of the run: the devices listed, at least threads x GPUs of one process (-J JSON lists one device). */
    public int ranks() {
        return Math.max(devices.size(), Math.max(0, nThreads) * Math.max(0, nGpus));
    }

    public double peakBusBw() {
        double p = 0;
        for (NcclTestRow r : rows) {
            p = Math.max(p, Math.max(r.outOfPlace() == null ? 0 : r.outOfPlace().busBw(), r.inPlace() == null ? 0 : r.inPlace().busBw()));
        }
        return p;
    }

    public double peakAlgBw() {
        double p = 0;
        for (NcclTestRow r : rows) {
            p = Math.max(p, Math.max(r.outOfPlace() == null ? 0 : r.outOfPlace().algBw(), r.inPlace() == null ? 0 : r.inPlace().algBw()));
        }
        return p;
    }
}
