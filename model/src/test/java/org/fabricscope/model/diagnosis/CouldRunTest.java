package org.fabricscope.model.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.fabricscope.model.Fabrics;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.fabric.LinkWidth;
import org.fabricscope.model.fabric.PhysState;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.PortState;
import org.junit.jupiter.api.Test;

/** What a port could run at that it does not: iblinkinfo's "Could be", without the 12X every HDR port of some firmware prints. */
class CouldRunTest {
    private static Port port(LinkWidth w, LinkSpeed s, LinkWidth couldW, LinkSpeed couldS) {
        Fabrics f = new Fabrics();
        Cable c = f.cable(f.sw("leaf-1"), f.sw("spine-1"), w, s);
        f.builder().setPortState(c.a(), PortState.ACTIVE, PhysState.LINK_UP, couldW, couldS, Evidence.at("l", 1, ""));
        return c.a();
    }

    @Test
    void onlyAWidthOrSpeedBetterThanTheRunningOneThatExistsAtThatSpeed() {
        assertNull(LinkDegradedCheck.couldRun(port(LinkWidth.X4, LinkSpeed.HDR, LinkWidth.X12, null)), "no 12X at HDR");
        assertEquals("4xHDR", LinkDegradedCheck.couldRun(port(LinkWidth.X1, LinkSpeed.HDR, LinkWidth.X4, null)));
        assertEquals("12xQDR", LinkDegradedCheck.couldRun(port(LinkWidth.X4, LinkSpeed.QDR, LinkWidth.X12, null)));
        assertEquals("4xHDR", LinkDegradedCheck.couldRun(port(LinkWidth.X4, LinkSpeed.EDR, null, LinkSpeed.HDR)));
        assertNull(LinkDegradedCheck.couldRun(port(LinkWidth.X4, LinkSpeed.HDR, LinkWidth.X4, LinkSpeed.HDR)), "runs as it can");
        assertNull(LinkDegradedCheck.couldRun(port(LinkWidth.X4, LinkSpeed.HDR, null, null)));
    }
}
