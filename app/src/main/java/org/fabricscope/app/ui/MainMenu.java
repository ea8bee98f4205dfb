package org.fabricscope.app.ui;

import org.fabricscope.app.render.ColourMode;

import java.io.File;
import java.util.List;

import org.fabricscope.app.common.Version;

import javafx.application.Platform;
import javafx.fxml.FXML;
import javafx.scene.control.MenuBar;
import javafx.stage.DirectoryChooser;
import javafx.stage.FileChooser;
import javafx.stage.Window;

/**
 * The main window's menus, declared with their accelerators in {@code MainMenu.fxml}. Each item calls
 * the {@link MainViewModel}, or does what only a view can: a file chooser, a dialog, moving the map.
 */
public final class MainMenu extends MenuBar {
    @FXML private javafx.scene.control.CheckMenuItem problemsOnly;
    private MainViewModel vm;
    private FabricMapView map;
    private Runnable focusSearch;
    private Dialogs dialogs;

    public MainMenu() {
        ViewLoader.load(this);
    }

    void bind(MainViewModel model, FabricMapView fabricMap, Runnable focusSearchField, Dialogs messages) {
        this.vm = model;
        this.map = fabricMap;
        this.focusSearch = focusSearchField;
        this.dialogs = messages;
        problemsOnly.selectedProperty().bindBidirectional(fabricMap.problemsOnlyProperty());
    }

    private Window window() {
        return getScene() == null ? null : getScene().getWindow();
    }

    @FXML private void openFiles() {
        chooseFiles(false);
    }

    @FXML private void addFiles() {
        chooseFiles(true);
    }

    private void chooseFiles(boolean add) {
        FileChooser fc = new FileChooser();
        fc.setTitle(add ? "Add dumps to this fabric" : "Open fabric dumps");
        fc.getExtensionFilters().addAll(new FileChooser.ExtensionFilter("Dumps and bundles", "*.txt", "*.log", "*.out",
                "*.tar.gz", "*.tgz", "*.tar", "*.zip", "*.gz", "*"), new FileChooser.ExtensionFilter("All files", "*"));
        List<File> files = fc.showOpenMultipleDialog(window());
        if (files != null && !files.isEmpty()) {
            vm.open(files.stream().map(File::toPath).toList(), add, null);
        }
    }

    @FXML private void openFolder() {
        DirectoryChooser dc = new DirectoryChooser();
        dc.setTitle("Open a folder of fabric dumps");
        File dir = dc.showDialog(window());
        if (dir != null) {
            vm.open(List.of(dir.toPath()), false, null);
        }
    }

    @FXML private void reload() {
        vm.reload();
    }

    @FXML private void connect() {
        ConnectDialog.ask(window(), vm.lastChoice(), vm.executor()).ifPresent(vm::connect);
    }

    @FXML private void disconnect() {
        vm.disconnect();
    }

    @FXML private void quit() {
        Platform.exit();
    }

    @FXML private void find() {
        focusSearch.run();
    }

    @FXML private void fit() {
        map.fit();
    }

    @FXML private void zoomIn() {
        map.zoom(1.5);
    }

    @FXML private void zoomOut() {
        map.zoom(1 / 1.5);
    }

    @FXML private void colourErrors() {
        vm.loader().colourModeProperty().set(ColourMode.ERRORS);
    }

    @FXML private void colourSpeed() {
        vm.loader().colourModeProperty().set(ColourMode.SPEED);
    }

    @FXML private void colourTransport() {
        vm.loader().colourModeProperty().set(ColourMode.TRANSPORT);
    }

    @FXML private void colourKubernetes() {
        vm.loader().colourModeProperty().set(ColourMode.KUBERNETES);
    }

    @FXML private void toggleAllHosts() {
        vm.loader().collapseAllProperty().set(!vm.loader().collapseAllProperty().get());
    }

    @FXML private void toggleSelectedHost() {
        vm.toggleHost(map.selection());
    }

    @FXML private void hostTopology() {
        vm.openHostOfSelection();
    }

    @FXML private void showFindings() {
        vm.tabs().selectedProperty().set(SideTabs.Tab.FINDINGS);
    }

    @FXML private void showTraining() {
        vm.tabs().selectedProperty().set(SideTabs.Tab.TRAINING);
    }

    @FXML private void showCluster() {
        vm.tabs().selectedProperty().set(SideTabs.Tab.KUBERNETES);
    }

    @FXML private void showLogs() {
        vm.tabs().selectedProperty().set(SideTabs.Tab.LOGS);
    }

    @FXML private void showTroubleshoot() {
        vm.troubleshoot(null);
    }

    @FXML private void whatsWrong() {
        vm.tabs().selectedProperty().set(SideTabs.Tab.TROUBLESHOOT);
        vm.troubleshoot().whatsWrong();
    }

    @FXML private void exportReport() {
        if (vm.snapshot() == null) {
            dialogs.info("Export incident report", "Load some inputs first: the report describes what is loaded.");
            return;
        }
        FileChooser fc = new FileChooser();
        fc.setTitle("Export incident report");
        fc.getExtensionFilters().addAll(new FileChooser.ExtensionFilter("HTML page (self-contained)", "*.html"),
                new FileChooser.ExtensionFilter("Markdown", "*.md"));
        fc.setInitialFileName("incident-report.html");
        File file = fc.showSaveDialog(window());
        if (file != null) {
            vm.exportReport(file.toPath(), MapPicture.png(map));
        }
    }

    @FXML private void showShortcuts() {
        dialogs.info("Keyboard shortcuts", String.join("\n",
                "Ctrl+O  open files          Ctrl+Shift+O  open folder",
                "Ctrl+Alt+O  add files to the loaded fabric      F5  reload",
                "Ctrl+F  find host, switch, GUID or LID (Enter to go)",
                "Ctrl+0  fit    Ctrl+=  zoom in    Ctrl+-  zoom out    Ctrl+P  problems only",
                "Minimap (bottom right): click or drag to move the view",
                "Mouse: drag to pan, wheel to zoom, click to inspect, double-click to zoom in",
                "Ctrl+1  colour by error counters    Ctrl+2  colour by speed/width",
                "Ctrl+H  collapse all hosts    Ctrl+Shift+H  collapse the selected host",
                "Ctrl+T  host topology (PCIe tree, GPU/NIC affinity, GPU to fabric) of the selected host",
                "Ctrl+Shift+F  findings: select one to mark all its subjects on the map and in their tabs",
                "Ctrl+Shift+T  troubleshoot: walk a flow (What's wrong?), answer manual steps by pasting output",
                "Ctrl+Shift+E  export an incident report (HTML or Markdown)",
                "Esc  cancel a running import"));
    }

    @FXML private void about() {
        dialogs.info("About FabricScope", "FabricScope " + Version.get() + "\nFabric topology visualizer and troubleshooting "
                + "assistant\nfor multi-node GPU training clusters.");
    }
}
