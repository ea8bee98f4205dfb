package org.fabricscope.app.render;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Severity;
import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.training.Transport;
import org.junit.jupiter.api.Test;

/** The map palette read from app.css as text: every variable is there, and the colours are the ones the map always had. */
class MapPaletteTest {
    static String appCss() throws IOException {
        try (InputStream in = MapPalette.class.getResourceAsStream(MapPalette.STYLESHEET)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void everyVariableThePaletteNeedsIsDeclaredInTheRootRule() throws IOException {
        Map<String, String> declared = RootVariables.parse(appCss());
        List<String> missing = new ArrayList<>();
        for (String v : MapPalette.variables()) {
            if (!declared.containsKey(v)) {
                missing.add(v);
            }
        }
        assertEquals(List.of(), missing, "variables the map palette reads but app.css does not declare in .root");
        // one per speed, transport and severity, and no name twice
        List<String> vars = MapPalette.variables();
        assertEquals(vars.size(), new HashSet<>(vars).size(), vars.toString());
        for (LinkSpeed s : LinkSpeed.values()) {
            assertTrue(vars.contains(MapPalette.variable("-fs-speed-", s)), s.name());
        }
        assertTrue(vars.contains("-fs-transport-net-ib-gdr"), vars.toString());
        assertTrue(vars.contains("-fs-severity-info"), vars.toString());
    }

    /** The values Palette.java held before the colours moved to app.css: the move changed no colour. */
    @Test
    void defaultsAreTheColoursTheMapHadBeforeTheyMovedToCss() {
        MapPalette p = MapPalette.defaults();
        assertEquals(0xFFF7F8FA, p.background());
        assertEquals(0xFF2E9E44, p.ok());
        assertEquals(0xFFE69F00, p.warning());
        assertEquals(0xFFD1283A, p.danger());
        assertEquals(0xFFB8BEC7, p.unknown());
        assertEquals(0xFFCC2FB0, p.degraded());
        assertEquals(0xFF1F3A68, p.core());
        assertEquals(0xFF2F6DB5, p.spine());
        assertEquals(0xFF2A9D8F, p.leaf());
        assertEquals(0xFF8A6D3B, p.other());
        assertEquals(0xFF6B7280, p.hca());
        assertEquals(0xFF4B5563, p.host());
        assertEquals(0xFF0969DA, p.selection());
        assertArrayEquals(new int[] {0xFF9E9E9E, 0xFF8D6E63, 0xFF795548, 0xFF26A69A, 0xFF00897B, 0xFF1E88E5, 0xFF3949AB,
            0xFF8E24AA, 0xFF6A1B9A}, p.speeds());
        assertEquals(0xFFDDE1E6, p.faint());
        assertEquals(0xFF0969DA, p.job());
        assertEquals(0xFF9CC3F5, p.otherJob());
        assertArrayEquals(new int[] {0xFF7B3FE4, 0xFF17A2B8, 0xFF2E9E44, 0xFFE69F00, 0xFF8A6D3B, 0xFFD1283A}, p.transports());
        // the overlay's and the findings list's colours (were literals in FabricMapView and app.css)
        assertEquals(0xFF1F2328, p.label());
        assertEquals(0xFF57606A, p.labelMuted());
        assertEquals(0xFFFFFFFF, p.badge());
        assertEquals(0xFF808080, p.hint());
        assertEquals(p.danger(), p.severity(Severity.ERROR));
        assertEquals(p.warning(), p.severity(Severity.WARNING));
        assertEquals(p.labelMuted(), p.severity(Severity.INFO));
        assertEquals(p.transports()[Transport.NET_IB.ordinal()], p.transport(Transport.NET_IB));
    }

    @Test
    void immutableAndComparedByValue() throws IOException {
        MapPalette p = MapPalette.defaults();
        p.speeds()[0] = 0;
        assertEquals(0xFF9E9E9E, p.speed(LinkSpeed.SDR));
        assertEquals(p, MapPalette.parse(appCss()));
        assertEquals(p.hashCode(), MapPalette.parse(appCss()).hashCode());
        assertNotEquals(p, MapPalette.parse(appCss().replace("-fs-speed-xdr: #6a1b9a", "-fs-speed-xdr: #6a1b9b")));
        assertEquals("#2E9E44", MapPalette.css(p.ok()));
        assertEquals("#11223380", MapPalette.css(0x80112233));
    }

    @Test
    void parsesTheColourFormsTheMapVariablesMayUse() {
        String css = """
                /* a comment with .root { -x: #000; } in it */
                .label { -fs-a: #ff0000; }
                .root, .other {
                    -FS-Hex6: #1F2328;
                    -fs-hex3: #abc;
                    -fs-hex8: #11223380;
                    -fs-rgb: rgb(1, 2, 3);
                    -fs-pct: rgb(100%, 50%, 0%);
                    -fs-rgba: rgba(255, 255, 255, 0.9);
                    -fs-ref: -fs-ref2;
                    -fs-ref2: -fs-hex6;
                    -fs-loop: -fs-loop;
                    -fs-derived: derive(-fs-hex6, 20%);
                }
                .root { -fs-hex3: #abd; }
                """;
        Map<String, String> v = RootVariables.parse(css);
        assertEquals(0xFF1F2328, RootVariables.colour(v, "-fs-hex6"));
        assertEquals(0xFFAABBDD, RootVariables.colour(v, "-fs-hex3"), "a later .root rule wins");
        assertEquals(0x80112233, RootVariables.colour(v, "-fs-hex8"));
        assertEquals(0xFF010203, RootVariables.colour(v, "-fs-rgb"));
        assertEquals(0xFFFF8000, RootVariables.colour(v, "-fs-pct"));
        assertEquals(0xE5FFFFFF, RootVariables.colour(v, "-fs-rgba"), "0.9 as JavaFX stores it (a float), times 255, rounded");
        assertEquals(0xFF1F2328, RootVariables.colour(v, "-fs-ref"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RootVariables.colour(v, "-fs-a")).getMessage()
                .contains("defines no -fs-a"), "only .root rules count");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RootVariables.colour(v, "-x")).getMessage()
                .contains("defines no -x"), "comments are skipped");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RootVariables.colour(v, "-fs-loop")).getMessage()
                .contains("refers to itself"));
        String derived = assertThrows(IllegalArgumentException.class, () -> RootVariables.colour(v, "-fs-derived")).getMessage();
        assertTrue(derived.contains("-fs-derived") && derived.contains("derive("), derived);
    }

    @Test
    void aMissingVariableIsNamed() throws IOException {
        String css = appCss().replace("-fs-tier-spine: #2f6db5;", "");
        String message = assertThrows(IllegalArgumentException.class, () -> MapPalette.parse(css)).getMessage();
        assertTrue(message.contains("-fs-tier-spine"), message);
    }
}
