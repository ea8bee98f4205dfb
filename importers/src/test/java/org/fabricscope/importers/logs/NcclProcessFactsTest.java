package org.fabricscope.importers.logs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.fabricscope.model.training.NcclProcess;
import org.fabricscope.model.training.TrainingLogBuilder;
import org.junit.jupiter.api.Test;

class NcclProcessFactsTest {
    static Map<String, String> facts(String... messages) {
        TrainingLogBuilder log = new TrainingLogBuilder();
        for (String m : messages) {
            NcclProcessFacts.read(log, "node0", 42, m);
        }
        return log.build().processes().get(0).facts();
    }

    @Test
    void versionsNetworkAndPluginsAsNccl228PrintsThem() {
        // lines of sample-fabrics/gpu-captures/h200x2-busbw-nccl-2.28.9/logs/healthy.vm.890.log
        Map<String, String> f = facts("cudaDriverVersion 13000", "NCCL version 2.28.9+cuda13.0",
                "NET/Plugin: Could not find: libnccl-net.so", "Using network Socket",
                "PROFILER/Plugin: Could not find: libnccl-profiler.so", "TUNER/Plugin: Could not find: libnccl-tuner.so",
                "ENV/Plugin: Could not find: libnccl-env.so");
        assertEquals("13.0", f.get(NcclProcess.CUDA_DRIVER));
        assertEquals("2.28.9", f.get(NcclProcess.NCCL_VERSION));
        assertEquals("13.0", f.get(NcclProcess.CUDA_RUNTIME));
        assertEquals("internal", f.get(NcclProcess.NET_PLUGIN));
        assertEquals("internal", f.get(NcclProcess.TUNER_PLUGIN));
        assertEquals("none", f.get(NcclProcess.PROFILER_PLUGIN));
        assertEquals("Socket", f.get(NcclProcess.NETWORK));
    }

    @Test
    void aLoadedPluginIsNamedAndTheFirstValueStays() {
        Map<String, String> f = facts("NET/Plugin: Loaded net plugin AWS Libfabric (v5)",
                "NET/Plugin: Failed to find ncclCollNetPlugin_v8 symbol.", "NET/Plugin : No plugin found (libnccl-net.so), using internal implementation",
                "TUNER/Plugin: Using tuner plugin nccl_tuner_example", "cudaDriverVersion 12040");
        assertEquals("AWS Libfabric (v5)", f.get(NcclProcess.NET_PLUGIN));
        assertEquals("nccl_tuner_example", f.get(NcclProcess.TUNER_PLUGIN));
        assertEquals("12.4", f.get(NcclProcess.CUDA_DRIVER));
    }

    @Test
    void otherLinesStateNoFact() {
        TrainingLogBuilder log = new TrainingLogBuilder();
        assertFalse(NcclProcessFacts.read(log, "n", 1, "Channel 00/24 : 0 1"));
        assertFalse(NcclProcessFacts.read(log, "n", 1, "cudaDriverVersion twelve"));
        assertFalse(NcclProcessFacts.read(log, "n", 1, "NET/IB : No device found."));
        assertTrue(log.build().processes().isEmpty());
    }
}
