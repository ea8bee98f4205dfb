package org.fabricscope.app.live.source;

import java.util.ArrayList;
import java.util.List;

/**
 * A registry of live source kinds (decision 0013), in order; FabricScope's is
 * {@code StandardSources.registry()} (app.live, so that this package names no source). The CLI options,
 * the connect dialog and the live job open sources only through it, so a new source (Prometheus, fabric
 * polling) is one kind added to that list and nothing else changes.
 */
public final class LiveSources {
    /** Who asks, for the wording of hints in messages (a command line, or the window's dialog). */
    public enum Hints {
        CLI, DIALOG
    }

    private final List<LiveSourceKind<?>> kinds;

    public LiveSources(List<LiveSourceKind<?>> kinds) {
        List<String> ids = new ArrayList<>();
        for (LiveSourceKind<?> k : kinds) {
            if (ids.contains(k.id())) {
                throw new IllegalArgumentException("two live source kinds with id " + k.id());
            }
            ids.add(k.id());
        }
        this.kinds = List.copyOf(kinds);
    }

    public List<LiveSourceKind<?>> kinds() {
        return kinds;
    }

    /** The kind with this id; an {@link IllegalArgumentException} naming the known ids when none has it. */
    public LiveSourceKind<?> kind(String id) {
        for (LiveSourceKind<?> k : kinds) {
            if (k.id().equals(id)) {
                return k;
            }
        }
        throw new IllegalArgumentException("no live source of kind '" + id + "'; known: "
                + String.join(", ", kinds.stream().map(LiveSourceKind::id).toList()));
    }

    /** Opens a target with the kind it names. */
    public LiveSource open(LiveTarget target, Hints hints) throws LiveSourceException {
        return openAs(kind(target.kind()), target, hints);
    }

    private static <T extends LiveTarget> LiveSource openAs(LiveSourceKind<T> kind, LiveTarget target, Hints hints)
            throws LiveSourceException {
        if (!kind.targetType().isInstance(target)) {
            throw new IllegalArgumentException("a " + kind.id() + " source cannot open a " + target.kind() + " target");
        }
        return kind.open(kind.targetType().cast(target), hints);
    }
}
