package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.fabricscope.model.core.Guids;
import org.fabricscope.model.core.Vertex;
import org.fabricscope.model.fabric.FabricNode;

import javafx.scene.Node;
import javafx.scene.control.ContextMenu;
import javafx.scene.control.Control;
import javafx.scene.control.ListCell;
import javafx.scene.control.ListView;
import javafx.scene.control.MenuItem;
import javafx.scene.control.SeparatorMenuItem;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;
import javafx.scene.control.TableRow;
import javafx.scene.control.TableView;
import javafx.scene.input.Clipboard;
import javafx.scene.input.ClipboardContent;
import javafx.scene.input.ContextMenuEvent;
import javafx.scene.text.Text;

/**
 * Right-click Copy everywhere a name, GUID or LID is shown: on a map item (name, node GUID, system
 * image GUID, LID), on a table row (the clicked cell, each column's value, the whole row as
 * tab-separated text) and on a list row (its text). Also sizes table columns to their content, so a
 * Counters or leaf-port column is not cut off. Menu texts are shown verbatim ({@code mlx5_0}: no
 * mnemonic parsing).
 */
final class CopyMenus {
    /** How many rows are measured when sizing a column: enough for any screenful, cheap on the FX thread. */
    static final int MEASURED_ROWS = 500;

    private CopyMenus() {
    }

    /** What can be copied of a map item, by label: name, node GUID, system image GUID, LID. */
    static Map<String, String> of(Vertex v) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("name", v.displayName());
        if (v instanceof FabricNode n) {
            out.put("GUID", Guids.format(n.guid()));
            if (n.sysImgGuid() != 0 && n.sysImgGuid() != n.guid()) {
                out.put("system image GUID", Guids.format(n.sysImgGuid()));
            }
            if (n.lid() > 0) {
                out.put("LID", String.valueOf(n.lid()));
            }
        }
        return out;
    }

    /** The context menu of a map item. */
    static ContextMenu forVertex(Vertex v) {
        ContextMenu menu = new ContextMenu();
        of(v).forEach((label, value) -> menu.getItems().add(item("Copy " + label + "  " + value, value)));
        return menu;
    }

    static MenuItem item(String text, String value) {
        MenuItem m = new MenuItem(text);
        m.setMnemonicParsing(false);
        m.setOnAction(e -> copy(value));
        return m;
    }

    static void copy(String text) {
        ClipboardContent c = new ClipboardContent();
        c.putString(text);
        Clipboard.getSystemClipboard().setContent(c);
    }

    /**
     * Gives every table and list under {@code root} without a context menu of its own a Copy menu,
     * and sizes the columns of tables that do not squeeze their columns into the width to their content
     * whenever their rows change.
     */
    static void installUnder(Node root) {
        List<Node> found = new ArrayList<>();
        found.add(root);
        if (root instanceof javafx.scene.Parent p) {
            found.addAll(p.lookupAll(".table-view"));
            found.addAll(p.lookupAll(".list-view"));
        }
        for (Node n : found) {
            if (n instanceof TableView<?> t) {
                install(t);
            } else if (n instanceof ListView<?> l) {
                install(l);
            }
        }
    }

    /** The key under which a table or list keeps the items its rows add after the Copy items ({@link #addItems}). */
    private static final Object EXTRA = new Object();

    /**
     * More items for the context menu of a table's or list's row {@code index} (a note on the row's subject), after
     * its Copy items: one menu, so a row's own menu never hides the Copy items.
     */
    static void addItems(Control control, java.util.function.IntFunction<List<MenuItem>> items) {
        control.getProperties().put(EXTRA, items);
    }

    @SuppressWarnings("unchecked")
    private static void extra(Control control, int index, ContextMenu menu) {
        if (control.getProperties().get(EXTRA) instanceof java.util.function.IntFunction<?> f) {
            List<MenuItem> more = (List<MenuItem>) f.apply(index);
            if (more != null && !more.isEmpty()) {
                menu.getItems().add(new SeparatorMenuItem());
                menu.getItems().addAll(more);
            }
        }
    }

    static <T> void install(TableView<T> table) {
        if (table.getProperties().containsKey(CopyMenus.class)) {
            return;
        }
        table.getProperties().put(CopyMenus.class, Boolean.TRUE);
        if (table.getContextMenu() == null) {
            table.addEventHandler(ContextMenuEvent.CONTEXT_MENU_REQUESTED, e -> {
                TableCell<?, ?> cell = ancestor(e.getPickResult().getIntersectedNode(), TableCell.class);
                TableRow<?> row = ancestor(e.getPickResult().getIntersectedNode(), TableRow.class);
                int index = row != null && !row.isEmpty() ? row.getIndex() : table.getSelectionModel().getSelectedIndex();
                if (index < 0 || index >= table.getItems().size()) {
                    return;
                }
                table.getSelectionModel().clearAndSelect(index);
                ContextMenu menu = new ContextMenu();
                List<String> all = new ArrayList<>();
                if (cell != null && cell.getTableColumn() != null) {
                    String v = text(cell.getTableColumn().getCellData(index));
                    if (!v.isEmpty()) {
                        menu.getItems().add(item("Copy " + v, v));
                        menu.getItems().add(new SeparatorMenuItem());
                    }
                }
                for (TableColumn<T, ?> c : table.getVisibleLeafColumns()) {
                    String v = text(c.getCellData(index));
                    all.add(v);
                    if (!v.isEmpty()) {
                        menu.getItems().add(item("Copy " + c.getText() + "  " + abbreviate(v), v));
                    }
                }
                menu.getItems().add(item("Copy row", String.join("\t", all)));
                extra(table, index, menu);
                menu.show(table, e.getScreenX(), e.getScreenY());
                e.consume();
            });
        }
        if (table.getColumnResizePolicy() == TableView.UNCONSTRAINED_RESIZE_POLICY) {
            table.getItems().addListener((javafx.collections.ListChangeListener<T>) c -> fitColumns(table));
            table.itemsProperty().addListener((o, a, b) -> {
                if (b != null) {
                    b.addListener((javafx.collections.ListChangeListener<T>) c -> fitColumns(table));
                }
                fitColumns(table);
            });
            fitColumns(table);
        }
    }

    static <T> void install(ListView<T> list) {
        if (list.getContextMenu() != null || list.getProperties().containsKey(CopyMenus.class)) {
            return;
        }
        list.getProperties().put(CopyMenus.class, Boolean.TRUE);
        list.addEventHandler(ContextMenuEvent.CONTEXT_MENU_REQUESTED, e -> {
            ListCell<?> cell = ancestor(e.getPickResult().getIntersectedNode(), ListCell.class);
            String v = cell != null && !cell.isEmpty() ? cell.getText() : null;
            if (v == null && list.getSelectionModel().getSelectedItem() != null) {
                v = String.valueOf(list.getSelectionModel().getSelectedItem());
            }
            if (v == null || v.isBlank()) {
                return;
            }
            if (cell != null) {
                list.getSelectionModel().clearAndSelect(cell.getIndex());
            }
            ContextMenu menu = new ContextMenu(item("Copy", v.strip()));
            extra(list, cell != null ? cell.getIndex() : list.getSelectionModel().getSelectedIndex(), menu);
            menu.show(list, e.getScreenX(), e.getScreenY());
            e.consume();
        });
    }

    /** Each column as wide as its header or its widest value among the first {@link #MEASURED_ROWS} rows. */
    static <T> void fitColumns(TableView<T> table) {
        Text probe = new Text();
        int rows = Math.min(MEASURED_ROWS, table.getItems().size());
        for (TableColumn<T, ?> c : table.getVisibleLeafColumns()) {
            probe.setText(c.getText() == null ? "" : c.getText());
            double w = probe.getLayoutBounds().getWidth() + 24; // header: text, padding, sort arrow
            for (int i = 0; i < rows; i++) {
                probe.setText(text(c.getCellData(i)));
                w = Math.max(w, probe.getLayoutBounds().getWidth() + 18);
            }
            c.setPrefWidth(Math.min(Math.ceil(w), 600));
        }
    }

    private static String text(Object o) {
        return o == null ? "" : String.valueOf(o).strip();
    }

    private static String abbreviate(String s) {
        String one = s.replaceAll("\\s+", " ");
        return one.length() > 40 ? one.substring(0, 39) + "…" : one;
    }

    private static <C> C ancestor(Node n, Class<C> type) {
        for (Node x = n; x != null; x = x.getParent()) {
            if (type.isInstance(x)) {
                return type.cast(x);
            }
            if (x instanceof TableView<?> || x instanceof ListView<?>) {
                return null; // reached the table or list: the point is on no row
            }
        }
        return null;
    }
}
