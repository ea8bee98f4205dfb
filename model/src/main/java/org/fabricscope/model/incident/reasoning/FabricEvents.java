package org.fabricscope.model.incident.reasoning;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.core.Severity;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.LinkChange;
import org.fabricscope.model.incident.CauseClass;
import org.fabricscope.model.incident.Role;
import org.fabricscope.model.incident.Stamp;

/**
 * The events of a polled fabric: each link state change a poller saw (iblinkinfo read on an interval,
 * {@code fabricscope watch}) at the time of the reading that showed it. A link that went out of
 * service is a cause ({@code fabricscope.link-down}); one that came (back) up is context
 * ({@code fabricscope.link-up}); other changes (Polling to Down) are context too
 * ({@code fabricscope.link-state}). The ids are a contract, like the catalogue's.
 */
final class FabricEvents {
    private static final String ORIGIN = "iblinkinfo read on an interval by FabricScope's fabric poller (docs/watch.md)";

    private FabricEvents() {
    }

    static void collect(FabricModel model, Places places, List<IncidentEvent> out) {
        for (LinkChange c : model.fabric().linkChanges()) {
            FabricNode n = model.fabric().nodes().get(c.nodeGuid());
            Who who = n != null && n.host() != null ? places.complete(Who.NOBODY.withHost(n.host().name()))
                    : Who.NOBODY.withNode(c.node());
            Map<String, String> f = new LinkedHashMap<>();
            f.put("port", c.portLabel());
            f.put("from", c.from());
            f.put("to", c.to());
            Stamp stamp = c.time() == null ? Stamp.NONE : new Stamp(c.time().toEpochMilli(), true, true);
            String title = "link of " + c.portLabel() + " " + c.from() + " -> " + c.to();
            if (c.wentDown()) {
                out.add(new IncidentEvent(out.size(), "fabricscope.link-down", title, Role.CAUSE, CauseClass.NETWORK_LINK,
                        Severity.ERROR, stamp, who, Who.NOBODY, f, List.of("Check the cable and transceiver of " + c.portLabel()
                                + " and the port at its other end (mlxlink, ibportstate); a link that comes back and goes again"
                                + " is flapping: drain the hosts behind it until it is replaced."), c.evidence(), ORIGIN));
            } else {
                out.add(new IncidentEvent(out.size(), c.cameUp() ? "fabricscope.link-up" : "fabricscope.link-state", title,
                        Role.CONTEXT, CauseClass.NETWORK_LINK, Severity.INFO, stamp, who, Who.NOBODY, f, List.of(),
                        c.evidence(), ORIGIN));
            }
        }
    }
}
