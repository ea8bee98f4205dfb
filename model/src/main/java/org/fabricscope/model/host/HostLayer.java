package org.fabricscope.model.host;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.fabric.NodeKind;
import org.fabricscope.model.fabric.Port;

/**
 * Names each host topology and joins its nets to the fabric's HCAs, once every file is read.
 *
 * <p>Join keys: NCCL's {@code <net guid>} is the HCA's system image GUID (net_ib.cc copies
 * {@code ibv_device_attr.sys_image_guid}). Verbs hands that value over in network byte order and
 * NCCL prints it as a host integer, so on x86 and arm64 dumps the bytes come out reversed
 * ({@code 0x9a70500003ae6d94} is sysimgguid {@code 0x946dae030050709a}, Mellanox OUI 94:6d:ae);
 * both orders are tried, as written first. Then {@code <net name="mlx5_N">} joins the HCA described
 * {@code "<host> mlx5_N"}.
 *
 * <p>The host of a topology file: the fabric host whose HCAs its net GUIDs match; else the file
 * or folder name ({@link HostTopologyBuilder#hostFromFileName}); else a name made from the file.
 * Files that land on the same host merge: the first tree wins, graphs and nvidia-smi matrices
 * are added to it.
 */
public final class HostLayer {
    private HostLayer() {
    }

    public static Map<String, HostTopology> resolve(List<HostTopologyBuilder> drafts, Collection<FabricNode> nodes,
                                                    List<Diagnostic> diagnostics) {
        if (drafts.isEmpty()) {
            return new LinkedHashMap<>(); // no topology to join: skip indexing every CA (ten times Selene: 0.2 s with C1)
        }
        Map<Long, List<FabricNode>> bySysImg = new HashMap<>();
        Map<String, FabricNode> byHostDev = new HashMap<>();
        for (FabricNode n : nodes) {
            if (n.kind() != NodeKind.CA) {
                continue;
            }
            if (n.sysImgGuid() != 0) {
                bySysImg.computeIfAbsent(n.sysImgGuid(), k -> new ArrayList<>()).add(n);
            }
            String[] words = n.description().strip().split("\\s+");
            if (words.length >= 2) {
                byHostDev.putIfAbsent(key(words[0], words[1]), n);
            }
        }
        Map<String, List<HostTopologyBuilder>> byHost = new LinkedHashMap<>();
        Map<HostTopologyBuilder, HostNameSource> sourceOf = new HashMap<>();
        for (HostTopologyBuilder d : drafts) {
            d.finish();
            diagnostics.addAll(d.diagnostics);
            String name = d.hostHint;
            HostNameSource how = d.hintSource;
            if (how != HostNameSource.EXPLICIT) {
                String joined = hostByGuid(d.topology, bySysImg, d.topology.source, diagnostics);
                if (joined != null) {
                    if (name != null && !name.equals(joined) && how == HostNameSource.FILE_NAME) {
                        diagnostics.add(Diagnostic.info(d.topology.source, 0, "file name says host \"" + name
                                + "\" but its net GUIDs belong to HCAs of \"" + joined + "\"; using " + joined));
                    }
                    name = joined;
                    how = HostNameSource.FABRIC_GUID;
                }
            }
            if (name == null) {
                name = d.topology.name;
                how = HostNameSource.NONE;
            }
            sourceOf.put(d, how);
            byHost.computeIfAbsent(name, k -> new ArrayList<>()).add(d);
        }
        Map<String, HostTopology> out = new LinkedHashMap<>();
        for (Map.Entry<String, List<HostTopologyBuilder>> e : byHost.entrySet()) {
            List<HostTopologyBuilder> ds = e.getValue();
            HostTopologyBuilder primary = ds.stream().filter(d -> d.topology.hasTree()).findFirst().orElse(ds.get(0));
            HostTopology t = primary.topology;
            t.name = e.getKey();
            t.nameSource = sourceOf.get(primary);
            for (HostTopologyBuilder d : ds) {
                if (d == primary) {
                    continue;
                }
                if (d.topology.hasTree()) {
                    diagnostics.add(Diagnostic.warning(d.topology.source, 0, "a second topology for host \""
                            + t.name + "\" (the first came from " + t.source + "); ignored except its graphs"));
                }
                t.graphs.addAll(d.topology.graphs);
                t.reportedMatrices.addAll(d.topology.reportedMatrices);
                t.sources.add(d.topology.source);
            }
            if (!t.hasTree() && t.gpus.isEmpty() && !t.reportedMatrices.isEmpty()) {
                primary.synthesiseFromMatrix(t.reportedMatrices.get(0));
            }
            joinNets(t, bySysImg, byHostDev);
            if (t.hasTree()) {
                t.affinity = AffinityMatrix.compute(t, false);
                t.pcieAffinity = AffinityMatrix.compute(t, true);
            } else if (!t.reportedMatrices.isEmpty()) {
                NvidiaSmiMatrix m = t.reportedMatrices.stream().filter(NvidiaSmiMatrix::hasNvlink).findFirst()
                        .orElse(t.reportedMatrices.get(0));
                t.affinity = AffinityMatrix.reported(t, m);
                NvidiaSmiMatrix p = t.reportedMatrices.stream().filter(x -> !x.hasNvlink()).findFirst().orElse(m);
                t.pcieAffinity = AffinityMatrix.reported(t, p);
            } else {
                t.affinity = AffinityMatrix.compute(t, false);
                t.pcieAffinity = AffinityMatrix.compute(t, true);
            }
            out.put(t.name, t);
        }
        return out;
    }

    private static String key(String host, String dev) {
        return host.toLowerCase(Locale.ROOT) + "\u0000" + dev.toLowerCase(Locale.ROOT);
    }

    /** The host most of the topology's net GUIDs point at, or null. */
    private static String hostByGuid(HostTopology t, Map<Long, List<FabricNode>> bySysImg, String source,
                                     List<Diagnostic> diagnostics) {
        Map<String, Integer> votes = new LinkedHashMap<>();
        for (NetPort n : t.nets) {
            List<FabricNode> cands = candidates(n.guid, bySysImg);
            for (FabricNode c : cands) {
                if (c.host() != null) {
                    votes.merge(c.host().name(), 1, Integer::sum);
                    break;
                }
            }
        }
        if (votes.isEmpty()) {
            return null;
        }
        String best = null;
        int bestVotes = -1;
        for (Map.Entry<String, Integer> v : votes.entrySet()) {
            if (v.getValue() > bestVotes) {
                best = v.getKey();
                bestVotes = v.getValue();
            }
        }
        if (votes.size() > 1) {
            diagnostics.add(Diagnostic.warning(source, 0, "net GUIDs match HCAs of several hosts " + votes.keySet()
                    + "; taking " + best));
        }
        return best;
    }

    private static List<FabricNode> candidates(long guid, Map<Long, List<FabricNode>> bySysImg) {
        if (!Guids.isValid(guid)) {
            return List.of();
        }
        List<FabricNode> c = bySysImg.get(guid);
        if (c == null) {
            c = bySysImg.get(Long.reverseBytes(guid));
        }
        return c == null ? List.of() : c;
    }

    private static void joinNets(HostTopology t, Map<Long, List<FabricNode>> bySysImg,
                                 Map<String, FabricNode> byHostDev) {
        for (NetPort n : t.nets) {
            FabricNode hca = null;
            NetPort.Join how = NetPort.Join.NONE;
            if (Guids.isValid(n.guid)) {
                List<FabricNode> c = bySysImg.get(n.guid);
                how = NetPort.Join.GUID;
                if (c == null) {
                    c = bySysImg.get(Long.reverseBytes(n.guid));
                    how = NetPort.Join.GUID_BYTE_SWAPPED;
                }
                if (c != null && !c.isEmpty()) {
                    hca = c.get(0);
                    for (FabricNode x : c) { // a dual-port card: two CAs share one system image
                        String[] w = x.description().strip().split("\\s+");
                        if (w.length >= 2 && w[1].equalsIgnoreCase(n.name)) {
                            hca = x;
                            break;
                        }
                    }
                }
            }
            if (hca == null) {
                hca = byHostDev.get(key(t.name, n.name));
                how = hca == null ? NetPort.Join.NONE : NetPort.Join.NAME;
            }
            n.hca = hca;
            n.join = how;
            if (hca != null) {
                Port p = n.port > 0 ? hca.port(n.port) : null;
                if (p == null || p.cable() == null) {
                    for (Port q : hca.ports()) {
                        if (q.cable() != null) {
                            p = q;
                            break;
                        }
                    }
                }
                if (p == null && !hca.ports().isEmpty()) {
                    p = hca.ports().iterator().next();
                }
                n.hcaPort = p;
            }
        }
    }
}
