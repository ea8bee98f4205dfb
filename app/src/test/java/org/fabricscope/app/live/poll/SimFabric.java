package org.fabricscope.app.live.poll;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Debian's InfiniBand simulator for tests, started as {@code sample-fabrics/tools/capture.sh} starts it:
 * {@code ibsim -s NETFILE} with its console on stdin, OpenSM under libumad2sim (LD_PRELOAD) until
 * "SUBNET UP", the diags attached as {@code SIM_HOST}. {@link #console} sends one console command and
 * waits until ibsim has answered it. Skips (JUnit assumption) where ibsim is absent; on CI its absence fails.
 */
final class SimFabric implements AutoCloseable {
    static final Path UMAD2SIM = List.of("/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so", "/usr/lib/umad2sim/libumad2sim.so",
            "/usr/lib64/umad2sim/libumad2sim.so").stream().map(Path::of).filter(Files::isRegularFile).findFirst().orElse(null);

    private final Path work;
    private final Process sim;
    private final OutputStream console;
    private final Process sm;
    private final Map<String, String> env;
    private int sync;

    private SimFabric(Path work, Process sim, Process sm, Map<String, String> env) {
        this.work = work;
        this.sim = sim;
        this.console = sim.getOutputStream();
        this.sm = sm;
        this.env = env;
    }

    static void assumeInstalled() {
        boolean present = Files.isExecutable(Path.of("/usr/bin/ibsim")) && Files.isExecutable(Path.of("/usr/sbin/opensm"))
                && Files.isExecutable(Path.of("/usr/sbin/perfquery")) && UMAD2SIM != null;
        if (System.getenv("CI") != null) {
            assertTrue(present, "ibsim, opensm, infiniband-diags or libumad2sim missing: .ci/run must run .ci/install-sim.sh first");
        }
        assumeTrue(present, "ibsim / opensm / libumad2sim not installed (bash .ci/install-sim.sh): simulator test skipped");
    }

    /** Starts ibsim on {@code net} and OpenSM, attached as {@code host}; waits for SUBNET UP. */
    static SimFabric start(Path work, Path net, String host) throws IOException, InterruptedException {
        assumeInstalled();
        String sock = "fspoll" + ProcessHandle.current().pid() + "x" + System.nanoTime() % 100000;
        Map<String, String> env = Map.of("IBSIM_SOCKNAME", sock, "SIM_HOST", host, "LD_PRELOAD", UMAD2SIM.toString());
        ProcessBuilder pb = new ProcessBuilder("ibsim", "-s", net.toString()).directory(work.toFile())
                .redirectErrorStream(true).redirectOutput(work.resolve("ibsim.log").toFile());
        pb.environment().put("IBSIM_SOCKNAME", sock);
        Process sim = pb.start();
        waitFor(work.resolve("ibsim.log"), "Network simulator ready", sim);
        Files.createDirectories(work.resolve("osm"));
        ProcessBuilder smb = new ProcessBuilder("opensm", "-s", "0", "-d2", "-f", work.resolve("osm/opensm.log").toString())
                .directory(work.toFile()).redirectErrorStream(true).redirectOutput(work.resolve("osm.out").toFile());
        smb.environment().putAll(env);
        smb.environment().put("OSM_TMP_DIR", work.resolve("osm").toString());
        smb.environment().put("OSM_CACHE_DIR", work.resolve("osm").toString());
        Process sm = smb.start();
        SimFabric f = new SimFabric(work, sim, sm, env);
        try {
            waitFor(work.resolve("osm/opensm.log"), "SUBNET UP", sm);
        } catch (AssertionError | IOException e) {
            f.close();
            throw e;
        }
        return f;
    }

    /** The environment the diags need to reach the simulator. */
    Map<String, String> env() {
        return env;
    }

    /** Sends one console command ({@code PerformanceSet "S-leaf-1"[3] PortCounters.SymbolErrorCounter=57}) and waits for it. */
    void console(String command) throws IOException, InterruptedException {
        sync++;
        console.write((command + "\nDump \"__sync_" + sync + "__\"\n").getBytes(StandardCharsets.US_ASCII));
        console.flush();
        waitFor(work.resolve("ibsim.log"), "__sync_" + sync + "__", sim);
        // ibsim answers a refused command with a "# ..." line (the sync Dump's own "not found" aside)
        List<String> refused = Files.readAllLines(work.resolve("ibsim.log")).stream()
                .map(l -> l.replaceFirst("^(sim> )*", "")).filter(l -> l.startsWith("# ") && !l.contains("__sync_") && !l.startsWith("# Net status")
                        && !l.startsWith("# dumped")).toList();
        assertTrue(refused.isEmpty(), "ibsim refused a console command: " + command + ": " + refused);
    }

    private static void waitFor(Path log, String text, Process p) throws IOException, InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < end) {
            if (Files.exists(log) && Files.readString(log).contains(text)) {
                return;
            }
            if (!p.isAlive()) {
                throw new AssertionError(p.info().command().orElse("?") + " exited before \"" + text + "\"\n"
                        + (Files.exists(log) ? Files.readString(log) : ""));
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no \"" + text + "\" within 60 s\n" + (Files.exists(log) ? Files.readString(log) : ""));
    }

    @Override
    public void close() {
        sm.destroy();
        try {
            console.write("Quit\n".getBytes(StandardCharsets.US_ASCII));
            console.flush();
        } catch (IOException e) {
            // already gone
        }
        try {
            if (!sim.waitFor(2, TimeUnit.SECONDS)) {
                sim.destroyForcibly();
            }
            if (!sm.waitFor(2, TimeUnit.SECONDS)) {
                sm.destroyForcibly();
            }
        } catch (InterruptedException e) {
            sim.destroyForcibly();
            sm.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
