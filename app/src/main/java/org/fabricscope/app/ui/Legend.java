package org.fabricscope.app.ui;

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
        getStyleClass().add("legend");
    }

    /** {@code snapshot} may be null (nothing loaded); {@code job} is the picked training job, or null. */
    public void show(ColourMode mode, Snapshot snapshot, String job) {
        getChildren().clear();
        if (mode == ColourMode.ERRORS) {
            getChildren().addAll(swatch(Palette.OK, "within thresholds"), swatch(Palette.WARNING, "over threshold"),
                    swatch(Palette.DANGER, "far over (error)"), swatch(Palette.UNKNOWN, "no counters read"));
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
                getChildren().add(swatch(Palette.TRANSPORT[t.ordinal()], label));
            }
            getChildren().add(swatch(Palette.FAINT, "no ranks"));
            if (snapshot != null && snapshot.ranks().isEmpty()) {
                getChildren().add(new Label("(no NCCL logs loaded)"));
            }
        } else if (mode == ColourMode.KUBERNETES) {
            getChildren().addAll(swatch(Palette.JOB, job == null ? "runs training pods" : "runs " + job),
                    job == null ? new Label() : swatch(Palette.OTHER_JOB, "other jobs"), swatch(Palette.OK, "node Ready"),
                    swatch(Palette.DANGER, "NotReady / cordoned"), swatch(Palette.UNKNOWN, "readiness unknown"),
                    swatch(Palette.FAINT, "no Kubernetes node"));
        } else {
            Set<String> present = snapshot == null ? Set.of() : snapshot.summary().cablesBySpeed().keySet();
            for (var s : LinkSpeed.values()) {
                if (present.stream().anyMatch(token -> token.endsWith("x" + s.name()))) {
                    getChildren().add(swatch(Palette.SPEED[s.ordinal()], s.name()));
                }
            }
            getChildren().addAll(swatch(Palette.DEGRADED, "degraded (narrow/slow)"), swatch(Palette.UNKNOWN, "unknown rate"),
                    swatch(Palette.DANGER, "corner badge: a port lost its link"));
        }
    }

    private static Label swatch(int argb, String text) {
        Label l = new Label(text);
        Region box = new Region();
        box.setMinSize(14, 6);
        box.setStyle("-fx-background-color: " + Palette.css(argb) + ";");
        l.setGraphic(box);
        return l;
    }
}
