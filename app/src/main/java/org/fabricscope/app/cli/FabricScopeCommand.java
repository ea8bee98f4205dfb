package org.fabricscope.app.cli;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.app.common.Version;
import org.fabricscope.importers.ReaderFailure;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/** {@code fabricscope}: the top-level command. */
@Command(name = "fabricscope", mixinStandardHelpOptions = true, versionProvider = FabricScopeCommand.VersionProvider.class,
        description = "Fabric topology visualizer and troubleshooting assistant for GPU training clusters.")
public final class FabricScopeCommand implements Runnable {
    static final String DEBUG = "--debug";
    /**
     * Heap set aside while a command runs and let go when it runs out of memory, so that the one line saying so
     * can be written: without it, what the failed command still held (a read-ahead batch, a thread's buffer)
     * could leave no room even for that line, and the JVM printed its own trace and exited 1.
     */
    private static final int RESERVE_BYTES = 256 * 1024;
    private static volatile byte[] reserve;

    @Option(names = DEBUG, scope = ScopeType.INHERIT,
            description = "On an internal error (a bug in FabricScope), print its stack trace.")
    boolean debug;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command: summary, diagnose, compare, timeline, pairs, watch, export, checks, flows, signatures, bench or gui");
    }

    /**
     * Runs the CLI and returns its exit status; never throws. All it writes goes through a
     * {@link ControlEscapingWriter} (no control character from an input reaches the terminal), and the
     * help is written without colours (their escape sequences would be escaped too). Output that could
     * not be written is an error ({@link StandardOutput#judge}).
     */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        PrintWriter errWriter = writer(err);
        byte[] outOfMemory = null;
        try {
            if (versionOnly(args)) {
                return StandardOutput.judge(printVersion(writer(out)), out, errWriter);
            }
            outOfMemory = outOfMemoryLine(args);
            reserve = new byte[RESERVE_BYTES];
            return StandardOutput.judge(execute(args, writer(out), errWriter), out, errWriter);
        } catch (OutOfMemoryError | StackOverflowError e) {
            reserve = null;
            try {
                if (e instanceof OutOfMemoryError && outOfMemory != null) {
                    err.write(outOfMemory, 0, outOfMemory.length); // a PrintStream's write: no heap needed, none thrown
                    err.flush();
                    return 70;
                }
                return fatal(e, args, errWriter);
            } catch (OutOfMemoryError | StackOverflowError still) {
                return 70; // not even the constant line could be written: the status still says what happened
            }
        } finally {
            reserve = null;
        }
    }

    /**
     * Whether the line asks only for the version ({@code --version} or {@code -V}, alone). That is answered
     * without picocli: building even the top command's model (its annotations read by reflection, its
     * standard help options, the type converters) took about 100 ms of the 360 ms the run took on two cores
     * (BENCHMARKS.md "CLI start-up"), for two lines that need none of it. What it prints is what picocli
     * prints for the same option ({@code CliTest}).
     */
    static boolean versionOnly(String[] args) {
        return args.length == 1 && ("--version".equals(args[0]) || "-V".equals(args[0]));
    }

    private static int printVersion(PrintWriter out) {
        for (String line : versionLines()) {
            out.println(line);
        }
        out.flush();
        return 0;
    }

    /** The version lines: FabricScope's, and the Java runtime's (a bug report needs both). */
    static String[] versionLines() {
        return new String[] {"fabricscope " + Version.get(),
                "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
    }

    private static PrintWriter writer(PrintStream s) {
        return new PrintWriter(new ControlEscapingWriter(new java.io.OutputStreamWriter(s, java.nio.charset.Charset.defaultCharset())),
                true);
    }

    private static int execute(String[] args, PrintWriter out, PrintWriter err) {
        return execute(args, out, err, true);
    }

    /** Runs the line; {@code quick}: through {@link QuickLine} when it takes the line, else always through picocli. */
    static int execute(String[] args, PrintWriter out, PrintWriter err, boolean quick) {
        installUserSignatures();
        Integer done = quick ? QuickLine.run(args, out, err) : null;
        if (done != null) {
            out.flush();
            err.flush();
            return done;
        }
        CommandLine cl = commandLine(args);
        cl.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof CliFailure f) {
                cmd.getErr().println("fabricscope: " + f.getMessage());
                return f.status();
            }
            return internalError(ex, debugRequested(parsed), cmd.getErr());
        });
        int status = cl.execute(args);
        cl.getOut().flush(); // print() does not autoflush: checks --markdown, flows --markdown
        cl.getErr().flush();
        return status;
    }

    /** The top-level command with the subcommands {@code args} can reach ({@link Subcommands}). */
    static CommandLine commandLine(String... args) {
        CommandLine cl = new CommandLine(new FabricScopeCommand());
        Subcommands.addTo(cl, args);
        return cl;
    }

    /**
     * Makes the catalogue with the user's signature folder ({@code $XDG_CONFIG_HOME/fabricscope/signatures} or
     * {@code ~/.config/fabricscope/signatures}) the one every import and check uses; nothing when it does not exist.
     */
    static void installUserSignatures() {
        java.nio.file.Path dir = org.fabricscope.model.incident.SignatureCatalogue.userDirectory(System.getenv(),
                System.getProperty("user.home"));
        if (dir != null && java.nio.file.Files.isDirectory(dir)) {
            org.fabricscope.model.incident.SignatureCatalogue.install(
                    org.fabricscope.model.incident.SignatureCatalogue.bundled().plus(dir));
        }
    }

    /** Whether {@code --debug} was given, before or after the subcommand's name. */
    static boolean debugRequested(ParseResult parsed) {
        for (ParseResult p = parsed; p != null; p = p.subcommand()) {
            if (p.hasMatchedOption(DEBUG)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The line {@link #fatal} writes for running out of memory, as the bytes it would write, made before anything
     * is read: writing them then needs no heap. The heap may be full when the error is caught (a read-ahead thread
     * still holding its batches, under a loaded machine), and once neither the line nor its constant fallback could
     * be made, a run ended with no word, or with the JVM's "OutOfMemoryError thrown from the
     * UncaughtExceptionHandler". Null with {@code --debug}: that line is followed by the stack trace, made then.
     */
    static byte[] outOfMemoryLine(String[] args) {
        for (String a : args) {
            if (DEBUG.equals(a)) {
                return null;
            }
        }
        java.io.StringWriter text = new java.io.StringWriter();
        PrintWriter w = new PrintWriter(new ControlEscapingWriter(text));
        describeFatal(new OutOfMemoryError(), args, w);
        w.flush();
        return text.toString().getBytes(java.nio.charset.Charset.defaultCharset());
    }

    /**
     * Reports running out of memory or stack as one line, naming the inputs among the arguments (the
     * paths that exist, at most three), what to do, and no stack trace unless {@code --debug} was given.
     * Returns 70 (EX_SOFTWARE): a well-formed input should never get here, whatever its size.
     */
    static int fatal(Throwable e, String[] args, PrintWriter err) {
        try {
            describeFatal(e, args, err);
        } catch (OutOfMemoryError again) {
            // still no room for the words naming the inputs: these need none (a constant, the writer's own buffer)
            err.println(e instanceof OutOfMemoryError ? OUT_OF_MEMORY : STACK_OVERFLOW);
        }
        err.flush();
        return 70;
    }

    // String.valueOf: not compile-time constants, so made when the class is, not on first use (a constant's first use
    // makes its String then, on a heap that may have no room left)
    private static final String OUT_OF_MEMORY = String.valueOf("fabricscope: out of memory: give it more with "
            + "FABRICSCOPE_JAVA_OPTS=-Xmx8g, or read fewer inputs at once; an input that is small for its kind is a bug to report");
    private static final String STACK_OVERFLOW = String.valueOf("fabricscope: stack overflow: an input nested or chained too "
            + "deeply for a reader (a bug to report; FABRICSCOPE_JAVA_OPTS=-Xss16m may get past it)");

    private static void describeFatal(Throwable e, String[] args, PrintWriter err) {
        List<String> inputs = new ArrayList<>();
        int more = 0;
        boolean debug = false;
        for (String a : args) {
            debug |= DEBUG.equals(a);
            if (a.startsWith("-") || a.isEmpty()) {
                continue;
            }
            try {
                if (java.nio.file.Files.exists(java.nio.file.Path.of(a), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    if (inputs.size() < 3) {
                        inputs.add(a);
                    } else {
                        more++;
                    }
                }
            } catch (RuntimeException bad) {
                // not a path
            }
        }
        String on = inputs.isEmpty() ? "" : " while reading " + String.join(", ", inputs) + (more > 0 ? " and " + more + " more" : "");
        if (e instanceof OutOfMemoryError) {
            err.println("fabricscope: out of memory" + on + " (the Java heap is limited to "
                    + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MiB): give it more with FABRICSCOPE_JAVA_OPTS=-Xmx8g, "
                    + "or read fewer inputs at once; an input that is small for its kind is a bug to report");
        } else {
            err.println("fabricscope: stack overflow" + on + ": an input nested or chained too deeply for a reader (a bug to report; "
                    + "FABRICSCOPE_JAVA_OPTS=-Xss16m may get past it)");
        }
        if (debug) {
            e.printStackTrace(err);
        }
    }

    /**
     * Reports a failure that is a bug: one line in words (no Java class name, no stack trace), or with
     * {@code debug} that line and the stack trace. Returns the exit status, 70 (EX_SOFTWARE).
     */
    static int internalError(Throwable ex, boolean debug, PrintWriter err) {
        if (debug) {
            err.println("fabricscope: internal error (a bug in FabricScope): " + ReaderFailure.describe(ex));
            ex.printStackTrace(err);
        } else {
            err.println("fabricscope: internal error (a bug in FabricScope): " + ReaderFailure.describe(ex)
                    + "; run with " + DEBUG + " for details");
        }
        err.flush();
        return 70;
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return versionLines();
        }
    }
}
