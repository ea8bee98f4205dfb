package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@code fabricscope gui} when DISPLAY names a display nobody serves: a clear failure, not "a bug in FabricScope". */
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
        // any other failure stays an internal error
        assertNull(GuiCommand.displayFailure(new UnsupportedOperationException("some other operation"), ":0"));
        assertNull(GuiCommand.displayFailure(new IllegalStateException("Unable to open DISPLAY"), ":0"));
    }
}
