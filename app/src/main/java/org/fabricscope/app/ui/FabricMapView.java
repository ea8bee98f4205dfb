package org.fabricscope.app.ui;

import java.util.List;
import java.util.function.Consumer;

import org.fabricscope.app.render.CablePicker;
import org.fabricscope.app.render.MapColouring;
import org.fabricscope.app.render.MapLabels;
import org.fabricscope.app.render.MapOverview;
import org.fabricscope.app.render.MapPalette;
import org.fabricscope.app.render.MapRasterizer;
import org.fabricscope.app.render.Viewport;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.layout.MapLayout;

import javafx.animation.PauseTransition;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.image.WritableImage;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.text.TextAlignment;
import javafx.util.Duration;

/**
 * The fabric map. Links and glyphs are rasterised off the FX thread into a pixel buffer
 * ({@link MapRasterizer}); while the user pans or zooms the last frame is moved and scaled, and a
 * new frame is rendered when the view settles. Zoomed out the frame is the overview (group boxes
 * and bundles, {@link MapOverview}), zoomed in every cable, cross-faded in between; problems are
 * drawn with a halo at every scale, and "problems only" leaves the healthy cables out. Labels
 * (group labels placed without overlap, names of what is in view), hover and selection are drawn
 * on top with the canvas ({@link MapTextPainter}, {@link MapSelectionPainter}); a minimap in the corner
 * ({@link MapMinimap}) shows the whole fabric and the viewport while part of it is out of view. The view's zoom and pan
 * are a {@link MapCamera}; the mouse gestures are {@link MapPointer}'s.
 */
public final class FabricMapView extends Region {
    private final Canvas canvas = new Canvas();
    private final BooleanProperty problemsOnly = new SimpleBooleanProperty(this, "problemsOnly");
    private final MapFrames frames = new MapFrames();
    private final PauseTransition settle = new PauseTransition(Duration.millis(60));
    private final MapPointer pointer = new MapPointer();
    /** Overlay colours, from the stylesheet's palette (read on the FX thread the first time). */
    private final MapPalette palette = UiPalette.current();
    private final Color background = UiPalette.fx(palette.background());
    private final Color hint = UiPalette.fx(palette.hint());
    private final MapMinimap minimap = new MapMinimap(palette);
    private final MapTextPainter text = new MapTextPainter(palette);
    private final MapSelectionPainter marks = new MapSelectionPainter(palette);

    private MapLayout layout;
    private MapColouring colouring;
    /** The glyphs named at every zoom: those with a problem, and the ends of problem cables. */
    private java.util.BitSet subjects = new java.util.BitSet();
    private MapOverview overview;
    private List<MapLabels.Label> groupLabels = List.of();
    private List<MapLabels.Name> fitNames = List.of();
    private final MapCamera cam = new MapCamera();
    private MapLayout.Item hover;
    private MapLayout.Item selected;
    private Consumer<Vertex> onSelect = v -> { };
    /** Cables: picked off the drawn links by {@link CablePicker}, built for a layout on the first pick. */
    private CablePicker cables;
    private CablePicker.Hit hoverCable;
    private Cable selectedCable;
    private MapLayout.Link selectedLink;
    private Consumer<Cable> onSelectCable = c -> { };
    private java.util.function.BiFunction<Cable, Integer, String> cableText = (c, n) -> c.toString();

    public FabricMapView() {
        getStyleClass().add(Styles.FABRIC_MAP);
        getChildren().addAll(canvas, minimap.canvas());
        problemsOnly.addListener((o, a, b) -> {
            requestRender();
            renderMinimap();
        });
        setFocusTraversable(true);
        settle.setOnFinished(e -> requestRender());
        pointer.attach(this, minimap.canvas());
        widthProperty().addListener((o, a, b) -> resized());
        heightProperty().addListener((o, a, b) -> resized());
    }

    /** A new size: a map still at fit is fitted again (the user has not zoomed or panned since), else kept as it is. */
    private void resized() {
        if (cam.atFit()) {
            fit();
        } else {
            viewChanged();
        }
    }

    public void setOnSelect(Consumer<Vertex> onSelect) {
        this.onSelect = onSelect;
    }

    /** What clicking a cable (or revealing one) does: the inspector's cable view. */
    public void setOnSelectCable(Consumer<Cable> onSelectCable) {
        this.onSelectCable = onSelectCable;
    }

    /** The hover text of a cable, given the cable and how many cables its line draws. */
    public void setCableText(java.util.function.BiFunction<Cable, Integer, String> cableText) {
        this.cableText = cableText;
    }

    /** Shows a new layout and colouring; both were computed off the FX thread. */
    public void show(MapLayout layout, MapColouring colouring, boolean fit) {
        this.layout = layout;
        this.colouring = colouring;
        this.overview = new MapOverview(layout, colouring);
        this.subjects = org.fabricscope.app.render.SubjectNames.subjects(layout, colouring);
        if (selected != null) {
            selected = layout.item(selected.vertex());
        }
        hover = null;
        hoverCable = null;
        cables = null;
        selectedLink = selectedCable == null ? null : linkOf(selectedCable);
        if (selectedLink == null) {
            selectedCable = null;
        }
        frames.clear();
        if (fit) {
            fit();
        }
        // new data is rendered at once (not after the settle pause of a pan), then the minimap
        settle.stop();
        requestRender();
        renderMinimap();
    }

    public MapLayout mapLayout() {
        return layout;
    }

    /** Draw only the cables that are problems (findings, errors, degraded) and the glyphs. */
    public BooleanProperty problemsOnlyProperty() {
        return problemsOnly;
    }

    /** The overview's group labels as last drawn (none when the map shows full detail). */
    public List<MapLabels.Label> groupLabels() {
        return groupLabels;
    }

    /** The switch names printed at fit where they have room, as last drawn (none once every switch is named). */
    public List<MapLabels.Name> fitNames() {
        return fitNames;
    }

    /** The overview of what is shown (the map's structure), or null before anything is loaded. */
    public MapOverview overview() {
        return overview;
    }

    /** The viewport as a rectangle in the minimap's pixels (x, y, width, height), or null when it is hidden. */
    public double[] minimapViewport() {
        return minimap.viewportRect(viewport());
    }

    /** Moves the view by this many pixels, as a drag does (for the benchmark). */
    void panBy(double dx, double dy) {
        cam.panBy(dx, dy);
        viewChanged();
    }

    /** The last rendered frame (what is moved and scaled while panning), for tests. */
    WritableImage frameImage() {
        return frames.image();
    }

    /** Whether the last rendered frame is of the view as it is now (not one being moved or scaled), for tests. */
    boolean frameIsCurrent() {
        return frames.isOf(viewport());
    }

    /** The minimap, for tests. */
    Canvas minimap() {
        return minimap.canvas();
    }

    public double scale() {
        return cam.scale();
    }

    public long lastRenderMillis() {
        return frames.lastRenderNanos() / 1_000_000;
    }

    public void fit() {
        if (layout == null || getWidth() <= 0 || getHeight() <= 0) {
            requestRender();
            return;
        }
        cam.fit(layout, getWidth(), getHeight());
        viewChanged();
    }

    /**
     * What the map shows now: its size in whole pixels (as a frame is rendered) and its zoom and pan;
     * null before it has a size. With the colouring and the problems-only filter, a picture of it
     * ({@code render.MapPicture}) draws what the user sees.
     */
    public Viewport viewport() {
        if (getWidth() < 1 || getHeight() < 1) {
            return null;
        }
        return cam.viewport(getWidth(), getHeight());
    }

    public void zoom(double factor) {
        zoomAt(factor, getWidth() / 2, getHeight() / 2);
    }

    /** Zooms by a factor about a point of the view, as the wheel does. */
    void zoomAt(double factor, double sx, double sy) {
        cam.zoomAt(factor, sx, sy);
        viewChanged();
    }

    /** The glyph that draws a vertex: its own, or for an HCA inside a collapsed host the host's; null when not drawn. */
    private MapLayout.Item itemOf(Vertex v) {
        MapLayout.Item it = layout.item(v);
        if (it == null && v instanceof FabricNode n && n.host() != null) {
            it = layout.item(n.host());
        }
        return it;
    }

    /** Selects and centres the item of this vertex; an HCA inside a collapsed host selects the host. */
    public boolean reveal(Vertex v) {
        if (layout == null) {
            return false;
        }
        MapLayout.Item it = itemOf(v);
        if (it == null) {
            return false;
        }
        selected = it;
        selectedCable = null;
        selectedLink = null;
        cam.centreOn(it.x(), it.y(), getWidth(), getHeight(), true);
        viewChanged();
        onSelect.accept(it.vertex());
        return true;
    }

    /**
     * Zooms to show every one of these vertices that is drawn (a host's HCAs found by search), at
     * most 3x, and selects the first of them; false when none is drawn.
     */
    public boolean frame(List<? extends Vertex> vertices) {
        MapLayout.Item first = null;
        double x0 = Double.MAX_VALUE;
        double y0 = Double.MAX_VALUE;
        double x1 = -Double.MAX_VALUE;
        double y1 = -Double.MAX_VALUE;
        for (Vertex v : layout == null ? List.<Vertex>of() : vertices) {
            MapLayout.Item it = itemOf(v);
            if (it != null) {
                first = first == null ? it : first;
                x0 = Math.min(x0, it.x() - it.width() / 2);
                y0 = Math.min(y0, it.y() - it.height() / 2);
                x1 = Math.max(x1, it.x() + it.width() / 2);
                y1 = Math.max(y1, it.y() + it.height() / 2);
            }
        }
        if (first == null) {
            return false;
        }
        cam.frame(x0, y0, x1, y1, getWidth(), getHeight());
        selected = first;
        selectedCable = null;
        selectedLink = null;
        viewChanged();
        onSelect.accept(first.vertex());
        return true;
    }

    public Vertex selection() {
        return selected == null ? null : selected.vertex();
    }

    /** The selected cable, or null. */
    public Cable selectedCable() {
        return selectedCable;
    }

    public void clearSelection() {
        selected = null;
        selectedCable = null;
        selectedLink = null;
        drawOverlay();
    }

    /** Selects a cable and centres its line; false when no drawn line carries it. */
    public boolean revealCable(Cable c) {
        MapLayout.Link k = layout == null || c == null ? null : linkOf(c);
        if (k == null) {
            return false;
        }
        selected = null;
        selectedCable = c;
        selectedLink = k;
        double[] e = MapRasterizer.ends(k);
        cam.centreOn((e[0] + e[2]) / 2, (e[1] + e[3]) / 2, getWidth(), getHeight(), true);
        viewChanged();
        onSelectCable.accept(c);
        return true;
    }

    /** Screen position of the middle of the line that draws a cable (tests, popups); null when not drawn. */
    public double[] cableScreenPosition(Cable c) {
        MapLayout.Link k = layout == null ? null : linkOf(c);
        if (k == null) {
            return null;
        }
        double[] e = MapRasterizer.ends(k);
        return new double[] {cam.screenX((e[0] + e[2]) / 2), cam.screenY((e[1] + e[3]) / 2)};
    }

    /** The cable under the pointer, or null (tests). */
    Cable hoveredCable() {
        return hoverCable == null ? null : hoverCable.cable();
    }

    /** The hover text shown now (tests). */
    public String tooltipText() {
        return pointer.tooltipText();
    }

    private MapLayout.Link linkOf(Cable c) {
        for (MapLayout.Link k : layout.links()) {
            if (k.cables().contains(c)) {
                return k;
            }
        }
        return null;
    }

    /** The cable under a screen point (within 4 px), or null; glyphs win over cables. */
    CablePicker.Hit pickCable(double sx, double sy) {
        if (layout == null) {
            return null;
        }
        if (cables == null || cables.layout() != layout) {
            cables = new CablePicker(layout);
        }
        return cables.pick(cam.worldX(sx), cam.worldY(sy), 4 / cam.scale());
    }

    @Override
    protected void layoutChildren() {
        canvas.setWidth(getWidth());
        canvas.setHeight(getHeight());
        minimap.canvas().relocate(getWidth() - MapMinimap.W - MapMinimap.MARGIN, getHeight() - MapMinimap.H - MapMinimap.MARGIN);
    }

    /** Renders the whole fabric, fitted, into the minimap (on the render thread). */
    private void renderMinimap() {
        minimap.render(layout, overview, problemsOnly.get(), frames.renderer(), () -> overview, this::drawMinimap);
    }

    private void drawMinimap() {
        minimap.draw(layout, viewport());
    }

    private void viewChanged() {
        drawOverlay();
        settle.playFromStart();
    }

    private void requestRender() {
        Viewport v = viewport();
        if (layout == null || colouring == null || v == null) {
            drawOverlay();
            return;
        }
        frames.request(overview, v, problemsOnly.get(), this::drawOverlay);
    }

    private void drawOverlay() {
        GraphicsContext g = canvas.getGraphicsContext2D();
        double w = canvas.getWidth();
        double h = canvas.getHeight();
        g.setFill(background);
        g.fillRect(0, 0, w, h);
        if (layout == null) {
            g.setFill(hint);
            g.setTextAlign(TextAlignment.CENTER);
            g.fillText("Open ibnetdiscover / iblinkinfo / perfquery dumps (Ctrl+O), or drop files here", w / 2, h / 2);
            return;
        }
        frames.draw(g, viewport());
        drawMinimap();
        MapTextPainter.Placed placed = text.paint(g, layout, overview, colouring, subjects, viewport());
        groupLabels = placed.groupLabels();
        fitNames = placed.fitNames();
        marks.paint(g, layout, colouring, viewport(), hover, selected, hoverCable == null ? null : hoverCable.link(),
                hoverCable == null ? -1 : hoverCable.linkIndex(), selectedLink);
    }

    /** An HCA's device name ({@code mlx5_0}), else the display name: what the map prints under a glyph. */
    static String shortName(Vertex v) {
        return MapLabels.shortName(v);
    }

    /** The topmost item under a screen point, or null. Glyphs are few per pixel, so a scan is fast enough. */
    MapLayout.Item pick(double sx, double sy) {
        if (layout == null) {
            return null;
        }
        double wx = cam.worldX(sx);
        double wy = cam.worldY(sy);
        double slack = 3 / cam.scale();
        MapLayout.Item best = null;
        for (MapLayout.Item it : layout.items()) {
            if (Math.abs(wx - it.x()) <= it.width() / 2 + slack && Math.abs(wy - it.y()) <= it.height() / 2 + slack) {
                best = it;
            }
        }
        return best;
    }

    /** Screen position of a vertex's glyph centre, for tests and for popups. */
    public double[] screenPosition(Vertex v) {
        MapLayout.Item it = layout == null ? null : layout.item(v);
        return it == null ? null : new double[] {cam.screenX(it.x()), cam.screenY(it.y())};
    }

    /** A click (not a drag) at a screen point: selects the glyph or cable there, or clears the selection. */
    void clickAt(double x, double y, int clicks) {
        MapLayout.Item it = pick(x, y);
        CablePicker.Hit hit = it == null ? pickCable(x, y) : null;
        selected = it;
        selectedCable = hit == null ? null : hit.cable();
        selectedLink = hit == null ? null : hit.link();
        drawOverlay();
        if (hit != null) {
            onSelectCable.accept(hit.cable());
        } else {
            onSelect.accept(it == null ? null : it.vertex());
        }
        if (clicks == 2 && it != null) {
            zoomAt(2, x, y);
        }
    }

    /** The pointer at a screen point (null: it left the map): what it is over, as hover text, or null for nothing. */
    String hoverAt(double x, double y, boolean inside) {
        MapLayout.Item it = inside ? pick(x, y) : null;
        CablePicker.Hit hit = inside && it == null ? pickCable(x, y) : null;
        Cable was = hoverCable == null ? null : hoverCable.cable();
        if (it != hover || (hit == null ? null : hit.cable()) != was) {
            hover = it;
            hoverCable = hit;
            drawOverlay();
        }
        return it != null ? MapTooltipText.describe(layout, colouring, it)
                : hit != null ? cableText.apply(hit.cable(), hit.link().cables().size()) : null;
    }

    /** A press or drag in the minimap at this point of it centres the view on the world point it shows. */
    void minimapPan(double x, double y) {
        double[] w = minimap.worldAt(x, y);
        if (w == null || layout == null) {
            return;
        }
        cam.centreOn(w[0], w[1], getWidth(), getHeight(), false);
        viewChanged();
    }

    public void dispose() {
        frames.dispose();
    }
}
