package org.fabricscope.model.k8s;

/**
 * A pod toleration. Matching follows {@code k8s.io/api/core/v1} {@code Toleration.ToleratesTaint}:
 * an empty effect matches every effect; operator {@code Exists} with an empty key matches every
 * taint; {@code Exists} matches any value of its key; {@code Equal} (the default) needs the value.
 */
public record Toleration(String key, String operator, String value, String effect) {
    public Toleration {
        key = key == null ? "" : key;
        operator = operator == null || operator.isEmpty() ? "Equal" : operator;
        value = value == null ? "" : value;
        effect = effect == null ? "" : effect;
    }

    public boolean tolerates(Taint t) {
        if (!effect.isEmpty() && !effect.equals(t.effect())) {
            return false;
        }
        if (key.isEmpty()) {
            return operator.equals("Exists");
        }
        if (!key.equals(t.key())) {
            return false;
        }
        return operator.equals("Exists") || value.equals(t.value());
    }
}
