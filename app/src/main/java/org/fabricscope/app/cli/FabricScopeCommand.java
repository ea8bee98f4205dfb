package org.fabricscope.app.cli;

import java.io.PrintStream;
import java.io.PrintWriter;

import org.fabricscope.app.common.Version;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code fabricscope}: the top-level command. */
@Command(name = "fabricscope", mixinStandardHelpOptions = true, versionProvider = FabricScopeCommand.VersionProvider.class,
        description = "Fabric topology visualizer and troubleshooting assistant for GPU training clusters.",
        subcommands = {SummaryCommand.class, DiagnoseCommand.class, ExportCommand.class, ChecksCommand.class, FlowsCommand.class, BenchCommand.class,
                GuiCommand.class, CommandLine.HelpCommand.class})
public final class FabricScopeCommand implements Runnable {
    @Override
    public void run() {
        throw new CommandLine.ParameterException(new CommandLine(this), "name a command: summary, diagnose, export, checks, flows, bench or gui");
    }

    /** Runs the CLI and returns its exit status; never throws. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        CommandLine cl = new CommandLine(new FabricScopeCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.setExecutionExceptionHandler((ex, cmd, parsed) -> {
            if (ex instanceof CliFailure f) {
                cmd.getErr().println("fabricscope: " + f.getMessage());
                return f.status();
            }
            cmd.getErr().println("fabricscope: internal error: " + ex);
            return 70;
        });
        int status = cl.execute(args);
        cl.getOut().flush(); // print() does not autoflush: checks --markdown, flows --markdown
        cl.getErr().flush();
        return status;
    }

    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"fabricscope " + Version.get(),
                    "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"};
        }
    }
}
