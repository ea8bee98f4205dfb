package org.fabricscope.model.fabric;

import java.util.Locale;

/** Active link width, as ibnetdiscover and iblinkinfo print it (1x 2x 4x 8x 12x). */
public enum LinkWidth {
    X1(1), X2(2), X4(4), X8(8), X12(12);

    private final int lanes;

    LinkWidth(int lanes) {
        this.lanes = lanes;
    }

    public int lanes() {
        return lanes;
    }

    public String token() {
        return lanes + "x";
    }

    /** Parses {@code 4x}, {@code 4X} or {@code 4}; null when it is none of the five widths. */
    public static LinkWidth parse(String s) {
        if (s == null) {
            return null;
        }
        String t = s.trim().toLowerCase(Locale.ROOT);
        if (t.endsWith("x")) {
            t = t.substring(0, t.length() - 1);
        }
        switch (t) {
            case "1": return X1;
            case "2": return X2;
            case "4": return X4;
            case "8": return X8;
            case "12": return X12;
            default: return null;
        }
    }
}
