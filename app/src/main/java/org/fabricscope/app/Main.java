package org.fabricscope.app;

import org.fabricscope.app.cli.FabricScopeCommand;
import org.fabricscope.app.cli.StandardOutput;

/**
 * Entry point of the one jar: the CLI, whose {@code gui} command opens the desktop window.
 * Not a JavaFX Application subclass, so the CLI starts without loading the UI toolkit.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        // picocli looks for Groovy's Closure class as it starts: a miss searched through every jar on the class
        // path, 17 ms of each CLI run (BENCHMARKS.md). Nothing here is written in Groovy.
        if (System.getProperty("picocli.disable.closures") == null) {
            System.setProperty("picocli.disable.closures", "true");
        }
        int status = 70; // run() never throws; should it, the status still says the run failed
        try {
            status = FabricScopeCommand.run(args, StandardOutput.stdout(), System.err);
        } finally {
            exit(status);
        }
    }

    /** Exits with {@code status}, even when exiting itself fails (a full heap, a shutdown hook that throws). */
    private static void exit(int status) {
        try {
            System.exit(status);
        } catch (Throwable t) {
            Runtime.getRuntime().halt(status);
        }
    }
}
