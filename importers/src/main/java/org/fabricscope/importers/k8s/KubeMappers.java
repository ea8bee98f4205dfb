package org.fabricscope.importers.k8s;

import org.yaml.snakeyaml.LoaderOptions;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

/**
 * Jackson mappers for untrusted kubectl output. YAML goes through SnakeYAML with limits on
 * aliases, nesting and size (Jackson streams SnakeYAML events and does not expand aliases, so
 * billion-laughs documents stay their own size); JSON with Jackson's stream constraints. Both only
 * build trees: no polymorphic typing, no bean binding.
 */
final class KubeMappers {
    /** The largest Kubernetes file read: a {@code kubectl get pods -A -o json} of a big cluster. */
    static final int MAX_BYTES = 256 * 1024 * 1024;
    static final int MAX_DEPTH = 64;

    private KubeMappers() {
    }

    static ObjectMapper json() {
        JsonFactory f = JsonFactory.builder()
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH)
                        .maxStringLength(16 * 1024 * 1024).maxNumberLength(64).build())
                .build();
        return new ObjectMapper(f);
    }

    static ObjectMapper yaml() {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(20);
        options.setNestingDepthLimit(MAX_DEPTH);
        options.setCodePointLimit(MAX_BYTES);
        options.setAllowDuplicateKeys(true);
        YAMLFactory f = YAMLFactory.builder().loaderOptions(options)
                .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH)
                        .maxStringLength(16 * 1024 * 1024).maxNumberLength(64).build())
                .build();
        return new ObjectMapper(f);
    }
}
