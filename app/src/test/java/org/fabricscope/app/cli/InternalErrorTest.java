package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/** An internal error (a bug) is one line in words without {@code --debug}, and a stack trace with it. */
class InternalErrorTest {
    private static String report(Throwable ex, boolean debug, int[] status) {
        StringWriter w = new StringWriter();
        status[0] = FabricScopeCommand.internalError(ex, debug, new PrintWriter(w));
        return w.toString();
    }

    @Test
    void withoutDebugOneLineInWordsNoClassName() {
        int[] status = new int[1];
        String err = report(new NullPointerException("Cannot invoke \"java.lang.String.length()\""), false, status);
        assertEquals(70, status[0]);
        assertEquals("fabricscope: internal error (a bug in FabricScope): missing value; run with --debug for details",
                err.strip());
        assertFalse(err.contains("Exception"), err);
        assertFalse(err.contains("java."), err);
        assertFalse(err.contains("\tat "), err);
    }

    @Test
    void unknownFailuresAreStillWords() {
        int[] status = new int[1];
        String err = report(new RuntimeException("boom"), false, status);
        assertEquals("fabricscope: internal error (a bug in FabricScope): unexpected failure; run with --debug for details",
                err.strip());
    }

    @Test
    void withDebugTheStackTrace() {
        int[] status = new int[1];
        String err = report(new IllegalStateException("boom"), true, status);
        assertEquals(70, status[0]);
        assertTrue(err.startsWith("fabricscope: internal error (a bug in FabricScope): unexpected value"), err);
        assertTrue(err.contains("java.lang.IllegalStateException: boom"), err);
        assertTrue(err.contains("\tat org.fabricscope.app.cli.InternalErrorTest"), err);
    }

    @Test
    void debugIsAcceptedBeforeAndAfterTheSubcommand() {
        CommandLine before = FabricScopeCommand.commandLine("--debug", "checks");
        assertTrue(FabricScopeCommand.debugRequested(before.parseArgs("--debug", "checks")));
        CommandLine after = FabricScopeCommand.commandLine("checks", "--debug");
        assertTrue(FabricScopeCommand.debugRequested(after.parseArgs("checks", "--debug")));
        CommandLine none = FabricScopeCommand.commandLine("checks");
        assertFalse(FabricScopeCommand.debugRequested(none.parseArgs("checks")));
    }

    @Test
    void debugDoesNotChangeAnOrdinaryRun() {
        CliTest.Run r = CliTest.run("checks", "--debug");
        assertEquals(0, r.status(), r.err());
        CliTest.Run r2 = CliTest.run("--debug", "checks");
        assertEquals(0, r2.status(), r2.err());
        assertEquals(r.out(), r2.out());
    }
}
