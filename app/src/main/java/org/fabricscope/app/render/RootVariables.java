package org.fabricscope.app.render;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The variables of a stylesheet's {@code .root} rule, read as text: enough of CSS to give code
 * without JavaFX (the CLI) the colours the desktop app gets from the same file. Understands
 * comments, rules with selector lists, and for colours {@code #rgb}, {@code #rrggbb},
 * {@code #rrggbbaa}, {@code rgb()}, {@code rgba()} and a reference to another variable. Anything
 * else (named colours, {@code derive()}, gradients) is refused with the variable's name: the map's
 * variables in app.css keep to those forms. No JavaFX here.
 */
final class RootVariables {
    private RootVariables() {
    }

    /** Name to raw value of every declaration in the {@code .root} rules, later ones winning. */
    static Map<String, String> parse(String css) {
        String text = stripComments(css);
        Map<String, String> vars = new LinkedHashMap<>();
        int at = 0;
        while (true) {
            int open = text.indexOf('{', at);
            if (open < 0) {
                break;
            }
            int close = text.indexOf('}', open);
            if (close < 0) {
                throw new IllegalArgumentException("unclosed rule: " + text.substring(at, open).strip());
            }
            String selectors = text.substring(at, open);
            if (isRoot(selectors)) {
                for (String decl : text.substring(open + 1, close).split(";")) {
                    int colon = decl.indexOf(':');
                    if (colon > 0) {
                        vars.put(decl.substring(0, colon).strip().toLowerCase(Locale.ROOT), decl.substring(colon + 1).strip());
                    }
                }
            }
            at = close + 1;
        }
        return vars;
    }

    /** The ARGB colour of one variable, following references to other variables. */
    static int colour(Map<String, String> vars, String name) {
        return colour(vars, name, new ArrayList<>());
    }

    private static int colour(Map<String, String> vars, String name, List<String> seen) {
        if (seen.contains(name)) {
            throw new IllegalArgumentException("app.css: " + name + " refers to itself through " + seen);
        }
        String value = vars.get(name);
        if (value == null) {
            throw new IllegalArgumentException("app.css: .root defines no " + name
                    + (seen.isEmpty() ? "" : " (needed by " + seen.get(0) + ")"));
        }
        seen.add(name);
        String v = value.toLowerCase(Locale.ROOT);
        if (v.startsWith("-")) {
            return colour(vars, v, seen);
        }
        try {
            if (v.startsWith("#")) {
                return hex(v.substring(1));
            }
            if (v.startsWith("rgb(") || v.startsWith("rgba(")) {
                return rgb(v.substring(v.indexOf('(') + 1, v.lastIndexOf(')')));
            }
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("app.css: " + name + ": cannot read '" + value + "'", e);
        }
        throw new IllegalArgumentException("app.css: " + name + ": '" + value
                + "' is not a colour the CLI reads (use #rrggbb, rgb(), rgba() or another -fs- variable)");
    }

    private static boolean isRoot(String selectors) {
        for (String s : selectors.split(",")) {
            if (s.strip().equals(".root")) {
                return true;
            }
        }
        return false;
    }

    private static String stripComments(String css) {
        StringBuilder b = new StringBuilder(css.length());
        int at = 0;
        while (true) {
            int start = css.indexOf("/*", at);
            if (start < 0) {
                return b.append(css, at, css.length()).toString();
            }
            b.append(css, at, start).append(' ');
            int end = css.indexOf("*/", start + 2);
            if (end < 0) {
                return b.toString();
            }
            at = end + 2;
        }
    }

    private static int hex(String h) {
        if (h.length() == 3) {
            h = "" + h.charAt(0) + h.charAt(0) + h.charAt(1) + h.charAt(1) + h.charAt(2) + h.charAt(2);
        }
        if (h.length() == 6) {
            return 0xFF000000 | Integer.parseInt(h, 16);
        }
        if (h.length() == 8) {
            long rgba = Long.parseLong(h, 16);
            return (int) ((rgba & 0xFF) << 24 | rgba >>> 8);
        }
        throw new IllegalArgumentException("#" + h + ": 3, 6 or 8 hex digits expected");
    }

    /** {@code r, g, b[, a]}: 0-255 or percentages, alpha 0-1. */
    private static int rgb(String args) {
        String[] p = args.split(",");
        if (p.length != 3 && p.length != 4) {
            throw new IllegalArgumentException("3 or 4 components expected");
        }
        int argb = p.length == 4 ? channel(Double.parseDouble(p[3].strip())) << 24 : 0xFF000000;
        for (int i = 0; i < 3; i++) {
            String c = p[i].strip();
            int v = c.endsWith("%") ? channel(Double.parseDouble(c.substring(0, c.length() - 1)) / 100)
                    : Math.max(0, Math.min(255, Integer.parseInt(c)));
            argb |= v << (16 - 8 * i);
        }
        return argb;
    }

    /** As JavaFX does it: the colour keeps a float per channel, read back here as 8 bits. */
    private static int channel(double unit) {
        return (int) Math.round((double) (float) Math.max(0, Math.min(1, unit)) * 255);
    }
}
