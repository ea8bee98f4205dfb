package org.fabricscope.model.incident;

import java.util.Map;

import org.fabricscope.model.core.Evidence;

/**
 * A line (or a Kubernetes text) that a signature recognised: the fields it extracted, what the line's
 * prefix said about who printed it ({@code host}, {@code pid}, {@code rank}, {@code device} as NCCL's
 * {@code host:pid:tid [dev]} or torchrun's {@code [rankN]:} give them; empty / -1 when not said), its
 * time as {@link Stamp} (unknown when the line carries none) and the line itself.
 */
public record SignatureMatch(Signature signature, Map<String, String> fields, String host, long pid, int rank,
                             Stamp stamp, Evidence evidence) {
    public SignatureMatch {
        fields = org.fabricscope.model.core.OrderedMaps.copyOf(fields);
        host = host == null ? "" : host;
        stamp = stamp == null ? Stamp.NONE : stamp;
    }

    public String field(String name) {
        return fields.get(name);
    }
}
