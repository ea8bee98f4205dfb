package org.fabricscope.app.ui;

import org.fabricscope.app.render.ColourMode;

import java.io.File;
import java.nio.file.Path;
import java.util.List;

import org.fabricscope.app.common.Version;
import org.fabricscope.app.prefs.RecentFiles;

import javafx.application.Platform;
import javafx.fxml.FXML;
import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.stage.DirectoryChooser;
import javafx.stage.FileChooser;
import javafx.stage.Window;

/**
 * The main window's menus, declared with their accelerators in {@code MainMenu.fxml}. Each item calls
 * the {@link MainViewModel}, or does what only a view can: a file chooser, a dialog, moving the map.
 */
public final class MainMenu extends MenuBar {
    @FXML private javafx.scene.control.CheckMenuItem problemsOnly;
    @FXML private Menu openRecent;
    @FXML private MenuItem exportPicture;
    private MainViewModel vm;
    private FabricMapView map;
    private Runnable focusSearch;
    private Runnable showMapTab = () -> { };
    private Runnable showJobTab = () -> { };
    private Dialogs dialogs;
    private PictureChooser pictureChooser = PictureChooser.saveDialog();

    public MainMenu() {
        ViewLoader.load(this);
    }

    void bind(MainViewModel model, FabricMapView fabricMap, Runnable focusSearchField, Dialogs messages) {
        this.vm = model;
        this.map = fabricMap;
        this.focusSearch = focusSearchField;
        this.dialogs = messages;
        problemsOnly.selectedProperty().bindBidirectional(fabricMap.problemsOnlyProperty());
        exportPicture.disableProperty().bind(model.pictures().disabledProperty());
        model.recentFiles().addListener((javafx.collections.ListChangeListener<List<Path>>) c -> fillRecent());
        fillRecent();
    }

    /** What View › Fabric map and View › Job bring to the front (the centre's two tabs). */
    void bindCentre(Runnable showMap, Runnable showJob) {
        this.showMapTab = showMap;
        this.showJobTab = showJob;
    }

    /** File › Open Recent: one item per entry (names verbatim), then Clear; "(none)" when empty. */
    private void fillRecent() {
        openRecent.getItems().clear();
        int n = 0;
        for (List<Path> entry : vm.recentFiles()) {
            n++;
            MenuItem m = new MenuItem(RecentFiles.label(entry));
            m.setMnemonicParsing(false); // file names verbatim: mlx5_0, not mlx50
            m.setOnAction(e -> vm.open(entry, false, null));
            openRecent.getItems().add(m);
        }
        if (n == 0) {
            MenuItem none = new MenuItem("(no recent files)");
            none.setDisable(true);
            openRecent.getItems().add(none);
        }
        openRecent.getItems().add(new SeparatorMenuItem());
        MenuItem clear = new MenuItem("Clear recent files");
        clear.setDisable(n == 0);
        clear.setOnAction(e -> vm.clearRecentFiles());
        openRecent.getItems().add(clear);
    }

    /** The Open Recent menu (tests). */
    Menu openRecentMenu() {
        return openRecent;
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

    @FXML private void saveSession() {
        if (vm.snapshot() == null) {
            dialogs.info("Save session", "Load some inputs first: a session holds what is loaded.");
            return;
        }
        FileChooser fc = new FileChooser();
        fc.setTitle("Save session");
        fc.getExtensionFilters().add(new FileChooser.ExtensionFilter("FabricScope session", "*.fabricscope.json", "*.json"));
        fc.setInitialFileName("session.fabricscope.json");
        File file = fc.showSaveDialog(window());
        if (file != null) {
            new SessionActions(vm, vm.executor(), dialogs).saveSession(file.toPath(), map.problemsOnlyProperty().get());
        }
    }

    @FXML private void openSession() {
        FileChooser fc = new FileChooser();
        fc.setTitle("Open session");
        fc.getExtensionFilters().addAll(new FileChooser.ExtensionFilter("FabricScope session", "*.fabricscope.json", "*.json"),
                new FileChooser.ExtensionFilter("All files", "*"));
        File file = fc.showOpenDialog(window());
        if (file != null) {
            new SessionActions(vm, vm.executor(), dialogs).openSession(file.toPath(), map.problemsOnlyProperty()::set);
        }
    }

    /** Where File › Compare with capture… asks for the other capture (tests give paths instead of the dialog). */
    private java.util.function.Function<Window, List<Path>> captureChooser = MainMenu::chooseCapture;

    void setCaptureChooser(java.util.function.Function<Window, List<Path>> chooser) {
        this.captureChooser = chooser;
    }

    private static List<Path> chooseCapture(Window owner) {
        FileChooser fc = new FileChooser();
        fc.setTitle("Compare with capture: the other capture's files, bundle or session");
        fc.getExtensionFilters().addAll(new FileChooser.ExtensionFilter("Dumps, bundles and sessions", "*.txt", "*.log", "*.out",
                "*.tar.gz", "*.tgz", "*.tar", "*.zip", "*.gz", "*.json", "*"), new FileChooser.ExtensionFilter("All files", "*"));
        List<File> files = fc.showOpenMultipleDialog(owner);
        return files == null ? List.of() : files.stream().map(File::toPath).toList();
    }

    /** File › Compare with capture… (Ctrl+D): the other capture's files, then the comparison in the Compare tab. */
    @FXML void compareWithCapture() {
        if (vm.snapshot() == null) {
            dialogs.info("Compare with capture", "Load a capture first: the comparison is between the loaded one and another.");
            return;
        }
        List<Path> other = captureChooser.apply(window());
        if (other != null && !other.isEmpty()) {
            vm.tabs().selectedProperty().set(SideTabs.Tab.COMPARE);
            vm.compare().compareWith(other);
        }
    }

    /** The Compare tab's "with a folder": a folder of dumps as the other capture. */
    void compareWithFolder() {
        if (vm.snapshot() == null) {
            dialogs.info("Compare with capture", "Load a capture first: the comparison is between the loaded one and another.");
            return;
        }
        DirectoryChooser dc = new DirectoryChooser();
        dc.setTitle("Compare with a folder of dumps");
        File dir = dc.showDialog(window());
        if (dir != null) {
            vm.tabs().selectedProperty().set(SideTabs.Tab.COMPARE);
            vm.compare().compareWith(List.of(dir.toPath()));
        }
    }

    @FXML private void reload() {
        vm.reload();
    }

    @FXML private void connect() {
        ConnectDialog.ask(window(), vm.lastChoice(), vm.executor()).ifPresent(vm::connect);
    }

    @FXML private void connectPrometheus() {
        PromConnectDialog.ask(window(), vm.lastChoice()).ifPresent(vm::connect);
    }

    @FXML private void disconnect() {
        vm.disconnect();
    }

    @FXML private void watchFabric() {
        vm.watchFabric();
    }

    @FXML private void pauseLive() {
        vm.toggleLivePause();
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

    @FXML private void showMap() {
        showMapTab.run();
    }

    @FXML private void showJob() {
        showJobTab.run();
    }

    @FXML private void showFindings() {
        vm.tabs().selectedProperty().set(SideTabs.Tab.FINDINGS);
    }

    @FXML private void showTimeline() {
        vm.tabs().selectedProperty().set(SideTabs.Tab.TIMELINE);
    }

    @FXML private void showPairs() {
        vm.tabs().selectedProperty().set(SideTabs.Tab.PAIRS);
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

    /**
     * File › Export picture…: the whole fabric or the view as shown, where to, then the map in the
     * view's size (as shown: its zoom, pan and filter) to that file, with its title and legend.
     */
    @FXML private void exportPicture() {
        ExportPictureViewModel pictures = vm.pictures();
        if (pictures.disabledProperty().get()) {
            return;
        }
        PictureChooser.Scope scope = pictureChooser.scope(window());
        if (scope == null) {
            return;
        }
        Path file = pictureChooser.choose(window(), pictures.suggestedFile());
        if (file != null) {
            pictures.export(file, map.viewport(), map.problemsOnlyProperty().get(), scope == PictureChooser.Scope.WHOLE_FABRIC);
        }
    }

    /** Where File › Export picture… asks for its file (tests give a path instead of the save dialog). */
    void setPictureChooser(PictureChooser chooser) {
        this.pictureChooser = chooser;
    }

    /** The File › Export picture… item (tests). */
    MenuItem exportPictureItem() {
        return exportPicture;
    }

    @FXML private void showShortcuts() {
        dialogs.info("Keyboard shortcuts", shortcutsText());
    }

    /** F1's text: every menu accelerator with its item, then the shortcuts no menu holds ({@link Shortcuts}). */
    String shortcutsText() {
        return Shortcuts.text(this);
    }

    @FXML private void about() {
        dialogs.info("About FabricScope", "FabricScope " + Version.get() + "\nFabric topology visualizer and troubleshooting "
                + "assistant\nfor multi-node GPU training clusters.");
    }
}
