package org.fabricscope.model.evidence;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What commands run on one host (or in one pod) said about it: the HCA ports as the host sees them,
 * the GID tables, the locked-memory limit, the {@code /dev/infiniband} files, the network interfaces,
 * {@code /dev/shm}, the environment, the PCIe links ({@code lspci -vv}), the eRDMA devices ({@code eadm stat}) and the
 * processes the kernel's OOM killer killed ({@code dmesg}), and the HCAs' firmware, type and port MTUs
 * ({@link HcaFact}). Immutable; built by {@link HostEvidenceBuilder}. Lists are in
 * the order read; each record carries the input line it came from.
 */
public record HostEvidence(String host, List<HcaPortStatus> hcaPorts, List<GidEntry> gids, MemlockLimit memlock,
                           List<DeviceFile> deviceFiles, List<NetInterface> interfaces, ShmMount shm,
                           Map<String, EnvVar> env, List<PciLink> pciLinks, List<String> sources, List<ErdmaStat> erdma,
                           List<OomKill> oomKills, List<HcaFact> hcaFacts) {
    public HostEvidence {
        hcaFacts = hcaFacts == null ? List.of() : List.copyOf(hcaFacts);
        hcaPorts = List.copyOf(hcaPorts);
        gids = List.copyOf(gids);
        deviceFiles = List.copyOf(deviceFiles);
        interfaces = List.copyOf(interfaces);
        env = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(env));
        pciLinks = List.copyOf(pciLinks);
        sources = List.copyOf(sources);
        erdma = List.copyOf(erdma);
        oomKills = List.copyOf(oomKills);
    }

    /** Evidence without the HCAs' facts (firmware, MTU): as it was built before they were read. */
    public HostEvidence(String host, List<HcaPortStatus> hcaPorts, List<GidEntry> gids, MemlockLimit memlock,
                        List<DeviceFile> deviceFiles, List<NetInterface> interfaces, ShmMount shm, Map<String, EnvVar> env,
                        List<PciLink> pciLinks, List<String> sources, List<ErdmaStat> erdma, List<OomKill> oomKills) {
        this(host, hcaPorts, gids, memlock, deviceFiles, interfaces, shm, env, pciLinks, sources, erdma, oomKills, List.of());
    }

    /** The port as this host reports it, if it does. */
    public Optional<HcaPortStatus> hcaPort(String device, int port) {
        return hcaPorts.stream().filter(p -> p.device().equals(device) && p.port() == port).findFirst();
    }

    /** The interface with this name, if the host has it. */
    public Optional<NetInterface> iface(String name) {
        return interfaces.stream().filter(i -> i.name().equals(name)).findFirst();
    }

    /** The {@code /dev/infiniband/uverbs*} files listed. */
    public List<DeviceFile> uverbs() {
        return deviceFiles.stream().filter(DeviceFile::uverbs).toList();
    }
}
