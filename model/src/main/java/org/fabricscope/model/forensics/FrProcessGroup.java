package org.fabricscope.model.forensics;

import java.util.List;

/**
 * One process group as a flight recorder dump's {@code pg_config} names it: its name (the key
 * PyTorch gives it, {@code "0"} for the default group), its description ({@code default_pg},
 * {@code TENSOR_MODEL_PARALLEL_GROUP}, ...) and its member ranks (global ranks; the dump writes them
 * as a string, {@code "[0, 1]"}).
 */
public record FrProcessGroup(String name, String desc, List<Integer> ranks) {
    public FrProcessGroup {
        name = name == null ? "" : name;
        desc = desc == null ? "" : desc;
        ranks = List.copyOf(ranks);
    }

    /** {@code process group 0 (default_pg)}. */
    public String label() {
        return label(name, desc);
    }

    public static String label(String name, String desc) {
        return "process group " + name + (desc == null || desc.isEmpty() || desc.equals("undefined") ? "" : " (" + desc + ")");
    }
}
