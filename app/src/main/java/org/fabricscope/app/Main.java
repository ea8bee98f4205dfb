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
        System.exit(FabricScopeCommand.run(args, StandardOutput.stdout(), System.err));
    }
}
