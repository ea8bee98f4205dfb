package org.fabricscope.model.flows;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One use of a fact in a flow file, validated: the fact's name and its parameters, already of the
 * types the fact declared ({@code String}, {@code Integer}, or for a table a {@code Map<String,Integer>}).
 * {@code text} is how the flow file wrote it, for messages.
 */
public record FactCall(String fact, Map<String, Object> args) {
    public FactCall {
        Objects.requireNonNull(fact, "fact");
        args = Collections.unmodifiableMap(new LinkedHashMap<>(args));
    }

    public String string(String name) {
        Object v = args.get(name);
        return v == null ? null : v.toString();
    }

    public String string(String name, String orElse) {
        String v = string(name);
        return v == null ? orElse : v;
    }

    public double number(String name, double orElse) {
        Object v = args.get(name);
        return v instanceof Number n ? n.doubleValue() : orElse;
    }

    @SuppressWarnings("unchecked")
    public Map<String, Integer> table(String name) {
        Object v = args.get(name);
        return v instanceof Map<?, ?> m ? (Map<String, Integer>) m : Map.of();
    }

    /** {@code {"fact": "env-set", "name": "NCCL_IB_HCA"}}: how a flow file writes it. */
    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("{\"fact\": \"").append(fact).append('"');
        args.forEach((k, v) -> {
            b.append(", \"").append(k).append("\": ");
            if (v instanceof Number) {
                b.append(v);
            } else if (v instanceof Map<?, ?>) {
                b.append("{...}");
            } else {
                b.append('"').append(v).append('"');
            }
        });
        return b.append('}').toString();
    }
}
