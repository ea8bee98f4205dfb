package org.fabricscope.model.training;

import java.util.Map;

import org.fabricscope.model.core.Evidence;

/**
 * Something that went wrong, as a NCCL WARN, a PyTorch ProcessGroupNCCL line or a torchrun failure
 * says it. {@code rank} is the global (PyTorch) rank when the line names one, else -1; {@code host}
 * and {@code pid} come from the NCCL prefix or the torchrun summary, empty / -1 otherwise.
 * {@code fields} holds what was parsed out; the field names per kind are listed on each constant.
 * A message rejoined from several physical lines cites the first one.
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
        /**
         * A ProcessGroupNCCL watchdog timeout ({@code seqNum}, {@code opType}, {@code numelIn}, {@code numelOut}
         * when printed, {@code timeoutMs}, {@code ranForMs}, and {@code pgId}/{@code pgGuid}/{@code pgName} when the prefix names them).
         */
        WATCHDOG_TIMEOUT,
        /**
         * A watchdog's last enqueued / completed work ({@code lastEnqueued}, {@code lastCompleted}, {@code atWork}
         * when printed, {@code pgId}/{@code pgGuid}/{@code pgName}).
         */
        WATCHDOG_PROGRESS,
        /**
         * Flight-recorder / debug-dump notices ({@code action}: {@code dump-signal}, {@code preparing-dump},
         * {@code observed-signal}, {@code first-to-signal}, {@code trace-not-found}, {@code terminating};
         * {@code from} = {@code this local rank} or {@code rank N} for a dump signal, with {@code lastEnqueued}
         * and {@code lastCompleted} when printed).
         */
        FLIGHT_RECORDER,
        /** The watchdog's heartbeat monitor found it stuck ({@code stuckSeconds}). */
        WATCHDOG_HANG,
        /**
         * An NCCL error surfaced by PyTorch ({@code DistBackendError}, {@code NCCL error in:}, a watchdog exception),
         * rejoined over its lines: {@code error} (e.g. {@code unhandled system error}), {@code ncclVersion},
         * {@code where} (source file:line), {@code result} (e.g. {@code ncclSystemError}), {@code lastError}
         * (the NCCL WARN text), {@code raisedFrom} (function and file of {@code Exception raised from ...}),
         * {@code seqNum}/{@code opType} when a WorkNCCL raised it, and the IB / socket fields
         * ({@code status}, {@code statusName}, {@code peer}) when the last error is one of those.
         */
        NCCL_ERROR,
        /**
         * A communicator or process group aborted or destroyed ({@code action}: {@code abort-complete} (NCCL
         * {@code - Abort COMPLETE}, with {@code comm}, {@code nranks}), {@code aborting-communicators},
         * {@code pg-abort}, {@code destroyed}, {@code taking-process-down}; {@code level} = glog severity letter when printed).
         */
        ABORT,
        /** torchrun/elastic reported a failed local rank ({@code exitcode}, {@code localRank}, {@code pid}, {@code signal} when negative). */
        PROCESS_FAILED,
        /**
         * One entry of torchrun's {@code ChildFailedError} summary ({@code script}, {@code time}, {@code host},
         * {@code rank}, {@code localRank}, {@code exitcode}, {@code pid}, {@code errorFile}, {@code traceback},
         * {@code signal} (e.g. SIGABRT), {@code signalNumber}, {@code rootCause} = true|false).
         */
        CHILD_FAILED,
        /** A signal sent to or received by a worker ({@code signal}, {@code pid} when printed, {@code direction} = sent|received). */
        SIGNAL
    }

    public NcclEvent {
        fields = org.fabricscope.model.core.OrderedMaps.copyOf(fields);
    }

    public String field(String name) {
        return fields.get(name);
    }
}
