package org.fabricscope.model.training;

import java.util.Map;

import org.fabricscope.model.Evidence;

/**
 * Something that went wrong, as a NCCL WARN, a PyTorch watchdog or a torchrun failure line says it.
 * {@code fields} holds what was parsed out (errno, status, SeqNum, OpType, exitcode ...).
 */
public record NcclEvent(Kind kind, String host, int pid, int rank, String message, Map<String, String> fields,
                        Evidence evidence) {
    public enum Kind {
        /** An ibv_* call failed ({@code call}, {@code error}, {@code errno}). */
        VERBS_FAILURE,
        /** An IB work completion with an error ({@code peer}, {@code status}, {@code statusName}, {@code vendorErr}). */
        IB_COMPLETION_ERROR,
        /** A socket closed by its peer ({@code peer}). */
        SOCKET_CLOSED,
        /** Any other NCCL WARN. */
        WARN,
        /** A ProcessGroupNCCL watchdog timeout ({@code seqNum}, {@code opType}, {@code timeoutMs}, {@code ranForMs}). */
        WATCHDOG_TIMEOUT,
        /** A watchdog's last enqueued / completed work ({@code lastEnqueued}, {@code lastCompleted}). */
        WATCHDOG_PROGRESS,
        /** torchrun/elastic reported a failed local rank ({@code exitcode}, {@code localRank}, {@code pid}). */
        PROCESS_FAILED
    }

    public NcclEvent {
        fields = Map.copyOf(fields);
    }

    public String field(String name) {
        return fields.get(name);
    }
}
