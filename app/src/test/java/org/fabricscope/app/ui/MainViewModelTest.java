package org.fabricscope.app.ui;

import org.fabricscope.app.render.ColourMode;

import static org.fabricscope.app.nav.Samples.K8S;
import static org.fabricscope.app.nav.Samples.RAIL;
import static org.fabricscope.app.nav.Samples.TRAINING;
import static org.fabricscope.app.nav.Samples.finding;
import static org.fabricscope.app.nav.Samples.paths;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.app.nav.Navigation;
import org.fabricscope.app.task.CurrentThreadTaskExecutor;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.app.live.kube.KubeTarget;
import org.fabricscope.model.core.Finding;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The main view model without a stage: loads, findings, navigation, search, redraws, live rebuilds. */
class MainViewModelTest {
    private final RecordingDialogs dialogs = new RecordingDialogs();
    private final MainViewModel vm = new MainViewModel(new CurrentThreadTaskExecutor(), dialogs);

    private Finding select(String id) {
        Finding f = finding(vm.findings().findings(), id);
        vm.findings().selectedProperty().set(f);
        return f;
    }

    @Test
    void loadingASampleShowsItsFindingsAndSummary() {
        vm.open(paths(RAIL), false, null);
        Snapshot s = vm.snapshot();
        assertNotNull(s);
        assertEquals(6, vm.findings().findings().size(), "the unplugged cable is one finding with its two ends");
        assertEquals("Findings (6)", vm.findings().titleProperty().get());
        assertEquals("24 switches (16 leaf, 8 spine) · 32 hosts (256 HCAs) · 511 cables (1 degraded) · 2 ports with errors · "
                + "6 findings (2 errors)", vm.statusProperty().get());
        assertEquals("FabricScope — rail-2su-hdr", vm.titleProperty().get());
        assertEquals("Import diagnostics (" + s.model().diagnostics().size() + ")", vm.tabs().diagnosticsTitleProperty().get());
        assertSame(s.analysis().findings(), s.findings(), "one analysis per load");
        assertEquals(List.of(), dialogs.shown);
        assertTrue(!vm.loader().busyProperty().get());
    }

    @Test
    void aFabricFindingGoesToItsPortsNodesAndCableOnTheMap() {
        vm.open(paths(RAIL), false, null);
        select("link-degraded");
        Navigation n = vm.navigationProperty().get();
        FabricNode hca = vm.snapshot().model().node(0xb8cef603010c001aL);
        assertEquals(List.of(hca, vm.snapshot().model().node(0x0c42a10300010106L)), n.vertices());
        assertEquals(1, n.cables().size());
        assertEquals(hca.port(1).cable(), n.primaryCable(), "the finding is about the cable");
        assertEquals(SideTabs.Tab.INSPECTOR, vm.tabs().selectedProperty().get());
        assertEquals(hca.port(1).cable(), vm.inspector().shownCable(), "the inspector's cable view");
        assertTrue(vm.inspector().titleProperty().get().startsWith("Cable 1xHDR: "), vm.inspector().titleProperty().get());
        assertEquals(3, vm.findings().subjects().size(), "its two ports and the cable");
        assertTrue(vm.findings().subjects().get(0).text().contains("map: " + hca.displayName()),
                vm.findings().subjects().get(0).text());
    }

    @Test
    void aHostFindingShowsTheHostAndPicksItsGpuInTheDrillDown() {
        vm.open(paths(RAIL), false, null);
        List<InspectorViewModel.HostFocus> opened = new ArrayList<>();
        vm.inspector().setOnOpenHost(opened::add);
        select("pcie-degraded");
        assertEquals(List.of(vm.snapshot().model().host("dgx-su2-h03")), vm.navigationProperty().get().vertices());
        assertEquals("dgx-su2-h03", vm.inspector().titleProperty().get());
        assertEquals("Host topology of dgx-su2-h03…", vm.inspector().hostButtonTextProperty().get());
        vm.openHostOfSelection();
        assertEquals(1, opened.size());
        assertEquals("0000:a0:00.0", opened.get(0).gpu().busId());
    }

    @Test
    void aTrainingFindingSelectsItsRanksInTheTrainingTab() {
        vm.open(paths(RAIL, TRAINING), false, null);
        vm.tabs().selectedProperty().set(SideTabs.Tab.FINDINGS);
        select("nccl-timeout");
        Navigation n = vm.navigationProperty().get();
        assertEquals(SideTabs.Tab.FINDINGS, vm.tabs().selectedProperty().get(), "the finding's detail stays in view");
        assertEquals(16, n.ranks().size());
        assertEquals(12, n.ranks().get(0).rank().rank(), "the laggard first");
        assertEquals(n.ranks().get(0).hca().displayName(), vm.inspector().titleProperty().get());
        assertEquals(16, vm.findings().subjects().size());
        assertTrue(!vm.findings().evidence().isEmpty());
        vm.findings().showSubject(vm.findings().subjects().get(0));
        assertEquals(SideTabs.Tab.TRAINING, vm.tabs().selectedProperty().get(), "a subject row goes to where it is shown");
    }

    @Test
    void aKubernetesFindingSelectsItsNodeAndPodRows() {
        vm.open(paths(RAIL, K8S), false, null);
        vm.tabs().selectedProperty().set(SideTabs.Tab.FINDINGS);
        select("rdma-resource-missing");
        assertEquals(SideTabs.Tab.FINDINGS, vm.tabs().selectedProperty().get(), "the finding's detail stays in view");
        assertEquals("dgx-su1-h04", vm.cluster().selectedNodesProperty().get().get(0).name());
        assertTrue(vm.cluster().selectedPodsProperty().get().stream().anyMatch(p -> p.name().equals("bert-ft-worker-0")));
        assertEquals(vm.snapshot().model().host("dgx-su1-h04"), vm.navigationProperty().get().primary());
        FindingsViewModel.SubjectRow pod = vm.findings().subjects().stream()
                .filter(r -> r.navigation().place() == Navigation.Place.KUBERNETES).findFirst().orElseThrow();
        vm.findings().showSubject(pod);
        assertEquals(SideTabs.Tab.KUBERNETES, vm.tabs().selectedProperty().get());
        vm.findings().selectedProperty().set(null);
        assertTrue(vm.findings().subjects().isEmpty());
    }

    @Test
    void searchFindsOneOrOffersSeveral() {
        vm.open(paths(RAIL), false, null);
        vm.search().textProperty().set("dgx-su1-h12");
        vm.search().search();
        Host h = vm.snapshot().model().host("dgx-su1-h12");
        Navigation n = vm.navigationProperty().get();
        assertEquals(8, n.vertices().size(), "the host lands as all its HCAs");
        assertTrue(h.adapters().containsAll(n.vertices()));
        assertEquals("dgx-su1-h12 mlx5_5", n.primary().displayName(), "the faulty one (its link trained at 1x) first");
        assertTrue(n.frame(), "the map zooms to them");
        assertEquals("Host dgx-su1-h12: 8 HCAs marked, dgx-su1-h12 mlx5_5 has a problem (shown first)",
                vm.statusProperty().get());
        assertEquals("9 matches", vm.search().countProperty().get());
        vm.search().textProperty().set("no-such-thing");
        vm.search().search();
        assertEquals("No match for \"no-such-thing\"", vm.statusProperty().get());
        assertEquals("No match", vm.search().countProperty().get());
        vm.search().textProperty().set("SU1-RAIL");
        vm.search().search();
        assertEquals(8, vm.search().choicesProperty().get().size(), "the eight SU1 leaves");
        assertEquals("8 matches for \"SU1-RAIL\"", vm.statusProperty().get());
        vm.search().textProperty().set("dgx-su2-h0"); // typing: the first matches are suggested with their count
        assertEquals(SearchViewModel.SUGGESTIONS, vm.search().suggestionsProperty().get().size());
        assertEquals("81 matches", vm.search().countProperty().get(), "9 hosts and their 72 HCAs");
        vm.search().textProperty().set("spine-0");
        assertEquals("8 matches", vm.search().countProperty().get());
        vm.search().choose(vm.search().suggestionsProperty().get().get(2));
        assertEquals("SPINE-03 (row C, rack C03)", vm.navigationProperty().get().primary().displayName());
        assertTrue(vm.search().suggestionsProperty().get().isEmpty(), "a pick closes the suggestions");
    }

    @Test
    void openingFindsWhatItWasAskedTo() {
        vm.open(paths(RAIL), false, "0x0c42a10300020004");
        assertEquals(vm.snapshot().model().node(0x0c42a10300020004L), vm.navigationProperty().get().primary());
    }

    @Test
    void redrawingKeepsTheAnalysisAndCollapsingDrawsHosts() {
        vm.open(paths(RAIL), false, null);
        Snapshot before = vm.snapshot();
        vm.loader().colourModeProperty().set(ColourMode.SPEED);
        assertEquals(ColourMode.SPEED, vm.snapshot().mode());
        assertSame(before.analysis(), vm.snapshot().analysis());
        vm.loader().collapseAllProperty().set(true);
        assertEquals(32, vm.snapshot().layout().items().stream().filter(i -> i.vertex() instanceof Host).count());
        assertEquals(before.summary().switches() + " switches", vm.statusProperty().get().substring(0, 11));
        vm.toggleHost(null);
        assertEquals("Select an HCA or host first", vm.statusProperty().get());
    }

    @Test
    void anUnreadableFileKeepsWhatWasLoaded(@TempDir Path dir) throws Exception {
        vm.open(paths(RAIL), false, null);
        Snapshot before = vm.snapshot();
        Path junk = dir.resolve("junk.bin");
        Files.write(junk, new byte[] {0, 1, 2, 3, 0, 0});
        vm.open(List.of(junk), false, null);
        assertSame(before, vm.snapshot());
        assertEquals(List.of("error: Nothing to import"), dialogs.shown);
        assertTrue(vm.statusProperty().get().startsWith("Nothing readable in"), vm.statusProperty().get());
    }

    @Test
    void aLiveRebuildIsSwappedInAndAFailedConnectionIsSaid() {
        MainViewModel live = new MainViewModel(new CurrentThreadTaskExecutor(), dialogs, (target, files, follow, listener) -> {
            throw new IllegalArgumentException("context \"nope\" is not in the kubeconfig");
        });
        live.connect(new ConnectDialogViewModel.Choice(KubeTarget.current().withContext("nope"), false));
        assertEquals("Not connected: context \"nope\" is not in the kubeconfig", live.statusProperty().get());
        assertEquals("Cannot connect: context \"nope\" is not in the kubeconfig", live.liveProblemProperty().get(),
                "the banner says why");
        assertEquals(List.of(), dialogs.shown, "no modal dialog on top of the banner");
        assertNull(live.liveJob());
        live.dismissLiveProblem();
        assertEquals("", live.liveProblemProperty().get());
        var result = new FabricImporter().importPaths(paths(RAIL), ImportProgress.NONE, Cancellation.NEVER);
        live.liveModel(List.of(), result);
        assertSame(result, live.snapshot().result());
        assertEquals(6, live.findings().findings().size());
    }
}
