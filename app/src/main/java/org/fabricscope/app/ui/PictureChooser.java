package org.fabricscope.app.ui;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

import javafx.scene.control.Alert;
import javafx.scene.control.ButtonBar;
import javafx.scene.control.ButtonType;
import javafx.stage.FileChooser;
import javafx.stage.Window;

/**
 * Asks what File › Export picture… draws and where it writes: a choice (the whole fabric or the view
 * as shown) and the save dialog in the app, a given path in tests.
 */
@FunctionalInterface
interface PictureChooser {
    /** What the picture shows. */
    enum Scope { WHOLE_FABRIC, AS_SHOWN }

    /** The file to write, or null when the user cancelled; {@code suggestion}: a name, in a folder when one is known. */
    Path choose(Window owner, Path suggestion);

    /** What to draw, or null when the user cancelled; the view as shown unless asked. */
    default Scope scope(Window owner) {
        return Scope.AS_SHOWN;
    }

    /**
     * A choice of the whole fabric or the view as shown, then JavaFX's save dialog with a PNG and an
     * SVG filter. A name that ends in neither extension gets the one of the filter picked (save
     * dialogs do not add it everywhere).
     */
    static PictureChooser saveDialog() {
        return new PictureChooser() {
            @Override
            public Scope scope(Window owner) {
                ButtonType whole = new ButtonType("Whole fabric", ButtonBar.ButtonData.YES);
                ButtonType shown = new ButtonType("View as shown", ButtonBar.ButtonData.NO);
                Alert a = new Alert(Alert.AlertType.CONFIRMATION, "The picture carries a title (the capture and its time), the "
                        + "legend and the names of the finding subjects in view.", whole, shown, ButtonType.CANCEL);
                a.initOwner(owner);
                a.setTitle("Export the map as a picture");
                a.setHeaderText("Export the whole fabric, or the view as it is shown now (its zoom, pan and filter)?");
                ButtonType picked = a.showAndWait().orElse(ButtonType.CANCEL);
                return picked == whole ? Scope.WHOLE_FABRIC : picked == shown ? Scope.AS_SHOWN : null;
            }

            @Override
            public Path choose(Window owner, Path suggestion) {
                return save(owner, suggestion);
            }
        };
    }

    private static Path save(Window owner, Path suggestion) {
        FileChooser fc = new FileChooser();
        fc.setTitle("Export the map as a picture");
        FileChooser.ExtensionFilter png = new FileChooser.ExtensionFilter("PNG image (*.png)", "*.png");
        FileChooser.ExtensionFilter svg = new FileChooser.ExtensionFilter("SVG drawing (*.svg)", "*.svg");
        fc.getExtensionFilters().addAll(png, svg);
        fc.setSelectedExtensionFilter(png);
        fc.setInitialFileName(suggestion.getFileName().toString());
        Path folder = suggestion.getParent();
        if (folder != null && Files.isDirectory(folder)) {
            fc.setInitialDirectory(folder.toFile());
        }
        File f = fc.showSaveDialog(owner);
        if (f == null) {
            return null;
        }
        Path p = f.toPath();
        if (ExportPictureViewModel.Format.of(p) == null) {
            String ext = fc.getSelectedExtensionFilter() == svg ? ".svg" : ".png";
            p = p.resolveSibling(p.getFileName() + ext);
        }
        return p;
    }
}
