package org.fabricscope.importers.kube;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

import org.fabricscope.importers.core.ImportSource;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * Serialises fabric8 objects as kubectl's {@code -o json} would print them, indented so that each
 * field has its own line: the Kubernetes importer cites evidence by line, and a one-line document
 * would cite line 1 for everything.
 */
final class KubeJson {
    private static final KubernetesSerialization PRETTY = new KubernetesSerialization(
            new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT), false);

    private KubeJson() {
    }

    static ImportSource source(String name, Object list) {
        byte[] bytes = PRETTY.asJson(list).getBytes(StandardCharsets.UTF_8);
        return new ImportSource(name, bytes.length, () -> new ByteArrayInputStream(bytes), true);
    }

    /** A log: content-detected like a file in a bundle, so a log that is not an NCCL log is only noted. */
    static ImportSource log(String name, byte[] bytes) {
        return new ImportSource(name, bytes.length, () -> new ByteArrayInputStream(bytes), false);
    }
}
