package org.fabricscope.app.ui;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.fabricscope.model.layout.JobLayout;
import org.fabricscope.model.training.Transport;

import javafx.geometry.Insets;
import javafx.scene.Group;
import javafx.scene.Node;
import javafx.scene.control.Label;
import javafx.scene.control.Tooltip;
import javafx.scene.input.MouseButton;
import javafx.scene.input.MouseEvent;
import javafx.scene.input.ScrollEvent;
import javafx.scene.layout.BorderPane;
import javafx.scene.layout.FlowPane;
import javafx.scene.layout.Pane;
import javafx.scene.layout.Region;
import javafx.scene.layout.VBox;
import javafx.scene.paint.Color;
import javafx.scene.shape.CubicCurve;
import javafx.scene.shape.Line;
import javafx.scene.shape.Rectangle;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.Text;

/**
 * The Job tab: the training job as {@link JobLayout} places it, drawn as shapes: a box per node, pod
 * and rank (GPU and NICs on its second line), a line per rank pair coloured by transport, the legend
 * above. Drag pans, the wheel zooms about the pointer, a double click fits. A selected finding's
 * subjects are marked as on the fabric map ({@code .map-highlight}); hover a box for its details.
 */
public final class JobView extends BorderPane {
    private java.util.function.IntConsumer onRank = r -> { };
    private static final double FIT_MARGIN = 20;
    private static final double MAX_FIT = 1.5;

    private final Label header = new Label();
    private final Pane viewport = new Pane();
    private final Group world = new Group();
    private final Group marks = new Group();
    private final Map<String, Node> drawn = new LinkedHashMap<>();
    private JobLayout layout = JobLayout.EMPTY;
    private Set<String> markedKeys = Set.of();
    private double dragX;
    private double dragY;
    private boolean fitted;
    /** Whether the user panned or zoomed since the last fit: a resize then keeps their view. */
    private boolean moved;

    public JobView() {
        getStyleClass().add("job-view");
        header.setWrapText(true);
        header.setId("jobHeader");
        FlowPane legend = new FlowPane(12, 4);
        for (Transport t : Transport.values()) {
            Line l = new Line(0, 0, 22, 0);
            style(l, t);
            Label name = new Label(JobViewModel.transportName(t), l);
            legend.getChildren().add(name);
        }
        VBox top = new VBox(4, header, legend);
        top.setPadding(new Insets(6, 8, 6, 8));
        setTop(top);
        viewport.getChildren().addAll(world);
        Rectangle clip = new Rectangle();
        clip.widthProperty().bind(viewport.widthProperty());
        clip.heightProperty().bind(viewport.heightProperty());
        viewport.setClip(clip);
        viewport.setMinSize(0, 0);
        setCenter(viewport);
        viewport.addEventHandler(MouseEvent.MOUSE_PRESSED, e -> {
            dragX = e.getX() - world.getTranslateX();
            dragY = e.getY() - world.getTranslateY();
        });
        viewport.addEventHandler(MouseEvent.MOUSE_DRAGGED, e -> {
            moved = true;
            world.setTranslateX(e.getX() - dragX);
            world.setTranslateY(e.getY() - dragY);
        });
        viewport.addEventHandler(MouseEvent.MOUSE_CLICKED, e -> {
            if (e.getButton() == MouseButton.PRIMARY && e.getClickCount() == 2) {
                fit();
            }
        });
        viewport.addEventHandler(ScrollEvent.SCROLL, e -> {
            moved = true;
            zoom(e.getDeltaY() > 0 ? 1.15 : 1 / 1.15, e.getX(), e.getY());
            e.consume();
        });
        viewport.layoutBoundsProperty().addListener((o, a, b) -> {
            if ((!fitted || !moved) && b.getWidth() > 0 && b.getHeight() > 0 && !layout.isEmpty()) {
                fit();
            }
        });
    }

    /** Follows the Job tab's state: a new layout is drawn and fitted, new marks re-marked. */
    void bind(JobViewModel vm) {
        header.textProperty().bind(vm.headerProperty());
        vm.layoutProperty().addListener((o, a, l) -> draw(l));
        vm.markedProperty().addListener((o, a, m) -> mark(m));
        draw(vm.layoutProperty().get());
    }

    private static Color colour(Transport t) {
        return switch (t) {
            case P2P -> Color.web("#2e7d32");
            case SHM -> Color.web("#00838f");
            case NET_IB_GDR -> Color.web("#1565c0");
            case NET_IB -> Color.web("#ef6c00");
            case NET_OTHER -> Color.web("#6a1b9a");
            case NET_SOCKET -> Color.web("#c62828");
        };
    }

    private static void style(javafx.scene.shape.Shape s, Transport t) {
        s.setStroke(colour(t));
        s.setStrokeWidth(t.isNetwork() ? 2.5 : 2);
        if (t == Transport.NET_SOCKET || t == Transport.NET_IB) {
            s.getStrokeDashArray().setAll(7.0, 4.0);
        }
    }

    /** What a click on a rank's box does: the window selects the rank's row in the Training tab. */
    public void setOnRank(java.util.function.IntConsumer onRank) {
        this.onRank = onRank == null ? r -> { } : onRank;
    }

    private void draw(JobLayout l) {
        layout = l;
        drawn.clear();
        world.getChildren().clear();
        Group boxes = new Group();
        Group ranks = new Group();
        Group edges = new Group();
        for (JobLayout.Box b : l.boxes()) {
            Node n = box(b);
            drawn.put(b.key(), n);
            (b.kind() == JobLayout.Kind.RANK ? ranks : boxes).getChildren().add(n);
        }
        for (JobLayout.Edge e : l.edges()) {
            JobLayout.Box a = l.box(e.fromKey());
            JobLayout.Box b = l.box(e.toKey());
            if (a == null || b == null) {
                continue;
            }
            edges.getChildren().add(edge(a, b, e));
        }
        edges.setMouseTransparent(true);
        world.getChildren().addAll(boxes, edges, ranks, marks);
        fitted = false;
        fit();
        mark(markedKeys);
    }

    private Node edge(JobLayout.Box a, JobLayout.Box b, JobLayout.Edge e) {
        double x1 = a.centerX();
        double y1 = a.centerY();
        double x2 = b.centerX();
        double y2 = b.centerY();
        // bend: ranks in one row arc above it, others curve gently, so lines between neighbours do not hide each other
        double bend = Math.abs(y1 - y2) < 1 ? -Math.min(60, Math.abs(x2 - x1) / 3) - 18 : 0;
        CubicCurve c = new CubicCurve(x1, y1, x1 + (x2 - x1) / 3, y1 + bend + (y2 - y1) / 3, x1 + 2 * (x2 - x1) / 3,
                y1 + bend + 2 * (y2 - y1) / 3, x2, y2);
        c.setFill(null);
        style(c, e.transport());
        c.setOpacity(0.75);
        c.getProperties().put("transport", e.transport());
        return c;
    }

    private Node box(JobLayout.Box b) {
        Rectangle r = new Rectangle(b.x(), b.y(), b.w(), b.h());
        r.setArcWidth(8);
        r.setArcHeight(8);
        Text title = new Text(b.x() + 8, b.y() + 17, b.label());
        Text line = new Text(b.x() + 8, b.y() + 34, b.line());
        switch (b.kind()) {
            case NODE -> {
                r.setFill(Color.web("#f3f5f8"));
                r.setStroke(Color.web("#8a94a6"));
                title.setFont(Font.font(null, FontWeight.BOLD, 13));
                line.setText("");
                Text kind = new Text(b.x() + 8 + title.getLayoutBounds().getWidth() + 8, b.y() + 17, b.line());
                kind.setFill(Color.web("#5b6475"));
                line = kind;
            }
            case POD -> {
                r.setFill(Color.web("#e6ecf5"));
                r.setStroke(Color.web("#9fb0c8"));
                title.setFont(Font.font(null, FontWeight.BOLD, 12));
                Text phase = new Text(b.x() + 8 + title.getLayoutBounds().getWidth() + 8, b.y() + 17, b.line());
                phase.setFill(Color.web("#5b6475"));
                line = phase;
            }
            default -> {
                r.setFill(Color.WHITE);
                r.setStroke(Color.web("#4a5568"));
                title.setFont(Font.font(null, FontWeight.BOLD, 12));
                line.setFont(Font.font(11));
            }
        }
        Rectangle textClip = new Rectangle(b.x(), b.y(), b.w() - 4, b.h());
        Group text = new Group(title, line);
        text.setClip(textClip);
        Group g = new Group(r, text);
        g.getStyleClass().add("job-" + b.kind().name().toLowerCase());
        g.getProperties().put("key", b.key());
        Tooltip.install(g, new Tooltip(b.detail()));
        if (b.kind() == JobLayout.Kind.RANK && b.key().startsWith("rank:")) {
            int rank = Integer.parseInt(b.key().substring("rank:".length()));
            g.setCursor(javafx.scene.Cursor.HAND);
            g.setOnMouseClicked(e -> {
                if (e.getButton() == javafx.scene.input.MouseButton.PRIMARY && e.getClickCount() == 1 && e.isStillSincePress()) {
                    onRank.accept(rank);
                    e.consume();
                }
            });
        }
        return g;
    }

    private void mark(Set<String> keys) {
        markedKeys = keys;
        marks.getChildren().clear();
        for (String k : keys) {
            JobLayout.Box b = layout.box(k);
            if (b == null) {
                continue;
            }
            Region r = new Region();
            r.getStyleClass().add("map-highlight");
            r.setStyle("-fx-border-width: 3;");
            r.setManaged(false); // a Group would size it to its preferred size (nothing)
            r.resizeRelocate(b.x() - 3, b.y() - 3, b.w() + 6, b.h() + 6);
            r.setMouseTransparent(true);
            marks.getChildren().add(r);
        }
        if (!keys.isEmpty() && !layout.isEmpty()) {
            reveal(layout.box(keys.iterator().next()));
        }
    }

    /** Pans so the box is in view, if it is not. */
    private void reveal(JobLayout.Box b) {
        if (b == null || viewport.getWidth() <= 0) {
            return;
        }
        double s = scale;
        double sx = b.centerX() * s + world.getTranslateX();
        double sy = b.centerY() * s + world.getTranslateY();
        if (sx < 0 || sy < 0 || sx > viewport.getWidth() || sy > viewport.getHeight()) {
            world.setTranslateX(viewport.getWidth() / 2 - b.centerX() * s);
            world.setTranslateY(viewport.getHeight() / 2 - b.centerY() * s);
        }
    }

    /** Scales the whole job into the view (up to 1.5:1, so a small job reads well) and centres it. */
    public void fit() {
        double w = viewport.getWidth();
        double h = viewport.getHeight();
        if (w <= 0 || h <= 0 || layout.isEmpty()) {
            return;
        }
        fitted = true;
        moved = false;
        double s = Math.min(MAX_FIT, Math.min((w - 2 * FIT_MARGIN) / layout.width(), (h - 2 * FIT_MARGIN) / layout.height()));
        s = Math.max(s, 0.05);
        world.getTransforms().setAll(new javafx.scene.transform.Scale(s, s, 0, 0));
        world.setTranslateX((w - layout.width() * s) / 2);
        world.setTranslateY(Math.max(FIT_MARGIN, (h - layout.height() * s) / 2));
        scale = s;
    }

    private double scale = 1;

    private void zoom(double factor, double atX, double atY) {
        double s = Math.max(0.05, Math.min(4, scale * factor));
        double f = s / scale;
        world.setTranslateX(atX - (atX - world.getTranslateX()) * f);
        world.setTranslateY(atY - (atY - world.getTranslateY()) * f);
        world.getTransforms().setAll(new javafx.scene.transform.Scale(s, s, 0, 0));
        scale = s;
    }

    // what tests read

    /** The drawn node of a box, by key ({@code rank:3}). */
    public Node drawn(String key) {
        return drawn.get(key);
    }

    /** The boxes marked now. */
    public Set<String> markedKeys() {
        return markedKeys;
    }

    /** The marks drawn (one per marked box in the layout). */
    public int markCount() {
        return marks.getChildren().size();
    }

    public JobLayout drawnLayout() {
        return layout;
    }

    /** Where a box's centre is on screen (tests hover it). */
    public javafx.geometry.Point2D centreOnScreen(String key) {
        JobLayout.Box b = layout.box(key);
        return b == null ? null : world.localToScreen(b.centerX(), b.centerY());
    }
}
