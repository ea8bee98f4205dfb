package org.fabricscope.app.ui;

import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import org.fabricscope.app.render.CablePicker;
import org.fabricscope.app.render.MapColouring;
import org.fabricscope.app.render.MapLabels;
import org.fabricscope.app.render.FitNames;
import org.fabricscope.app.render.MapOverview;
import org.fabricscope.app.render.MapPalette;
import org.fabricscope.app.render.MapRasterizer;
import org.fabricscope.app.render.Viewport;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.fabric.Host;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.layout.MapLayout;

import javafx.animation.PauseTransition;
import javafx.application.Platform;
import javafx.beans.property.BooleanProperty;
import javafx.beans.property.SimpleBooleanProperty;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.control.Tooltip;
import javafx.scene.image.PixelBuffer;
import javafx.scene.image.PixelFormat;
import javafx.scene.image.WritableImage;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.input.ScrollEvent;
import javafx.scene.layout.Region;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;
import javafx.util.Duration;

/**
 * The fabric map. Links and glyphs are rasterised off the FX thread into a pixel buffer
 * ({@link MapRasterizer}); while the user pans or zooms the last frame is moved and scaled, and a
 * new frame is rendered when the view settles. Zoomed out the frame is the overview (group boxes
 * and bundles, {@link MapOverview}), zoomed in every cable, cross-faded in between; problems are
 * drawn with a halo at every scale, and "problems only" leaves the healthy cables out. Labels
 * (group labels placed without overlap, names of what is in view), hover and selection are drawn
 * on top with the canvas; a minimap in the corner shows the whole fabric and the viewport, and a
 * click or drag in it moves the view there.
 */
public final class FabricMapView extends Region {
    private static final double MINIMAP_W = 220;
    private static final double MINIMAP_H = 110;
    private static final double MINIMAP_MARGIN = 10;

    private final Canvas canvas = new Canvas();
    private final Canvas minimap = new Canvas(MINIMAP_W, MINIMAP_H);
    private final BooleanProperty problemsOnly = new SimpleBooleanProperty(this, "problemsOnly");
    private final ExecutorService renderer = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "map-render");
        t.setDaemon(true);
        return t;
    });
    private final AtomicLong renderGeneration = new AtomicLong();
    private final PauseTransition settle = new PauseTransition(Duration.millis(60));
    private final Tooltip tooltip = new Tooltip();
    /** Overlay colours, from the stylesheet's palette (read on the FX thread the first time). */
    private final MapPalette palette = UiPalette.current();
    private final Color background = UiPalette.fx(palette.background());
    private final Color hint = UiPalette.fx(palette.hint());
    private final Color label = UiPalette.fx(palette.label());
    private final Color labelMuted = UiPalette.fx(palette.labelMuted());
    private final Color selection = UiPalette.fx(palette.selection());

    private MapLayout layout;
    private MapColouring colouring;
    /** The glyphs named at every zoom: those with a problem, and the ends of problem cables. */
    private java.util.BitSet subjects = new java.util.BitSet();
    private MapOverview overview;
    private WritableImage minimapFrame;
    /** The minimap's transform: world to minimap pixels. */
    private double miniScale;
    private double miniTx;
    private double miniTy;
    private List<MapLabels.Label> groupLabels = List.of();
    private List<MapLabels.Name> fitNames = List.of();
    private double scale = 1;
    private double tx;
    private double ty;
    private WritableImage frame;
    private double frameScale;
    private double frameTx;
    private double frameTy;
    private MapLayout.Item hover;
    private MapLayout.Item selected;
    private double dragX;
    private double dragY;
    private boolean dragged;
    private Consumer<Vertex> onSelect = v -> { };
    /** Cables: picked off the drawn links by {@link CablePicker}, built for a layout on the first pick. */
    private CablePicker cables;
    private CablePicker.Hit hoverCable;
    private Cable selectedCable;
    private MapLayout.Link selectedLink;
    private Consumer<Cable> onSelectCable = c -> { };
    private java.util.function.BiFunction<Cable, Integer, String> cableText = (c, n) -> c.toString();
    private long lastRenderNanos;

    public FabricMapView() {
        getStyleClass().add(Styles.FABRIC_MAP);
        getChildren().addAll(canvas, minimap);
        minimap.getStyleClass().add("minimap");
        minimap.setVisible(false);
        minimap.addEventHandler(MouseEvent.MOUSE_PRESSED, this::minimapPan);
        minimap.addEventHandler(MouseEvent.MOUSE_DRAGGED, this::minimapPan);
        minimap.addEventHandler(MouseEvent.MOUSE_RELEASED, MouseEvent::consume);
        minimap.addEventHandler(MouseEvent.MOUSE_MOVED, e -> {
            Tooltip.uninstall(this, tooltip);
            e.consume();
        });
        problemsOnly.addListener((o, a, b) -> {
            requestRender();
            renderMinimap();
        });
        setFocusTraversable(true);
        settle.setOnFinished(e -> requestRender());
        tooltip.setShowDelay(Duration.millis(250));
        addEventHandler(MouseEvent.MOUSE_PRESSED, this::pressed);
        addEventHandler(MouseEvent.MOUSE_DRAGGED, this::dragged);
        addEventHandler(MouseEvent.MOUSE_RELEASED, this::released);
        addEventHandler(MouseEvent.MOUSE_MOVED, this::moved);
        addEventHandler(MouseEvent.MOUSE_EXITED, e -> {
            if (hover != null || hoverCable != null) { // the pointer left the map: nothing under it is hovered any more
                hover = null;
                hoverCable = null;
                drawOverlay();
            }
        });
        addEventHandler(ScrollEvent.SCROLL, this::scrolled);
        widthProperty().addListener((o, a, b) -> viewChanged());
        heightProperty().addListener((o, a, b) -> viewChanged());
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
        frame = null;
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
        if (!minimap.isVisible() || miniScale <= 0) {
            return null;
        }
        double x0 = ((0 - tx) / scale) * miniScale + miniTx;
        double y0 = ((0 - ty) / scale) * miniScale + miniTy;
        double x1 = ((getWidth() - tx) / scale) * miniScale + miniTx;
        double y1 = ((getHeight() - ty) / scale) * miniScale + miniTy;
        return new double[] {x0, y0, x1 - x0, y1 - y0};
    }

    /** Moves the view by this many pixels, as a drag does (for the benchmark). */
    void panBy(double dx, double dy) {
        tx += dx;
        ty += dy;
        viewChanged();
    }

    /** The last rendered frame (what is moved and scaled while panning), for tests. */
    WritableImage frameImage() {
        return frame;
    }

    /** Whether the last rendered frame is of the view as it is now (not one being moved or scaled), for tests. */
    boolean frameIsCurrent() {
        return frame != null && frameScale == scale && frameTx == tx && frameTy == ty
                && frame.getWidth() == Math.ceil(getWidth()) && frame.getHeight() == Math.ceil(getHeight());
    }

    /** The minimap, for tests. */
    Canvas minimap() {
        return minimap;
    }

    public double scale() {
        return scale;
    }

    public long lastRenderMillis() {
        return lastRenderNanos / 1_000_000;
    }

    public void fit() {
        if (layout == null || getWidth() <= 0 || getHeight() <= 0) {
            requestRender();
            return;
        }
        Viewport v = Viewport.fit(layout, getWidth(), getHeight());
        scale = v.scale();
        tx = v.tx();
        ty = v.ty();
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
        return new Viewport((int) Math.ceil(getWidth()), (int) Math.ceil(getHeight()), scale, tx, ty);
    }

    public void zoom(double factor) {
        zoomAt(factor, getWidth() / 2, getHeight() / 2);
    }

    /** Zooms by a factor about a point of the view, as the wheel does. */
    void zoomAt(double factor, double sx, double sy) {
        double ns = Math.max(1e-4, Math.min(40, scale * factor));
        double f = ns / scale;
        tx = sx - (sx - tx) * f;
        ty = sy - (sy - ty) * f;
        scale = ns;
        viewChanged();
    }

    /** Selects and centres the item of this vertex; an HCA inside a collapsed host selects the host. */
    public boolean reveal(Vertex v) {
        if (layout == null) {
            return false;
        }
        MapLayout.Item it = layout.item(v);
        if (it == null && v instanceof FabricNode n && n.host() != null) {
            it = layout.item(n.host());
        }
        if (it == null) {
            return false;
        }
        selected = it;
        selectedCable = null;
        selectedLink = null;
        if (scale < 0.8) {
            scale = 1.2;
        }
        tx = getWidth() / 2 - it.x() * scale;
        ty = getHeight() / 2 - it.y() * scale;
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
            MapLayout.Item it = layout.item(v);
            if (it == null && v instanceof FabricNode n && n.host() != null) {
                it = layout.item(n.host());
            }
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
        double margin = 80;
        scale = Math.max(1e-4, Math.min(3, Math.min((getWidth() - 2 * margin) / Math.max(1, x1 - x0),
                (getHeight() - 2 * margin) / Math.max(1, y1 - y0))));
        tx = getWidth() / 2 - (x0 + x1) / 2 * scale;
        ty = getHeight() / 2 - (y0 + y1) / 2 * scale;
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
        if (scale < 0.8) {
            scale = 1.2;
        }
        double[] e = MapRasterizer.ends(k);
        tx = getWidth() / 2 - (e[0] + e[2]) / 2 * scale;
        ty = getHeight() / 2 - (e[1] + e[3]) / 2 * scale;
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
        return new double[] {(e[0] + e[2]) / 2 * scale + tx, (e[1] + e[3]) / 2 * scale + ty};
    }

    /** The cable under the pointer, or null (tests). */
    Cable hoveredCable() {
        return hoverCable == null ? null : hoverCable.cable();
    }

    /** The hover text shown now (tests). */
    public String tooltipText() {
        return tooltip.getText();
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
        return cables.pick((sx - tx) / scale, (sy - ty) / scale, 4 / scale);
    }

    @Override
    protected void layoutChildren() {
        canvas.setWidth(getWidth());
        canvas.setHeight(getHeight());
        minimap.relocate(getWidth() - MINIMAP_W - MINIMAP_MARGIN, getHeight() - MINIMAP_H - MINIMAP_MARGIN);
    }

    /** Renders the whole fabric, fitted, into the minimap (on the render thread). */
    private void renderMinimap() {
        if (overview == null || layout.items().isEmpty()) {
            minimapFrame = null;
            minimap.setVisible(false);
            return;
        }
        double w = layout.maxX() - layout.minX();
        double h = layout.maxY() - layout.minY();
        double ms = Math.min((MINIMAP_W - 8) / Math.max(1, w), (MINIMAP_H - 8) / Math.max(1, h));
        double mx = (MINIMAP_W - w * ms) / 2 - layout.minX() * ms;
        double my = (MINIMAP_H - h * ms) / 2 - layout.minY() * ms;
        MapOverview o = overview;
        boolean only = problemsOnly.get();
        renderer.submit(() -> {
            MapRasterizer r = MapRasterizer.render(o, (int) MINIMAP_W, (int) MINIMAP_H, ms, mx, my, only);
            Platform.runLater(() -> {
                if (overview != o) {
                    return;
                }
                PixelBuffer<IntBuffer> pb = new PixelBuffer<>((int) MINIMAP_W, (int) MINIMAP_H, IntBuffer.wrap(r.pixels()),
                        PixelFormat.getIntArgbPreInstance());
                minimapFrame = new WritableImage(pb);
                miniScale = ms;
                miniTx = mx;
                miniTy = my;
                drawMinimap();
            });
        });
    }

    private void drawMinimap() {
        GraphicsContext g = minimap.getGraphicsContext2D();
        g.clearRect(0, 0, MINIMAP_W, MINIMAP_H);
        // shown only while part of the fabric is out of view: at fit it would hide a corner of the map for nothing
        minimap.setVisible(minimapFrame != null && !wholeInView());
        if (minimapFrame == null) {
            return;
        }
        g.drawImage(minimapFrame, 0, 0);
        g.setStroke(labelMuted);
        g.setLineWidth(1);
        g.strokeRect(0.5, 0.5, MINIMAP_W - 1, MINIMAP_H - 1);
        double[] v = minimapViewport();
        if (v != null) {
            double x0 = Math.max(1, v[0]);
            double y0 = Math.max(1, v[1]);
            double x1 = Math.min(MINIMAP_W - 1, v[0] + v[2]);
            double y1 = Math.min(MINIMAP_H - 1, v[1] + v[3]);
            g.setFill(UiPalette.fx(palette.selection(), 0.12));
            g.fillRect(x0, y0, Math.max(2, x1 - x0), Math.max(2, y1 - y0));
            g.setStroke(selection);
            g.setLineWidth(1.5);
            g.strokeRect(x0, y0, Math.max(2, x1 - x0), Math.max(2, y1 - y0));
        }
    }

    /** Whether every glyph is inside the view (at fit, or zoomed out further). */
    private boolean wholeInView() {
        if (layout == null || scale <= 0) {
            return true;
        }
        return layout.minX() * scale + tx >= -1 && layout.maxX() * scale + tx <= getWidth() + 1
                && layout.minY() * scale + ty >= -1 && layout.maxY() * scale + ty <= getHeight() + 1;
    }

    /** A press or drag in the minimap centres the view on that point. */
    private void minimapPan(MouseEvent e) {
        e.consume();
        if (miniScale <= 0 || layout == null) {
            return;
        }
        double wx = (e.getX() - miniTx) / miniScale;
        double wy = (e.getY() - miniTy) / miniScale;
        tx = getWidth() / 2 - wx * scale;
        ty = getHeight() / 2 - wy * scale;
        viewChanged();
    }

    private void viewChanged() {
        drawOverlay();
        settle.playFromStart();
    }

    private void requestRender() {
        if (layout == null || colouring == null) {
            drawOverlay();
            return;
        }
        int w = (int) Math.max(1, Math.ceil(getWidth()));
        int h = (int) Math.max(1, Math.ceil(getHeight()));
        long gen = renderGeneration.incrementAndGet();
        MapOverview o = overview;
        boolean only = problemsOnly.get();
        double s = scale;
        double x = tx;
        double y = ty;
        renderer.submit(() -> {
            if (renderGeneration.get() != gen) {
                return;
            }
            long t0 = System.nanoTime();
            MapRasterizer r = MapRasterizer.render(o, w, h, s, x, y, only);
            long took = System.nanoTime() - t0;
            Platform.runLater(() -> {
                if (renderGeneration.get() != gen) {
                    return;
                }
                lastRenderNanos = took;
                IntBuffer buf = IntBuffer.wrap(r.pixels());
                PixelBuffer<IntBuffer> pb = new PixelBuffer<>(w, h, buf, PixelFormat.getIntArgbPreInstance());
                frame = new WritableImage(pb);
                frameScale = s;
                frameTx = x;
                frameTy = y;
                drawOverlay();
            });
        });
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
        if (frame != null) {
            double f = scale / frameScale;
            g.drawImage(frame, tx - frameTx * f, ty - frameTy * f, frame.getWidth() * f, frame.getHeight() * f);
        }
        drawMinimap();
        drawGroupLabels(g, w, h);
        // names of the glyphs big enough to read, in view
        g.setFont(Font.font(11));
        g.setTextBaseline(VPos.CENTER);
        g.setTextAlign(TextAlignment.CENTER);
        g.setFill(label);
        Viewport view = viewport();
        List<MapLabels.Name> names = view == null ? List.of() : MapLabels.names(layout, view);
        for (MapLabels.Name n : names) {
            g.fillText(n.text(), n.x(), n.y(), n.maxWidth());
        }
        // the devices with a problem, named at every zoom, clear of the other labels
        g.setFont(Font.font(null, javafx.scene.text.FontWeight.BOLD, 11));
        List<MapLabels.Name> subjectNames = view == null ? List.of()
                : org.fabricscope.app.render.SubjectNames.place(layout, subjects, groupLabels, names, view, 0, 0);
        for (MapLabels.Name n : subjectNames) {
            g.setFill(UiPalette.fx(palette.background(), 0.85));
            g.fillRoundRect(n.x() - n.maxWidth() / 2, n.y() - MapLabels.LINE / 2, n.maxWidth(), MapLabels.LINE, 6, 6);
            g.setFill(label);
            g.fillText(n.text(), n.x(), n.y());
        }
        // at fit, the other switches named where their names fit between their neighbours
        g.setFont(Font.font(11));
        fitNames = view == null ? List.of() : FitNames.place(layout, view, groupLabels, subjectNames);
        for (MapLabels.Name n : fitNames) {
            g.setFill(UiPalette.fx(palette.background(), 0.85));
            g.fillRect(n.x() - n.maxWidth() / 2, n.y() - MapLabels.LINE / 2, n.maxWidth(), MapLabels.LINE);
            g.setFill(labelMuted);
            g.fillText(n.text(), n.x(), n.y());
        }
        drawRowLabels(g);
        drawRanks(g);
        highlight(g, hover, labelMuted);
        highlight(g, selected, selection);
        if (hoverCable != null) {
            strokeCable(g, hoverCable.link(), hoverCable.linkIndex(), labelMuted);
        }
        if (selectedLink != null) {
            strokeCable(g, selectedLink, layout.links().indexOf(selectedLink), selection);
        }
        if (selected != null) {
            // the selection's cables: a halo under each, then the cable in its own colour
            int drawn = 0;
            List<MapLayout.Link> links = layout.links();
            for (int i = 0; i < links.size() && drawn < 2000; i++) {
                MapLayout.Link k = links.get(i);
                if (k.a() != selected && k.b() != selected) {
                    continue;
                }
                double[] e = MapRasterizer.ends(k);
                g.setGlobalAlpha(0.35);
                g.setStroke(selection);
                g.setLineWidth(6);
                g.strokeLine(e[0] * scale + tx, e[1] * scale + ty, e[2] * scale + tx, e[3] * scale + ty);
                g.setGlobalAlpha(1);
                g.setStroke(UiPalette.fx(colouring.linkColour(i)));
                g.setLineWidth(Math.max(1.5, colouring.linkThickness(i)));
                g.strokeLine(e[0] * scale + tx, e[1] * scale + ty, e[2] * scale + tx, e[3] * scale + ty);
                drawn++;
            }
        }
    }

    /** The overview's group labels, on a background band so bundles under them do not hide them. */
    private void drawGroupLabels(GraphicsContext g, double w, double h) {
        groupLabels = overview == null ? List.of() : MapLabels.place(overview, (int) w, (int) h, scale, tx, ty);
        if (groupLabels.isEmpty()) {
            return;
        }
        Font plain = Font.font(11);
        Font bold = Font.font(null, javafx.scene.text.FontWeight.BOLD, 11);
        g.setTextBaseline(VPos.CENTER);
        g.setTextAlign(TextAlignment.CENTER);
        for (MapLabels.Label l : groupLabels) {
            g.setFill(UiPalette.fx(palette.background(), 0.85));
            g.fillRect(l.x() - l.width() / 2, l.y() - MapLabels.LINE / 2, l.width(), MapLabels.LINE);
            g.setFont(l.bold() ? bold : plain);
            g.setFill(UiPalette.fx(l.argb()));
            g.fillText(l.text(), l.x(), l.y());
        }
    }

    /**
     * Transport mode: rank-range badges on the glyphs that hold ranks, and for a selected glyph
     * the fabric paths of its ranks' network pairs, HCA to HCA through the switches, in the
     * pair's transport colour.
     */
    private void drawRanks(GraphicsContext g) {
        if (colouring == null || colouring.ranks() == null || colouring.ranks().isEmpty()) {
            return;
        }
        g.setFont(Font.font(null, javafx.scene.text.FontWeight.BOLD, 10));
        g.setTextAlign(TextAlignment.CENTER);
        Viewport view = viewport();
        double bh = MapLabels.RankBadge.HEIGHT;
        for (MapLabels.RankBadge b : view == null ? List.<MapLabels.RankBadge>of() : MapLabels.rankBadges(layout, colouring, view)) {
            g.setFill(UiPalette.fx(palette.badge(), 0.9));
            g.fillRoundRect(b.x() - b.width() / 2, b.y() - bh / 2, b.width(), bh, 6, 6);
            g.setFill(UiPalette.fx(b.argb()));
            g.fillText(b.text(), b.x(), b.y());
        }
        if (selected == null) {
            return;
        }
        Vertex sel = selected.vertex();
        int drawn = 0;
        for (var r : colouring.ranks().routes()) {
            // only pairs that talk over InfiniBand are drawn along the fabric; sockets never cross it
            if (!r.routed() || !MapColouring.onFabric(r.transport()) || drawn > 400) {
                continue;
            }
            boolean mine = false;
            for (var s : new org.fabricscope.model.ranks.RankSite[] {r.a(), r.b()}) {
                mine |= sel == s.hca() || (sel instanceof org.fabricscope.model.fabric.Host host && host.name().equals(s.host()));
            }
            if (!mine && !r.path().contains(sel)) {
                continue;
            }
            List<double[]> pts = new java.util.ArrayList<>();
            for (Vertex v : r.path()) {
                MapLayout.Item it = layout.item(v);
                if (it == null && v instanceof org.fabricscope.model.fabric.FabricNode n && n.host() != null) {
                    it = layout.item(n.host()); // a collapsed host draws its HCAs
                }
                if (it != null) {
                    pts.add(new double[] {it.x() * scale + tx, it.y() * scale + ty});
                }
            }
            // a halo, then the pair's transport colour on top, so the path reads over the coloured cables
            for (int pass = 0; pass < 2; pass++) {
                g.setStroke(pass == 0 ? UiPalette.fx(palette.selection(), 0.45)
                        : UiPalette.fx(colouring.palette().transport(r.transport())));
                g.setLineWidth(pass == 0 ? 9 : 3.5);
                for (int i = 1; i < pts.size(); i++) {
                    g.strokeLine(pts.get(i - 1)[0], pts.get(i - 1)[1], pts.get(i)[0], pts.get(i)[1]);
                }
            }
            drawn++;
        }
    }

    /** A cable's line with a halo in {@code halo} under it, then the line in its own colour. */
    private void strokeCable(GraphicsContext g, MapLayout.Link k, int index, Color halo) {
        double[] e = MapRasterizer.ends(k);
        double x0 = e[0] * scale + tx;
        double y0 = e[1] * scale + ty;
        double x1 = e[2] * scale + tx;
        double y1 = e[3] * scale + ty;
        g.setGlobalAlpha(0.5);
        g.setStroke(halo);
        g.setLineWidth(8);
        g.strokeLine(x0, y0, x1, y1);
        g.setGlobalAlpha(1);
        g.setStroke(index >= 0 && colouring != null ? UiPalette.fx(colouring.linkColour(index)) : halo);
        g.setLineWidth(index >= 0 && colouring != null ? Math.max(2.5, colouring.linkThickness(index)) : 2.5);
        g.strokeLine(x0, y0, x1, y1);
    }

    private void drawRowLabels(GraphicsContext g) {
        Viewport view = viewport();
        if (view == null) {
            return;
        }
        g.setTextAlign(TextAlignment.LEFT);
        g.setFont(Font.font(null, javafx.scene.text.FontWeight.BOLD, 11));
        g.setFill(labelMuted);
        for (MapLabels.RowName r : MapLabels.rows(layout, view)) {
            if (r.onGlyphs()) {
                g.setFill(UiPalette.fx(palette.background(), 0.85));
                g.fillRect(r.x() - 3, r.y() - MapLabels.LINE / 2, MapLabels.width(r.text(), true), MapLabels.LINE);
                g.setFill(labelMuted);
            }
            g.fillText(r.text(), r.x(), r.y());
        }
    }

    private void highlight(GraphicsContext g, MapLayout.Item it, Color colour) {
        if (it == null) {
            return;
        }
        double iw = Math.max(6, it.width() * scale);
        double ih = Math.max(6, it.height() * scale);
        g.setStroke(colour);
        g.setLineWidth(2);
        g.strokeRect(it.x() * scale + tx - iw / 2 - 2, it.y() * scale + ty - ih / 2 - 2, iw + 4, ih + 4);
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
        double wx = (sx - tx) / scale;
        double wy = (sy - ty) / scale;
        double slack = 3 / scale;
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
        return it == null ? null : new double[] {it.x() * scale + tx, it.y() * scale + ty};
    }

    private void pressed(MouseEvent e) {
        requestFocus();
        dragX = e.getX();
        dragY = e.getY();
        dragged = false;
    }

    private void dragged(MouseEvent e) {
        double dx = e.getX() - dragX;
        double dy = e.getY() - dragY;
        if (Math.abs(dx) + Math.abs(dy) > 2) {
            dragged = true;
        }
        tx += dx;
        ty += dy;
        dragX = e.getX();
        dragY = e.getY();
        viewChanged();
    }

    private void released(MouseEvent e) {
        if (dragged || e.getButton() != MouseButton.PRIMARY) {
            return;
        }
        MapLayout.Item it = pick(e.getX(), e.getY());
        CablePicker.Hit hit = it == null ? pickCable(e.getX(), e.getY()) : null;
        selected = it;
        selectedCable = hit == null ? null : hit.cable();
        selectedLink = hit == null ? null : hit.link();
        drawOverlay();
        if (hit != null) {
            onSelectCable.accept(hit.cable());
        } else {
            onSelect.accept(it == null ? null : it.vertex());
        }
        if (e.getClickCount() == 2 && it != null) {
            zoomAt(2, e.getX(), e.getY());
        }
    }

    private void moved(MouseEvent e) {
        MapLayout.Item it = pick(e.getX(), e.getY());
        CablePicker.Hit hit = it == null ? pickCable(e.getX(), e.getY()) : null;
        Cable was = hoverCable == null ? null : hoverCable.cable();
        if (it != hover || (hit == null ? null : hit.cable()) != was) {
            hover = it;
            hoverCable = hit;
            drawOverlay();
            if (it == null && hit == null) {
                Tooltip.uninstall(this, tooltip);
            } else {
                tooltip.setText(it != null ? describe(it) : cableText.apply(hit.cable(), hit.link().cables().size()));
                Tooltip.install(this, tooltip);
            }
        }
    }

    private String describe(MapLayout.Item it) {
        StringBuilder sb = new StringBuilder();
        Vertex v = it.vertex();
        if (v instanceof FabricNode n) {
            sb.append(n.displayName());
            if (n.isSwitch()) {
                sb.append("\n").append(n.tier().label()).append(" switch");
                if (n.switchModel() != null) {
                    sb.append(" ").append(n.switchModel());
                }
                sb.append(", LID ").append(n.lid());
            } else {
                sb.append("\nHCA, LID ").append(n.lid());
            }
            sb.append("\nGUID ").append(org.fabricscope.model.core.Guids.format(n.guid()));
        } else if (v instanceof Host h) {
            sb.append(h.name()).append("\nhost, ").append(h.adapters().size()).append(" HCAs (collapsed)");
        }
        List<String> notes = new ArrayList<>();
        if (colouring != null && colouring.itemDownPorts(it.index()) > 0) {
            notes.add(colouring.itemDownPorts(it.index()) + " port(s) lost their link");
        }
        if (colouring != null && colouring.itemOffFabric(it.index()) != null) {
            notes.add("ranks talk over " + colouring.itemOffFabric(it.index()).label() + " (not over InfiniBand)");
        }
        int cables = 0;
        for (MapLayout.Link k : layout.links()) {
            if (k.a() == it || k.b() == it) {
                cables += k.cables().size();
            }
        }
        notes.add(cables + " cables");
        sb.append("\n").append(String.join(", ", notes)).append("\nClick to inspect, double-click to zoom");
        return sb.toString();
    }

    private void scrolled(ScrollEvent e) {
        if (e.getDeltaY() == 0) {
            return;
        }
        zoomAt(e.getDeltaY() > 0 ? 1.15 : 1 / 1.15, e.getX(), e.getY());
        e.consume();
    }

    public void dispose() {
        renderer.shutdownNow();
    }
}
