package org.fabricscope.app.cli;

import java.io.PrintWriter;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * The command lines scripts run most, {@code summary}, {@code diagnose} or {@code timeline} with paths, on/off
 * options and {@code --thresholds FILE} (and {@code diagnose}'s {@code --flows DIR}), read and run without picocli.
 * Building picocli's model of even one command (its annotations read by reflection, a proxy class made for each
 * annotation type, the built-in type converters registered) was about 100 ms of every such run on two cores, a quarter
 * of a {@code summary} of Selene (issue 27, BENCHMARKS.md "Issue 27, twelfth session"). A line is taken only when
 * every word is the command's name, a path, an on/off option of that command, {@code --debug}, or an option of it
 * that takes a path followed by a word that is not an option, each option at most once, and at least one path is
 * given: picocli then reads it the same way ({@code QuickLineTest} compares the two on random lines), and the command
 * can meet none of the usage errors that need picocli's model to report. Anything else (another value option, a
 * misspelt one, {@code --opt=value}, {@code --}, an {@code @file}, help) goes to picocli, as before.
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
                    // an option that takes a path: the next word, when it cannot be read as anything but a value
                    Path value = ++i < args.length && plain(args[i]) ? path(args[i]) : null;
                    if (value == null || !command.pathOption(a, value)) {
                        return null;
                    }
                }
                continue;
            }
            Path p = path(a);
            if (p == null) {
                return null;
            }
            command.input.paths.add(p);
        }
        return command.input.paths.isEmpty() ? null : new Parsed(command, debug);
    }

    /** Whether a word is neither empty, nor an option, nor an argument file: read the same as a value or a path. */
    private static boolean plain(String word) {
        return !word.isEmpty() && word.charAt(0) != '-' && word.charAt(0) != '@';
    }

    /** The word as picocli converts it to a path; null when it is not one (picocli then says why, in its words). */
    private static Path path(String word) {
        try {
            return Path.of(word);
        } catch (InvalidPathException e) {
            return null;
        }
    }

    /** A new command named {@code name}; null for one the quick path does not run. A switch: no lambda to link. */
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
