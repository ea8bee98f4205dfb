package org.fabricscope.app.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.Callable;

import org.fabricscope.app.common.DesktopLauncher;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code fabricscope gui [PATH...]}: open the desktop window, optionally on dumps. */
@Command(name = "gui", aliases = "open", mixinStandardHelpOptions = true,
        description = "Open the desktop window, loading the given files, folders or bundles.")
final class GuiCommand implements Callable<Integer> {
    @Parameters(arity = "0..*", paramLabel = "PATH", description = "Dumps to open.")
    List<Path> paths = new ArrayList<>();

    @picocli.CommandLine.Option(names = "--find", paramLabel = "TEXT",
            description = "After loading, find and select this host, switch, GUID or LID.")
    String find;

    @Override
    public Integer call() {
        String os = System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT);
        boolean linux = os.contains("linux");
        if (linux && System.getenv("DISPLAY") == null && System.getenv("WAYLAND_DISPLAY") == null
                && !"Monocle".equals(System.getProperty("glass.platform"))) {
            throw new CliFailure(3, "no display (DISPLAY is not set): use 'fabricscope summary' or 'diagnose' on a headless machine,"
                    + " or run under xvfb-run");
        }
        // the window is found at run time, so that nothing here refers to the UI (or loads JavaFX) before it is asked for
        DesktopLauncher desktop = ServiceLoader.load(DesktopLauncher.class, GuiCommand.class.getClassLoader()).findFirst()
                .orElseThrow(() -> new CliFailure(70, "this build has no desktop window (no " + DesktopLauncher.class.getName()
                        + " service); use 'fabricscope summary' or 'diagnose'"));
        try {
            desktop.launch(paths, find);
        } catch (RuntimeException e) {
            CliFailure display = displayFailure(e, System.getenv("DISPLAY"));
            if (display != null) {
                throw display;
            }
            throw e;
        }
        return 0;
    }

    /**
     * The failure to report when the toolkit could not reach the display {@code DISPLAY} names (GTK's glass: an
     * {@code UnsupportedOperationException} "Unable to open DISPLAY", anywhere in the causes): a user's mistake or a
     * stopped X server, not a bug. Null for any other exception.
     */
    static CliFailure displayFailure(Throwable e, String display) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof UnsupportedOperationException && t.getMessage() != null
                    && t.getMessage().contains("Unable to open DISPLAY")) {
                return new CliFailure(3, "cannot open the display" + (display == null ? "" : " " + display)
                        + ": no X server answers there, or this user may not use it (xhost, XAUTHORITY); use 'fabricscope"
                        + " summary' or 'diagnose' on a headless machine, or run under xvfb-run");
            }
        }
        return null;
    }
}
