package org.fabricscope.model.flows;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;

import org.junit.jupiter.api.Test;

/**
 * A variable the evidence did not give: prose says what it stands for where that is known, and a command gets a shell
 * variable that refuses to run unset ({@code <hca>} in a shell is a redirection from a file named hca).
 */
class MissingVariablesTest {
    private static final String QUESTION = "is it index {{gid-index}} on {{hca}} port {{hca-port}} in pod {{pod}}?";
    private static final String COMMAND = "cat /sys/class/infiniband/{{hca}}/ports/{{hca-port}}/gids/{{gid-index}} # {{pod}}";

    @Test
    void proseNamesWhatAKnownVariableStandsFor() {
        assertEquals("is it index the GID index on the RDMA device, e.g. mlx5_0 port the port of the device, e.g. 1 in pod <pod>?",
                Templates.render(QUESTION, Map.of(), Map.of()));
    }

    @Test
    void aCommandGetsShellVariablesThatStopItUnset() {
        assertEquals("cat /sys/class/infiniband/${HCA:?set HCA to the RDMA device, e.g. mlx5_0}/ports/"
                        + "${HCA_PORT:?set HCA_PORT to the port of the device, e.g. 1}/gids/${GID_INDEX:?set GID_INDEX to the GID index}"
                        + " # ${POD:?set POD to a pod of the job}",
                Templates.renderCommand(COMMAND, Map.of(), Map.of(), Templates.Budget.unbounded()));
    }

    @Test
    void knownValuesAreFilledInBoth() {
        Map<String, String> vars = Map.of("hca", "mlx5_bond_0", "hca-port", "1", "gid-index", "3", "pod", "job-worker-0");
        assertEquals("cat /sys/class/infiniband/mlx5_bond_0/ports/1/gids/3 # job-worker-0",
                Templates.renderCommand(COMMAND, vars, Map.of(), Templates.Budget.unbounded()));
        assertEquals("is it index 3 on mlx5_bond_0 port 1 in pod job-worker-0?", Templates.render(QUESTION, vars, Map.of()));
    }
}
