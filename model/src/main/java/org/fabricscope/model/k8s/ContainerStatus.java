package org.fabricscope.model.k8s;

/**
 * One container's status as the kubelet reports it ({@code status.containerStatuses[]} and
 * {@code initContainerStatuses[]}, or {@code describe pod}'s container blocks): how often it restarted,
 * its current state with reason and exit code, and the exit of its previous run ({@code lastState}).
 * {@code state} is {@code running}, {@code waiting}, {@code terminated} or empty when not said; exit
 * codes are null when not terminated (or not printed).
 */
public record ContainerStatus(String name, boolean init, int restarts, String state, String reason, Integer exitCode,
                              String lastReason, Integer lastExitCode) {
    public ContainerStatus {
        name = name == null ? "" : name;
        state = state == null ? "" : state;
        reason = reason == null ? "" : reason;
        lastReason = lastReason == null ? "" : lastReason;
        restarts = Math.max(0, restarts);
    }

    /** Whether it exited at least once, now or in its previous run. */
    public boolean exited() {
        return exitCode != null || lastExitCode != null;
    }

    /**
     * {@code worker: 137 OOMKilled}, with the previous run when it differs ({@code worker: running, last 1 Error});
     * empty when it never exited.
     */
    public String exitText() {
        if (!exited()) {
            return "";
        }
        StringBuilder b = new StringBuilder(name).append(": ");
        if (exitCode != null) {
            b.append(exitCode).append(reason.isEmpty() ? "" : " " + reason);
        } else {
            b.append(state.isEmpty() ? "?" : state);
        }
        if (lastExitCode != null) {
            b.append(", last ").append(lastExitCode).append(lastReason.isEmpty() ? "" : " " + lastReason);
        }
        return b.toString();
    }
}
