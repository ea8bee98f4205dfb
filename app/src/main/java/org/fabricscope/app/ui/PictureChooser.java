package org.fabricscope.app.ui;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;

import javafx.stage.FileChooser;
import javafx.stage.Window;

/** Asks where File › Export picture… writes: the save dialog in the app, a given path in tests. */
@FunctionalInterface
interface PictureChooser {
    /** The file to write, or null when the user cancelled; {@code suggestion}: a name, in a folder when one is known. */
    Path choose(Window owner, Path suggestion);

    /**
     * JavaFX's save dialog with a PNG and an SVG filter. A name that ends in neither extension gets
     * the one of the filter picked (save dialogs do not add it everywhere).
     */
    static PictureChooser saveDialog() {
        return (owner, suggestion) -> {
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
        };
    }
}
