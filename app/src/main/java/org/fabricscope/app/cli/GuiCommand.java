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
     * The failure to report when the toolkit could not start (OpenJFX's GTK glass, {@code com.sun.glass.ui.gtk.GtkApplication},
     * throws an {@code UnsupportedOperationException}, found anywhere in the causes): "Unable to open DISPLAY" for a display nobody
     * serves, "Unable to load glass GTK library" for a machine without GTK 3. The user's to fix, not a bug. Null for
     * any other exception.
     */
    static CliFailure displayFailure(Throwable e, String display) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (!(t instanceof UnsupportedOperationException) || t.getMessage() == null) {
                continue;
            }
            if (t.getMessage().contains("Unable to open DISPLAY")) {
                return new CliFailure(3, "cannot open the display" + (display == null ? "" : " " + display)
                        + ": no X server answers there, or this user may not use it (xhost, XAUTHORITY); use 'fabricscope"
                        + " summary' or 'diagnose' on a headless machine, or run under xvfb-run");
            }
            if (t.getMessage().contains("Unable to load glass GTK library")) {
                return new CliFailure(3, "the window needs GTK 3, which JavaFX could not load (libgtk-3.so.0): install it"
                        + " (Debian and Ubuntu: apt-get install libgtk-3-0), or use 'fabricscope summary' or 'diagnose'");
            }
        }
        return null;
    }
}
