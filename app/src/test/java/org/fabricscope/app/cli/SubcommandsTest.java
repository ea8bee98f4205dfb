package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

class SubcommandsTest {
    @Test
    void theListNamesEachCommandAsItsAnnotationDoes() {
        for (Subcommands.Entry e : Subcommands.ALL) {
            CommandLine one = new CommandLine(e.factory().get());
            List<String> names = new ArrayList<>();
            names.add(one.getCommandName());
            names.addAll(List.of(one.getCommandSpec().aliases()));
            assertEquals(e.names(), names);
        }
    }

    @Test
    void aRunBuildsOnlyTheCommandItNames() {
        assertEquals(List.of("diagnose"), names("diagnose", "x.txt"));
        assertEquals(List.of("diagnose"), names("--debug", "diagnose", "--json"));
        assertEquals(List.of("gui"), names("open", "a.txt"));
        assertEquals(List.of(), names("--version"));
        assertEquals(List.of(), names("-V"));
    }

    @Test
    void helpUnknownAndMissingNamesGetAll() {
        int all = Subcommands.ALL.size();
        assertEquals(all, names("help", "diagnose").size());
        assertEquals(all, names("--help").size());
        assertEquals(all, names("diagnos").size());
        assertEquals(all, names().size());
        assertEquals(all, names("--debug").size());
        assertEquals(all, names("--version", "--help").size());
    }

    @Test
    void theHelpStillListsEveryCommandAndAMistypedNameGetsASuggestion() {
        CliTest.Run help = CliTest.run("--help");
        assertEquals(0, help.status(), help.err());
        for (Subcommands.Entry e : Subcommands.ALL) {
            assertTrue(help.out().contains("  " + e.names().get(0)), e.names() + " missing from\n" + help.out());
        }
        CliTest.Run typo = CliTest.run("diagnos");
        assertEquals(2, typo.status());
        assertTrue(typo.err().contains("diagnose"), typo.err());
        CliTest.Run none = CliTest.run();
        assertEquals(2, none.status());
        assertTrue(none.err().contains("name a command") && none.err().contains("  diagnose"), none.err());
        CliTest.Run version = CliTest.run("--version");
        assertEquals(0, version.status(), version.err());
        assertTrue(version.out().startsWith("fabricscope "), version.out());
    }

    private static List<String> names(String... args) {
        return Subcommands.needed(args).stream().map(e -> e.names().get(0)).toList();
    }
}
