package org.fabricscope.app.live.poll;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs the real infiniband-diags with {@link ProcessBuilder}: no shell, the argument list as given
 * (each checked by {@link NeverReset}), a deadline per command after which the process is killed, and
 * at most {@link #MAX_OUTPUT_BYTES} of output read per stream. {@code environment} adds variables to
 * the inherited ones (the simulator's {@code LD_PRELOAD} and socket in tests).
 */
public final class ProcessDiags implements Diags {
    /** Output read per stream of one command at most; past it the command is stopped and the poll says so. */
    public static final int MAX_OUTPUT_BYTES = 16 << 20;

    private final Map<String, String> environment;

    public ProcessDiags() {
        this(Map.of());
    }

    public ProcessDiags(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    /**
     * Whether starting failed because the program does not exist (ENOENT). The JDK words it differently by
     * version and launch mechanism: {@code error=2, No such file or directory} (JDK 17),
     * {@code Exec failed, error: 2 (No such file or directory)} (JDK 25's jspawnhelper).
     */
    static boolean notFound(IOException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = String.valueOf(t.getMessage());
            if (m.contains("error=2,") || m.contains("error: 2 ") || m.contains("No such file or directory")) {
                return true;
            }
        }
        return false;
    }

    @Override
    public Output run(List<String> argv, Duration timeout) throws DiagsException {
        NeverReset.check(argv);
        String cmd = String.join(" ", argv);
        ProcessBuilder pb = new ProcessBuilder(argv).redirectInput(ProcessBuilder.Redirect.from(devNull()));
        pb.environment().putAll(environment);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            boolean missing = notFound(e);
            throw new DiagsException(argv.get(0) + ": " + (missing ? "not found (install infiniband-diags, or put it on the PATH)"
                    : "cannot be started (" + firstLine(e.getMessage()) + ")"), missing);
        }
        Capture out = new Capture(p.getInputStream());
        Capture err = new Capture(p.getErrorStream());
        out.start();
        err.start();
        try {
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new DiagsException(cmd + ": no answer within " + (timeout.toMillis() % 1000 == 0 ? timeout.toSeconds() + " s" : timeout.toMillis() + " ms")
                        + " (the per-command deadline)", false);
            }
            out.join(timeout.toMillis());
            err.join(timeout.toMillis());
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new DiagsException(cmd + ": interrupted", false);
        }
        if (out.overflow || err.overflow) {
            throw new DiagsException(cmd + ": printed more than " + (MAX_OUTPUT_BYTES >> 20)
                    + " MiB (ProcessDiags.MAX_OUTPUT_BYTES); its output is not read", false);
        }
        return new Output(p.exitValue(), out.text(), err.text());
    }

    private static java.io.File devNull() {
        return new java.io.File(System.getProperty("os.name", "").startsWith("Windows") ? "NUL" : "/dev/null");
    }

    private static String firstLine(String s) {
        if (s == null) {
            return "no reason given";
        }
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** Reads one stream to its end on its own thread, keeping at most MAX_OUTPUT_BYTES. */
    private static final class Capture extends Thread {
        private final InputStream in;
        private final ByteArrayOutputStream buf = new ByteArrayOutputStream();
        private volatile boolean overflow;

        Capture(InputStream in) {
            super("fabric-poll-output");
            setDaemon(true);
            this.in = in;
        }

        @Override
        public void run() {
            byte[] b = new byte[8192];
            try (in) {
                int n;
                while ((n = in.read(b)) > 0) {
                    if (buf.size() + n > MAX_OUTPUT_BYTES) {
                        overflow = true;
                        continue; // drain, so the process is not blocked on a full pipe
                    }
                    buf.write(b, 0, n);
                }
            } catch (IOException e) {
                // the process was killed: what was read stays
            }
        }

        String text() {
            synchronized (buf) {
                return buf.toString(StandardCharsets.UTF_8);
            }
        }
    }
}
