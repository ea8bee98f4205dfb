package org.fabricscope.app.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** {@code diagnose --markdown} and {@code --html}: the incident report on training-incident, answers included. */
class DiagnoseReportCliTest {
    private static final String TRAINING = Path.of("..", "sample-fabrics", "training-incident").toString();
    private static final String K8S = Path.of("..", "sample-fabrics", "k8s-incident").toString();

    @Test
    void markdownReport() {
        assumeTrue(Files.isDirectory(Path.of(TRAINING)));
        CliTest.Run r = CliTest.run("diagnose", "--markdown", TRAINING);
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("# FabricScope incident report\n"), r.out());
        assertTrue(r.out().contains("`nccl-timeout`: "), r.out());
        assertTrue(r.out().contains("(`nccl-timeout`, concluded)"), r.out());
        assertTrue(r.out().contains("**Conclusion** (`"), r.out());
        assertTrue(r.out().contains("gpt-train-master-0.log:216: "), "an evidence excerpt");
    }

    @Test
    void htmlReportWithAnAnswer() {
        assumeTrue(Files.isDirectory(Path.of(K8S)));
        CliTest.Run r = CliTest.run("diagnose", "--html", "--answer", "roce-gid-index/gid-matches=no", K8S);
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("<!DOCTYPE html>"), r.out());
        assertTrue(r.out().contains("<b>Conclusion</b> <code>set-gid-index</code>"), r.out());
        assertTrue(r.out().contains("(answered by the user)"), r.out());
        assertFalse(r.out().contains("data:image/png"), "Kubernetes objects alone: no fabric, no map");
    }

    @Test
    void htmlReportCarriesTheMap() throws java.io.IOException {
        assumeTrue(Files.isDirectory(Path.of(TRAINING)));
        String rail = Path.of("..", "sample-fabrics", "rail-2su-hdr", "ibnetdiscover.txt").toString();
        CliTest.Run r = CliTest.run("diagnose", "--html", rail, TRAINING);
        assertEquals(0, r.status(), r.err());
        // the map as export -f png draws it, inline
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("src=\"data:image/png;base64,([A-Za-z0-9+/=]+)\"")
                .matcher(r.out());
        assertTrue(m.find(), "the map picture");
        java.awt.image.BufferedImage map = javax.imageio.ImageIO.read(new java.io.ByteArrayInputStream(
                java.util.Base64.getDecoder().decode(m.group(1))));
        assertEquals(1600, map.getWidth());
        assertEquals(1000, map.getHeight());
    }

    @Test
    void aReportOfLogsAloneHasNoMap() {
        Path log = Path.of("..", "sample-fabrics", "gpu-captures", "h200x2-forensics-nccl-2.28.9", "hang", "torchrun-stdout.log");
        assumeTrue(Files.isRegularFile(log));
        CliTest.Run r = CliTest.run("diagnose", "--html", log.toString());
        assertEquals(0, r.status(), r.err());
        assertFalse(r.out().contains("data:image/png"), "no fabric, no map");
    }
}
