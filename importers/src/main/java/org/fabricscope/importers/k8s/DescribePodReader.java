package org.fabricscope.importers.k8s;

import java.io.IOException;
import java.io.InputStream;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/**
 * {@code kubectl describe pod}: {@code Name:} first, then {@code Namespace:} and a pod section
 * ({@code IP:}, {@code Containers:} or {@code Events:}); a node's describe output has none of these.
 */
public final class DescribePodReader implements FormatReader {
    public static final String ID = "k8s-describe-pod";

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "kubectl describe pod";
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.KUBERNETES;
    }

    @Override
    public int maxConfidence() {
        return 90;
    }

    @Override
    public int confidence(Head head) {
        KubeHead k = KubeHead.of(head);
        if (k.first == null || !k.first.startsWith("Name:")) {
            return NONE;
        }
        boolean ns = false;
        boolean podSection = false;
        for (String l : head.lines()) {
            ns |= l.startsWith("Namespace:");
            podSection |= l.startsWith("Events:") || l.startsWith("Containers:") || l.startsWith("IP:");
        }
        return ns && podSection ? maxConfidence() : NONE;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        new DescribePodImporter().read(in, ctx);
    }
}
