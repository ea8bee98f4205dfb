package org.fabricscope.app.ui;

import org.fabricscope.app.render.ColourMode;
import org.fabricscope.app.render.MapPalette;

import java.util.Set;

import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.training.Transport;

import javafx.geometry.Pos;
import javafx.scene.control.Label;
import javafx.scene.layout.HBox;
import javafx.scene.layout.Region;

/** The toolbar's key to the map colours of the current colour mode (moved here from MainView unchanged). */
public final class Legend extends HBox {
    public Legend() {
        super(10);
        setAlignment(Pos.CENTER_LEFT);
        getStyleClass().add(Styles.LEGEND);
    }

    /** {@code snapshot} may be null (nothing loaded); {@code job} is the picked training job, or null. */
    public void show(ColourMode mode, Snapshot snapshot, String job) {
        getChildren().clear();
        if (mode == ColourMode.ERRORS) {
            getChildren().addAll(swatch(UiPalette.current().ok(), "within thresholds"), swatch(UiPalette.current().warning(), "over threshold"),
                    swatch(UiPalette.current().danger(), "far over (error)"), swatch(UiPalette.current().unknown(), "no counters read"));
        } else if (mode == ColourMode.TRANSPORT) {
            for (Transport t : Transport.values()) {
                String label = switch (t) {
                    case P2P -> "NVLink/P2P";
                    case SHM -> "SHM";
                    case NET_IB_GDR -> "IB + GPUDirect RDMA";
                    case NET_IB -> "IB (no GDR)";
                    case NET_OTHER -> "other NET";
                    case NET_SOCKET -> "TCP socket";
                };
                getChildren().add(swatch(UiPalette.current().transport(t), label));
            }
            getChildren().add(swatch(UiPalette.current().faint(), "no ranks"));
            if (snapshot != null && snapshot.ranks().isEmpty()) {
                getChildren().add(new Label("(no NCCL logs loaded)"));
            }
        } else if (mode == ColourMode.KUBERNETES) {
            getChildren().addAll(swatch(UiPalette.current().job(), job == null ? "runs training pods" : "runs " + job),
                    job == null ? new Label() : swatch(UiPalette.current().otherJob(), "other jobs"), swatch(UiPalette.current().ok(), "node Ready"),
                    swatch(UiPalette.current().danger(), "NotReady / cordoned"), swatch(UiPalette.current().unknown(), "readiness unknown"),
                    swatch(UiPalette.current().faint(), "no Kubernetes node"));
        } else {
            Set<String> present = snapshot == null ? Set.of() : snapshot.summary().cablesBySpeed().keySet();
            for (var s : LinkSpeed.values()) {
                if (present.stream().anyMatch(token -> token.endsWith("x" + s.name()))) {
                    getChildren().add(swatch(UiPalette.current().speed(s), s.name()));
                }
            }
            getChildren().addAll(swatch(UiPalette.current().degraded(), "degraded (narrow/slow)"), swatch(UiPalette.current().unknown(), "unknown rate"),
                    swatch(UiPalette.current().danger(), "corner badge: a port lost its link"));
        }
    }

    private static Label swatch(int argb, String text) {
        Label l = new Label(text);
        Region box = new Region();
        box.setMinSize(14, 6);
        box.setStyle("-fx-background-color: " + MapPalette.css(argb) + ";");
        l.setGraphic(box);
        return l;
    }
}
