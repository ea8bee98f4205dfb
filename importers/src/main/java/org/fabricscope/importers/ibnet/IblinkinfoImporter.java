package org.fabricscope.importers.ibnet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.importers.core.ReadAheadLineImporter;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.core.LineStore;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.fabric.LinkWidth;
import org.fabricscope.model.fabric.NodeKind;
import org.fabricscope.model.fabric.NodeLookup;
import org.fabricscope.model.fabric.PhysState;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.fabric.PortState;

/**
 * Reads {@code iblinkinfo} output (rdma-core infiniband-diags): {@code Switch: 0x<guid> <name>:}
 * and {@code CA: <name>:} headers, then per port
 * {@code LID PORT[EXT] ==( 4X 53.125 Gbps Active/  LinkUp)==> PEERLID PEERPORT[EXT] "peer" ( )},
 * or {@code ==(  Down/ Polling)==>} for a port with no link. The trailing parentheses carry
 * {@code Could be ...} when the link runs below what both ends support. Also the {@code -l}
 * one-line form, where each line starts with the node GUID and quoted name.
 */
public final class IblinkinfoImporter extends ReadAheadLineImporter {
    private record PendingLink(Port local, int remoteLid, int remotePort, String remoteName, LinkWidth width,
                               LinkSpeed speed, Evidence evidence) {
    }

    /** The lines cited when they are read in their turn (read ahead, each thread has a store of its own). */
    private LineStore cited;
    private FabricNode current;
    /** The header above was refused (its GUID out of range): its port lines are skipped with it. */
    private boolean skipping;
    private NodeKind currentKind;
    private String currentName;
    private final Map<Integer, FabricNode> lids = new HashMap<>();
    private final List<PendingLink> links = new ArrayList<>();

    public IblinkinfoImporter() {
    }

    /** With {@code readAhead} false every line is read in its turn; {@code batch} lines are read ahead at a time (0: the default). */
    IblinkinfoImporter(boolean readAhead, int batch) {
        super(readAhead, batch);
    }

    @Override
    protected void begin() {
        cited = new LineStore();
    }

    /** Lines are read (their expressions matched, their numbers checked) ahead of their turn, each thread with its own store. */
    @Override
    protected LinePreparer preparer() {
        LineStore own = new LineStore();
        return (raw, lineNumber) -> prepare(raw, lineNumber, own);
    }

    @Override
    protected Object prepare(String raw, int lineNumber) {
        return prepare(raw, lineNumber, cited);
    }

    /** What the line says on its own ({@link IblinkinfoLine}); null for a blank line, a comment or an ibwarn. */
    private Object prepare(String raw, int lineNumber, LineStore store) {
        String l = raw.strip();
        if (l.isEmpty() || l.startsWith("#") || l.startsWith("ibwarn:")) {
            return null;
        }
        return IblinkinfoLine.read(l, source, lineNumber, store);
    }

    /** One line, with what {@link #prepare} made of it; a field out of range (LID, port, GUID, rate) skips it. */
    @Override
    protected void line(String raw, Object prepared) {
        if (prepared instanceof IblinkinfoLine.Header h) {
            header(h);
        } else if (prepared instanceof IblinkinfoLine.PortLine p) {
            port(p);
        } else if (prepared instanceof IblinkinfoLine.NotUnderstood n) {
            bad(n.message());
        }
    }

    private void header(IblinkinfoLine.Header h) {
        current = null;
        if (h.error != null) {
            currentKind = null;
            currentName = null;
            bad(h.error);
            skipping = true;
            return;
        }
        currentKind = h.kind;
        currentName = h.name;
        if (h.hasGuid) {
            current = builder.node(h.guid, currentKind);
            builder.offerDescription(current, currentName);
            builder.setEvidence(current, h.evidence);
        }
        skipping = false;
    }

    private void port(IblinkinfoLine.PortLine f) {
        if (skipping && f.name == null) {
            return; // a port of a node whose header was refused
        }
        if (f.error != null) {
            bad(f.error);
            return;
        }
        FabricNode node = current;
        if (f.hasPortGuid) {
            // a port GUID: a CA's port line and -l lines start with it
            FabricNode known = builder.findNodeByPortGuid(f.portGuid);
            if (known != null) {
                node = known;
            } else if (node == null || f.name != null) {
                NodeKind kind = currentKind != null ? currentKind : NodeKind.SWITCH;
                node = builder.node(f.portGuid, kind);
            }
            if (f.name == null) {
                current = node; // the CA header's later ports belong to the same adapter
            }
            builder.offerDescription(node, f.name != null ? f.name.strip() : currentName);
            builder.setEvidence(node, f.evidence);
        }
        if (node == null) {
            bad("port line with no node: it must follow a \"Switch: 0x<guid> <name>:\" or \"CA: <name>:\" header");
            return;
        }
        Port port = builder.port(node, f.portNo);
        if (node.isSwitch()) {
            if (f.lid > 0 && node.lid() == 0) {
                builder.setSwitchPort0(node, f.lid, 0, null);
            }
        } else {
            builder.setPortAddress(port, f.portGuid, f.lid, 0);
        }
        if (f.lid > 0) {
            lids.putIfAbsent(f.lid, node);
        }
        if (f.extNo > 0) {
            builder.setExtNumber(port, f.extNo);
        }
        if (!f.linkKnown) {
            bad("link state not understood: \"(" + f.link + ")\"");
            return;
        }
        builder.setPortRate(port, f.width, f.speed);
        builder.setPortState(port, f.state, f.phys, f.couldWidth, f.couldSpeed, f.evidence);
        if (f.remoteLid >= 0 && f.state != PortState.DOWN) {
            links.add(new PendingLink(port, f.remoteLid, f.remotePort, f.remoteName, f.width, f.speed, f.evidence));
        }
    }

    @Override
    protected void end() {
        NodeLookup known = null; // indexed once, on the first peer to look for
        for (PendingLink pl : links) {
            if (pl.local.cable() != null) {
                continue; // ibnetdiscover (or the other end's line) already placed this cable
            }
            FabricNode remote = lids.get(pl.remoteLid);
            if (remote == null) {
                known = known != null ? known : builder.lookup();
                remote = known.byLid(pl.remoteLid);
                if (remote == null) {
                    remote = known.byName(pl.remoteName);
                }
            }
            if (remote == null) {
                builder.diagnostic(org.fabricscope.model.core.Diagnostic.info(source, pl.evidence.line(),
                        "peer \"" + pl.remoteName + "\" (LID " + pl.remoteLid + ") is not described in the loaded files; "
                                + "its cable is left out"));
                continue;
            }
            builder.link(pl.local, builder.port(remote, pl.remotePort), pl.width, pl.speed, pl.evidence);
        }
    }
}
