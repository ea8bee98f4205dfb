package org.fabricscope.importers.nccl;

import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.importers.core.ImportCancelledException;
import org.fabricscope.model.core.Diagnostic;
import org.fabricscope.model.core.Evidence;
import org.fabricscope.model.FabricModelBuilder;
import org.fabricscope.model.host.Cpu;
import org.fabricscope.model.host.Gpu;
import org.fabricscope.model.host.HostTopologyBuilder;
import org.fabricscope.model.host.NcclGraph;
import org.fabricscope.model.host.Nic;
import org.fabricscope.model.host.PciDevice;

/**
 * Reads NCCL's XML: topology files ({@code <system>}: NCCL_TOPO_DUMP_FILE dumps and hand-written
 * NCCL_TOPO_FILE seeds, NCCL version 1 and RCCL version 2) and graph dumps ({@code <graphs>}:
 * NCCL_GRAPH_DUMP_FILE). Follows NCCL's own loader (src/graph/xml.cc): {@code system} holds
 * {@code cpu}; {@code cpu} holds {@code pci} and {@code nic}; {@code pci} holds {@code pci},
 * {@code gpu}, {@code nic} and {@code pcilink}; {@code nic} holds {@code net}; {@code gpu} holds
 * {@code nvlink} and {@code c2c}. Other elements are skipped with their subtree, as NCCL does
 * ("Ignoring element"). hwloc's {@code <topology>} is refused with a message saying what it is.
 *
 * <p>The input is untrusted: StAX with DTDs and external entities off ({@link SafeXml}); a DOCTYPE or
 * an entity reference stops the file with a diagnostic, and nothing it declares or names is read;
 * nesting deeper than {@value #MAX_DEPTH}, more than {@value #MAX_ELEMENTS} elements or more than
 * {@link SafeXml#MAX_BYTES} bytes stop the file with a diagnostic too. Never throws on bad input:
 * what was read before the problem is kept. One pass, memory linear in the elements kept.
 */
public final class NcclXmlImporter {
    public static final int MAX_DEPTH = 64;
    public static final int MAX_ELEMENTS = 200_000;
    /** NCCL's MAX_ATTR_COUNT; extras are ignored, as NCCL ignores them. */
    public static final int MAX_ATTRIBUTES = 16;
    private static final int MAX_EVIDENCE = 400;
    private static final int MAX_IGNORED_REPORTS = 20;

    private static final Map<String, Set<String>> TOPO_CHILDREN = Map.of(
            "system", Set.of("cpu"),
            "cpu", Set.of("pci", "nic"),
            "pci", Set.of("pci", "gpu", "nic", "pcilink"),
            "nic", Set.of("net"),
            "gpu", Set.of("nvlink", "c2c"));
    private static final Map<String, Set<String>> GRAPH_CHILDREN = Map.of(
            "graphs", Set.of("graph"),
            "graph", Set.of("channel"),
            "channel", Set.of("net", "gpu"));

    private String source;
    private FabricModelBuilder builder;
    private HostTopologyBuilder host;
    private int ignoredReports;
    private boolean anything;

    /** One open element: its name, what it made (a Cpu, PciDevice, ...), and whether its subtree is skipped. */
    private record Frame(String name, Object made, boolean skip) {
    }

    /** Reads one file; the host comes from the file or folder name, or the fabric join. */
    public void read(InputStream in, String source, FabricModelBuilder builder, Cancellation cancel) {
        read(in, source, null, builder, cancel);
    }

    /** Reads one file for the named host ({@code hostName} null: decide from the name and the fabric). */
    public void read(InputStream in, String source, String hostName, FabricModelBuilder builder, Cancellation cancel) {
        this.source = source;
        this.builder = builder;
        this.host = new HostTopologyBuilder(source, hostName);
        this.ignoredReports = 0;
        this.anything = false;
        XMLStreamReader r = null;
        int line = 0;
        SafeXml.Utf8Check bytes = null;
        try {
            // bytes are checked to be UTF-8 before StAX decodes them: a bad one would make the JDK's
            // parser print "[Fatal Error] :-1:-1: ..." on stderr; the check reports it with its line
            bytes = SafeXml.checked(in);
            r = org.fabricscope.importers.core.SecureStax.factory().createXMLStreamReader(source, bytes);
            loop(r, cancel);
        } catch (XMLStreamException e) {
            Location loc = e.getLocation();
            line = loc != null ? Math.max(0, loc.getLineNumber()) : line;
            if (bytes != null && bytes.failure() != null) {
                error(bytes.failure().line, bytes.failure().getMessage() + "; stopped reading, kept what was read before");
            } else if (tooLarge(e)) {
                error(line, "file is larger than " + (SafeXml.MAX_BYTES >> 20)
                        + " MiB; stopped reading, kept what was read before");
            } else {
                error(line, "not well-formed XML: " + clean(e.getMessage()) + "; kept what was read before");
            }
        } catch (java.io.IOException e) {
            error(line, "read failed: " + clean(String.valueOf(e.getMessage())) + "; kept what was read before");
        } catch (ImportCancelledException e) {
            throw e;
        } catch (RuntimeException e) {
            error(line, (tooLarge(e) ? "file is larger than " + (SafeXml.MAX_BYTES >> 20) + " MiB; stopped reading"
                    : "read failed: " + clean(String.valueOf(e.getMessage()))) + "; kept what was read before");
        } finally {
            if (r != null) {
                try {
                    r.close();
                } catch (XMLStreamException ignored) {
                    // nothing more to read
                }
            }
        }
        if (anything) {
            builder.hostTopology(host);
        }
    }

    private void loop(XMLStreamReader r, Cancellation cancel) throws XMLStreamException {
        Deque<Frame> stack = new ArrayDeque<>();
        Map<String, Set<String>> grammar = null;
        int elements = 0;
        int events = 0;
        GraphState graph = null;
        while (r.hasNext()) {
            int ev = r.next();
            if ((++events & 0x3ff) == 0 && cancel.isCancelled()) {
                throw new ImportCancelledException();
            }
            switch (ev) {
                case XMLStreamConstants.DTD -> {
                    error(dtdStartLine(r), "DOCTYPE declaration: NCCL never writes one and this reader does not process "
                            + "DTDs or entities; refused, nothing it declares or names was read");
                    return;
                }
                case XMLStreamConstants.ENTITY_REFERENCE -> {
                    error(lineOf(r), "entity reference &" + r.getLocalName() + "; refused: entities are not expanded "
                            + "in NCCL XML; stopped reading");
                    return;
                }
                case XMLStreamConstants.START_ELEMENT -> {
                    if (++elements > MAX_ELEMENTS) {
                        error(lineOf(r), "more than " + MAX_ELEMENTS + " elements; stopped reading, kept what was read");
                        return;
                    }
                    if (stack.size() >= MAX_DEPTH) {
                        error(lineOf(r), "elements nested deeper than " + MAX_DEPTH
                                + " levels (NCCL topologies are under 10); stopped reading, kept what was read");
                        return;
                    }
                    String name = r.getLocalName();
                    Evidence e = evidence(r, name);
                    Map<String, String> attrs = attributes(r, e);
                    if (stack.isEmpty()) {
                        switch (name) {
                            case "system" -> {
                                grammar = TOPO_CHILDREN;
                                host.system(attrs, e);
                                anything = true;
                                stack.push(new Frame(name, null, false));
                            }
                            case "graphs" -> {
                                grammar = GRAPH_CHILDREN;
                                graph = new GraphState();
                                stack.push(new Frame(name, null, false));
                            }
                            case "topology" -> {
                                error(e.line(), "hwloc topology XML (<topology>, as lstopo and aws-ofi-nccl's test "
                                        + "fixtures write it), not NCCL's topology format (<system version=\"1\">); "
                                        + "NCCL_TOPO_FILE cannot use it either; skipped");
                                return;
                            }
                            default -> {
                                error(e.line(), "root element <" + name + "> is neither an NCCL topology (<system>) "
                                        + "nor an NCCL graph (<graphs>); skipped");
                                return;
                            }
                        }
                        continue;
                    }
                    Frame parent = stack.peek();
                    if (parent.skip() || !grammar.getOrDefault(parent.name(), Set.of()).contains(name)) {
                        if (!parent.skip()) {
                            ignored(e, "<" + name + "> is not expected inside <" + parent.name()
                                    + ">; ignored with its contents, as NCCL ignores it");
                        }
                        stack.push(new Frame(name, null, true));
                        continue;
                    }
                    Object made = grammar == TOPO_CHILDREN ? topoElement(name, parent, stack, attrs, e)
                            : graph.start(name, attrs, e, this);
                    stack.push(new Frame(name, made, made == SKIP));
                }
                case XMLStreamConstants.END_ELEMENT -> {
                    Frame f = stack.poll();
                    if (f != null && graph != null && !f.skip()) {
                        graph.end(f.name(), this);
                    }
                }
                default -> {
                    // characters, comments, processing instructions: NCCL files carry nothing in them
                }
            }
        }
    }

    private static final Object SKIP = new Object();

    private Object topoElement(String name, Frame parent, Deque<Frame> stack, Map<String, String> attrs, Evidence e) {
        Object p = parent.made();
        switch (name) {
            case "cpu" -> {
                return host.cpu(attrs, e);
            }
            case "pci" -> {
                Cpu cpu = p instanceof Cpu c ? c : p instanceof PciDevice d ? d.cpu() : null;
                PciDevice made = host.pci(cpu, p instanceof PciDevice d ? d : null, attrs, e);
                return made == null ? SKIP : made;
            }
            case "pcilink" -> {
                host.pcilink((PciDevice) p, attrs, e);
                return null;
            }
            case "gpu" -> {
                Gpu g = host.gpu((PciDevice) p, attrs, e);
                return g == null ? SKIP : g;
            }
            case "nvlink" -> {
                host.nvlink((Gpu) p, attrs, e);
                return null;
            }
            case "c2c" -> {
                host.c2c((Gpu) p, attrs, e);
                return null;
            }
            case "nic" -> {
                return p instanceof PciDevice d ? host.nic(d.cpu(), d, e) : host.nic((Cpu) p, null, e);
            }
            case "net" -> {
                host.net((Nic) p, attrs, e);
                return null;
            }
            default -> {
                return SKIP;
            }
        }
    }

    /** Graph dump state: the graph and channel being read. */
    private static final class GraphState {
        private Map<String, String> graphAttrs;
        private Evidence graphEvidence;
        private final List<NcclGraph.Channel> channels = new ArrayList<>();
        private List<NcclGraph.Step> steps;
        private Evidence channelEvidence;

        Object start(String name, Map<String, String> attrs, Evidence e, NcclXmlImporter im) {
            switch (name) {
                case "graph" -> {
                    graphAttrs = attrs;
                    graphEvidence = e;
                    channels.clear();
                }
                case "channel" -> {
                    steps = new ArrayList<>();
                    channelEvidence = e;
                }
                case "net", "gpu" -> {
                    Long dev = parse(attrs.get("dev"));
                    if (dev == null) {
                        im.warn(e.line(), "<" + name + "> without a readable dev; skipped");
                        return null;
                    }
                    Long rank = parse(attrs.get("rank"));
                    if (rank != null && (rank < Integer.MIN_VALUE || rank > Integer.MAX_VALUE)) {
                        im.warn(e.line(), "<" + name + " rank=\"" + attrs.get("rank") + "\"> is out of range (a C int); skipped");
                        return null;
                    }
                    steps.add(new NcclGraph.Step(name.equals("net"), dev, rank == null ? -1 : (int) (long) rank));
                }
                default -> { }
            }
            return null;
        }

        void end(String name, NcclXmlImporter im) {
            if (name.equals("channel") && steps != null) {
                channels.add(new NcclGraph.Channel(steps, channelEvidence));
                steps = null;
            } else if (name.equals("graph") && graphAttrs != null) {
                Map<String, String> a = graphAttrs;
                for (String k : new String[] {"id", "pattern", "nchannels", "crossnic", "samechannels"}) {
                    Long v = parse(a.get(k));
                    if (v != null && (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE)) {
                        im.warn(graphEvidence.line(), "<graph " + k + "=\"" + a.get(k) + "\"> is out of range (a C int); read as unknown");
                    }
                }
                NcclGraph g = new NcclGraph(intOf(a, "id"), intOf(a, "pattern"), intOf(a, "nchannels"),
                        a.getOrDefault("speedintra", ""), a.getOrDefault("speedinter", ""),
                        a.getOrDefault("latencyinter", ""), a.getOrDefault("typeintra", ""),
                        a.getOrDefault("typeinter", ""), intOf(a, "crossnic"), intOf(a, "samechannels"),
                        channels, graphEvidence);
                if (g.nchannels() >= 0 && g.nchannels() != channels.size()) {
                    im.warn(graphEvidence.line(), "graph " + g.id() + " says nchannels=" + g.nchannels()
                            + " but lists " + channels.size() + " channels");
                }
                im.host.graph(g);
                im.anything = true;
                graphAttrs = null;
            }
        }

        /** An int attribute; -1 when absent, unreadable or past the range of an int (warned by the caller). */
        private static int intOf(Map<String, String> a, String k) {
            Long v = parse(a.get(k));
            return v == null || v < Integer.MIN_VALUE || v > Integer.MAX_VALUE ? -1 : (int) (long) v;
        }

        private static Long parse(String s) {
            if (s == null) {
                return null;
            }
            String t = s.strip();
            try {
                if (t.startsWith("0x") || t.startsWith("0X")) {
                    return Long.parseUnsignedLong(t.substring(2), 16);
                }
                return Long.parseLong(t);
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    private static boolean tooLarge(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() != t ? t.getCause() : null) {
            if (t instanceof SafeXml.TooLarge) {
                return true;
            }
            if (t instanceof XMLStreamException x && x.getNestedException() instanceof SafeXml.TooLarge) {
                return true;
            }
        }
        return false;
    }

    private Map<String, String> attributes(XMLStreamReader r, Evidence e) {
        int n = r.getAttributeCount();
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < n && i < MAX_ATTRIBUTES; i++) {
            m.put(r.getAttributeLocalName(i), r.getAttributeValue(i));
        }
        if (n > MAX_ATTRIBUTES) {
            ignored(e, "<" + r.getLocalName() + "> has " + n + " attributes; ignoring those past "
                    + MAX_ATTRIBUTES + ", as NCCL does");
        }
        return m;
    }

    /** The start tag as evidence: file, line, and the tag rebuilt from its name and attributes. */
    private Evidence evidence(XMLStreamReader r, String name) {
        StringBuilder sb = new StringBuilder("<").append(name);
        for (int i = 0; i < r.getAttributeCount() && sb.length() < MAX_EVIDENCE; i++) {
            sb.append(' ').append(r.getAttributeLocalName(i)).append("=\"").append(r.getAttributeValue(i)).append('"');
        }
        String text = sb.length() > MAX_EVIDENCE ? sb.substring(0, MAX_EVIDENCE) + "..." : sb + ">";
        return Evidence.at(source, lineOf(r), text);
    }

    /** StAX reports where the DOCTYPE ends; its text tells how many lines back it began. */
    private static int dtdStartLine(XMLStreamReader r) {
        int end = lineOf(r);
        String text = r.getText();
        int newlines = 0;
        for (int i = 0; text != null && i < text.length(); i++) {
            if (text.charAt(i) == '\n') {
                newlines++;
            }
        }
        return Math.max(1, end - newlines);
    }

    private static int lineOf(XMLStreamReader r) {
        Location l = r.getLocation();
        return l == null ? 0 : Math.max(0, l.getLineNumber());
    }

    private void ignored(Evidence e, String message) {
        if (++ignoredReports <= MAX_IGNORED_REPORTS) {
            builder.diagnostic(Diagnostic.info(source, e.line(), message));
        }
    }

    private void warn(int line, String message) {
        builder.diagnostic(Diagnostic.warning(source, line, message));
    }

    private void error(int line, String message) {
        builder.diagnostic(Diagnostic.error(source, line, message));
    }

    /** The parser's message without its location prefix ("ParseError at [row,col]:[3,5]\nMessage: "). */
    private static String clean(String m) {
        if (m == null) {
            return "";
        }
        int i = m.indexOf("Message: ");
        String s = i >= 0 ? m.substring(i + 9) : m;
        return s.replace('\n', ' ').strip();
    }
}
