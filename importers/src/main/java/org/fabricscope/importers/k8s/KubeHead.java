package org.fabricscope.importers.k8s;

import java.util.regex.Pattern;

import org.fabricscope.importers.core.Head;

/**
 * What the kubectl readers look at in a head, worked out once per head: the first non-blank line
 * (which decides most of them), whether it opens JSON, and the lines' shared shapes.
 */
final class KubeHead {
    static final Pattern K8S_KINDS = Pattern.compile(
            "(?:Node|Pod|Event|List|NodeList|PodList|EventList|PyTorchJob|MPIJob|TFJob|XGBoostJob|PaddleJob)");
    static final Pattern ALLOCATABLE_KEY = Pattern.compile(
            "[{,]\\s*\"(?:cpu|memory|pods|ephemeral-storage|nvidia\\.com/gpu|aliyun/erdma)\"\\s*:\\s*\"");
    static final Pattern NODE_NAME_LINE = Pattern.compile("^(?:node/)?[A-Za-z0-9][A-Za-z0-9._-]*:?$");

    /** The first non-blank line, stripped, without byte order marks; null when the head is blank. */
    final String first;
    /** Whether {@link #first} opens a JSON object or array. */
    final boolean json;
    final Head head;

    static KubeHead of(Head head) {
        return head.derived(KubeHead.class, KubeHead::new);
    }

    private KubeHead(Head head) {
        this.head = head;
        String f = null;
        for (String l : head.lines()) {
            String t = l.replace("\uFEFF", "").strip();
            if (!t.isEmpty()) {
                f = t;
                break;
            }
        }
        first = f;
        json = f != null && (f.startsWith("{") || f.startsWith("["));
    }
}
