package org.fabricscope.model.forensics;

import java.util.List;

/**
 * One entry of a flight recorder ring buffer: one collective or point-to-point operation as the
 * rank issued it. {@code pgName} and {@code pgDesc} come from the entry's {@code process_group};
 * {@code collectiveSeqId} numbers the group's collectives, {@code p2pSeqId} its point-to-point
 * operations; {@code state} is {@code scheduled}, {@code started} or {@code completed}; times are
 * nanoseconds since the epoch (0 when not recorded), {@code durationMs} is -1 when not recorded.
 * {@code frames} are the Python stack, {@code name file:line}, innermost first (empty when the dump
 * has none).
 */
public record FrEntry(long recordId, int pgId, String pgName, String pgDesc, long collectiveSeqId, long p2pSeqId,
                      long opId, String profilingName, boolean p2p, List<List<Long>> inputSizes,
                      List<String> inputDtypes, List<List<Long>> outputSizes, List<String> outputDtypes, String state,
                      long createdNs, long startedNs, long completedNs, double durationMs, long timeoutMs,
                      boolean retired, List<String> frames) {
    public FrEntry {
        pgName = pgName == null ? "" : pgName;
        pgDesc = pgDesc == null ? "" : pgDesc;
        profilingName = profilingName == null ? "" : profilingName;
        state = state == null ? "" : state;
        inputSizes = immutable(inputSizes);
        outputSizes = immutable(outputSizes);
        inputDtypes = List.copyOf(inputDtypes);
        outputDtypes = List.copyOf(outputDtypes);
        frames = List.copyOf(frames);
    }

    /**
     * The shapes as an unmodifiable list of unmodifiable lists; the same instance when they already are
     * (a reader shares one list among the entries that have equal shapes: copying it per entry cost
     * gigabytes on 2 million entries).
     */
    static List<List<Long>> immutable(List<List<Long>> sizes) {
        List<List<Long>> outer = List.copyOf(sizes); // returns its argument when that is already unmodifiable
        boolean same = outer == sizes;
        for (int i = 0; same && i < outer.size(); i++) {
            same = List.copyOf(outer.get(i)) == outer.get(i);
        }
        return same ? sizes : sizes.stream().map(List::copyOf).toList();
    }

    public boolean completed() {
        return state.equals("completed");
    }

    /** The operation without PyTorch's backend prefix: {@code all_reduce} for {@code nccl:all_reduce}. */
    public String op() {
        int colon = profilingName.indexOf(':');
        return colon >= 0 ? profilingName.substring(colon + 1) : profilingName;
    }

    /** {@code [[16777216]] Float}: the input shapes and element types. */
    public String inputText() {
        return shapes(inputSizes) + (inputDtypes.isEmpty() ? "" : " " + String.join(",", inputDtypes));
    }

    static String shapes(List<List<Long>> sizes) {
        StringBuilder b = new StringBuilder("[");
        for (int i = 0; i < sizes.size(); i++) {
            b.append(i == 0 ? "" : ", ").append('[');
            List<Long> s = sizes.get(i);
            for (int j = 0; j < s.size(); j++) {
                b.append(j == 0 ? "" : ", ").append(s.get(j));
            }
            b.append(']');
        }
        return b.append(']').toString();
    }

    /** One line for evidence: {@code record 6: process group 0 (default_pg) seq 4 nccl:all_reduce [[16777216]] Float, scheduled}. */
    public String describe() {
        return "record " + recordId + ": " + FrProcessGroup.label(pgName, pgDesc) + (p2p ? " p2p seq " + p2pSeqId
                : " seq " + collectiveSeqId) + " " + profilingName + " " + inputText() + ", " + state
                + (timeoutMs > 0 ? ", timeout " + timeoutMs + " ms" : "");
    }
}
