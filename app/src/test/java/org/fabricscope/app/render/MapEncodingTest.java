package org.fabricscope.app.render;

import static org.fabricscope.app.nav.Samples.RAIL;
import static org.fabricscope.app.nav.Samples.TRAINING;
import static org.fabricscope.app.nav.Samples.paths;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.layout.MapLayout;
import org.fabricscope.model.layout.TieredLayout;
import org.fabricscope.model.training.Transport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The map says what the findings say: degraded links, lost links and where the ranks' traffic flows. */
class MapEncodingTest {
    private static final MapPalette P = MapPalette.defaults();

    @TempDir
    Path dir;

    record Drawn(ImportResult result, Analysis analysis, MapLayout layout) {
        MapColouring colour(ColourMode mode) {
            return MapColouring.compute(result.model(), layout, mode, analysis.thresholds(), analysis.ranks(), P);
        }
    }

    private static Drawn load(Path... folders) {
        ImportResult r = new FabricImporter().importPaths(paths(folders), ImportProgress.NONE, Cancellation.NEVER);
        Analysis a = Analysis.of(r.model(), r.thresholds());
        return new Drawn(r, a, TieredLayout.compute(r.model(), Set.of(), false));
    }

    /** The link drawing the rail sample's 1xHDR cable (dgx-su1-h12 mlx5_5 to leaf-su1-r6), the link-degraded ERROR. */
    private static int degradedLink(MapLayout layout) {
        List<MapLayout.Link> links = layout.links();
        for (int i = 0; i < links.size(); i++) {
            for (Cable c : links.get(i).cables()) {
                if ("1xHDR".equals(c.rateToken())) {
                    return i;
                }
            }
        }
        throw new AssertionError("no 1xHDR cable in the rail sample");
    }

    @Test
    void theDegradedLinkIsDrawnInTheErrorColourInTheDefaultMode() {
        Drawn d = load(RAIL);
        assertTrue(d.analysis().findings().stream().anyMatch(f -> f.id().equals("link-degraded")
                && f.severity() == org.fabricscope.model.core.Severity.ERROR), "the sample's 1xHDR link is an ERROR finding");
        MapColouring c = d.colour(ColourMode.ERRORS);
        int i = degradedLink(d.layout());
        assertEquals(P.danger(), c.linkColour(i), "a link that lost lanes is an error, not 'within thresholds'");
        assertNotEquals(P.ok(), c.linkColour(i));
        assertEquals(3, c.linkThickness(i));

        // and in the picture: pixels along the cable are the error colour
        MapPicture pic = new MapPicture(d.layout(), c, 1600, 1000);
        MapRasterizer r = pic.raster();
        double[] e = MapRasterizer.ends(d.layout().links().get(i));
        double s = pic.scale();
        double[] t = translation(d.layout(), 1600, 1000, s);
        int hits = 0;
        for (double f : new double[] {0.3, 0.4, 0.5, 0.6, 0.7}) {
            int px = (int) Math.round((e[0] + (e[2] - e[0]) * f) * s + t[0]);
            int py = (int) Math.round((e[1] + (e[3] - e[1]) * f) * s + t[1]);
            if (near(r, px, py, P.danger())) {
                hits++;
            }
        }
        assertTrue(hits >= 4, "error colour along the degraded cable at " + hits + " of 5 points");
    }

    @Test
    void aSpeedOnlyDegradationIsNotGreenEither() {
        assertEquals(org.fabricscope.model.core.Severity.WARNING,
                new org.fabricscope.model.diagnosis.LinkDegradedCheck.Degradation("speed EDR where the ends support HDR", false).severity());
        assertEquals(org.fabricscope.model.core.Severity.ERROR,
                new org.fabricscope.model.diagnosis.LinkDegradedCheck.Degradation("width 1x where other host-leaf cables run 4x", true).severity());
    }

    @Test
    void lostLinksAreMarkedInEveryMode() {
        Drawn d = load(RAIL, TRAINING);
        for (ColourMode mode : ColourMode.values()) {
            MapColouring c = d.colour(mode);
            assertTrue(c.marksDownPorts(), mode.name());
            MapLayout.Item lost = d.layout().items().stream().filter(it -> c.itemDownPorts(it.index()) > 0).findFirst()
                    .orElseThrow(() -> new AssertionError(mode + ": no glyph counts a lost link"));
            MapPicture pic = new MapPicture(d.layout(), c, 1600, 1000);
            double s = pic.scale();
            double[] t = translation(d.layout(), 1600, 1000, s);
            MapRasterizer.Mark[] marks = MapRasterizer.marks(lost, c, s, t[0], t[1]);
            MapRasterizer.Mark m = Stream.of(marks).filter(k -> k.kind() == MapRasterizer.MarkKind.LOST_LINK).findFirst()
                    .orElseThrow(() -> new AssertionError(mode + ": no lost-link mark"));
            int px = (int) Math.floor(m.x() + m.width() / 2);
            int py = (int) Math.floor(m.y() + m.height() / 2);
            assertEquals(P.danger(), pic.raster().pixels()[py * 1600 + px], mode + ": the badge is drawn");
            assertTrue(pic.svg().contains("class=\"lost-link\""), mode + ": and in the SVG");
        }
    }

    @Test
    void ibPairsColourTheirCablesInTheTransportMode() {
        Drawn d = load(RAIL, TRAINING);
        MapColouring c = d.colour(ColourMode.TRANSPORT);
        assertTrue(colouredCables(d, c) > 0, "NET/IB+GDRDMA pairs colour the IB cables of their paths");
        assertTrue(d.layout().items().stream().noneMatch(it -> c.itemOffFabric(it.index()) != null));
    }

    @Test
    void socketPairsColourNoIbCableAndMarkTheirHosts() throws IOException {
        Path training = socketVariant();
        Drawn d = load(RAIL, training);
        assertTrue(d.analysis().ranks().routes().stream().anyMatch(r -> r.transport() == Transport.NET_SOCKET && r.routed()),
                "the variant's ranks on two hosts talk over NET/Socket, and the fabric would route them");
        assertTrue(d.analysis().ranks().routes().stream().noneMatch(r -> MapColouring.onFabric(r.transport())));
        MapColouring c = d.colour(ColourMode.TRANSPORT);
        assertEquals(0, colouredCables(d, c), "socket traffic never crossed the IB fabric");
        for (int i = 0; i < d.layout().links().size(); i++) {
            assertEquals(P.faint(), c.linkColour(i));
            assertEquals(1, c.linkThickness(i));
        }
        List<MapLayout.Item> marked = new ArrayList<>();
        for (MapLayout.Item it : d.layout().items()) {
            if (c.itemOffFabric(it.index()) != null) {
                assertEquals(Transport.NET_SOCKET, c.itemOffFabric(it.index()));
                marked.add(it);
            }
        }
        assertFalse(marked.isEmpty(), "the hosts of socket ranks carry the off-fabric mark");
        MapPicture pic = new MapPicture(d.layout(), c, 1600, 1000);
        double[] t = translation(d.layout(), 1600, 1000, pic.scale());
        MapRasterizer.Mark m = Stream.of(MapRasterizer.marks(marked.get(0), c, pic.scale(), t[0], t[1]))
                .filter(k -> k.kind() == MapRasterizer.MarkKind.OFF_FABRIC).findFirst().orElseThrow();
        assertEquals(P.transport(Transport.NET_SOCKET), m.argb());
        int px = (int) Math.floor(m.x() + m.width() / 2);
        int py = (int) Math.floor(m.y() + m.height() / 2);
        assertEquals(P.transport(Transport.NET_SOCKET), pic.raster().pixels()[py * 1600 + px]);
        assertTrue(pic.svg().contains("class=\"off-fabric\""));
    }

    /** Links drawn in a transport colour. */
    private static int colouredCables(Drawn d, MapColouring c) {
        int n = 0;
        for (int i = 0; i < d.layout().links().size(); i++) {
            for (Transport tr : Transport.values()) {
                if (c.linkColour(i) == P.transport(tr) && c.linkThickness(i) > 1) {
                    n++;
                    break;
                }
            }
        }
        return n;
    }

    /** training-incident with every IB channel of the logs turned into NET/Socket (the job ran on eth0). */
    private Path socketVariant() throws IOException {
        Path out = dir.resolve("training-socket");
        try (Stream<Path> files = Files.walk(TRAINING)) {
            for (Path p : files.toList()) {
                Path to = out.resolve(TRAINING.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(to);
                } else if (p.getFileName().toString().endsWith(".log")) {
                    String text = Files.readString(p, StandardCharsets.UTF_8)
                            .replaceAll("via NET/IB/\\d+(/GDRDMA)?", "via NET/Socket/0");
                    Files.writeString(to, text, StandardCharsets.UTF_8);
                } else if (!p.getFileName().toString().startsWith("expected")) {
                    Files.copy(p, to);
                }
            }
        }
        return out;
    }

    /** MapPicture's fit translation (it shares FabricMapView's). */
    private static double[] translation(MapLayout l, int w, int h, double s) {
        double lw = l.maxX() - l.minX();
        double lh = l.maxY() - l.minY();
        return new double[] {48 + (w - 48 - lw * s) / 2 - l.minX() * s, (h - lh * s) / 2 - l.minY() * s};
    }

    private static boolean near(MapRasterizer r, int x, int y, int argb) {
        for (int dy = -1; dy <= 1; dy++) {
            for (int dx = -1; dx <= 1; dx++) {
                int xx = x + dx;
                int yy = y + dy;
                if (xx >= 0 && yy >= 0 && xx < r.width() && yy < r.height() && r.pixels()[yy * r.width() + xx] == argb) {
                    return true;
                }
            }
        }
        return false;
    }
}
