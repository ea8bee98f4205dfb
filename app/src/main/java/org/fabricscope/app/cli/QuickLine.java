package org.fabricscope.app.cli;

import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * The command lines scripts run most, {@code summary}, {@code diagnose} or {@code timeline} with paths and on/off
 * options, read and run without picocli. Building picocli's model of even one command (its annotations read by
 * reflection, a proxy class made for each annotation type, the built-in type converters registered) was about
 * 100 ms of every such run on two cores, a quarter of a {@code summary} of Selene (issue 27, BENCHMARKS.md "Issue 27,
 * twelfth session"). A line is taken only when every word is the command's name, a path, an on/off option of that
 * command or {@code --debug}, each option at most once, and at least one path is given: picocli then reads it the
 * same way ({@code QuickLineTest} compares the two on random lines), and the command can meet none of the usage
 * errors that need picocli's model to report. Anything else (a value option, a misspelt one, {@code --}, an
 * {@code @file}, help) goes to picocli, as before.
 */
final class QuickLine {
    private QuickLine() {
    }

    /** A line read: the command with its options and inputs set, and whether {@code --debug} was given. */
    record Parsed(QuickCommand command, boolean debug) {
    }

    /** The command {@code args} asks for, set as picocli would set it; null when the line is picocli's to read. */
    static Parsed parse(String[] args) {
        int i = 0;
        boolean debug = false;
        if (args.length > 0 && FabricScopeCommand.DEBUG.equals(args[0])) {
            debug = true;
            i = 1;
        }
        QuickCommand command = i < args.length ? command(args[i]) : null;
        if (command == null) {
            return null;
        }
        Set<String> given = new HashSet<>();
        for (i++; i < args.length; i++) {
            String a = args[i];
            if (a.isEmpty() || a.charAt(0) == '@') {
                return null; // picocli's argument files, and an empty word: picocli's to judge
            }
            if (a.charAt(0) == '-') {
                if (!given.add(a)) {
                    return null;
                }
                if (FabricScopeCommand.DEBUG.equals(a)) {
                    if (debug) {
                        return null;
                    }
                    debug = true;
                } else if (!command.flag(a)) {
                    return null;
                }
                continue;
            }
            try {
                command.input().paths.add(Path.of(a));
            } catch (InvalidPathException e) {
                return null; // picocli says why, in its words
            }
        }
        return command.input().paths.isEmpty() ? null : new Parsed(command, debug);
    }

    /** A new command named {@code name}; null for a command the quick path does not run. A switch: no lambda to link. */
    private static QuickCommand command(String name) {
        return switch (name) {
            case "summary" -> new SummaryCommand();
            case "diagnose" -> new DiagnoseCommand();
            case "timeline" -> new TimelineCommand();
            default -> null;
        };
    }

    /**
     * Runs the line when it is one {@link #parse} takes, and returns its exit status; null when it is not (nothing
     * has then been run or written). Failures are reported as {@link FabricScopeCommand}'s picocli handler does.
     */
    static Integer run(String[] args, PrintWriter out, PrintWriter err) {
        Parsed p = parse(args);
        if (p == null) {
            return null;
        }
        p.command().streams(out, err);
        try {
            Integer status = p.command().call();
            return status == null ? 0 : status;
        } catch (CliFailure f) {
            err.println("fabricscope: " + f.getMessage());
            return f.status();
        } catch (Exception e) {
            return FabricScopeCommand.internalError(e, p.debug(), err);
        }
    }
}
