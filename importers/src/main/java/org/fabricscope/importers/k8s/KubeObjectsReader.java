package org.fabricscope.importers.k8s;

import java.io.IOException;
import java.io.InputStream;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.FormatReader;
import org.fabricscope.importers.core.Head;
import org.fabricscope.importers.core.ImportPhase;
import org.fabricscope.importers.core.ReadContext;

/**
 * Kubernetes objects as {@code kubectl get -o json|yaml} prints them (one object, a {@code List},
 * several YAML documents) and training-job manifests (PyTorchJob, MPIJob, TFJob, XGBoostJob,
 * PaddleJob): a {@code kind} FabricScope reads, with an {@code apiVersion}.
 */
public final class KubeObjectsReader implements FormatReader {
    public static final String ID = "k8s-objects";
    private static final Pattern JSON_KIND = Pattern.compile(
            "\"kind\"\\s*:\\s*\"" + KubeHead.K8S_KINDS.pattern() + "\"");
    private static final Pattern YAML_KIND = Pattern.compile(
            "^\\s*(?:-\\s+)?kind:\\s*[\"']?" + KubeHead.K8S_KINDS.pattern() + "[\"']?\\s*$");
    private static final Pattern YAML_API = Pattern.compile("^\\s*(?:-\\s+)?apiVersion:\\s*\\S+\\s*$");

    @Override
    public String id() {
        return ID;
    }

    @Override
    public String label() {
        return "kubectl -o json|yaml objects and job manifests";
    }

    @Override
    public ImportPhase phase() {
        return ImportPhase.KUBERNETES;
    }

    @Override
    public int maxConfidence() {
        return 95;
    }

    @Override
    public int confidence(Head head) {
        KubeHead k = KubeHead.of(head);
        if (k.first == null) {
            return NONE;
        }
        if (k.json) {
            String text = head.text();
            return JSON_KIND.matcher(text).find() && text.contains("\"apiVersion\"") ? 95 : NONE;
        }
        if (k.first.startsWith("Name:")) {
            return NONE; // kubectl describe's header, never a manifest
        }
        boolean kind = false;
        boolean api = false;
        for (String l : head.lines()) {
            kind |= YAML_KIND.matcher(l).matches();
            api |= YAML_API.matcher(l).matches();
        }
        // found anywhere in the head, so below the formats whose first line decides (allocatable, events)
        return kind && api ? 90 : NONE;
    }

    @Override
    public void read(InputStream in, ReadContext ctx) throws IOException {
        new KubeObjectImporter().read(in, ctx.source(), ctx.builder(), ctx.cancellation());
    }
}
