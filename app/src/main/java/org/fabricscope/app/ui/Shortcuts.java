package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.List;

import javafx.scene.control.Menu;
import javafx.scene.control.MenuBar;
import javafx.scene.control.MenuItem;

/**
 * Every keyboard shortcut, for Help › Keyboard shortcuts (F1): the menus' accelerators read from the
 * menu bar itself (so the list cannot miss one the menus have), then the few that no menu holds,
 * declared once here.
 */
final class Shortcuts {
    /** A key (or mouse gesture) and what it does. */
    record Shortcut(String keys, String action) {
    }

    /** The shortcuts no menu item carries. */
    static final List<Shortcut> OUTSIDE_MENUS = List.of(
            new Shortcut("Enter", "in the find field: go to the match, or list every match"),
            new Shortcut("Esc", "cancel a running import"),
            new Shortcut("Esc, Ctrl+W", "close a secondary window (host topology, file viewer)"),
            new Shortcut("Menu key, Shift+F10", "copy menu of the selected table or list row"),
            new Shortcut("Arrows, Home, End", "in the timeline: the next event in time (left, right), in the next lane (up, down),"
                    + " the first or last; Enter opens the selected event's line"),
            new Shortcut("Wheel, drag", "on the timeline's time axis: zoom, pan; double-click it to show every event again"),
            new Shortcut("Arrows, Enter, Ctrl+C", "in the pairs heat map: move between pairs (their hosts marked on the map), "
                    + "open the pair's result line, copy the matrix as tab-separated values"),
            new Shortcut("Mouse", "drag to pan, wheel to zoom, click to inspect, double-click to zoom in, "
                    + "right-click to copy a name, GUID or LID; hover or click a cable to see both ends"),
            new Shortcut("Minimap", "(bottom right of the map) click or drag to move the view there"));

    private Shortcuts() {
    }

    /** The menu items with an accelerator, in menu order: {@code Ctrl+O} → {@code File › Open files…}. */
    static List<Shortcut> fromMenus(MenuBar bar) {
        List<Shortcut> out = new ArrayList<>();
        for (Menu m : bar.getMenus()) {
            collect(m, plain(m.getText()), out);
        }
        return out;
    }

    private static void collect(Menu menu, String path, List<Shortcut> out) {
        for (MenuItem i : menu.getItems()) {
            if (i instanceof Menu sub) {
                collect(sub, path + " › " + plain(sub.getText()), out);
            } else if (i.getAccelerator() != null) {
                out.add(new Shortcut(i.getAccelerator().getDisplayText(), path + " › " + plain(i.getText())));
            }
        }
    }

    /** A menu text as the user reads it: the mnemonic marker dropped where the item parses one. */
    private static String plain(String text) {
        return text == null ? "" : text.replaceAll("_(?!_)", "").replace("__", "_");
    }

    /** F1's text: one shortcut a line, keys padded to a column. */
    static String text(MenuBar bar) {
        List<Shortcut> all = new ArrayList<>(fromMenus(bar));
        all.addAll(OUTSIDE_MENUS);
        int w = all.stream().mapToInt(s -> s.keys().length()).max().orElse(0);
        StringBuilder b = new StringBuilder();
        for (Shortcut s : all) {
            b.append(s.keys()).append(" ".repeat(w - s.keys().length() + 3)).append(s.action()).append('\n');
        }
        return b.toString().stripTrailing();
    }
}
