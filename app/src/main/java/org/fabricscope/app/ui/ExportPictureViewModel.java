package org.fabricscope.app.ui;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.Locale;

import org.fabricscope.app.common.CaptureName;
import org.fabricscope.app.render.MapPicture;
import org.fabricscope.app.render.PictureCaption;
import org.fabricscope.app.render.PictureLegend;
import org.fabricscope.app.render.Viewport;
import org.fabricscope.app.task.BackgroundTask;
import org.fabricscope.app.task.TaskExecutor;

import javafx.beans.property.ReadOnlyBooleanProperty;
import javafx.beans.property.ReadOnlyBooleanWrapper;
import javafx.beans.property.ReadOnlyObjectProperty;
import javafx.beans.property.StringProperty;

/**
 * File › Export picture…: the map as the user sees it (the snapshot's colours, the view's size, zoom,
 * pan and problems-only filter) with a title band above it and the legend below, or the whole fabric
 * fitted into the view's size between the two; the title names the capture and its files' time, and
 * the finding subjects in view are named. Written as PNG or SVG by {@link MapPicture}, the renderer
 * of {@code fabricscope export -f png|svg}, off the UI thread. The file is written beside its target
 * and moved into place, so a failed export leaves no half-written picture; the outcome goes to the
 * status line, a failure also to a dialog. Disabled while nothing is loaded.
 */
public final class ExportPictureViewModel {
    /** The picture formats, by file extension. */
    public enum Format {
        PNG("png"), SVG("svg");

        private final String extension;

        Format(String extension) {
            this.extension = extension;
        }

        /** Without the dot: {@code png}. */
        public String extension() {
            return extension;
        }

        /** The format a file name asks for by its extension (any case), or null for neither. */
        public static Format of(Path file) {
            String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
            for (Format f : values()) {
                if (name.endsWith("." + f.extension)) {
                    return f;
                }
            }
            return null;
        }
    }

    private final TaskExecutor executor;
    private final ReadOnlyObjectProperty<Snapshot> snapshot;
    private final StringProperty status;
    private final Dialogs dialogs;
    private final ReadOnlyBooleanWrapper disabled = new ReadOnlyBooleanWrapper(true);
    private Path lastFolder;

    ExportPictureViewModel(TaskExecutor executor, ReadOnlyObjectProperty<Snapshot> snapshot, StringProperty status, Dialogs dialogs) {
        this.executor = executor;
        this.snapshot = snapshot;
        this.status = status;
        this.dialogs = dialogs;
        // nothing loaded, or a load without a fabric: an empty map is no picture
        disabled.bind(javafx.beans.binding.Bindings.createBooleanBinding(
                () -> snapshot.get() == null || snapshot.get().layout().items().isEmpty(), snapshot));
    }

    /** True while there is no map to draw: nothing loaded, or nothing on the map. */
    public ReadOnlyBooleanProperty disabledProperty() {
        return disabled.getReadOnlyProperty();
    }

    /** Where the save dialog starts: the last export's folder (none at first) and a name after the inputs and the colour mode. */
    public Path suggestedFile() {
        Snapshot s = snapshot.get();
        String base = "fabricscope-map";
        if (s != null && !s.paths().isEmpty()) {
            base = CaptureName.of(s.paths()).replaceFirst("\\.(tar\\.gz|tgz|tar\\.xz|tar|zip|txt|json|ya?ml|log|xml)$", "")
                    .replaceAll("[^A-Za-z0-9._+-]+", "-");
        }
        String mode = s == null ? "" : "-" + s.mode().name().toLowerCase(Locale.ROOT);
        Path name = Path.of(base + mode + ".png");
        return lastFolder == null ? name : lastFolder.resolve(name);
    }

    /**
     * Draws the loaded map through {@code view} and writes it to {@code file}, PNG or SVG by its
     * extension, in the background; {@code problemsOnly} as the map's filter is set (UI thread).
     */
    public void export(Path file, Viewport view, boolean problemsOnly) {
        export(file, view, problemsOnly, false);
    }

    /**
     * As {@link #export(Path, Viewport, boolean)}; {@code wholeFabric}: the whole fabric fitted into
     * the view's size instead of the view as shown. Either carries the title (the capture's name and
     * its files' time), the legend and the names of the finding subjects in view.
     */
    public void export(Path file, Viewport view, boolean problemsOnly, boolean wholeFabric) {
        Snapshot s = snapshot.get();
        Format format = Format.of(file);
        if (s == null) {
            status.set("Nothing to export: load some inputs first");
            return;
        }
        if (s.layout().items().isEmpty()) {
            status.set("Nothing exported: the map is empty");
            dialogs.error("Nothing to export", "The map is empty: the loaded inputs hold no fabric (load ibnetdiscover or "
                    + "iblinkinfo output). No picture was written.");
            return;
        }
        if (view == null) {
            status.set("The map has no size yet; nothing was exported");
            return;
        }
        if (format == null) {
            fail(file, "the name must end in .png or .svg, which says the picture's format");
            return;
        }
        Path target = file.toAbsolutePath().normalize();
        status.set("Exporting the map to " + target);
        executor.execute(BackgroundTask.of(ctx -> {
            PictureCaption caption = caption(s, wholeFabric);
            Viewport drawn = wholeFabric ? caption.fit(s.layout(), view.width(), view.height()) : caption.around(view);
            write(new MapPicture(s.layout(), s.colouring(), drawn, problemsOnly, caption), format, target);
            return drawn;
        }).onSuccess(d -> {
            lastFolder = target.getParent();
            status.set("Exported " + (wholeFabric ? "the whole fabric" : "the map as shown") + " (" + s.mode()
                    + (problemsOnly ? ", problems only" : "") + ", " + d.width() + " × " + d.height() + " px) to " + target);
        })
                .onFailure(e -> fail(target, reason(e))));
    }

    /** The picture's title and legend for this load (reads the files' times: background thread). */
    static PictureCaption caption(Snapshot s, boolean wholeFabric) {
        String title = PictureCaption.title(CaptureName.of(s.paths()), PictureCaption.filesTime(s.paths()).orElse(null), s.mode(),
                wholeFabric);
        return new PictureCaption(title, PictureLegend.of(s.mode(), s.colouring().palette(), s.summary().cablesBySpeed().keySet(),
                !s.ranks().isEmpty(), s.job()));
    }

    private void fail(Path file, String reason) {
        status.set("Could not export the map picture to " + file + ": " + reason);
        dialogs.error("Export picture failed", "Could not write " + file + ":\n" + reason);
    }

    /** Renders and writes the picture in place of the target (background thread). */
    private static void write(MapPicture picture, Format format, Path target) throws IOException {
        String refused = picture.tooLarge(format == Format.SVG);
        if (refused != null) {
            throw new IOException(refused + "; nothing written");
        }
        org.fabricscope.app.report.OutputFile.write(target, out -> { // whole or not at all; a device in place
            if (format == Format.PNG) {
                picture.writePng(out);
            } else {
                out.write(picture.svg().getBytes(StandardCharsets.UTF_8));
            }
        });
    }

    /** Why writing failed, in words (no exception class names, no stack). */
    static String reason(Throwable e) {
        if (e.getCause() instanceof java.io.IOException cause && cause != e) {
            return reason(cause); // the disk's own words under the PNG writer's "I/O error writing PNG file!"
        }
        if (e instanceof AccessDeniedException a) {
            return "permission denied (" + a.getFile() + ")";
        }
        if (e instanceof FileSystemException f && f.getReason() != null) {
            return f.getReason().toLowerCase(Locale.ROOT) + (f.getFile() == null ? "" : " (" + f.getFile() + ")");
        }
        if (e instanceof OutOfMemoryError) {
            return "not enough memory for a picture this size";
        }
        return e.getMessage() != null && !e.getMessage().isBlank() ? e.getMessage() : "an unexpected " + e.getClass().getSimpleName();
    }
}
