package org.fabricscope.app.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.layout.MapLayout;
import org.fabricscope.model.layout.TieredLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Picture tests of the zoomed-out map on the JavaFX-free rasteriser, on a generated three-tier
 * rail-optimised fabric (tools/gen-superpod.py: 4 pods x 4 units x 10 hosts x 2 rails, 376 nodes)
 * with symbol errors on one uplink of leaf LG010-02, in pod 3.
 */
public class MapOverviewTest {
    private static final MapPalette P = MapPalette.defaults();
    private static final String POD3 = "pod 3 (LG009-LG012)";

    @TempDir
    static Path dir;

    /** Copies a test fabric out of the class path into {@code into}. */
    public static Path copy(Path into, String name) throws IOException {
        Path p = into.resolve(name);
        if (!Files.exists(p)) {
            try (InputStream in = MapOverviewTest.class.getResourceAsStream("/fabrics/" + name)) {
                Files.copy(in, p);
            }
        }
        return p;
    }

    private static MapPicture picture(int w, int h, boolean problemsOnly) throws IOException {
        List<Path> files = List.of(copy(dir, "superpod-4x4.ibnetdiscover.txt"), copy(dir, "superpod-4x4.ibqueryerrors.txt"));
        ImportResult r = new FabricImporter().importPaths(files, ImportProgress.NONE, Cancellation.NEVER);
        Analysis a = Analysis.of(r.model(), r.thresholds());
        MapLayout l = TieredLayout.compute(r.model(), Set.of(), false);
        MapColouring c = MapColouring.compute(r.model(), l, ColourMode.ERRORS, a.thresholds(), a.ranks(), null, a.findings(), P);
        return new MapPicture(l, c, w, h, problemsOnly);
    }

    private static int count(MapRasterizer r, int argb) {
        int n = 0;
        for (int px : r.pixels()) {
            if (px == argb) {
                n++;
            }
        }
        return n;
    }

    @Test
    void atFitThePodHoldingTheFaultyCableIsLabelledAndDrawnInTheErrorColourWithAHalo() throws IOException {
        MapPicture pic = picture(500, 360, false);
        MapOverview o = pic.overview();
        assertEquals(0, o.detail(pic.scale()), "at fit the fabric is too dense for detail: the overview alone");
        assertEquals(MapLayout.Level.POD, o.level(pic.scale()), "units are too narrow to read: pods");

        List<MapLabels.Label> labels = pic.labels();
        List<String> red = labels.stream().filter(l -> l.argb() == P.danger()).map(MapLabels.Label::text).toList();
        assertEquals(List.of(POD3), red, "only the faulty cable's pod is labelled in the error colour: " + labels);
        assertTrue(labels.stream().map(MapLabels.Label::text).toList()
                .containsAll(List.of("pod 1 (LG001-LG004)", "pod 2 (LG005-LG008)", "pod 4 (LG013-LG016)")), labels.toString());
        for (int i = 0; i < labels.size(); i++) {
            for (int j = i + 1; j < labels.size(); j++) {
                MapLabels.Label a = labels.get(i);
                MapLabels.Label b = labels.get(j);
                boolean apart = Math.abs(a.x() - b.x()) * 2 >= a.width() + b.width() || Math.abs(a.y() - b.y()) >= MapLabels.LINE;
                assertTrue(apart, "labels overlap: " + a + " " + b);
            }
        }

        // the pod 3 leaf box: outlined in the error colour, inside a halo; the other pods' boxes are not
        MapRasterizer r = pic.raster();
        int halo = MapRasterizer.mix(P.danger(), P.background(), 0.35);
        MapLayout l = o.layout();
        for (MapLayout.Group g : l.groups(MapLayout.Level.POD)) {
            if (g.row() != MapLayout.Row.LEAF) {
                continue;
            }
            double[] b = MapRasterizer.box(g, pic.scale(), pic.tx(), pic.ty());
            int cy = (int) Math.round(b[1] + b[3] / 2);
            int cx = (int) Math.round(b[0] + b[2] / 2);
            int left = r.pixels()[cy * r.width() + (int) Math.round(b[0])];
            int haloAt = r.pixels()[(int) Math.floor(b[1] - 3) * r.width() + cx - 10];
            if (g.label().equals(POD3)) {
                assertEquals(P.danger(), left, "pod 3's box is outlined in the error colour");
                assertEquals(halo, haloAt, "with a halo around it");
            } else {
                assertEquals(P.leaf(), left, g.label() + " is outlined in the leaf colour");
            }
        }
        assertTrue(count(r, P.danger()) > 40, "the faulty cable and its bundle in the error colour");
        assertTrue(count(r, halo) > 40, "the faulty cable's halo");
    }

    @Test
    void bundlesAreDrawnOncePerGroupPairSizedByCountAndProblemsOnlyHidesTheHealthyOnes() throws IOException {
        MapPicture pic = picture(500, 360, false);
        MapOverview o = pic.overview();
        List<MapOverview.Bundle> bundles = o.bundles(MapLayout.Level.POD);
        Set<String> pairs = new java.util.HashSet<>();
        int cables = 0;
        for (MapOverview.Bundle b : bundles) {
            assertTrue(pairs.add(b.a().index() + "-" + b.b().index()), "one bundle per pair of groups");
            cables += b.cables();
        }
        assertEquals(o.layout().links().stream().mapToInt(k -> k.cables().size()).sum(), cables, "every cable in one bundle");
        MapOverview.Bundle worst = bundles.get(bundles.size() - 1);
        assertEquals(MapColouring.ERROR, worst.problem(), "the faulty cable's bundle is drawn last");
        assertEquals(P.danger(), worst.argb(), "coloured by its worst member");
        assertEquals(1, bundles.stream().filter(b -> b.problem() > 0).count());
        assertTrue(bundles.stream().filter(b -> b.problem() == 0).allMatch(b -> b.argb() == P.unknown()),
                "the healthy ones in the colour of most of their cables (no counters read)");
        assertEquals(1, new MapOverview.Bundle(null, null, 1, 0, 0).thickness());
        assertTrue(new MapOverview.Bundle(null, null, 320, 0, 0).thickness() > new MapOverview.Bundle(null, null, 20, 0, 0)
                .thickness(), "wider with more cables");

        int healthy = count(pic.raster(), P.unknown());
        assertTrue(healthy > 500, "healthy bundles drawn: " + healthy);
        MapRasterizer only = picture(500, 360, true).raster();
        assertEquals(0, count(only, P.unknown()), "problems only: no healthy bundle left");
        assertTrue(count(only, P.danger()) > 40, "the problem stays");
    }

    @Test
    void zoomingInCrossFadesToFullDetailWithoutAJump() throws IOException {
        MapPicture pic = picture(500, 360, false);
        MapOverview o = pic.overview();
        double last = 0;
        for (double s = pic.scale(); s < 3; s *= 1.05) {
            double d = o.detail(s);
            assertTrue(d >= last && d - last < 0.2, "detail grows in small steps: " + last + " -> " + d + " at " + s);
            last = d;
        }
        assertEquals(1, last, "zoomed in: full detail");
        double zoomed = pic.scale() * 8;
        assertEquals(1, o.detail(zoomed));
        assertTrue(zoomed >= MapLabels.NAMES_FROM_SCALE);
        assertTrue(MapLabels.place(o, 500, 360, zoomed, 0, 0).isEmpty(), "switch names instead of group labels");
        // at full detail every cable is drawn: more distinct line pixels than the overview's few bundles
        MapRasterizer detail = MapRasterizer.render(o, 500, 360, zoomed, -200, -100, false);
        assertTrue(count(detail, P.unknown()) > 0);
        assertFalse(o.layout().groups(MapLayout.Level.UNIT).isEmpty());
    }

    @Test
    void svgAtFitIsTheOverview() throws IOException {
        String svg = picture(500, 360, false).svg();
        assertTrue(svg.contains("class=\"group\""), "group boxes");
        assertTrue(svg.contains(">" + POD3 + "</text>"), "the pods are labelled");
        assertTrue(svg.contains("class=\"halo\"") && svg.contains("class=\"problem\""), "the faulty cable with its halo");
        assertTrue(svg.contains("<g class=\"bundles\""));
    }

    /**
     * Selene (the real capture) with symbol errors on LG16-03 port 33, a leaf uplink: at fit, in a
     * picture as wide as the map of a 1600 px window and in a full 1600 px one, the only label in the
     * error colour names the pod that holds the cable (and at 1600 px its leaf group too).
     */
    @Test
    void seleneAtFitNamesThePodOfTheFaultyCable() throws IOException {
        Path gz = Path.of("..", "importers", "src", "test", "resources", "reference", "selene-compute.ibnetdiscover.txt.gz");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.exists(gz), "run from the app module of the repository");
        List<Path> files = List.of(gz, copy(dir, "selene-fault.ibqueryerrors.txt"));
        ImportResult r = new FabricImporter().importPaths(files, ImportProgress.NONE, Cancellation.NEVER);
        Analysis a = Analysis.of(r.model(), r.thresholds());
        MapLayout l = TieredLayout.compute(r.model(), Set.of(), false);
        MapColouring c = MapColouring.compute(r.model(), l, ColourMode.ERRORS, a.thresholds(), a.ranks(), null, a.findings(), P);
        for (int width : new int[] {900, 1600}) {
            MapPicture pic = new MapPicture(l, c, width, 800);
            assertEquals(0, pic.overview().detail(pic.scale()), "Selene at fit is the overview");
            List<String> red = pic.labels().stream().filter(x -> x.argb() == P.danger()).map(MapLabels.Label::text).toList();
            assertTrue(red.contains("pod 3 (LG15-LG18)"), width + " px: " + pic.labels());
            assertTrue(red.stream().allMatch(t -> t.equals("pod 3 (LG15-LG18)") || t.equals("LG16") || t.equals("CSPINE3")),
                    "nothing else in the error colour: " + red);
        }
    }
}
