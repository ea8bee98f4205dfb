package org.fabricscope.model.bandwidth;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

import org.fabricscope.model.core.Evidence;

/**
 * What the GPUs of one host carry between them when only their model name is known (nccl-tests' device
 * lines, {@code nvidia-smi -L}): the NVLink rate of the SXM parts, which sit on boards whose NVSwitches join
 * every pair of GPUs at the GPU's full NVLink bandwidth. Rates are NVIDIA's datasheet figures (total NVLink
 * bandwidth, both directions) halved for one direction, as bus bandwidth is measured; links per GPU from
 * the same datasheets and NVIDIA's architecture documents. PCIe cards ("PCIe", "NVL": at most a bridge
 * between pairs), V100 (a hybrid cube mesh: pairs differ) and unknown names give no number.
 */
public final class GpuModels {
    /** One GPU family: name pattern, NVLink generation, links per GPU, GB/s per link and direction. */
    record Model(Pattern name, String label, String generation, int links, double gbPerLink, String datasheet) {
    }

    private static final List<Model> MODELS = List.of(
            model("\\bG?B300\\b", "B300", "NVLink5", 18, 50, "NVIDIA Blackwell Ultra datasheet: 1.8 TB/s NVLink"),
            model("\\bG?B200\\b", "B200", "NVLink5", 18, 50, "NVIDIA B200/GB200 datasheet: 1.8 TB/s NVLink"),
            model("\\bH200\\b", "H200 SXM", "NVLink4", 18, 25, "NVIDIA H200 datasheet: 900 GB/s NVLink"),
            model("\\bH100\\b", "H100 SXM", "NVLink4", 18, 25, "NVIDIA H100 datasheet: 900 GB/s NVLink (SXM5)"),
            model("\\bH20\\b", "H20", "NVLink4", 18, 25, "NVIDIA H20 product brief: 900 GB/s NVLink"),
            model("\\bH800\\b", "H800 SXM", "NVLink4", 8, 25, "NVIDIA H800 product brief: 400 GB/s NVLink"),
            model("\\bA100\\b", "A100 SXM4", "NVLink3", 12, 25, "NVIDIA A100 datasheet: 600 GB/s NVLink (SXM4)"),
            model("\\bA800\\b", "A800 SXM4", "NVLink3", 8, 25, "NVIDIA A800 product brief: 400 GB/s NVLink"));

    private static final Pattern NOT_SXM = Pattern.compile("PCIE|\\bNVL\\b|\\bV100\\b");

    private GpuModels() {
    }

    private static Model model(String regex, String label, String gen, int links, double gb, String datasheet) {
        return new Model(Pattern.compile(regex), label, gen, links, gb, datasheet);
    }

    /**
     * The NVLink bandwidth per direction between GPUs of this model name on one host, with where it comes from;
     * empty for PCIe parts and names not in the table.
     */
    public static Optional<BusBwExpectation> nvlinkByName(String gpuName, String host, String from, List<Evidence> evidence) {
        String n = gpuName == null ? "" : gpuName.toUpperCase(Locale.ROOT);
        if (n.isBlank() || NOT_SXM.matcher(n).find()) {
            return Optional.empty();
        }
        for (Model m : MODELS) {
            if (m.name().matcher(n).find()) {
                double gb = m.links() * m.gbPerLink();
                String src = String.format(Locale.ROOT, "%s x %d links x %s GB/s per direction of %s GPUs (%s, both "
                                + "directions; assuming the usual board with NVSwitches), from the GPU name \"%s\" in %s of "
                                + "host %s; no topology was loaded", m.generation(), m.links(),
                        BusBwExpectations.num(m.gbPerLink()), m.label(), m.datasheet(), gpuName.trim(), from, host);
                return Optional.of(new BusBwExpectation(gb, BusBwExpectation.Hop.NVLINK, src, List.of(host), evidence));
            }
        }
        return Optional.empty();
    }
}
