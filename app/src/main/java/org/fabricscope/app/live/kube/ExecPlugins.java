package org.fabricscope.app.live.kube;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Stops an exec credential plugin that did not finish in time. fabric8 starts the plugin with a
 * {@link ProcessBuilder} and waits for it without a timeout, and gives no handle to it; the plugin is
 * found among this JVM's own child processes: started after the wait began, running the plugin's
 * command (or, when none does, as after a wrapper script exec'd another program, any child
 * started then).
 * It is destroyed with its own children, which ends fabric8's wait.
 */
final class ExecPlugins {
    private ExecPlugins() {
    }

    /** After a request deadline: a plugin fabric8 re-ran to refresh a token may be what held it; stop it. */
    static void stopAfterDeadline(KubeconfigCheck.ExecPlugin plugin) {
        if (plugin != null) {
            stop(plugin, 0);
        }
    }

    /** Stops the plugin's processes started since {@code sinceMillis}; returns how many were stopped. */
    static int stop(KubeconfigCheck.ExecPlugin plugin, long sinceMillis) {
        List<ProcessHandle> recent = new ArrayList<>();
        List<ProcessHandle> named = new ArrayList<>();
        ProcessHandle.current().children().forEach(p -> {
            ProcessHandle.Info info = p.info();
            Optional<java.time.Instant> start = info.startInstant();
            if (start.isEmpty() || start.get().toEpochMilli() >= sinceMillis - 1000) {
                recent.add(p);
                if (plugin != null && runs(info, plugin.name())) {
                    named.add(p);
                }
            }
        });
        // a plugin that exec'd another program (a wrapper script) no longer shows its name: then the
        // children started during the wait are taken, since only fabric8's exec starts one there
        List<ProcessHandle> victims = named.isEmpty() ? recent : named;
        int n = 0;
        for (ProcessHandle p : victims) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            if (p.destroyForcibly()) {
                n++;
            }
        }
        return n;
    }

    /** Whether a process of the plugin started since then still runs (after {@link #stop} and fabric8's own cancel). */
    static boolean anyAlive(KubeconfigCheck.ExecPlugin plugin, long sinceMillis) {
        return ProcessHandle.current().children().anyMatch(p -> {
            ProcessHandle.Info info = p.info();
            Optional<java.time.Instant> start = info.startInstant();
            return p.isAlive() && (start.isEmpty() || start.get().toEpochMilli() >= sinceMillis - 1000)
                    && (plugin == null || runs(info, plugin.name()));
        });
    }

    /** Whether the process runs {@code name}: its executable, or a script of that name handed to an interpreter. */
    private static boolean runs(ProcessHandle.Info info, String name) {
        if (info.command().isEmpty()) {
            return true; // the platform does not say: a child started during the wait is the plugin
        }
        if (endsWithName(info.command().get(), name)) {
            return true;
        }
        for (String a : info.arguments().orElse(new String[0])) {
            if (endsWithName(a, name)) {
                return true;
            }
        }
        return false;
    }

    private static boolean endsWithName(String path, String name) {
        String p = path.replace('\\', '/');
        String file = p.substring(p.lastIndexOf('/') + 1);
        return file.equals(name) || file.equals(name + ".exe");
    }
}
