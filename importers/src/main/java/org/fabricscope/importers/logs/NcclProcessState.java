package org.fabricscope.importers.logs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.training.ChannelLink;
import org.fabricscope.model.training.Ring;
import org.fabricscope.model.training.RingNeighbor;
import org.fabricscope.model.training.TreeNode;

/**
 * What one process said before its ranks' lines could be placed: NCCL prints version, network
 * and env once per process, and up to 2.17 it prints a communicator's channels, rings and trees
 * before the {@code Init COMPLETE} line that names it (2.18+ opens with {@code Init START}).
 */
final class NcclProcessState {
    String version;
    List<String> netDevices = new ArrayList<>();
    String oob;
    String network;
    boolean noIbDevice;
    Map<String, String> env = new LinkedHashMap<>();
    String currentComm = "";
    int currentRank = -1;
    int nNodes = -1;
    /** Communicators completed so far per size, for the synthetic ids of versions that print no commId. */
    Map<Integer, Integer> commsOfSize = new HashMap<>();
    /** Whether this process prints Init START (2.18+): lines after it belong to the communicator it names. */
    boolean sawStart;
    /** Up to 2.17: lines waiting for the Init COMPLETE that names their communicator. */
    List<ChannelLink> pendingLinks = new ArrayList<>();
    List<Ring> pendingRings = new ArrayList<>();
    List<RingNeighbor> pendingSteps = new ArrayList<>();
    List<TreeNode> pendingTrees = new ArrayList<>();
    boolean pendingRingsConnected;
    boolean pendingTreesConnected;
    /** The source its last line came from. */
    String source;

    boolean placed() {
        return sawStart;
    }

    boolean hasPending() {
        return !pendingLinks.isEmpty() || !pendingRings.isEmpty() || !pendingSteps.isEmpty() || !pendingTrees.isEmpty()
                || pendingRingsConnected || pendingTreesConnected;
    }

    /** Whether the bracket in a channel line is a busId: NCCL up to 2.18 (decided by the bracket when the version is unknown). */
    boolean bracketIsBusId(String bracket) {
        if (version != null) {
            if (!version.equals(busIdVersion)) { // read once per version, not once per channel line
                busIdVersion = version;
                busIdByVersion = busIdByVersion(version);
            }
            if (busIdByVersion != null) {
                return busIdByVersion;
            }
        }
        if (bracket.length() >= 4) {
            return true;
        }
        for (int i = 0; i < bracket.length(); i++) {
            if (!Character.isDigit(bracket.charAt(i))) {
                return true;
            }
        }
        return false;
    }

    /** The version {@link #busIdByVersion} was read from. */
    private String busIdVersion;
    /** Whether a version up to 2.18 printed the brackets; null when the version does not say. */
    private Boolean busIdByVersion;

    private static Boolean busIdByVersion(String version) {
        int dot = version.indexOf('.');
        int dot2 = version.indexOf('.', dot + 1);
        try {
            int major = Integer.parseInt(version.substring(0, dot));
            int minor = Integer.parseInt(version.substring(dot + 1, dot2 < 0 ? version.length() : dot2));
            return major < 2 || (major == 2 && minor <= 18);
        } catch (RuntimeException e) {
            return null; // the bracket's look decides
        }
    }
}
