package org.fabricscope.app.cli;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.UnaryOperator;

import java.util.Set;

import org.fabricscope.app.render.ColourMode;
import org.fabricscope.app.render.MapColouring;
import org.fabricscope.app.render.MapPalette;
import org.fabricscope.app.render.MapPicture;
import org.fabricscope.app.render.OutputLimits;
import org.fabricscope.app.render.PictureCaption;
import org.fabricscope.app.render.PictureLegend;
import org.fabricscope.app.render.XmlText;
import org.fabricscope.app.common.CaptureName;
import org.fabricscope.app.report.OutputFile;
import org.fabricscope.importers.ImportResult;
import org.fabricscope.model.layout.MapLayout;
import org.fabricscope.model.layout.TieredLayout;
import org.fabricscope.model.fabric.Cable;
import org.fabricscope.model.core.FabricEdge;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.fabric.FabricNode;
import org.fabricscope.model.core.Guids;
import org.fabricscope.model.fabric.Port;
import org.fabricscope.model.core.Vertex;
import org.jgrapht.nio.Attribute;
import org.jgrapht.nio.DefaultAttribute;
import org.jgrapht.nio.GraphExporter;
import org.jgrapht.nio.dot.DOTExporter;
import org.jgrapht.nio.graphml.GraphMLExporter;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code fabricscope export}: write the fabric graph as GraphML, DOT or JSON, or the map as PNG or SVG. */
@Command(name = "export", mixinStandardHelpOptions = true,
        description = {"Write the fabric graph (switches, CAs, cables with ports, rates and counters) as graphml, dot or json,",
            "or the map as a picture (png, svg): the whole fabric drawn as the app shows it at fit, with a title (the capture and its",
            "files' time), the legend and the names of the finding subjects (no display needed)."})
final class ExportCommand implements Callable<Integer> {
    enum Kind { graphml, dot, json, png, svg }

    /** The colour modes by their command-line names. */
    enum Colour {
        errors(ColourMode.ERRORS), speed(ColourMode.SPEED), transport(ColourMode.TRANSPORT), kubernetes(ColourMode.KUBERNETES);

        final ColourMode mode;

        Colour(ColourMode mode) {
            this.mode = mode;
        }
    }

    @Mixin
    InputOptions input;

    @Option(names = {"-f", "--format"}, defaultValue = "graphml",
            description = "graphml (default), dot or json; png or svg for a picture of the map.")
    Kind format;

    @Option(names = "--colour", defaultValue = "errors", paramLabel = "MODE",
            description = "png/svg: what the colours mean: errors (default), speed, transport or kubernetes.")
    Colour colour;

    @Option(names = "--width", defaultValue = "1600", paramLabel = "W", description = "png/svg: width in pixels (default 1600).")
    int width;

    @Option(names = "--height", defaultValue = "1000", paramLabel = "H", description = "png/svg: height in pixels (default 1000).")
    int height;

    @Option(names = "--problems-only", description = "png/svg: draw only the cables that are problems (findings, errors, degraded links), "
            + "as the map's Problems only filter does.")
    boolean problemsOnly;

    @Option(names = {"-o", "--output"}, paramLabel = "FILE", description = "Write here instead of standard output.")
    Path output;

    @Option(names = "--csv", paramLabel = "TABLE", description = "Write one table as CSV instead of the graph: ports (with "
            + "their counters), pods, ranks or findings.")
    CsvTables.Table csv;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (csv != null) {
            return csv();
        }
        if (format == Kind.png || format == Kind.svg) {
            return picture();
        }
        ImportResult r = input.importPaths();
        refuseLarge(r.model());
        String text = switch (format) {
            case json -> JsonDocs.write(asJson(r.model()));
            case dot -> write(new DOTExporter<>(v -> quoteId(v.id())), r.model());
            case graphml -> {
                GraphMLExporter<Vertex, FabricEdge> g = new GraphMLExporter<>(v -> XmlText.clean(v.id()));
                for (String a : List.of("name", "kind", "tier", "guid", "lid")) {
                    g.registerAttribute(a, GraphMLExporter.AttributeCategory.NODE, org.jgrapht.nio.AttributeType.STRING);
                }
                for (String a : List.of("portA", "portB", "rate")) {
                    g.registerAttribute(a, GraphMLExporter.AttributeCategory.EDGE, org.jgrapht.nio.AttributeType.STRING);
                }
                yield write(g, r.model());
            }
            case png, svg -> throw new IllegalStateException("pictures are written by picture()");
        };
        if (output == null) {
            spec.commandLine().getOut().print(text);
            spec.commandLine().getOut().flush();
        } else {
            writeFile(out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
        }
        return 0;
    }

    /** {@code --csv TABLE}: the table of the inputs (findings from their diagnosis), refused past the row limit. */
    private int csv() throws IOException {
        if (spec.commandLine().getParseResult().hasMatchedOption("--format")) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--csv and --format exclude each other");
        }
        InputOptions.Loaded in = input.load();
        String text = CsvTables.of(csv, in.result().model(), in.analysis().findings(), OutputLimits.MAX_ELEMENTS);
        if (output == null) {
            spec.commandLine().getOut().print(text);
            spec.commandLine().getOut().flush();
        } else {
            writeFile(out -> out.write(text.getBytes(StandardCharsets.UTF_8)));
        }
        return 0;
    }

    /** Refuses a graph export past {@link OutputLimits#MAX_ELEMENTS}, before anything is built. */
    private void refuseLarge(FabricModel model) {
        String refused = graphTooLarge(model, format, 0);
        if (refused != null) {
            throw new CliFailure(1, refused + "; nothing written");
        }
    }

    /**
     * Why the export of {@code model} as {@code kind} is refused ({@link OutputLimits#graphProblem}: its
     * nodes and cables, and {@code extra} more elements), or null.
     */
    static String graphTooLarge(FabricModel model, Kind kind, long extra) {
        return OutputLimits.graphProblem("the " + kind + " export", (long) model.nodes().size() + model.cables().size() + extra);
    }

    /** The output file whole or not at all ({@link OutputFile}); a failure is one line naming the file and why. */
    private void writeFile(org.fabricscope.app.common.AtomicWrite.Content content) {
        try {
            OutputFile.write(output, content);
        } catch (IOException | java.io.UncheckedIOException | OutOfMemoryError e) {
            boolean inPlace = java.nio.file.Files.exists(output) && !java.nio.file.Files.isRegularFile(output); // a device
            throw new CliFailure(1, OutputFile.failure(output, e) + (inPlace ? "" : "; nothing written"));
        }
    }

    /** The map as the app draws it at fit: layout, colouring and the rasteriser, no JavaFX. */
    private int picture() throws IOException {
        String size = OutputLimits.pictureProblem(width, height);
        if (size != null) {
            throw new ParameterException(spec.commandLine(), "--width and --height: " + size + "; nothing written");
        }
        if (format == Kind.png && output == null) {
            throw new ParameterException(spec.commandLine(), "-f png writes a file: give it with -o FILE");
        }
        MapPicture picture = picture(input.load(), input.paths, colour.mode, width, height, problemsOnly);
        String refused = picture.tooLarge(format == Kind.svg);
        if (refused != null) {
            throw new CliFailure(1, refused + "; nothing written");
        }
        if (format == Kind.png) {
            System.setProperty("java.awt.headless", "true");
            writeFile(picture::writePng);
        } else if (output == null) {
            spec.commandLine().getOut().print(picture.svg());
            spec.commandLine().getOut().flush();
        } else {
            writeFile(out -> out.write(picture.svg().getBytes(StandardCharsets.UTF_8)));
        }
        return 0;
    }

    /**
     * The whole fabric as the app draws it at fit, in {@code mode}, with a title (the capture named by
     * {@code paths} and its files' time), the legend and the finding subjects' names: layout, colouring
     * and the rasteriser, no JavaFX.
     */
    static MapPicture picture(InputOptions.Loaded loaded, List<Path> paths, ColourMode mode, int width, int height,
                              boolean problemsOnly) {
        FabricModel model = loaded.result().model();
        MapLayout layout = TieredLayout.compute(model, Set.of(), false);
        if (layout.items().isEmpty()) {
            throw new CliFailure(1, "the map is empty: the inputs hold no fabric (load ibnetdiscover or iblinkinfo output); "
                    + "no picture written");
        }
        MapColouring colours = MapColouring.compute(model, layout, mode, loaded.thresholds(), loaded.analysis().ranks(),
                null, loaded.analysis().findings(), MapPalette.defaults());
        String capture = paths.isEmpty() ? "live cluster" : CaptureName.of(paths);
        PictureCaption caption = new PictureCaption(PictureCaption.title(capture, PictureCaption.filesTime(paths).orElse(null), mode, true),
                PictureLegend.of(mode, colours.palette(), loaded.analysis().summary().cablesBySpeed().keySet(),
                        !loaded.analysis().ranks().isEmpty(), null));
        return new MapPicture(layout, colours, caption.fit(layout, width, height), problemsOnly, caption);
    }

    /** A DOT id in double quotes: {@link #dotText}, and its quotes escaped (jgrapht quotes attribute values, not ids). */
    static String quoteId(String id) {
        return "\"" + dotText(id).replace("\"", "\\\"") + "\"";
    }

    /**
     * Text from the inputs for a DOT quoted string: the characters XML 1.0 forbids (controls) replaced
     * ({@link XmlText}), and a backslash doubled, so that a name ending in one cannot escape the closing
     * quote and a {@code \N} or {@code \l} in a name is not read as Graphviz's label escapes.
     */
    static String dotText(String s) {
        return XmlText.clean(s).replace("\\", "\\\\");
    }

    private static String write(GraphExporter<Vertex, FabricEdge> exporter, FabricModel model) {
        if (exporter instanceof DOTExporter<Vertex, FabricEdge> dot) {
            dot.setVertexAttributeProvider(v -> vertexAttributes(v, ExportCommand::dotText));
            dot.setEdgeAttributeProvider(e -> edgeAttributes(e, ExportCommand::dotText));
        } else if (exporter instanceof GraphMLExporter<Vertex, FabricEdge> gml) {
            gml.setVertexAttributeProvider(v -> vertexAttributes(v, XmlText::clean)); // jgrapht escapes < & and quotes
            gml.setEdgeAttributeProvider(e -> edgeAttributes(e, XmlText::clean));
        }
        StringWriter sw = new StringWriter();
        exporter.exportGraph(model.cableGraph(), sw);
        return sw.toString();
    }

    /** A vertex's attributes, each text made safe for the format by {@code safe}. */
    private static Map<String, Attribute> vertexAttributes(Vertex v, UnaryOperator<String> safe) {
        Map<String, Attribute> m = new LinkedHashMap<>();
        m.put("label", DefaultAttribute.createAttribute(safe.apply(v.displayName())));
        m.put("name", DefaultAttribute.createAttribute(safe.apply(v.displayName())));
        if (v instanceof FabricNode n) {
            m.put("kind", DefaultAttribute.createAttribute(n.kind().name()));
            m.put("tier", DefaultAttribute.createAttribute(safe.apply(n.tier() == null ? (n.isHostAdapter() ? "host" : "")
                    : n.tier().label())));
            m.put("guid", DefaultAttribute.createAttribute(Guids.format(n.guid())));
            m.put("lid", DefaultAttribute.createAttribute(String.valueOf(n.lid())));
        }
        return m;
    }

    private static Map<String, Attribute> edgeAttributes(FabricEdge e, UnaryOperator<String> safe) {
        Map<String, Attribute> m = new LinkedHashMap<>();
        if (e instanceof Cable c) {
            m.put("portA", DefaultAttribute.createAttribute(String.valueOf(c.a().number())));
            m.put("portB", DefaultAttribute.createAttribute(String.valueOf(c.b().number())));
            m.put("rate", DefaultAttribute.createAttribute(safe.apply(c.rateToken())));
            m.put("label", DefaultAttribute.createAttribute(safe.apply(c.rateToken())));
        }
        return m;
    }

    private static Map<String, Object> asJson(FabricModel model) {
        List<Map<String, Object>> nodes = new ArrayList<>();
        for (FabricNode n : model.nodes()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", n.id());
            m.put("kind", n.kind().name().toLowerCase(java.util.Locale.ROOT));
            m.put("name", n.displayName());
            m.put("description", n.description());
            m.put("guid", Guids.format(n.guid()));
            if (n.sysImgGuid() != 0) {
                m.put("sysImgGuid", Guids.format(n.sysImgGuid()));
            }
            m.put("lid", n.lid());
            if (n.tier() != null) {
                m.put("tier", n.tier().label());
            }
            if (n.host() != null) {
                m.put("host", n.host().name());
            }
            m.put("role", n.role().name().toLowerCase(java.util.Locale.ROOT));
            nodes.add(m);
        }
        List<Map<String, Object>> cables = new ArrayList<>();
        for (Cable c : model.cables()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("a", portJson(c.a()));
            m.put("b", portJson(c.b()));
            m.put("rate", c.rateToken());
            cables.add(m);
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("nodes", nodes);
        root.put("cables", cables);
        var ranks = org.fabricscope.model.ranks.RankMap.of(model);
        String refused = graphTooLarge(model, Kind.json, (long) ranks.sites().size() + ranks.routes().size());
        if (refused != null) {
            throw new CliFailure(1, refused + "; nothing written");
        }
        if (!ranks.isEmpty()) {
            root.put("ranks", ranks.sites().stream().map(ExportCommand::rankJson).toList());
            root.put("rankPairs", ranks.routes().stream().map(ExportCommand::pairJson).toList());
        }
        return root;
    }

    /** A rank and where it ran; parts the inputs do not give are left out. */
    private static Map<String, Object> rankJson(org.fabricscope.model.ranks.RankSite s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("comm", s.rank().commId());
        m.put("rank", s.rank().rank());
        m.put("logHost", s.rank().host());
        putIf(m, "pod", s.pod());
        putIf(m, "k8sNode", s.k8sNode());
        putIf(m, "host", s.host());
        m.put("busId", s.rank().busId());
        putIf(m, "gpu", s.gpu() == null ? null : s.gpu().label());
        putIf(m, "hca", s.hca() == null ? null : s.hca().id());
        putIf(m, "leafPort", s.leafPort() == null ? null : leafPort(s.leafPort()));
        putIf(m, "ncclVersion", s.rank().ncclVersion());
        return m;
    }

    /** {@code {"node", "port"}} in that order (Map.of would order its keys differently from run to run). */
    private static Map<String, Object> leafPort(org.fabricscope.model.fabric.Port p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("node", p.node().id());
        m.put("port", p.number());
        return m;
    }

    /** A talking pair: its slowest transport, and over the network one path and every equal-cost cable. */
    private static Map<String, Object> pairJson(org.fabricscope.model.ranks.RankRoute r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("comm", r.commId());
        m.put("a", r.a().rank().rank());
        m.put("b", r.b().rank().rank());
        m.put("transport", r.transport().label());
        m.put("channelLines", r.channels()); // Channel lines naming the pair (each end prints its own)
        if (r.routed()) {
            m.put("path", r.path().stream().map(Vertex::id).toList());
            m.put("cables", r.cables().stream().map(c -> c.a().node().id() + "[" + c.a().number() + "]-"
                    + c.b().node().id() + "[" + c.b().number() + "]").sorted().toList());
        }
        return m;
    }

    private static void putIf(Map<String, Object> m, String key, Object value) {
        if (value != null) {
            m.put(key, value);
        }
    }

    private static Map<String, Object> portJson(Port p) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("node", p.node().id());
        m.put("port", p.number());
        m.put("state", p.state().name().toLowerCase(java.util.Locale.ROOT));
        if (!p.counters().isEmpty()) {
            m.put("counters", p.counters());
        }
        return m;
    }
}
