package org.fabricscope.importers.lldp;

import org.fabricscope.model.core.Evidence;

import java.util.List;

/**
 * One node's LLDP neighbour table: the node it was captured on ({@code localNode}, empty when neither a
 * node marker nor the file's path named it) and the neighbours it lists.
 *
 * @param evidence where the table starts (its node marker, else the file's first line)
 */
public record LldpTable(String localNode, Evidence evidence, List<LldpNeighbour> neighbours) {
    public LldpTable {
        neighbours = List.copyOf(neighbours);
    }
}
