package org.fabricscope.app.prefs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WindowGeometryTest {
    static final WindowGeometry.Bounds FULL_HD = new WindowGeometry.Bounds(0, 0, 1920, 1040);
    static final WindowGeometry.Bounds RIGHT = new WindowGeometry.Bounds(1920, 0, 2560, 1400);

    @TempDir
    Path dir;

    @Test
    void theFirstSizeIsEightyPercentOfThePrimaryScreenCentredAndAtLeast1024x700() {
        WindowGeometry g = WindowGeometry.place(Optional.empty(), List.of(FULL_HD), FULL_HD);
        assertEquals(new WindowGeometry(192, 104, 1536, 832, false, 0.64), g);
        WindowGeometry.Bounds small = new WindowGeometry.Bounds(0, 0, 1100, 760);
        WindowGeometry s = WindowGeometry.place(Optional.empty(), List.of(small), small);
        assertEquals(1024, s.width());
        assertEquals(700, s.height());
        WindowGeometry.Bounds tiny = new WindowGeometry.Bounds(0, 0, 800, 600);
        WindowGeometry t = WindowGeometry.place(Optional.empty(), List.of(tiny), tiny);
        assertEquals(new WindowGeometry(0, 0, 800, 600, false, 0.64), t, "never larger than the screen");
    }

    @Test
    void aSavedPlaceOnAScreenIsKept() {
        WindowGeometry saved = new WindowGeometry(2000, 50, 1600, 1000, false, 0.7);
        assertEquals(saved, WindowGeometry.place(Optional.of(saved), List.of(FULL_HD, RIGHT), FULL_HD));
    }

    @Test
    void aSavedPlaceOffEveryScreenIsCentredOnThePrimaryAtItsSize() {
        WindowGeometry saved = new WindowGeometry(2000, 50, 1600, 1000, true, 0.95);
        WindowGeometry g = WindowGeometry.place(Optional.of(saved), List.of(FULL_HD), FULL_HD); // the right monitor is gone
        assertEquals(new WindowGeometry(160, 20, 1600, 1000, true, 0.64), g);
        WindowGeometry above = new WindowGeometry(100, -500, 1200, 800, false, 0.5);
        assertEquals(360, WindowGeometry.place(Optional.of(above), List.of(FULL_HD), FULL_HD).x(), "a title bar above the screen");
        WindowGeometry sliver = new WindowGeometry(1880, 100, 1200, 800, false, 0.5);
        assertEquals(360, WindowGeometry.place(Optional.of(sliver), List.of(FULL_HD), FULL_HD).x(), "only 40 px on screen");
    }

    @Test
    void saveAndLoadRoundTripAndADamagedFileIsNone() throws Exception {
        WindowGeometry g = new WindowGeometry(10.5, 20, 1300, 900, true, 0.6);
        g.save(dir.resolve("cfg"));
        assertEquals(Optional.of(g), WindowGeometry.load(dir.resolve("cfg")));
        Files.writeString(dir.resolve("cfg").resolve(WindowGeometry.FILE), "x=1\nwidth=oops\n");
        assertEquals(Optional.empty(), WindowGeometry.load(dir.resolve("cfg")));
        assertEquals(Optional.empty(), WindowGeometry.load(dir.resolve("nothing-here")));
        assertEquals(Optional.empty(), WindowGeometry.load(null));
    }
}
