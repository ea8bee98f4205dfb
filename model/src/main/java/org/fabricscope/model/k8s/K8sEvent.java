package org.fabricscope.model.k8s;

import org.fabricscope.model.core.Evidence;

/**
 * An event from {@code kubectl get events -o json} or the Events section of
 * {@code kubectl describe pod}: about which object, its type/reason/message, the component that
 * reported it, and for {@code FailedScheduling} the parsed message (null otherwise or when the
 * message does not follow the scheduler's grammar). An empty namespace means the input did not say.
 * {@code lastSeen} is when it was last seen as the input wrote it: an RFC 3339 time from JSON or
 * YAML ({@code lastTimestamp}, {@code eventTime}, ...), an age such as {@code 3m12s} from a table or
 * {@code describe}; empty when not said.
 */
public record K8sEvent(String namespace, String objectKind, String objectName, String type, String reason,
                       String message, int count, String reporter, SchedulingFailure scheduling, Evidence evidence,
                       String lastSeen) {
    public K8sEvent {
        namespace = namespace == null ? "" : namespace.strip(); // empty: not printed (kubectl get events without -A)
        message = message == null ? "" : message;
        reason = reason == null ? "" : reason;
        lastSeen = lastSeen == null ? "" : lastSeen.strip();
    }

    /** An event whose input did not say when it was last seen. */
    public K8sEvent(String namespace, String objectKind, String objectName, String type, String reason,
                    String message, int count, String reporter, SchedulingFailure scheduling, Evidence evidence) {
        this(namespace, objectKind, objectName, type, reason, message, count, reporter, scheduling, evidence, "");
    }

    /** Builds the event, parsing the message when the reason is FailedScheduling. */
    public static K8sEvent of(String namespace, String objectKind, String objectName, String type, String reason,
                              String message, int count, String reporter, Evidence evidence, String lastSeen) {
        SchedulingFailure f = "FailedScheduling".equals(reason) ? SchedulingFailure.parse(message) : null;
        return new K8sEvent(namespace, objectKind, objectName, type, reason, message, count, reporter, f, evidence, lastSeen);
    }

    /** Builds the event, parsing the message when the reason is FailedScheduling. */
    public static K8sEvent of(String namespace, String objectKind, String objectName, String type, String reason,
                              String message, int count, String reporter, Evidence evidence) {
        return of(namespace, objectKind, objectName, type, reason, message, count, reporter, evidence, "");
    }

    public String objectKey() {
        return namespace + "/" + objectName;
    }
}
