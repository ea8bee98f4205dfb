package org.fabricscope.model.diagnosis;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.training.ChannelLink;
import org.fabricscope.model.training.NcclProcess;
import org.fabricscope.model.training.Rank;
import org.fabricscope.model.training.StepTime;
import org.fabricscope.model.training.Transport;
import org.junit.jupiter.api.Test;

/** config-drift, transport-downgraded and straggler (from step times) over built models. */
class SlownessChecksTest {
    static Rank rank(String host, int pid, int rank, int nranks, String version, Map<String, String> env) {
        return new Rank(host, pid, rank, rank, "0000:0" + rank + ":00.0", "c1", rank, nranks, version, true, true, List.of(),
                "Socket", false, env, Evidence.at(host + ".log", 10 + rank, "Init COMPLETE"));
    }

    static List<Finding> run(FabricCheck check, FabricModel m) {
        return check.run(CheckContext.of(m));
    }

    @Test
    void theOddNodeAgainstTheMajorityWithTheSettingKnownToHangFirst() {
        FabricModelBuilder b = new FabricModelBuilder();
        Map<String, String> common = Map.of("NCCL_NVLS_ENABLE", "0", "NCCL_IB_HCA", "mlx5_0,mlx5_1");
        for (int i = 0; i < 3; i++) {
            b.training().putRank(rank("node" + i, 100 + i, i, 4, "2.21.5", common));
        }
        Map<String, String> odd = new LinkedHashMap<>(common);
        odd.put("NCCL_PROTO", "LL");
        odd.put("NCCL_IB_HCA", "mlx5_0");
        b.training().putRank(rank("node3", 103, 3, 4, "2.21.5", odd));
        for (int i = 0; i < 4; i++) {
            b.training().processFact("node" + i, 100 + i, NcclProcess.CUDA_DRIVER, i == 1 ? "12.2" : "12.4");
        }
        List<Finding> f = run(new ConfigDriftCheck(), b.build());
        assertEquals(1, f.size());
        Finding d = f.get(0);
        assertEquals(Severity.ERROR, d.severity(), "NCCL_PROTO differing is known to hang");
        assertTrue(d.title().startsWith("Configuration drift between nodes: NCCL_PROTO (not set) on node0, node1, node2 against LL on node3; "
                + "NCCL_IB_HCA mlx5_0,mlx5_1 on node0, node1, node2 against mlx5_0 on node3; cuda-driver 12.4 on node0, node2, node3 against 12.2 on node1"),
                d.title());
        assertTrue(d.title().endsWith("(the first is known to hang the job or fail its connections)"), d.title());
        List<String> labels = new java.util.ArrayList<>();
        for (org.fabricscope.model.core.Subject x : d.refs()) {
            labels.add(x.label());
        }
        assertEquals(List.of("node3", "node1"), labels);
        assertTrue(d.evidence().get(0).text().contains("ranks choose different protocols"), d.evidence().toString());
    }

    @Test
    void aJobAlikeOnEveryNodeOrOnOneNodeRaisesNothing() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.training().putRank(rank("node0", 100, 0, 2, "2.21.5", Map.of("NCCL_HOSTID", "node0", "NCCL_DEBUG_FILE", "/tmp/a")));
        b.training().putRank(rank("node1", 101, 1, 2, "2.21.5", Map.of("NCCL_HOSTID", "node1", "NCCL_DEBUG_FILE", "/tmp/b")));
        assertTrue(run(new ConfigDriftCheck(), b.build()).isEmpty(), "per-node ids and log files differ by design");
        FabricModelBuilder one = new FabricModelBuilder();
        one.training().putRank(rank("node0", 100, 0, 2, "2.21.5", Map.of()));
        one.training().putRank(rank("node0", 101, 1, 2, "2.21.3", Map.of()));
        assertTrue(run(new ConfigDriftCheck(), one.build()).isEmpty(), "one node: nothing to compare between nodes");
    }

    @Test
    void namesThatDifferOnlyInCaseOrLeadingZerosAreOneNode() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.training().putRank(rank("node-01", 100, 0, 4, "2.21.5", Map.of("NCCL_PROTO", "LL")));
        b.training().putRank(rank("Node-1", 101, 1, 4, "2.21.5", Map.of("NCCL_PROTO", "LL")));
        b.training().putRank(rank("node-2", 102, 2, 4, "2.21.5", Map.of()));
        b.training().putRank(rank("node-02", 103, 3, 4, "2.21.5", Map.of()));
        Finding d = run(new ConfigDriftCheck(), b.build()).get(0);
        assertTrue(d.title().contains("NCCL_PROTO LL on node-01 against (not set) on node-2")
                || d.title().contains("NCCL_PROTO (not set) on node-2 against LL on node-01"), d.title());
    }

    @Test
    void onlyDifferencesNotKnownToHarmAreInfo() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.training().putRank(rank("node0", 100, 0, 2, "2.21.5", Map.of()));
        b.training().putRank(rank("node1", 101, 1, 2, "2.21.5", Map.of()));
        b.training().processFact("node0", 100, NcclProcess.CUDA_DRIVER, "12.4");
        b.training().processFact("node1", 101, NcclProcess.CUDA_DRIVER, "12.2");
        Finding d = run(new ConfigDriftCheck(), b.build()).get(0);
        assertEquals(Severity.INFO, d.severity());
        assertTrue(d.title().contains("cuda-driver 12.4 on node0 against 12.2 on node1"), d.title());
        assertTrue(d.title().endsWith("(none of these is known to harm by itself)"), d.title());
    }

    @Test
    void ranksOfOneHostOverShmBecauseOfAVariableAreNamedWithIt() {
        FabricModelBuilder b = new FabricModelBuilder();
        Map<String, String> env = Map.of("NCCL_P2P_DISABLE", "1");
        b.training().putRank(new Rank("vm", 913, 0, 0, "0000:00:06.0", "c1", 0, 2, "2.28.9", true, true, List.of(), "Socket",
                false, env, Evidence.at("p2p.log", 3, "Init")));
        b.training().putRank(new Rank("vm", 913, 1, 1, "0000:00:07.0", "c1", 1, 2, "2.28.9", true, true, List.of(), "Socket",
                false, env, Evidence.at("p2p.log", 4, "Init")));
        for (int ch = 0; ch < 2; ch++) {
            b.training().addChannel(new ChannelLink("c1", ch, 0, 1, Transport.SHM, "SHM/direct/direct", -1,
                    Evidence.at("p2p.log", 90 + ch, "Channel 0" + ch + " : 0[0] -> 1[1] via SHM/direct/direct")));
        }
        List<Finding> f = run(new TransportDowngradeCheck(), b.build());
        assertEquals(1, f.size());
        assertEquals("Ranks 0 and 1 on host vm talk via SHM/direct/direct (2 channels) instead of directly (P2P): "
                + "NCCL_P2P_DISABLE=1 set by the environment", f.get(0).title());
        assertTrue(f.get(0).remedies().get(0).startsWith("Unset NCCL_P2P_DISABLE"), f.get(0).remedies().toString());
    }

    @Test
    void ranksSetDifferentlyAreJudgedByTheSettingsOfTheLastChannelLinesRanks() {
        for (int[][] order : List.of(new int[][] {{0, 1}, {1, 0}}, new int[][] {{1, 0}, {0, 1}})) {
            FabricModelBuilder b = new FabricModelBuilder();
            b.training().putRank(new Rank("vm", 913, 0, 0, "0000:00:06.0", "c1", 0, 2, "2.28.9", true, true, List.of(),
                    "Socket", false, Map.of("NCCL_P2P_DISABLE", "1"), Evidence.at("p2p.log", 3, "Init")));
            b.training().putRank(new Rank("vm", 913, 1, 1, "0000:00:07.0", "c1", 1, 2, "2.28.9", true, true, List.of(),
                    "Socket", false, Map.of("NCCL_P2P_DISABLE", "0"), Evidence.at("p2p.log", 4, "Init")));
            for (int ch = 0; ch < 2; ch++) {
                int from = order[ch][0];
                int to = order[ch][1];
                b.training().addChannel(new ChannelLink("c1", ch, from, to, Transport.SHM, "SHM/direct/direct", -1,
                        Evidence.at("p2p.log", 90 + ch, "Channel 0" + ch + " : " + from + "[" + from + "] -> " + to + "["
                                + to + "] via SHM/direct/direct")));
            }
            List<Finding> f = run(new TransportDowngradeCheck(), b.build());
            // each line puts its sender's settings, then its receiver's: the last line's receiver decides
            assertEquals(order[1][1] == 0 ? 1 : 0, f.size(), java.util.Arrays.deepToString(order) + " " + f);
        }
    }

    @Test
    void shmWithoutNvlinkEvidenceOrACauseIsWhatNcclPicksAndRaisesNothing() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.training().putRank(new Rank("vm", 913, 0, 0, "0000:00:06.0", "c1", 0, 2, "2.28.9", true, true, List.of(), "Socket",
                false, Map.of(), Evidence.at("x.log", 3, "Init")));
        b.training().putRank(new Rank("vm", 913, 1, 1, "0000:00:07.0", "c1", 1, 2, "2.28.9", true, true, List.of(), "Socket",
                false, Map.of(), Evidence.at("x.log", 4, "Init")));
        b.training().addChannel(new ChannelLink("c1", 0, 0, 1, Transport.SHM, "SHM/direct/direct", -1,
                Evidence.at("x.log", 90, "Channel 00 : 0[0] -> 1[1] via SHM/direct/direct")));
        assertTrue(run(new TransportDowngradeCheck(), b.build()).isEmpty());
    }

    static StepTime step(String pod, int rank, long step, double ms) {
        return new StepTime(pod + ".log", (int) step, pod, rank, step, ms, Double.NaN, "", -1, "plain",
                Evidence.at(pod + ".log", (int) step, "step " + step + " time " + ms + " ms"));
    }

    @Test
    void aRankWhoseOwnStepTimesAreLongestIsAStragglerOfSteps() {
        FabricModelBuilder b = new FabricModelBuilder();
        for (long s = 1; s <= 20; s++) {
            b.training().addStepTime(step("w0", 0, s, 100 + s % 3));
            b.training().addStepTime(step("w1", 1, s, 100 + (s + 1) % 3));
            b.training().addStepTime(step("w2", 2, s, 160 + s % 3));
        }
        List<Finding> f = run(new StragglerCheck(), b.build());
        assertEquals(1, f.size());
        assertTrue(f.get(0).title().equals("Straggler: rank 2 (w2), 60.0 ms per step (59% of a 101 ms step; the worst in 20 of 20 steps): its steps take longest (by the step times it logged)"),
                f.get(0).title());
    }

    @Test
    void evenStepTimesRaiseNothing() {
        FabricModelBuilder b = new FabricModelBuilder();
        for (long s = 1; s <= 20; s++) {
            for (int r = 0; r < 4; r++) {
                b.training().addStepTime(step("w" + r, r, s, 100 + ((s * 7 + r * 3) % 5)));
            }
        }
        assertTrue(run(new StragglerCheck(), b.build()).isEmpty());
    }

    static org.fabricscope.model.forensics.InspectorCommunicator inspector(int rank, double execMs) {
        return new org.fabricscope.model.forensics.InspectorCommunicator("inspector/w" + rank + ".log", "0xabc", rank, 4, 4,
                "w" + rank, 100 + rank, 200, 200, "AllReduce", List.of(new org.fabricscope.model.forensics.InspectorCommunicator.Collective(
                "AllReduce", 200, 1 << 26, 1, 64.0 * 1024 / execMs / 1000, 1, execMs * 1000)));
    }

    @Test
    void inspectorsShortestExecutionIsTheRankTheOthersWaitFor() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.forensics().inspector(inspector(0, 52));
        b.forensics().inspector(inspector(1, 51));
        b.forensics().inspector(inspector(2, 12));
        b.forensics().inspector(inspector(3, 50));
        List<Finding> f = run(new StragglerCheck(), b.build());
        assertEquals(1, f.size());
        assertTrue(f.get(0).title().startsWith("Straggler: w2, 39.0 ms per collective (NCCL Inspector summaries of 4 ranks of "
                + "communicator 0xabc, AllReduce (means over the run)): slow before its collectives"), f.get(0).title());
        FabricModelBuilder even = new FabricModelBuilder();
        for (int r = 0; r < 4; r++) {
            even.forensics().inspector(inspector(r, 50 + r));
        }
        assertTrue(run(new StragglerCheck(), even.build()).isEmpty());
    }

    @Test
    void podEnvironmentDumpsShowDriftWithNcclDebugOff() {
        FabricModelBuilder b = new FabricModelBuilder();
        b.hostEvidence().file("w0/env.txt", List.of("w0")).env(new org.fabricscope.model.evidence.EnvVar("NCCL_PROTO", "Simple",
                Evidence.at("w0/env.txt", 3, "NCCL_PROTO=Simple")));
        b.hostEvidence().file("w1/env.txt", List.of("w1")).env(new org.fabricscope.model.evidence.EnvVar("MASTER_ADDR", "w0",
                Evidence.at("w1/env.txt", 1, "MASTER_ADDR=w0")));
        List<Finding> f = run(new ConfigDriftCheck(), b.build());
        assertEquals(1, f.size(), f.toString());
        assertEquals(Severity.ERROR, f.get(0).severity());
        assertTrue(f.get(0).title().contains("NCCL_PROTO"), f.get(0).title());
    }
}
