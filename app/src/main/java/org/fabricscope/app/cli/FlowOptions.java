package org.fabricscope.app.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.fabricscope.model.flows.FlowError;
import org.fabricscope.model.flows.FlowLibrary;

import picocli.CommandLine.Option;

/**
 * Where flows come from: the built-in ones, the user's folder ({@code $XDG_CONFIG_HOME/fabricscope/flows}
 * or {@code ~/.config/fabricscope/flows}) and each {@code --flows DIR}. A bad file is reported, with
 * its field and why, and the other flows still load.
 */
final class FlowOptions {
    @Option(names = "--flows", paramLabel = "DIR",
            description = "Also load the troubleshooting flows (*.json) of this folder (repeatable); the user's own "
                    + "$XDG_CONFIG_HOME/fabricscope/flows (or ~/.config/fabricscope/flows) are always loaded.")
    List<Path> dirs = new ArrayList<>();

    /** The folders read after the built-in flows: the user's, then each --flows. */
    List<Path> folders() {
        List<Path> out = new ArrayList<>();
        Path user = FlowLibrary.userDirectory(System.getenv(), System.getProperty("user.home"));
        if (user != null) {
            out.add(user);
        }
        out.addAll(dirs);
        return out;
    }

    FlowLibrary library() {
        for (Path d : dirs) {
            OptionFiles.requireFolder("--flows", d);
        }
        return FlowLibrary.load(folders());
    }

    /** Prints each flow-file error on {@code err}, one per line; returns how many there were. */
    static int report(FlowLibrary lib, PrintWriter err) {
        for (FlowError e : lib.errors()) {
            err.println("fabricscope: flow file error: " + e);
        }
        return lib.errors().size();
    }
}
