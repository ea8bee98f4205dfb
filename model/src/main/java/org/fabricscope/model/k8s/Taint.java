package org.fabricscope.model.k8s;

/** A node taint: key, value (may be empty) and effect (NoSchedule, PreferNoSchedule, NoExecute). */
public record Taint(String key, String value, String effect) {
    public Taint {
        key = key == null ? "" : key;
        value = value == null ? "" : value;
        effect = effect == null ? "" : effect;
    }

    /** As the scheduler prints it in FailedScheduling: {@code {key: value}}. */
    @Override
    public String toString() {
        return "{" + key + ": " + value + "}" + (effect.isEmpty() ? "" : ":" + effect);
    }
}
