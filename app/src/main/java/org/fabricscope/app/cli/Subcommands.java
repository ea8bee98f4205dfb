package org.fabricscope.app.cli;

import java.util.List;
import java.util.function.Supplier;

import picocli.CommandLine;

/**
 * The subcommands of {@code fabricscope}, in the order the help lists them, each built only when the
 * command line needs it. picocli builds a command's model by reflection over its annotations (proxies for
 * every option), and its classes are compiled for Java 5 so they cannot come from the class-data archive;
 * building all twelve commands for a run that uses one was most of the CLI's start-up (issue 27,
 * BENCHMARKS.md "CLI start-up"). A run names one command, so only that one is built; the help, an unknown
 * name (for picocli's suggestions) and a missing name get them all.
 */
final class Subcommands {
    /** A subcommand: its name and aliases as its {@code @Command} gives them, and how to make one. */
    record Entry(List<String> names, Supplier<Object> factory) {
    }

    static final List<Entry> ALL = List.of(
            new Entry(List.of("summary"), SummaryCommand::new),
            new Entry(List.of("diagnose"), DiagnoseCommand::new),
            new Entry(List.of("compare"), CompareCommand::new),
            new Entry(List.of("export"), ExportCommand::new),
            new Entry(List.of("checks"), ChecksCommand::new),
            new Entry(List.of("flows"), FlowsCommand::new),
            new Entry(List.of("signatures"), SignaturesCommand::new),
            new Entry(List.of("timeline"), TimelineCommand::new),
            new Entry(List.of("pairs"), PairsCommand::new),
            new Entry(List.of("watch"), WatchCommand::new),
            new Entry(List.of("bench"), BenchCommand::new),
            new Entry(List.of("gui", "open"), GuiCommand::new),
            new Entry(List.of("help"), CommandLine.HelpCommand::new));

    private Subcommands() {
    }

    /** Adds to {@code top} the subcommands {@code args} can reach. */
    static void addTo(CommandLine top, String[] args) {
        for (Entry e : needed(args)) {
            top.addSubcommand(e.names().get(0), e.factory().get(), e.names().subList(1, e.names().size()).toArray(String[]::new));
        }
    }

    /**
     * The entries a command line needs: none for {@code --version} alone, the named command when the
     * first word that is not an option names one (other than {@code help}), else all of them.
     */
    static List<Entry> needed(String[] args) {
        boolean versionOnly = args.length > 0;
        String first = null;
        for (String a : args) {
            versionOnly &= "-V".equals(a) || "--version".equals(a);
            if (first == null && !a.startsWith("-")) {
                first = a;
            }
        }
        if (versionOnly) {
            return List.of();
        }
        if (first != null && !"help".equals(first)) {
            for (Entry e : ALL) {
                if (e.names().contains(first)) {
                    return List.of(e);
                }
            }
        }
        return ALL;
    }
}
