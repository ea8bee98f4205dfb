package org.fabricscope.app.ui;

import java.util.ArrayList;
import java.util.List;

/** {@link Dialogs} that remember what they were asked to show. */
final class RecordingDialogs implements Dialogs {
    final List<String> shown = new ArrayList<>();

    @Override
    public void error(String title, String text) {
        shown.add("error: " + title);
    }

    @Override
    public void info(String title, String text) {
        shown.add("info: " + title);
    }
}
