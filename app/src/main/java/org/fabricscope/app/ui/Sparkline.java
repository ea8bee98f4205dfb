package org.fabricscope.app.ui;

import java.util.List;

import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.paint.Color;

/**
 * A small line of a series of values over time, drawn on a canvas: the values scaled between their
 * minimum and maximum (a flat line when they never changed), x by time, the last point marked. For a
 * port's counter series in the inspector ({@link PortTrend}); any time series of numbers can use it.
 */
final class Sparkline extends Canvas {
    static final double WIDTH = 84;
    static final double HEIGHT = 16;

    Sparkline() {
        super(WIDTH, HEIGHT);
    }

    /** Draws {@code values} at {@code millis} (same length, time order); rising ones in {@code rising}, flat ones grey. */
    void draw(List<Long> millis, List<Long> values, Color rising) {
        GraphicsContext g = getGraphicsContext2D();
        g.clearRect(0, 0, getWidth(), getHeight());
        int n = Math.min(millis.size(), values.size());
        if (n < 2) {
            return;
        }
        double t0 = millis.get(0);
        double span = Math.max(1, millis.get(n - 1) - t0);
        double lo = Double.MAX_VALUE;
        double hi = -Double.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            double v = unsigned(values.get(i));
            lo = Math.min(lo, v);
            hi = Math.max(hi, v);
        }
        boolean flat = hi <= lo;
        double pad = 2;
        double w = getWidth() - 2 * pad;
        double h = getHeight() - 2 * pad;
        g.setStroke(flat ? Color.GRAY : rising);
        g.setLineWidth(1.2);
        g.beginPath();
        double x = 0;
        double y = 0;
        for (int i = 0; i < n; i++) {
            x = pad + w * (millis.get(i) - t0) / span;
            y = flat ? pad + h / 2 : pad + h - h * (unsigned(values.get(i)) - lo) / (hi - lo);
            if (i == 0) {
                g.moveTo(x, y);
            } else {
                g.lineTo(x, y);
            }
        }
        g.stroke();
        g.setFill(flat ? Color.GRAY : rising);
        g.fillOval(x - 2, y - 2, 4, 4);
    }

    private static double unsigned(long v) {
        return v >= 0 ? v : (double) (v >>> 1) * 2;
    }
}
