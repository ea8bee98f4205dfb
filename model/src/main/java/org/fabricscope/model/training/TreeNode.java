package org.fabricscope.model.training;

import java.util.List;

import org.fabricscope.model.core.Evidence;

/**
 * One rank's place in one tree of a channel: its parent {@code up} (-1 at the root) and its
 * children {@code down} (-1 entries dropped). Read from {@code Trees [0] 1/-1/-1->0->-1 ...}
 * (2.8+, {@code down0/down1/down2->rank->up}), the 2.7 double-tree form {@code ...->0->-1|-1->0->1/-1/-1}
 * ({@code tree} 0 and 1), and the per-channel {@code Tree 0 : up -> rank -> down0/down1/down2}.
 */
public record TreeNode(String commId, int channel, int tree, int rank, int up, List<Integer> down, Evidence evidence) {
    public TreeNode {
        down = List.copyOf(down);
    }

    public TreeNode withComm(String c) {
        return new TreeNode(c, channel, tree, rank, up, down, evidence);
    }
}
