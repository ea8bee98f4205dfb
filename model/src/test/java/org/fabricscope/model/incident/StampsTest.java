package org.fabricscope.model.incident;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StampsTest {
    private static String iso(String line) {
        Stamp s = Stamps.of(line);
        return s.known() ? s.iso() : "none";
    }

    @Test
    void readsEveryFormatMetInIncidents() {
        assertEquals("2026-11-26T15:47:42.123Z", iso("2026-11-26T15:47:42.123456789Z trainer-worker-1:812:901 [0] NCCL WARN x"));
        assertEquals("2026-11-26T14:47:42Z", iso("2026-11-26T15:47:42+01:00 hello"));
        assertEquals("2026-11-26T15:47:42.500Z", iso("2026-11-26 15:47:42,500 - INFO - step 3"));
        assertEquals("2026-11-26T15:47:42Z", iso("[2026-11-26 15:47:42] pod-0:1:2 [0] NCCL WARN Call to connect returned"));
        assertEquals("2026-11-26T15:47:42Z", iso("  time      : 2026-11-26_15:47:42"));
        assertEquals("2026-11-26T15:47:42Z", iso("[Thu Nov 26 15:47:42 2026] NVRM: Xid (PCI:0000:3b:00): 79, pid=1"));
        assertEquals("2026-11-26T15:47:42Z", iso("Thu Nov 26 15:47:42 2026[1,0]<stderr>: x"));
        assertEquals("2026-11-26T15:47:42Z", iso("[pod/trainer-worker-1/pytorch] 2026-11-26T15:47:42Z hello"));
    }

    @Test
    void glogAndSyslogStampsHaveNoYearUntilTheIncidentGivesOne() {
        Stamp glog = Stamps.of("[rank1]:[E1126 15:47:42.790211 812 ProcessGroupNCCL.cpp:1685] [PG ID 0 PG GUID 0(default_pg) Rank 1] x");
        assertTrue(glog.known());
        assertFalse(glog.yearKnown());
        assertEquals("2026-11-26T15:47:42.790Z", glog.inYear(2026).iso());
        Stamp elastic = Stamps.of("E1126 15:47:43.001000 700 torch/distributed/elastic/multiprocessing/api.py:882] failed");
        assertEquals("2026-11-26T15:47:43.001Z", elastic.inYear(2026).iso());
        Stamp syslog = Stamps.of("Nov 26 15:47:42 node-a kernel: Out of memory: Killed process 727 (python)");
        assertEquals("2026-11-26T15:47:42Z", syslog.inYear(2026).iso());
    }

    @Test
    void readsTheStampBehindALaunchersPrefix() {
        for (String prefix : new String[] {"03: ", "[default1]:", "[trainer3|1]:", "12: [default0]:"}) {
            assertEquals("2026-11-26T15:47:42Z", iso(prefix + "[2026-11-26 15:47:42] pod-0:1:2 [0] NCCL WARN x"), prefix);
            assertEquals("2026-11-26T15:47:42.790Z", Stamps.of(prefix + "[rank1]:[E1126 15:47:42.790211 812 x.cpp:1] y")
                    .inYear(2026).iso(), prefix);
            assertEquals("2026-11-26T15:47:42Z", iso(prefix + "  time      : 2026-11-26_15:47:42"), prefix);
        }
        assertFalse(Stamps.of("[  123.456789]: NVRM: Xid 79").known(), "a tag with white space is not a launcher's");
    }

    @Test
    void linesWithoutAStampHaveNone() {
        assertFalse(Stamps.of("trainer-worker-1:812:901 [0] NCCL INFO Channel 00/0 : 0[0] -> 1[1] via P2P/CUMEM").known());
        assertFalse(Stamps.of("[  123.456789] NVRM: Xid (PCI:0000:3b:00): 79").known(), "seconds since boot are not wall time");
        assertFalse(Stamps.of("Traceback (most recent call last):").known());
        assertFalse(Stamps.of("").known());
        assertFalse(Stamps.of("E9999 99:99:99.000 1 x.py:1] bad").known());
    }
}
