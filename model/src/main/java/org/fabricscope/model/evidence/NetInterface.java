package org.fabricscope.model.evidence;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

import org.fabricscope.model.core.Evidence;

/**
 * A network interface of the host or pod ({@code ip addr}, {@code ip -o addr}, {@code ip -o link}): its
 * name (without {@code @ifN}), its state ({@code UP}, {@code DOWN}, {@code UNKNOWN}, empty when not
 * given) and its addresses with prefix ({@code 10.0.1.5/24}).
 */
public record NetInterface(String name, String state, List<String> addresses, Evidence evidence) {
    public NetInterface {
        state = state == null ? "" : state;
        addresses = List.copyOf(addresses);
    }

    /** This interface with the state and addresses {@code o} adds. */
    public NetInterface merge(NetInterface o) {
        LinkedHashSet<String> a = new LinkedHashSet<>(addresses);
        a.addAll(o.addresses);
        return new NetInterface(name, state.isEmpty() ? o.state : state, new ArrayList<>(a),
                evidence != null ? evidence : o.evidence);
    }
}
