package org.fabricscope.app.ui;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.fabricscope.app.nav.Navigation;
import org.fabricscope.app.nav.Samples;
import org.fabricscope.app.task.CurrentThreadTaskExecutor;
import org.fabricscope.model.analysis.Analysis;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.pairwise.PairMatrix;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The Pairs tab's view model without a stage: the matrices worked out in the background, the header, the verdict, focus, keys, TSV. */
class PairMatrixViewModelTest {
    private static Analysis analysis;
    private final List<Navigation> shown = new ArrayList<>();

    @BeforeAll
    static void load() {
        analysis = PairSamples.analysis();
    }

    private PairMatrixViewModel loaded() {
        PairMatrixViewModel vm = new PairMatrixViewModel(new CurrentThreadTaskExecutor(), shown::add);
        vm.show(analysis);
        return vm;
    }

    @Test
    void theBiggestMatrixFirstWithItsVerdict() {
        PairMatrixViewModel vm = loaded();
        assertFalse(vm.busyProperty().get());
        assertEquals("Pairs (16)", vm.titleProperty().get());
        assertEquals(List.of("ib_write_bw", "all_reduce_perf"), vm.matrices().stream().map(PairMatrix::test).toList());
        assertTrue(vm.headerProperty().get().startsWith("ib_write_bw (perftest-bw, Gb/s): 5 nodes, 10 pairs: the highest BW average"),
                vm.headerProperty().get());
        assertEquals(List.of("gpu-node-03 is slow in all 4 of its pairs: 50% of the median of the 6 pairs without it (392 Gb/s)"),
                vm.verdict());
        assertTrue(vm.slowProperty().get());
        assertEquals("", vm.unplacedProperty().get());
        assertNull(vm.focusProperty().get());
    }

    @Test
    void theArrowsStartAtTheSlowNodeAndMoveOverTheGrid() {
        PairMatrixViewModel vm = loaded();
        vm.move(0, 1);
        assertEquals(new PairMatrixViewModel.At(0, 2), vm.focusProperty().get(), "the slow node's first pair");
        assertEquals("gpu-node-01 - gpu-node-03", vm.selectedProperty().get().label());
        vm.move(1, 0);
        assertEquals("gpu-node-02 - gpu-node-03", vm.selectedProperty().get().label());
        vm.move(0, -2);
        assertEquals(new PairMatrixViewModel.At(1, 0), vm.focusProperty().get());
        vm.move(0, 1);
        assertNull(vm.selectedProperty().get(), "the diagonal is no pair");
        vm.move(-9, -9);
        assertEquals(new PairMatrixViewModel.At(0, 0), vm.focusProperty().get(), "clamped to the grid");
        assertTrue(shown.isEmpty(), "no fabric is loaded: nothing to mark on the map");
    }

    @Test
    void openingAPairGivesItsResultLine() {
        PairMatrixViewModel vm = loaded();
        Evidence e = vm.open(new PairMatrixViewModel.At(2, 0));
        assertNotNull(e);
        assertTrue(e.source().endsWith("ib_write_bw_gpu-node-01_gpu-node-03.txt"), e.source());
        assertTrue(e.text().startsWith("32768") || e.line() > 20, e.toString());
        assertNull(vm.open(new PairMatrixViewModel.At(2, 2)), "the diagonal opens nothing");
    }

    @Test
    void anotherTestAndTheMatrixAsTsv() {
        PairMatrixViewModel vm = loaded();
        String tsv = vm.tsv();
        List<String> lines = tsv.lines().toList();
        assertEquals("ib_write_bw (Gb/s)\tgpu-node-01\tgpu-node-02\tgpu-node-03\tgpu-node-04\tgpu-node-05", lines.get(0));
        assertEquals("gpu-node-03\t196.3\t196.2\t\t195.9\t196.3", lines.get(3));
        vm.move(0, 1);
        vm.choose(vm.matrices().get(1));
        assertNull(vm.focusProperty().get(), "a new matrix, no focus");
        assertTrue(vm.headerProperty().get().startsWith("all_reduce_perf (nccl-tests-busbw, GB/s): 4 nodes, 6 pairs"));
        assertTrue(vm.tsv().startsWith("all_reduce_perf (GB/s)\tgpu-node-01"));
    }

    @Test
    void withoutPairwiseTestsItSaysWhatToOpen() {
        PairMatrixViewModel vm = new PairMatrixViewModel(new CurrentThreadTaskExecutor(), shown::add);
        assertEquals(PairMatrixViewModel.NOTHING_LOADED, vm.headerProperty().get());
        vm.show(Samples.analysis(Samples.RAIL));
        assertEquals(PairMatrixViewModel.NOTHING_LOADED, vm.headerProperty().get());
        assertEquals("Pairs", vm.titleProperty().get());
        assertTrue(vm.matrices().isEmpty());
        assertEquals("", vm.tsv());
        vm.move(1, 1);
        assertNull(vm.focusProperty().get());
    }
}
