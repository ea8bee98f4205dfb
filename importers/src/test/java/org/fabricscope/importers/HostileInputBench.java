package org.fabricscope.importers;

import org.fabricscope.importers.core.ImportSource;
import org.fabricscope.importers.core.Cancellation;

import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.host.HostTopology;

/**
 * Hostile-input benchmark (run by hand, not a test): the two inputs of issue 10 that grew without
 * bound. Each run generates its input in memory, imports it once through {@link FabricImporter}
 * (detection, reader, model build) and prints the wall time and the peak Java heap.
 * <pre>
 *   HostileInputBench topo GPUS [GPUS_PER_SWITCH]   # one NCCL topology file of GPUS GPUs, a NIC per PCIe switch
 *   HostileInputBench yaml MIB                      # a Pod manifest whose one annotation is a MIB MiB scalar
 * </pre>
 * Classpath: the importers' test classes, the importers' and model's classes and their dependencies
 * ({@code mvn dependency:build-classpath -pl importers}).
 */
public final class HostileInputBench {
    private HostileInputBench() {
    }

    public static void main(String[] args) {
        if (args.length >= 2 && args[0].equals("topo")) {
            int gpus = Integer.parseInt(args[1]);
            int perSwitch = args.length > 2 ? Integer.parseInt(args[2]) : 8;
            run("topo-" + gpus + ".xml", topology(gpus, perSwitch));
        } else if (args.length == 2 && args[0].equals("yaml")) {
            run("big-scalar.yaml", scalarYaml(Integer.parseInt(args[1])));
        } else {
            System.err.println("usage: HostileInputBench topo GPUS [GPUS_PER_SWITCH] | yaml MIB");
            System.exit(2);
        }
    }

    private static void run(String name, byte[] data) {
        List<ImportSource> sources = List.of(new ImportSource(name, data.length, () -> new ByteArrayInputStream(data), true));
        System.gc();
        long t0 = System.nanoTime();
        ImportResult r = new FabricImporter().importSources(sources, new ArrayList<>(), ImportProgress.NONE,
                Cancellation.NEVER);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        FabricModel m = r.model();
        StringBuilder what = new StringBuilder();
        for (HostTopology t : m.hostTopologies().values()) {
            what.append(t.gpus().size()).append(" GPUs, ").append(t.nets().size()).append(" nets");
            if (t.affinity() != null && !t.gpus().isEmpty() && !t.nets().isEmpty()) {
                what.append(", GPU0 nearest net ").append(t.affinity().nearestNet(t.gpus().get(0)).name());
            }
        }
        if (!m.pods().isEmpty()) {
            what.append(m.pods().size()).append(" pod(s)");
        }
        System.out.printf(Locale.ROOT, "%s: %,d bytes in %,d ms, peak heap %,d MiB; %s; %d diagnostic(s)%n", name,
                data.length, ms, peakHeapMiB(), what, m.diagnostics().size());
    }

    private static long peakHeapMiB() {
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        return peak >> 20;
    }

    /**
     * One host: two CPUs, PCIe switches of {@code perSwitch} GPUs and one NIC each (net mlx5_N), in
     * NCCL's dump format. 10,000 GPUs come to about 1.4 MB.
     */
    static byte[] topology(int gpus, int perSwitch) {
        StringBuilder sb = new StringBuilder("<system version=\"1\">\n");
        int switches = (gpus + perSwitch - 1) / perSwitch;
        int gpu = 0;
        int bus = 0;
        for (int cpu = 0; cpu < 2; cpu++) {
            sb.append("<cpu numaid=\"").append(cpu).append("\" affinity=\"ff\" arch=\"x86_64\" vendor=\"GenuineIntel\">\n");
            for (int s = cpu; s < switches; s += 2) {
                sb.append(String.format(Locale.ROOT, "<pci busid=\"%04x:%02x:00.0\" class=\"0x060400\" link_speed=\"32.0 GT/s PCIe\" link_width=\"16\">%n",
                        bus >> 8, bus & 0xff));
                bus++;
                for (int g = 0; g < perSwitch && gpu < gpus; g++, gpu++) {
                    sb.append(String.format(Locale.ROOT, "<pci busid=\"%04x:%02x:00.0\" class=\"0x030200\" link_width=\"16\">"
                            + "<gpu dev=\"%d\" sm=\"90\" rank=\"%d\" gdr=\"1\"/></pci>%n", bus >> 8, bus & 0xff, gpu, gpu));
                    bus++;
                }
                sb.append(String.format(Locale.ROOT, "<pci busid=\"%04x:%02x:00.0\" class=\"0x020000\" link_width=\"16\"><nic>"
                        + "<net name=\"mlx5_%d\" dev=\"%d\" speed=\"400000\" port=\"1\" gdr=\"1\"/></nic></pci>%n",
                        bus >> 8, bus & 0xff, s, s));
                bus++;
                sb.append("</pci>\n");
            }
            sb.append("</cpu>\n");
        }
        return sb.append("</system>\n").toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A Pod whose one annotation is a plain scalar of {@code mib} MiB on one line. */
    static byte[] scalarYaml(int mib) {
        String head = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\n  namespace: default\n  annotations:\n    big: ";
        String tail = "\nspec:\n  containers:\n  - name: main\n    image: busybox\n";
        StringBuilder sb = new StringBuilder(head.length() + (mib << 20) + tail.length());
        sb.append(head).append("x".repeat(mib << 20)).append(tail);
        return sb.toString().getBytes(StandardCharsets.UTF_8);
    }
}
