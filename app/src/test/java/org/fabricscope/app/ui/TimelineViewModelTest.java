package org.fabricscope.app.ui;

import static org.fabricscope.app.nav.Samples.RAIL;
import static org.fabricscope.app.nav.Samples.TRAINING;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.fabricscope.app.nav.Navigation;
import org.fabricscope.app.nav.Samples;
import org.fabricscope.app.task.CurrentThreadTaskExecutor;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.incident.reasoning.Incident;
import org.fabricscope.model.incident.reasoning.IncidentEvent;
import org.fabricscope.model.incident.SignatureCatalogue;
import org.fabricscope.model.ranks.RankSite;
import org.junit.jupiter.api.BeforeAll;
import org.fabricscope.app.task.HeldTaskExecutor;
import org.junit.jupiter.api.Test;

/** The Timeline tab's view model without a stage: the incident worked out in the background, the header, selection, keys. */
class TimelineViewModelTest {
    private static Analysis analysis;
    private final List<Navigation> shown = new ArrayList<>();

    @BeforeAll
    static void load() {
        analysis = Samples.analysis(RAIL, TRAINING);
    }

    private TimelineViewModel loaded() {
        TimelineViewModel vm = new TimelineViewModel(new CurrentThreadTaskExecutor(), shown::add);
        vm.show(analysis, TimelineSamples::incident);
        return vm;
    }

    @Test
    void theHeaderNamesTheRootCauseAndTheLanesTheirRanks() {
        TimelineViewModel vm = loaded();
        assertEquals("Root cause: rank 12 (gpt-train-worker-0 on dgx-su2-h07, GPU 4): IB completion error (status 12, retry"
                + " exceeded) at 23:14:05 [network-link]", vm.headerProperty().get());
        assertEquals("Timeline (4)", vm.titleProperty().get());
        assertEquals(List.of("dgx-su2-h07 (rank 12)", "dgx-su1-h05 (rank 0)"),
                vm.data().lanes().stream().map(TimelineData.Lane::label).toList());
        assertEquals(4, vm.events().size());
        assertEquals(1, vm.data().untimed().size(), "the pod phase has no time: the no-time column");
        assertTrue(vm.notes().contains("1 event carries no time"), vm.notes().toString());
        assertFalse(vm.busyProperty().get());
        assertTrue(shown.isEmpty(), "loading moves nothing on the map");
    }

    /** A time taken from an earlier line is shown as the lower bound it is, in the table and the hover text. */
    @Test
    void aTimeTakenFromAnEarlierLineIsShownAsALowerBound() {
        TimelineViewModel vm = loaded();
        IncidentEvent e = vm.events().get(0);
        assertEquals(e.stamp().clock(), TimelineViewModel.time(e));
        IncidentEvent inferred = new IncidentEvent(e.seq(), e.id(), e.title(), e.role(), e.causeClass(), e.severity(),
                e.stamp().asLowerBound(), e.who(), e.blamed(), e.fields(), e.remedies(), e.evidence(), e.origin());
        assertEquals("\u2265 " + e.stamp().clock(), TimelineViewModel.time(inferred));
        assertTrue(TimelineViewModel.tooltip(vm.data(), inferred).startsWith(e.stamp().iso() + " or later"),
                TimelineViewModel.tooltip(vm.data(), inferred));
        assertFalse(TimelineViewModel.tooltip(vm.data(), e).contains("or later"));
    }

    @Test
    void noRootCauseSaysNoFailureFound() {
        TimelineViewModel vm = new TimelineViewModel(new CurrentThreadTaskExecutor(), shown::add);
        vm.show(analysis, a -> Incident.NONE);
        assertTrue(vm.headerProperty().get().startsWith("No failure found"), vm.headerProperty().get());
        assertEquals("Timeline", vm.titleProperty().get());
        vm.move(1, 0); // nothing to move to
        assertNull(vm.selectedProperty().get());
    }

    @Test
    void selectingAnEventShowsItsRankOnTheMapAndOpeningItGivesItsLine() {
        TimelineViewModel vm = loaded();
        IncidentEvent root = vm.data().incident().rootCause();
        vm.select(root);
        assertSame(root, vm.selectedProperty().get());
        Navigation n = shown.get(shown.size() - 1);
        RankSite rank12 = n.ranks().get(0);
        assertEquals(12, rank12.rank().rank());
        assertEquals("gpt-train-worker-0", n.pods().get(0).name());
        assertEquals(List.of(rank12.hca()), n.vertices(), "the map marks rank 12's own HCA, not every HCA of its host");
        assertEquals("dgx-su2-h07", ((FabricNode) n.primary()).host().name());

        IncidentEvent timeout = vm.events().get(2);
        Evidence line = vm.open(timeout);
        assertSame(timeout, vm.selectedProperty().get(), "opening selects");
        assertEquals(timeout.evidence(), line);
        assertTrue(line.source().endsWith("gpt-train-master-0.log"), line.source());
        assertEquals(0, shown.get(shown.size() - 1).ranks().get(0).rank().rank());
        assertNull(vm.open(vm.events().get(3)), "the pod's phase cites no line");
    }

    @Test
    void theArrowsMoveInTimeAndBetweenLanes() {
        TimelineViewModel vm = loaded();
        List<IncidentEvent> e = vm.events();
        vm.move(1, 0);
        assertSame(vm.data().incident().rootCause(), vm.selectedProperty().get(), "the first key goes to the root cause");
        vm.move(1, 0);
        assertSame(e.get(1), vm.selectedProperty().get());
        vm.move(0, 1);
        assertSame(e.get(2), vm.selectedProperty().get(), "down: the next lane's event closest in time");
        vm.move(0, 1);
        assertSame(e.get(2), vm.selectedProperty().get(), "no lane below");
        vm.move(0, -1);
        assertSame(e.get(1), vm.selectedProperty().get());
        vm.moveToEnd(true);
        assertSame(e.get(3), vm.selectedProperty().get());
        vm.move(5, 0);
        assertSame(e.get(3), vm.selectedProperty().get(), "the last stays");
        vm.moveToEnd(false);
        assertSame(e.get(0), vm.selectedProperty().get());
        assertEquals(12, shown.get(shown.size() - 1).ranks().get(0).rank().rank(), "each move shows the event's party");
    }

    @Test
    void theTooltipHasTimeWhoWhatTheLineAndItsOrigin() {
        TimelineViewModel vm = loaded();
        String tip = TimelineViewModel.tooltip(vm.data(), vm.events().get(2));
        assertTrue(tip.startsWith("2026-11-21T23:24:06Z\nrank 0 (gpt-train-master-0 on dgx-su1-h05, GPU 0)\n"
                + "collective ALLREDUCE SeqNum 4812 timed out\n"), tip);
        assertTrue(tip.contains("follows: 23:14:05 rank 12"), tip);
        assertTrue(tip.contains("gpt-train-master-0.log:216\n  "), tip);
        assertTrue(tip.contains("Watchdog caught collective operation timeout"), tip);
        assertTrue(tip.endsWith("Origin: ProcessGroupNCCL.cpp"), tip);
        assertTrue(TimelineViewModel.tooltip(vm.data(), vm.events().get(0)).contains("ROOT CAUSE: IB completion error"));
    }

    @Test
    void theIncidentIsWorkedOutInTheBackgroundAndALaterLoadWins() {
        HeldTaskExecutor executor = new HeldTaskExecutor();
        TimelineViewModel vm = new TimelineViewModel(executor, shown::add);
        vm.show(analysis, a -> {
            throw new AssertionError("a load replaced before it ran is never reasoned over");
        });
        assertTrue(vm.busyProperty().get());
        assertTrue(vm.data().isEmpty(), "nothing until the work is done");
        vm.show(analysis, TimelineSamples::incident);
        assertEquals(2, executor.tasks.size());
        assertTrue(executor.tasks.get(0).isDone(), "the first load was cancelled");
        executor.tasks.get(0).run(Runnable::run);
        assertTrue(vm.busyProperty().get());
        executor.tasks.get(1).run(Runnable::run);
        assertFalse(vm.busyProperty().get());
        assertEquals(4, vm.events().size());

        vm.select(vm.events().get(2));
        vm.show(analysis, TimelineSamples::incident); // a live rebuild: the same line stays selected
        executor.tasks.get(2).run(Runnable::run);
        assertEquals(vm.events().get(2).evidence(), vm.selectedProperty().get().evidence());
    }

    @Test
    void theSamplesIncidentByTheCatalogue() {
        TimelineViewModel vm = new TimelineViewModel(new CurrentThreadTaskExecutor(), shown::add);
        vm.show(analysis);
        if (SignatureCatalogue.active().signatures().isEmpty()) {
            assertTrue(vm.headerProperty().get().startsWith("No failure found"), vm.headerProperty().get());
            assertTrue(vm.notes().stream().anyMatch(n -> n.startsWith("no failure signatures are loaded")), vm.notes().toString());
            return;
        }
        // the sample's story (its README): the failure starts at 23:14:05, ten minutes before the ranks' collective timeouts
        IncidentEvent root = vm.data().incident().rootCause();
        assertNotNull(root, vm.headerProperty().get());
        assertTrue(root.stamp().known() && root.stamp().millis() < java.time.Instant.parse("2026-11-21T23:24:06Z").toEpochMilli(),
                root.line());
        assertEquals(TimelineViewModel.header(vm.data().incident()), vm.headerProperty().get());
        assertTrue(vm.headerProperty().get().startsWith("Root cause: " + root.who().label() + ": " + root.title()),
                vm.headerProperty().get());
        assertTrue(vm.data().lanes().stream().map(TimelineData.Lane::name).toList().containsAll(List.of("dgx-su1-h05", "dgx-su2-h07")));
    }
}
