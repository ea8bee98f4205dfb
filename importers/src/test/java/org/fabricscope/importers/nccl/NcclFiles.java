package org.fabricscope.importers.nccl;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.importers.core.ImportSource;

/** Loads the copied reference files (src/test/resources/reference/nccl) and runs them through the full import. */
final class NcclFiles {
    static final String DIR = "/reference/nccl/";
    static final String OCI = "oci-bm-gpu-h100-8.topo.xml";
    static final String AZURE = "azure-ndv5.topo.xml";
    static final String H200_TOPO = "h200x2-nccl-2.28.9/normal/topo.xml";
    static final String H200_GRAPH = "h200x2-nccl-2.28.9/normal/graph.xml";
    static final String H200_SOCKET_TOPO = "h200x2-nccl-2.28.9/socket/topo.xml";
    static final String H200_SOCKET_GRAPH = "h200x2-nccl-2.28.9/socket/graph.xml";
    static final String H200_SMI = "h200x2-nccl-2.28.9/nvidia-smi.txt";

    private NcclFiles() {
    }

    static byte[] bytes(String name) {
        try (InputStream in = NcclFiles.class.getResourceAsStream(DIR + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + DIR + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String text(String name) {
        return new String(bytes(name), StandardCharsets.UTF_8);
    }

    /** Imports resources, each under a source name given beside it: name, resource, name, resource ... */
    static ImportResult importAs(String... nameAndResource) {
        List<ImportSource> sources = new ArrayList<>();
        for (int i = 0; i < nameAndResource.length; i += 2) {
            byte[] data = bytes(nameAndResource[i + 1]);
            sources.add(new ImportSource(nameAndResource[i], data.length, () -> new ByteArrayInputStream(data), true));
        }
        return new FabricImporter().importSources(sources, new ArrayList<>(), ImportProgress.NONE, Cancellation.NEVER);
    }

    static ImportResult importTexts(String... nameAndText) {
        List<ImportSource> sources = new ArrayList<>();
        for (int i = 0; i < nameAndText.length; i += 2) {
            byte[] data = nameAndText[i + 1].getBytes(StandardCharsets.UTF_8);
            sources.add(new ImportSource(nameAndText[i], data.length, () -> new ByteArrayInputStream(data), true));
        }
        return new FabricImporter().importSources(sources, new ArrayList<>(), ImportProgress.NONE, Cancellation.NEVER);
    }
}
