package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code fabricscope gui} when the window cannot start (no X server at DISPLAY, no GTK): a clear failure, not "a bug". */
class GuiCommandTest {
    @Test
    void aDisplayNobodyServesIsTheUsersToFixNotABug() {
        // what JavaFX's GTK glass throws from the launcher thread, wrapped as Application.launch rethrows it
        RuntimeException launch = new RuntimeException("Exception in Application start method",
                new UnsupportedOperationException("Unable to open DISPLAY"));
        CliFailure f = GuiCommand.displayFailure(launch, ":55");
        assertEquals(3, f.status());
        assertTrue(f.getMessage().startsWith("cannot open the display :55: no X server answers there"), f.getMessage());
        assertTrue(f.getMessage().contains("xvfb-run"), f.getMessage());
        assertTrue(GuiCommand.displayFailure(new UnsupportedOperationException("Unable to open DISPLAY"), null)
                .getMessage().startsWith("cannot open the display: "));
        // a machine without GTK 3 (a fresh server image): what to install
        CliFailure gtk = GuiCommand.displayFailure(new UnsupportedOperationException("Unable to load glass GTK library."), ":0");
        assertTrue(gtk.getMessage().contains("apt-get install libgtk-3-0"), gtk.getMessage());
        // any other failure stays an internal error
        assertNull(GuiCommand.displayFailure(new UnsupportedOperationException("some other operation"), ":0"));
        assertNull(GuiCommand.displayFailure(new IllegalStateException("Unable to open DISPLAY"), ":0"));
    }
}
