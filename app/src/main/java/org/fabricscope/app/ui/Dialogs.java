package org.fabricscope.app.ui;

/**
 * Messages a view model shows the user, without touching a control: the window shows them as
 * alerts ({@link FxDialogs}); tests record them.
 */
public interface Dialogs {
    void error(String title, String text);

    void info(String title, String text);
}
