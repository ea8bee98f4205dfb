package org.fabricscope.model.evidence;

import org.fabricscope.model.core.Evidence;

/**
 * A process the kernel's OOM killer killed, as the host's kernel log says it ({@code dmesg},
 * {@code journalctl -k}): {@code Out of memory: Killed process 727 (python) ...} when the whole host ran out,
 * {@code Memory cgroup out of memory: Killed process 727 (python) ...} when a cgroup (a container's memory
 * limit) did. {@code pid} is the host's process id (a container's own pids differ), -1 when not printed;
 * {@code cgroup} is true for a memory cgroup's limit; {@code text} is the line that said it.
 */
public record OomKill(long pid, String process, boolean cgroup, String text, Evidence evidence) {
    public OomKill {
        process = process == null ? "" : process;
        text = text == null ? "" : text;
    }

    /** {@code python (pid 727), memory cgroup limit}. */
    public String summary() {
        return (process.isEmpty() ? "a process" : process) + (pid >= 0 ? " (pid " + pid + ")" : "")
                + (cgroup ? ", over its memory cgroup's limit" : ", the host out of memory");
    }
}
