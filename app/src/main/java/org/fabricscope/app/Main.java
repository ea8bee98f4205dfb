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
        System.exit(FabricScopeCommand.run(args, StandardOutput.stdout(), System.err));
    }
}
