package org.fabricscope.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Every built-in flow end to end on the bundled scenarios, through {@code diagnose --json} on each
 * scenario's golden inputs: which flows apply, in what order, and what each concludes (or which step
 * waits for input). A healthy capture (the SHM run, the single-H100 run) concludes nothing.
 */
class FlowScenariosTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** {@code diagnose --json} of a scenario, as GoldenFilesTest runs it. */
    static JsonNode diagnose(String scenario, String... extra) throws IOException {
        Path root = Samples.root();
        List<String> args = new ArrayList<>(List.of("diagnose", "--json"));
        args.addAll(List.of(extra));
        args.addAll(GoldenFilesTest.inputs(root, root.resolve(scenario)));
        return JSON.readTree(GoldenFilesTest.run(args));
    }

    /** The applicable flows, in rank order, each as {@code status conclusion (finding)} or {@code needs-input at STEP}. */
    static Map<String, String> outcomes(JsonNode doc) {
        Map<String, String> out = new LinkedHashMap<>();
        boolean seenNotApplicable = false;
        for (JsonNode f : doc.get("flows")) {
            String status = f.get("status").asText();
            if (status.equals("not-applicable")) {
                seenNotApplicable = true;
                assertTrue(f.get("reason").asText().startsWith("Its symptom is absent: "), f.toString());
                assertEquals(0, f.get("steps").size());
                continue;
            }
            assertFalse(seenNotApplicable, "applicable flows rank first: " + f.get("id"));
            JsonNode c = f.get("conclusion");
            JsonNode steps = f.get("steps");
            out.put(f.get("id").asText(), status.equals("concluded")
                    ? "concluded " + c.get("id").asText() + " (" + c.get("finding").asText() + ")"
                    : status + " at " + steps.get(steps.size() - 1).get("id").asText());
        }
        return out;
    }

    static JsonNode flow(JsonNode doc, String id) {
        for (JsonNode f : doc.get("flows")) {
            if (f.get("id").asText().equals(id)) {
                return f;
            }
        }
        throw new AssertionError("no flow " + id);
    }

    static String step(JsonNode flow, String id, String field) {
        for (JsonNode s : flow.get("steps")) {
            if (s.get("id").asText().equals(id)) {
                return s.get(field).asText();
            }
        }
        throw new AssertionError("flow " + flow.get("id") + " did not walk step " + id + ": " + flow.get("steps"));
    }

    @Test
    void everyFlowIsListedWithAStatus() throws IOException {
        JsonNode doc = diagnose("gpu-captures/h200x2-nccl-2.28.9/shm");
        assertEquals(7, doc.get("flows").size());
        for (JsonNode f : doc.get("flows")) {
            for (String field : List.of("id", "title", "status", "reason", "symptoms", "conclusion", "steps")) {
                assertTrue(f.has(field), field + " in " + f);
            }
        }
    }

    @Test
    void healthyCapturesConcludeNothing() throws IOException {
        for (String healthy : List.of("gpu-captures/h200x2-nccl-2.28.9/shm", "gpu-captures/h100x1-nccl-2.28.9")) {
            JsonNode doc = diagnose(healthy);
            // NET/IB : No device found on one node is an info (no RDMA device was needed), no flow's symptom
            assertEquals(Map.of(), outcomes(doc), healthy);
            for (JsonNode f : doc.get("findings")) {
                if (f.get("id").asText().equals("transport-downgraded")) {
                    // the shm run: NCCL_P2P_DISABLE=1 put it on host memory; slower, not broken, and no flow's symptom
                    assertTrue(healthy.endsWith("/shm"), healthy + ": " + f);
                    continue;
                }
                assertEquals("rdma-device-not-needed", f.get("id").asText(), healthy + ": " + f);
                assertEquals("info", f.get("severity").asText());
                assertTrue(f.get("title").asText().contains("so none was needed"), f.get("title").asText());
            }
            assertEquals("not-applicable", flow(doc, "no-rdma-device").get("status").asText());
        }
    }

    @Test
    void noIbDeviceOnOneNodeAppliesNoRdmaDeviceAndBlamesTheForcedNetwork() throws IOException {
        JsonNode doc = diagnose("gpu-captures/h200x2-failures-nccl-2.28.9/no-rdma-device");
        assertEquals(Map.of(
                "no-rdma-device", "concluded ib-forced-without-device (rdma-device-missing)",
                "link-errors", "needs-input at permissions",
                "job-crashed", "concluded nccl-failed ()"), outcomes(doc));
        JsonNode root = doc.get("findings").get(0); // the incident's root cause leads: no NET plugin could be initialized
        assertEquals("incident-root-cause", root.get("id").asText());
        assertTrue(root.get("title").asText().contains("[network-config, nccl.net-plugin-none-initialized]"), root.get("title").asText());
        JsonNode f = doc.get("findings").get(1);
        assertEquals("rdma-device-missing", f.get("id").asText());
        assertEquals("error", f.get("severity").asText(), "NCCL init failed for want of the network: an error on one node too");
        assertTrue(f.get("title").asText().contains("left with no network: 2 NCCL processes failed at init"), f.get("title").asText());
        assertEquals("gpu-captures/h200x2-failures-nccl-2.28.9/no-rdma-device/nccl.vm.795.log",
                f.get("evidence").get(0).get("source").asText());
        assertEquals("vm:795:795 [0] NCCL INFO NET/IB : No device found.", f.get("evidence").get(0).get("text").asText());
        JsonNode rdma = flow(doc, "no-rdma-device");
        assertEquals(List.of("rdma-device-missing"), List.of(rdma.get("symptoms").get(0).asText()));
        assertEquals("no", step(rdma, "multi-node", "answer"));
        assertTrue(step(rdma, "multi-node", "detail").startsWith("all 2 NCCL processes logged from one host, vm"),
                step(rdma, "multi-node", "detail"));
        assertEquals("yes", step(rdma, "net-failed", "answer"));
        assertTrue(step(rdma, "net-failed", "detail").contains("NET plugin IB failed to initialize after NET/IB : No device found"),
                step(rdma, "net-failed", "detail"));
        String remedies = rdma.get("conclusion").get("remedies").toString();
        assertTrue(remedies.contains("unset NCCL_NET") && remedies.contains("ls /sys/class/infiniband"), remedies);
    }

    @Test
    void realHangIsALocalStallThenTheWatchdogsAbort() throws IOException {
        JsonNode doc = diagnose("gpu-captures/h200x2-nccl-2.28.9/hang");
        assertEquals(Map.of(
                "nccl-timeout", "concluded stalled-locally (nccl-timeout)",
                "job-crashed", "concluded aborted-by-watchdog (nccl-timeout)"), outcomes(doc));
        assertEquals(List.of("nccl-timeout", "job-crashed"), new ArrayList<>(outcomes(doc).keySet()),
                "no-rdma-device does not apply: one node needed no RDMA device (an info, no symptom)");
        JsonNode t = flow(doc, "nccl-timeout");
        assertEquals("no", step(t, "network", "answer"), "rank 1 talks over P2P only");
        assertTrue(step(t, "network", "detail").contains("rank 1"), step(t, "network", "detail"));
        // the remedy fits the transport: no InfiniBand tuning for ranks on NVLink/P2P
        for (JsonNode r : t.get("conclusion").get("remedies")) {
            assertFalse(r.asText().contains("NCCL_IB_TIMEOUT=") || r.asText().contains("NCCL_IB_RETRY_CNT="), r.asText());
        }
        assertTrue(t.get("conclusion").get("text").asText().contains("Rank 1 never issued the collective"));
        JsonNode c = flow(doc, "job-crashed");
        assertEquals("yes", step(c, "failed", "answer"));
        assertTrue(step(c, "failed", "detail").startsWith("rank 0 (local rank 0, pid 720 on localhost) failed with exit code -6 (SIGABRT), torchrun's root cause"),
                step(c, "failed", "detail"));
    }

    @Test
    void trainingIncidentFollowsTheLaggingRankToItsBadLink() throws IOException {
        JsonNode doc = diagnose("training-incident");
        assertEquals(List.of("nccl-timeout", "link-errors", "job-crashed"), new ArrayList<>(outcomes(doc).keySet()));
        assertEquals(Map.of(
                "nccl-timeout", "concluded bad-link (rank-path-errors)",
                "link-errors", "concluded cable-or-transceiver (link-errors)",
                "job-crashed", "concluded ib-error-first (ib-completion-error)"), outcomes(doc));
        JsonNode t = flow(doc, "nccl-timeout");
        assertEquals("yes", step(t, "network", "answer"));
        assertEquals("no", step(t, "sockets", "answer"));
        assertEquals("rank 12 ran on gpt-train-worker-0 on dgx-su2-h07, GPU4, dgx-su2-h07 mlx5_4 -> leaf-su2-r5 port 7",
                step(t, "locate", "detail"));
        assertTrue(step(t, "path-errors", "detail").contains("leaf-su2-r5 port 7 LinkErrorRecoveryCounter=42"),
                step(t, "path-errors", "detail"));
        String remedies = t.get("conclusion").get("remedies").toString();
        assertTrue(remedies.contains("Reseat or replace the cable at leaf-su2-r5 port 7 (dgx-su2-h07 mlx5_4)"), remedies);
        assertTrue(remedies.contains("kubectl cordon dgx-su2-h07"), remedies);
        assertTrue(remedies.contains("NCCL_IB_TIMEOUT=23"), "ranks on NET/IB get the IB timeout advice: " + remedies);
        assertTrue(step(t, "network", "command").startsWith("kubectl logs gpt-train-worker-0 -n ml-train"));
        JsonNode crash = flow(doc, "job-crashed");
        assertTrue(crash.get("conclusion").get("text").asText().contains("IBV_WC_RETRY_EXC_ERR"));
    }

    @Test
    void k8sIncidentConcludesPerFlowAndWaitsOnTheGidTable() throws IOException {
        JsonNode doc = diagnose("k8s-incident");
        assertEquals(Map.of(
                "insufficient-resources", "concluded not-enough-gpus (insufficient-resources)",
                "no-rdma-device", "concluded not-requested (rdma-resource-not-requested)",
                "slow-training", "concluded no-secondary-network (secondary-network-missing)",
                "link-errors", "concluded link-degraded (link-degraded)",
                "roce-gid-index", "needs-input at gid-matches"), outcomes(doc));
        assertEquals(List.of("insufficient-resources", "no-rdma-device", "slow-training", "link-errors", "roce-gid-index"),
                new ArrayList<>(outcomes(doc).keySet()));
        JsonNode ins = flow(doc, "insufficient-resources");
        assertEquals("manual", step(ins, "insufficient", "kind"));
        assertEquals("yes", step(ins, "insufficient", "answer"), "the events answer the manual step: the model holds the fact");
        assertEquals("kubectl describe pod llama-pretrain-worker-1 -n ml-train", step(ins, "insufficient", "command"));
        JsonNode rdma = flow(doc, "no-rdma-device");
        String remedies = rdma.get("conclusion").get("remedies").toString();
        assertTrue(remedies.contains("--device=aliyun/erdma=1") && remedies.contains("--extended-resource rdma/rdma=1"), remedies);
        assertTrue(step(rdma, "resource-requested", "detail").startsWith("pod ml-train/bert-ft-master-0 requests no RDMA"));
        JsonNode gid = flow(doc, "roce-gid-index");
        assertTrue(gid.get("reason").asText().startsWith("Step 'gid-matches' needs input: run grep 'RoCE v2'"), gid.get("reason").asText());
        assertEquals("yes", step(gid, "gid-set", "answer"));
        assertTrue(step(gid, "gid-matches", "expect").contains("NCCL_IB_GID_INDEX=3"));
    }

    @Test
    void aGidListingAloneConcludesWithTheExactGidIndexAndHca() throws IOException {
        JsonNode doc = diagnose("roce-gid-tables/agree");
        assertEquals(Map.of("roce-gid-index", "concluded use-gid-index ()"), outcomes(doc));
        JsonNode gid = flow(doc, "roce-gid-index");
        assertEquals("yes", step(gid, "roce", "answer"), "the tables list RoCE v2 entries");
        assertEquals("unknown", step(gid, "gid-set", "answer"));
        String listed = step(gid, "gid-listed", "detail");
        assertTrue(listed.contains("roce-a01 mlx5_bond_0 port 1: index 3 (10.10.1.21)")
                && listed.contains("roce-b02 mlx5_bond_0 port 1: index 3 (10.10.1.22)")
                && listed.contains("none on roce-b02 mlx5_2 port 1"), listed);
        String remedies = gid.get("conclusion").get("remedies").toString();
        assertTrue(remedies.contains("export NCCL_IB_GID_INDEX=3\\n  export NCCL_IB_HCA=mlx5_bond_0"), remedies);
        assertFalse(remedies.contains("<n>") || remedies.contains("<gid-index>") || remedies.contains("<ib-hca>"), remedies);
        JsonNode ev = gid.get("conclusion").get("evidence");
        assertEquals("roce-gid-tables/agree/roce-a01/gids.txt", ev.get(0).get("source").asText());
        assertEquals("/sys/class/infiniband/mlx5_bond_0/ports/1/gids/3:0000:0000:0000:0000:0000:ffff:0a0a:0115",
                ev.get(0).get("text").asText());
        assertEquals("mlx5_bond_0\t1\t3\t0000:0000:0000:0000:0000:ffff:0a0a:0116\t10.10.1.22  \tv2\tbond0",
                ev.get(1).get("text").asText());
    }

    @Test
    void podsWhoseGidIndexDiffersGetEachTheirOwn() throws IOException {
        JsonNode doc = diagnose("roce-gid-tables/differ");
        assertEquals(Map.of("roce-gid-index", "concluded gid-index-differs ()"), outcomes(doc));
        JsonNode gid = flow(doc, "roce-gid-index");
        assertEquals("yes", step(gid, "gid-set", "answer"));
        assertEquals("no", step(gid, "gid-matches", "answer"), "the job's fixed 7 is the master's, not the worker's");
        assertTrue(step(gid, "gid-matches", "detail").startsWith("on distributed-job-worker-0 mlx5_bond_0 port 1 the RoCE v2 "
                + "GID of 172.18.128.4 is index 9, but NCCL_IB_GID_INDEX=7 there"), step(gid, "gid-matches", "detail"));
        assertEquals("no", step(gid, "gid-same", "answer"));
        String perNode = gid.get("conclusion").get("remedies").get(0).asText();
        assertTrue(perNode.contains("distributed-job-master-0: export NCCL_IB_GID_INDEX=7 NCCL_IB_HCA=mlx5_bond_0")
                && perNode.contains("distributed-job-worker-0: export NCCL_IB_GID_INDEX=9 NCCL_IB_HCA=mlx5_bond_0"), perNode);
        assertTrue(gid.get("conclusion").get("remedies").toString().contains("leave NCCL_IB_GID_INDEX unset"));
    }

    @Test
    void theUsersAnswerConcludesAManualStep() throws IOException {
        JsonNode doc = diagnose("k8s-incident", "--answer", "roce-gid-index/gid-matches=no");
        JsonNode gid = flow(doc, "roce-gid-index");
        assertEquals("concluded", gid.get("status").asText());
        assertEquals("set-gid-index", gid.get("conclusion").get("id").asText());
        assertEquals("user", gid.get("steps").get(2).get("answeredBy").asText());
    }

    @Test
    void realHostPortDownConcludesNoPhysicalLinkAndInitNoSubnetManager() throws IOException {
        JsonNode down = flow(diagnose("sim-ibstat/port-down"), "link-errors");
        assertEquals("concluded", down.get("status").asText());
        assertEquals("hca-no-physical-link", down.get("conclusion").get("id").asText());
        assertEquals("hca-port-down", down.get("conclusion").get("finding").asText());
        assertEquals("no", step(down, "port-init", "answer"), "the port is Down, not Init");
        assertEquals("yes", step(down, "hca-down", "answer"));
        assertTrue(step(down, "hca-down", "detail").startsWith("cn0001 ibsim0 port 1 is Down (Polling)"),
                step(down, "hca-down", "detail"));
        String remedies = down.get("conclusion").get("remedies").toString();
        assertTrue(remedies.contains("ibstat ibsim0 1") && remedies.contains("ibv_devinfo -d ibsim0"), remedies);
        assertTrue(remedies.contains("mlxlink -d ibsim0 -p 1") && remedies.contains("ethtool"), remedies);
        assertTrue(remedies.contains("reseat"), remedies);
        assertEquals("sim-ibstat/port-down/ibstat.txt", down.get("conclusion").get("evidence").get(0).get("source").asText());
        // the same CA before the subnet manager ran: Initializing, so no subnet manager
        JsonNode init = flow(diagnose("sim-ibstat/before-sm"), "link-errors");
        assertEquals("no-subnet-manager", init.get("conclusion").get("id").asText());
        JsonNode after = flow(diagnose("sim-ibstat/after-sm"), "link-errors");
        assertEquals("no", step(after, "hca-down", "answer"), "after the SM the host port is Active");
        assertEquals("link-degraded", after.get("conclusion").get("id").asText(), "only the fabric's own 1x link is left");
    }

    @Test
    void eadmStatWithoutTheDeviceConcludesNoErdmaDevice() throws IOException {
        JsonNode doc = diagnose("erdma-evidence");
        assertEquals(Map.of("no-rdma-device", "concluded erdma-device-absent (erdma-device-missing)"), outcomes(doc));
        JsonNode f = flow(doc, "no-rdma-device");
        assertEquals("no", step(f, "erdma-device", "answer"));
        assertEquals("eadm stat -d erdma_0 -l", step(f, "erdma-device", "command"));
        assertTrue(step(f, "erdma-device", "detail").startsWith("node-b: erdma_0: eadm stat printed no statistics"),
                step(f, "erdma-device", "detail"));
        assertEquals("erdma-evidence/node-b/eadm-stat.txt", f.get("conclusion").get("evidence").get(0).get("source").asText());
        String remedies = f.get("conclusion").get("remedies").toString();
        assertTrue(remedies.contains("On node node-b: ibv_devinfo should list erdma_0") && remedies.contains("lsmod | grep erdma"),
                remedies);
        assertEquals(1, doc.get("findings").size(), "node-a's device passes traffic: only node-b is reported");
    }

    @Test
    void aRankRasReportsGoneIsACrashWithoutTorchrunsReport() throws IOException {
        JsonNode doc = diagnose("gpu-captures/h200x2-forensics-nccl-2.28.9/ras-dead");
        assertEquals(Map.of("job-crashed", "concluded rank-went-away (rank-exited)"), outcomes(doc));
        JsonNode c = flow(doc, "job-crashed");
        assertEquals("no", step(c, "failed", "answer"), "no torchrun output in this capture");
        assertTrue(step(c, "went-away", "detail").startsWith("Rank 1 (of communicators"), step(c, "went-away", "detail"));
        assertTrue(c.get("conclusion").get("remedies").get(0).asText().startsWith("Find why rank 1 ended on vm"),
                c.get("conclusion").get("remedies").toString());
    }

    @Test
    void aWrongSocketIfnameIsTheInitFailuresCause() throws IOException {
        JsonNode doc = diagnose("gpu-captures/h200x2-failures-nccl-2.28.9/wrong-ifname");
        assertEquals(Map.of("job-crashed", "concluded no-socket-interface (socket-interface-missing)"), outcomes(doc));
        JsonNode c = flow(doc, "job-crashed");
        assertEquals("yes", step(c, "failed", "answer"));
        assertEquals("yes", step(c, "socket-ifname", "answer"));
        assertEquals("gpu-captures/h200x2-failures-nccl-2.28.9/wrong-ifname/nccl.vm.662.log",
                c.get("conclusion").get("evidence").get(0).get("source").asText(), "the finding's NCCL WARN line is the evidence");
        assertTrue(c.get("conclusion").get("text").asText().contains("NCCL_SOCKET_IFNAME"), c.get("conclusion").toString());
        assertTrue(c.get("conclusion").get("remedies").get(0).asText().contains("ip -o addr"));
    }

    @Test
    void aRankKilledWithoutMemoryEvidenceIsKilledBySignalNotOutOfMemory() throws IOException {
        JsonNode doc = diagnose("gpu-captures/h200x2-failures-nccl-2.28.9/rank-killed");
        JsonNode c = flow(doc, "job-crashed");
        assertEquals("concluded", c.get("status").asText());
        assertEquals("killed-by-signal", c.get("conclusion").get("id").asText(), "a SIGKILL alone is no proof of OOM");
        assertEquals("rank-exited", c.get("conclusion").get("finding").asText());
        assertTrue(doc.get("findings").toString().contains("\"id\":\"rank-exited\""), "the finding it names is raised");
        assertEquals("unknown", step(c, "oom", "answer"), "torchrun's -9 says SIGKILL, not why");
        assertEquals("yes", step(c, "killed", "answer"));
        assertTrue(step(c, "killed", "detail").startsWith("rank 1 (local rank 1, pid 727 on localhost) died of SIGKILL"),
                step(c, "killed", "detail"));
        String text = c.get("conclusion").get("text").asText();
        assertTrue(text.contains("OOM killer") && text.contains("preempts") && text.contains("kill -9"), text);
        String remedies = c.get("conclusion").get("remedies").toString();
        assertTrue(remedies.contains("lastState.terminated.reason") && remedies.contains("dmesg -T | grep -i -E")
                && remedies.contains("kubectl describe node"), remedies);
    }

    @Test
    void railCaptureConcludesOnTheFabricAndHosts() throws IOException {
        assertEquals(Map.of(
                "link-errors", "concluded cable-or-transceiver (link-errors)",
                "slow-training", "concluded gdr-off-on-host (gdr-disabled)"), outcomes(diagnose("rail-2su-hdr")));
        assertEquals(Map.of(
                "link-errors", "concluded cable-or-transceiver (link-errors)",
                "slow-training", "concluded degraded-link (link-degraded)"), outcomes(diagnose("fat-tree-3tier-small")));
    }
}
