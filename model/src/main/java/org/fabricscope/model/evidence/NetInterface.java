package org.fabricscope.model.evidence;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

import org.fabricscope.model.core.Evidence;

/**
 * A network interface of the host or pod ({@code ip addr}, {@code ip -o addr}, {@code ip -o link}): its
 * name (without {@code @ifN}), its state ({@code UP}, {@code DOWN}, {@code UNKNOWN}, empty when not
 * given), its addresses with prefix ({@code 10.0.1.5/24}) and its MTU ({@code ip addr}'s {@code mtu 1500}; -1 when
 * not given).
 */
public record NetInterface(String name, String state, List<String> addresses, Evidence evidence, int mtu) {
    public NetInterface {
        state = state == null ? "" : state;
        addresses = List.copyOf(addresses);
    }

    /** An interface whose MTU was not given (-1). */
    public NetInterface(String name, String state, List<String> addresses, Evidence evidence) {
        this(name, state, addresses, evidence, -1);
    }

    /** This interface with the state and addresses {@code o} adds. */
    public NetInterface merge(NetInterface o) {
        LinkedHashSet<String> a = new LinkedHashSet<>(addresses);
        a.addAll(o.addresses);
        return new NetInterface(name, state.isEmpty() ? o.state : state, new ArrayList<>(a),
                evidence != null ? evidence : o.evidence, mtu > 0 ? mtu : o.mtu);
    }
}
