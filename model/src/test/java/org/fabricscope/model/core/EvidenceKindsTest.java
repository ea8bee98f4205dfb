package org.fabricscope.model.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.time.Instant;

import org.junit.jupiter.api.Test;

/** The three kinds of evidence (decision 0013): what each says it is and where it shows it was seen. */
class EvidenceKindsTest {
    private static final Instant T = Instant.parse("2026-11-27T00:13:53Z");

    @Test
    void aFileLineIsWhatEvidenceAlwaysWas() {
        Evidence e = Evidence.at("ibnetdiscover.txt", 12, "Switch 36 \"S-0002c903\"");
        assertEquals("file", e.kind());
        assertEquals("ibnetdiscover.txt:12", e.where());
        assertEquals(12, e.line());
        assertEquals(Evidence.at("ibnetdiscover.txt", 12, "Switch 36 \"S-0002c903\""), e, "a value, as the record was");
        assertEquals(Evidence.at(null, 0, null), Evidence.at("", 0, ""), "nulls read as empty, as before");
    }

    @Test
    void aQueryShowsTheQueryAndItsTime() {
        Evidence e = Evidence.query("kube://prod/team-a/pods", "list pods in namespace team-a -l app=bert", T,
                "pod team-a/bert-0 Running on gpu-01");
        assertEquals("query", e.kind());
        assertEquals(0, e.line(), "a query has no lines");
        assertEquals("kube://prod/team-a/pods [list pods in namespace team-a -l app=bert at 2026-11-27T00:13:53Z]", e.where());
        assertEquals("kube://prod/nodes [list nodes]", Evidence.query("kube://prod/nodes", "list nodes", null, "").where());
    }

    @Test
    void aStreamLineShowsItsStreamLineAndTime() {
        Evidence e = Evidence.stream("kube://prod/team-a/pods/bert-0/main", 812, T, "NCCL WARN NET/IB : Got completion");
        assertEquals("stream", e.kind());
        assertEquals("kube://prod/team-a/pods/bert-0/main:812 at 2026-11-27T00:13:53Z", e.where());
        assertEquals("kube://prod/team-a/pods/bert-0/main:812",
                Evidence.stream("kube://prod/team-a/pods/bert-0/main", 812, null, "x").where(), "no time: none shown");
        assertNotEquals(Evidence.at("kube://prod/team-a/pods/bert-0/main", 812, "NCCL WARN NET/IB : Got completion"), e,
                "a stream line is not a file line with the same text");
    }
}
