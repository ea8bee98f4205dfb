package org.fabricscope.app.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * A reading command that {@link QuickLine} can run without picocli: it names its on/off options and its options
 * that take a path, takes its inputs, and writes to the streams it is given, or to picocli's when picocli ran it.
 */
abstract class QuickCommand implements Callable<Integer> {
    /** The command's inputs, made with the command so that both paths fill the same one. */
    @Mixin
    InputOptions input = new InputOptions();

    /** The command's spec, which picocli injects; null when {@link QuickLine} made the command. */
    @Spec
    CommandSpec spec;

    private PrintWriter out;
    private PrintWriter err;

    /**
     * Turns on the option that takes no value named {@code name}, as picocli would for that word; false when
     * the command has no such option (the line is then picocli's to parse).
     */
    abstract boolean flag(String name);

    /**
     * Sets the option named {@code name} that takes one path to {@code value}, as picocli would for that word and the
     * next; false when the command has no such option. Every reading command takes {@code --thresholds FILE}.
     */
    boolean pathOption(String name, java.nio.file.Path value) {
        if ("--thresholds".equals(name)) {
            input.thresholdsFile = value;
            return true;
        }
        return false;
    }

    /** The streams to write to when no picocli command line ran this command. */
    final void streams(PrintWriter out, PrintWriter err) {
        this.out = out;
        this.err = err;
    }

    final PrintWriter out() {
        return out != null ? out : spec.commandLine().getOut();
    }

    final PrintWriter err() {
        return err != null ? err : spec.commandLine().getErr();
    }
}
