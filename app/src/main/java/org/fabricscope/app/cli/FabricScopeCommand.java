package org.fabricscope.app.cli;

import java.io.PrintStream;
import java.io.PrintWriter;

import org.fabricscope.app.common.Version;
import org.fabricscope.importers.ReaderFailure;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;

/** {@code fabricscope}: the top-level command. */
@Command(name = "fabricscope", mixinStandardHelpOptions = true, versionProvider = FabricScopeCommand.VersionProvider.class,
        description = "Fabric topology visualizer and troubleshooting assistant for GPU training clusters.",
        subcommands = {SummaryCommand.class, DiagnoseCommand.class, ExportCommand.class, ChecksCommand.class, FlowsCommand.class, SignaturesCommand.class, TimelineCommand.class,
                PairsCommand.class,
                BenchCommand.class,
                GuiCommand.class, CommandLine.HelpCommand.class})
public final class FabricScopeCommand implements Runnable {
    static final String DEBUG = "--debug";

    @Option(names = DEBUG, scope = ScopeType.INHERIT,
            description = "On an internal error (a bug in FabricScope), print its stack trace.")
    boolean debug;

    @Override
    public void run() {
        throw new CommandLine.ParameterException(new CommandLine(this), "name a command: summary, diagnose, timeline, pairs, export, checks, flows, signatures, bench or gui");
    }

    /** Runs the CLI and returns its exit status; never throws. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        installUserSignatures();
        CommandLine cl = new CommandLine(new FabricScopeCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
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
            return new String[] {"fabricscope " + Version.get(),
                    "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
        }
    }
}
