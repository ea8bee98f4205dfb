package org.fabricscope.model.flows;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The flows in force: the built-in ones (JSON resources under {@code org/fabricscope/model/flows/},
 * listed in {@code index.txt}) and the users' (every {@code *.json} of their flow folders, in name
 * order), with the errors of the files that did not load. A bad file never stops the others; a file
 * whose id another flow already has is an error naming both. What a folder holds that is no regular
 * file (a FIFO, a device, a dangling or looping link) is skipped with an error ({@link FlowFiles}).
 */
public record FlowLibrary(List<Flow> flows, List<FlowError> errors) {
    static final String RESOURCES = "/org/fabricscope/model/flows/";
    /** How the source of a built-in flow is written: {@code builtin:no-rdma-device.json}. */
    public static final String BUILTIN = "builtin:";
    private static volatile FlowLibrary builtIn;

    public FlowLibrary {
        flows = List.copyOf(flows);
        errors = List.copyOf(errors);
    }

    /** The flows shipped with FabricScope. A broken built-in is a bug, reported in {@link #errors()} like any other. */
    public static FlowLibrary builtIn() {
        FlowLibrary b = builtIn;
        if (b == null) {
            FlowLoader loader = FlowLoader.standard();
            List<Flow> flows = new ArrayList<>();
            List<FlowError> errors = new ArrayList<>();
            for (String name : builtInNames()) {
                byte[] content = resource(name);
                if (content == null) {
                    errors.add(new FlowError(BUILTIN + name, "", "listed in index.txt but missing"));
                    continue;
                }
                add(loader.load(BUILTIN + name, content), flows, errors);
            }
            builtIn = b = new FlowLibrary(flows, errors);
        }
        return b;
    }

    /** The file names {@code index.txt} lists, in order. */
    public static List<String> builtInNames() {
        byte[] index = resource("index.txt");
        if (index == null) {
            throw new IllegalStateException("no " + RESOURCES + "index.txt on the class path");
        }
        List<String> out = new ArrayList<>();
        for (String line : new String(index, StandardCharsets.UTF_8).split("\n")) {
            String s = line.strip();
            if (!s.isEmpty() && !s.startsWith("#")) {
                out.add(s);
            }
        }
        return out;
    }

    private static byte[] resource(String name) {
        try (InputStream in = FlowLibrary.class.getResourceAsStream(RESOURCES + name)) {
            return in == null ? null : in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void add(FlowLoader.Loaded l, List<Flow> flows, List<FlowError> errors) {
        errors.addAll(l.errors());
        if (l.flow() == null) {
            return;
        }
        for (Flow f : flows) {
            if (f.id().equals(l.flow().id())) {
                errors.add(new FlowError(l.flow().source(), "/id", "flow '" + f.id() + "' is already defined by " + f.source()
                        + "; give this one another id"));
                return;
            }
        }
        flows.add(l.flow());
    }

    /**
     * These flows plus those of a folder: each {@code *.json} in name order. A folder that does not
     * exist adds nothing (the user has written no flow yet); one that cannot be read is an error.
     */
    public FlowLibrary plus(Path dir) {
        return plus(dir, FlowLoader.standard());
    }

    public FlowLibrary plus(Path dir, FlowLoader loader) {
        List<Flow> all = new ArrayList<>(flows);
        List<FlowError> errs = new ArrayList<>(errors);
        if (dir == null || !FlowFiles.present(dir)) {
            return this;
        }
        if (!Files.isDirectory(dir)) {
            String why = FlowFiles.notRegular(dir);
            errs.add(new FlowError(dir.toString(), "", "not a folder of flow files" + (why == null ? "" : " (" + why + ")")));
            return new FlowLibrary(all, errs);
        }
        for (FlowFiles.Read r : FlowFiles.folder(dir)) {
            if (r.error() != null) {
                errs.add(r.error());
            } else {
                add(loader.load(r.path().toString(), r.content()), all, errs);
            }
        }
        return new FlowLibrary(all, errs);
    }

    /** The built-in flows plus each of these folders' (nulls and missing folders skipped). */
    public static FlowLibrary load(List<Path> dirs) {
        FlowLibrary lib = builtIn();
        for (Path d : dirs) {
            lib = lib.plus(d);
        }
        return lib;
    }

    /**
     * The user's flow folder: {@code $XDG_CONFIG_HOME/fabricscope/flows} when that variable is set to
     * an absolute path, else {@code ~/.config/fabricscope/flows}; null when neither can be known.
     */
    public static Path userDirectory(Map<String, String> env, String userHome) {
        return org.fabricscope.model.core.UserConfig.directory(env, userHome, "flows");
    }

    public Flow flow(String id) {
        for (Flow f : flows) {
            if (f.id().equals(id)) {
                return f;
            }
        }
        return null;
    }

    /** Flows by id, in library order. */
    public Map<String, Flow> byId() {
        Map<String, Flow> m = new LinkedHashMap<>();
        flows.forEach(f -> m.put(f.id(), f));
        return m;
    }
}
