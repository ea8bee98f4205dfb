package org.fabricscope.app.render;

/** What link colours mean on the map. */
public enum ColourMode {
    ERRORS("Error counters"), SPEED("Speed / width"), TRANSPORT("Transport (training ranks)"),
    KUBERNETES("Kubernetes nodes and jobs");

    private final String label;

    ColourMode(String label) {
        this.label = label;
    }

    @Override
    public String toString() {
        return label;
    }
}
