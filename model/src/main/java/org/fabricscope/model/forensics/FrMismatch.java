package org.fabricscope.model.forensics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The first collective of a process group whose ranks disagree about it: same sequence number, a
 * different operation ({@code what} = {@code op}), element type ({@code dtype}) or size ({@code size}).
 * {@code entries} is each rank's entry; {@code culprits} the ranks outside the largest agreeing set
 * (empty when no set is larger than the others, e.g. two ranks that disagree).
 */
public record FrMismatch(String pgName, String pgDesc, long seq, String what, Map<Integer, FrEntry> entries,
                         List<Integer> culprits, Map<Integer, String> sources) {
    public FrMismatch {
        entries = Collections.unmodifiableMap(new LinkedHashMap<>(entries));
        culprits = List.copyOf(culprits);
        sources = Collections.unmodifiableMap(new LinkedHashMap<>(sources));
    }

    public String label() {
        return FrProcessGroup.label(pgName, pgDesc);
    }
}
