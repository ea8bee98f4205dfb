package org.fabricscope.app.ui;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import org.fabricscope.app.live.prom.PromTarget;
import org.fabricscope.app.live.prom.PromTimes;

import javafx.beans.property.ReadOnlyStringProperty;
import javafx.beans.property.ReadOnlyStringWrapper;
import javafx.beans.property.SimpleStringProperty;
import javafx.beans.property.StringProperty;

/**
 * File › Connect to Prometheus: a server's URL, its auth (a bearer-token file, or a user and a password
 * file), a CA file, and the time range (the window's end, empty for now, and its length). The choice is
 * a {@link PromTarget}, opened through the live source registry like a cluster; the same checks and words
 * as the CLI's {@code --prometheus} options.
 */
public final class PromConnectDialogViewModel {
    private final StringProperty url = new SimpleStringProperty("");
    private final StringProperty tokenFile = new SimpleStringProperty("");
    private final StringProperty user = new SimpleStringProperty("");
    private final StringProperty passwordFile = new SimpleStringProperty("");
    private final StringProperty caFile = new SimpleStringProperty("");
    private final StringProperty at = new SimpleStringProperty("");
    private final StringProperty window = new SimpleStringProperty("1h");
    private final ReadOnlyStringWrapper message = new ReadOnlyStringWrapper("");

    /** Filled from the last choice when it was a Prometheus one. */
    public PromConnectDialogViewModel(ConnectDialogViewModel.Choice previous) {
        if (previous != null && previous.target() instanceof PromTarget t) {
            url.set(t.base());
            tokenFile.set(t.bearerTokenFile() == null ? "" : t.bearerTokenFile().toString());
            user.set(t.user() == null ? "" : t.user());
            passwordFile.set(t.passwordFile() == null ? "" : t.passwordFile().toString());
            caFile.set(t.caFile() == null ? "" : t.caFile().toString());
            at.set(t.at() == null ? "" : t.at().toString());
            window.set(t.window().toMinutes() % 60 == 0 ? t.window().toHours() + "h" : t.window().toMinutes() + "m");
        }
    }

    /** The target, or null with the reason in the message line. */
    public ConnectDialogViewModel.Choice choice() {
        try {
            if (url.get().isBlank()) {
                message.set("Give the server's URL, e.g. http://prometheus:9090");
                return null;
            }
            Instant end = at.get().isBlank() ? null : PromTimes.instant(at.get());
            Duration length = window.get().isBlank() ? null : PromTimes.duration(window.get());
            PromTarget t = new PromTarget(new URI(url.get().strip()), path(tokenFile), text(user), path(passwordFile),
                    path(caFile), end, length);
            message.set("");
            return new ConnectDialogViewModel.Choice(t, false);
        } catch (URISyntaxException e) {
            message.set("'" + url.get() + "' is not a URL: " + e.getReason());
        } catch (IllegalArgumentException e) {
            message.set(e.getMessage());
        }
        return null;
    }

    private static Path path(StringProperty p) {
        return p.get().isBlank() ? null : Path.of(p.get().strip());
    }

    private static String text(StringProperty p) {
        return p.get().isBlank() ? null : p.get().strip();
    }

    public StringProperty urlProperty() {
        return url;
    }

    public StringProperty tokenFileProperty() {
        return tokenFile;
    }

    public StringProperty userProperty() {
        return user;
    }

    public StringProperty passwordFileProperty() {
        return passwordFile;
    }

    public StringProperty caFileProperty() {
        return caFile;
    }

    public StringProperty atProperty() {
        return at;
    }

    public StringProperty windowProperty() {
        return window;
    }

    public ReadOnlyStringProperty messageProperty() {
        return message.getReadOnlyProperty();
    }
}
