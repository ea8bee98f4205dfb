package org.fabricscope.model.forensics;

import java.util.List;

/**
 * What hang forensics inputs said: flight recorder dumps, NCCL RAS reports, nccl-tests runs, NCCL
 * Inspector records (per communicator and rank) and perftest runs, in the order they were read. Made by {@link ForensicsBuilder#build()}; immutable.
 */
public final class ForensicsLayer {
    public static final ForensicsLayer EMPTY = new ForensicsBuilder().build();

    private final List<FlightRecorderDump> flightRecorder;
    private final List<RasStatus> ras;
    private final List<NcclTestRun> ncclTests;
    private final List<InspectorCommunicator> inspector;
    private final List<PerftestRun> perftests;

    ForensicsLayer(List<FlightRecorderDump> flightRecorder, List<RasStatus> ras, List<NcclTestRun> ncclTests,
                   List<InspectorCommunicator> inspector, List<PerftestRun> perftests) {
        this.flightRecorder = List.copyOf(flightRecorder);
        this.ras = List.copyOf(ras);
        this.ncclTests = List.copyOf(ncclTests);
        this.inspector = List.copyOf(inspector);
        this.perftests = List.copyOf(perftests);
    }

    public List<InspectorCommunicator> inspector() {
        return inspector;
    }

    public List<FlightRecorderDump> flightRecorder() {
        return flightRecorder;
    }

    public List<RasStatus> ras() {
        return ras;
    }

    public List<NcclTestRun> ncclTests() {
        return ncclTests;
    }

    /** perftest runs ({@code ib_write_bw}, {@code ib_send_lat}, ...), each side's output one run. */
    public List<PerftestRun> perftests() {
        return perftests;
    }

    public boolean isEmpty() {
        return flightRecorder.isEmpty() && ras.isEmpty() && ncclTests.isEmpty() && inspector.isEmpty() && perftests.isEmpty();
    }
}
