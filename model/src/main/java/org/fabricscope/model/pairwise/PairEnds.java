package org.fabricscope.model.pairwise;

import java.util.List;
import java.util.Objects;

import org.fabricscope.model.core.Evidence;

/**
 * The two nodes a measurement ran between, how they were told ({@link How}), and the lines that say
 * so (the address lines and the fabric's or the host's line they matched, or the test's header).
 * {@code a} and {@code b} are host names, {@code a} the side that printed the output when known.
 */
public record PairEnds(String a, String b, How how, List<Evidence> evidence) {
    /** How the pair was told, most reliable first. */
    public enum How {
        /** Both LIDs of the address lines are host HCAs' in the loaded fabric (ibnetdiscover). */
        FABRIC_LID("LIDs in the loaded fabric"),
        /** Both LIDs are ports that a host's own ibstat, ibstatus or ibv_devinfo reported. */
        HOST_LID("LIDs in the hosts' ibstat"),
        /** Both GIDs end in port GUIDs of host HCAs in the loaded fabric (InfiniBand GID = subnet prefix + port GUID). */
        FABRIC_GID("GIDs' port GUIDs in the loaded fabric"),
        /** Both GIDs are IPv4-mapped and the addresses are the hosts' ({@code ip addr}) or in their GID tables. */
        HOST_GID("GIDs in the hosts' ip addr or GID tables"),
        /** The run's file name (or its folder's) names two hosts. */
        FILE_NAME("the file name"),
        /** An nccl-tests run's header places its ranks on exactly two hosts. */
        NCCL_TESTS_HEADER("the nccl-tests header's hosts");

        private final String label;

        How(String label) {
            this.label = label;
        }

        /** How it reads in a sentence: {@code identified by LIDs in the loaded fabric}. */
        public String label() {
            return label;
        }
    }

    public PairEnds {
        Objects.requireNonNull(a, "a");
        Objects.requireNonNull(b, "b");
        Objects.requireNonNull(how, "how");
        evidence = List.copyOf(evidence);
    }
}
