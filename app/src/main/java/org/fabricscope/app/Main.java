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
        // picocli looks for Groovy's Closure class as it starts: a miss searched through every jar on the class
        // path, 17 ms of each CLI run (BENCHMARKS.md). Nothing here is written in Groovy.
        if (System.getProperty("picocli.disable.closures") == null) {
            System.setProperty("picocli.disable.closures", "true");
        }
        if (args.length == 0 || !(args[0].equals("gui") || args[0].equals("open"))) {
            Thread.setDefaultUncaughtExceptionHandler(Main::uncaught); // the CLI's: the window keeps the JVM's own
        }
        readyToExit();
        int status = 70; // run() never throws; should it, the status still says the run failed
        try {
            status = FabricScopeCommand.run(args, StandardOutput.stdout(), System.err);
        } finally {
            exit(status);
        }
    }

    /**
     * What ends a thread other than by returning. An {@link OutOfMemoryError} is left to the command's own one line
     * ({@code FabricScopeCommand.run} reports it on the main thread): the JVM's default handler would build a message
     * and a stack trace on a full heap, and failing that print "OutOfMemoryError thrown from the
     * UncaughtExceptionHandler", which a run at 15-16 MiB of heap did about once in ten (a thread's exit clears its
     * thread locals, and that needs heap). Anything else is printed as the default handler prints it.
     */
    static void uncaught(Thread t, Throwable e) {
        if (e instanceof OutOfMemoryError) {
            return;
        }
        System.err.print("Exception in thread \"" + t.getName() + "\" ");
        e.printStackTrace(System.err);
    }

    /**
     * Initialises the JDK's {@code java.lang.Shutdown} now, while the heap has room. Both {@link System#exit} and
     * {@link Runtime#halt} go through it, and its class initialiser allocates: left to the end of a run that filled the
     * heap, both threw OutOfMemoryError, main ended with it, and the launcher exited 1 after the command had written
     * its one line and returned 70 (about one run in eight at 15-16 MiB of heap: {@code LauncherTest}).
     */
    static void readyToExit() {
        try {
            Class.forName("java.lang.Shutdown", true, null);
        } catch (ClassNotFoundException | LinkageError e) {
            // another JDK's layout: exit as before
        }
    }

    /** Exits with {@code status}, even when exiting itself fails (a full heap, a shutdown hook that throws). */
    private static void exit(int status) {
        try {
            System.exit(status);
        } catch (Throwable t) {
            Runtime.getRuntime().halt(status);
        }
    }
}
