package org.fabricscope.model.forensics;

import java.util.List;

import org.fabricscope.model.core.Evidence;

/**
 * One communicator of an NCCL RAS status: its hash ({@code 0x374420825985ea13}, the {@code commId}
 * NCCL's INFO lines print), RAS's label in the text output ({@code #0-0}; empty in JSON), its size
 * (-1 when not printed), its status ({@code RUNNING}, {@code INIT}, ...) and error kinds
 * ({@code INCOMPLETE}, {@code MISMATCH}, {@code ERROR}; empty when {@code OK}), the ranks RAS
 * described (every rank in JSON; in the text only those printed as outliers) and the missing ranks.
 * {@code countGroups} are the text's {@code N ranks have launched up to operation K} lines.
 */
public record RasCommunicator(String hash, String label, int size, String status, List<String> errors,
                              List<RasRank> ranks, List<RasRank> missingRanks, int missingCount,
                              List<CountGroup> countGroups, Evidence evidence) {
    public RasCommunicator {
        hash = hash == null ? "" : hash;
        label = label == null ? "" : label;
        status = status == null ? "" : status;
        errors = List.copyOf(errors);
        ranks = List.copyOf(ranks);
        missingRanks = List.copyOf(missingRanks);
        countGroups = List.copyOf(countGroups);
    }

    /** {@code N ranks have launched up to operation K} (op: the collective type, or {@code collective}). */
    public record CountGroup(String op, int ranks, long count, Evidence evidence) {
    }

    /** {@code communicator 0x374420825985ea13 (#0-0)}. */
    public String describe() {
        return "communicator " + hash + (label.isEmpty() ? "" : " (" + label + ")");
    }
}
