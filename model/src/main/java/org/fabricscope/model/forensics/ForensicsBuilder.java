package org.fabricscope.model.forensics;

import java.util.ArrayList;
import java.util.List;

/** Collects what the forensics readers read; {@link #build()} freezes it. Not thread-safe. */
public final class ForensicsBuilder {
    private final List<FlightRecorderDump> flightRecorder = new ArrayList<>();
    private final List<RasStatus> ras = new ArrayList<>();
    private final List<NcclTestRun> ncclTests = new ArrayList<>();
    private final List<InspectorCommunicator> inspector = new ArrayList<>();
    private final List<PerftestRun> perftests = new ArrayList<>();

    public void flightRecorder(FlightRecorderDump dump) {
        flightRecorder.add(dump);
    }

    public void ras(RasStatus status) {
        ras.add(status);
    }

    public void ncclTest(NcclTestRun run) {
        ncclTests.add(run);
    }

    public void inspector(InspectorCommunicator comm) {
        inspector.add(comm);
    }

    public void perftest(PerftestRun run) {
        perftests.add(run);
    }

    public ForensicsLayer build() {
        return new ForensicsLayer(flightRecorder, ras, ncclTests, inspector, perftests);
    }
}
