package org.fabricscope.importers.lldp;

import org.fabricscope.model.core.Evidence;

import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * {@code lldpcli show neighbors -f xml}: {@code <lldp label="LLDP neighbors">} holding one
 * {@code <interface name="Ethernet0" via="LLDP" ...>} per neighbour, with {@code <chassis>} ({@code <id
 * type="mac">}, {@code <name>}, {@code <descr>}, {@code <mgmt-ip>}, {@code <capability type="Bridge"
 * enabled="on"/>}) and {@code <port>} ({@code <id type="ifname">}, {@code <descr>}). Source: lldpd
 * {@code src/client/xml_writer.c}. Untrusted input: no DTD, no entities (a DOCTYPE is refused at its
 * line), nesting at most {@link #MAX_DEPTH}.
 */
final class LldpXml {
    static final int MAX_DEPTH = 64;

    private LldpXml() {
    }

    static List<LldpNeighbour> parse(String source, LldpSections.Section s) throws LldpJson.Malformed {
        List<LldpNeighbour> out = new ArrayList<>();
        Deque<String> path = new ArrayDeque<>();
        NeighbourDraft d = null;
        String idType = "";
        StringBuilder text = new StringBuilder();
        XMLStreamReader r = null;
        try {
            r = org.fabricscope.importers.core.SecureStax.factory().createXMLStreamReader(new StringReader(String.join("\n", s.lines())));
            while (r.hasNext()) {
                int ev = r.next();
                int line = s.firstLine() + Math.max(0, r.getLocation().getLineNumber() - 1);
                switch (ev) {
                    case XMLStreamConstants.DTD -> throw new LldpJson.Malformed(
                            "DOCTYPE declaration: lldpcli never writes one and this reader does not process DTDs; refused", line);
                    case XMLStreamConstants.ENTITY_REFERENCE -> throw new LldpJson.Malformed(
                            "entity reference &" + r.getLocalName() + "; refused: lldpcli writes none", line);
                    case XMLStreamConstants.START_ELEMENT -> {
                        String name = r.getLocalName();
                        if (path.size() >= MAX_DEPTH) {
                            throw new LldpJson.Malformed("XML nested deeper than " + MAX_DEPTH
                                    + " elements (LldpXml.MAX_DEPTH); lldpcli's is 4 deep", line);
                        }
                        if (path.isEmpty() && !name.equals("lldp")) {
                            throw new LldpJson.Malformed("XML root <" + name + ">, not lldpcli's <lldp>", line);
                        }
                        String parent = path.peek();
                        path.push(name);
                        text.setLength(0);
                        if (name.equals("interface") && "lldp".equals(parent)) {
                            if (d != null) {
                                out.add(d.build());
                            }
                            String iface = attr(r, "name");
                            d = new NeighbourDraft(iface, Evidence.at(source, line, "<interface name=\"" + iface + "\">"));
                        } else if (name.equals("id")) {
                            idType = attr(r, "type");
                        } else if (name.equals("capability") && d != null) {
                            d.capability(attr(r, "type"), "on".equals(attr(r, "enabled")) || "true".equals(attr(r, "enabled")));
                        }
                    }
                    case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA -> {
                        if (text.length() <= NeighbourDraft.MAX_VALUE) { // one past the limit: the draft reports the cut
                            text.append(r.getText());
                        }
                    }
                    case XMLStreamConstants.END_ELEMENT -> {
                        String name = path.pop();
                        String parent = path.peek();
                        if (d != null) {
                            end(d, name, parent, idType, text.toString());
                        }
                        if (name.equals("interface") && "lldp".equals(parent) && d != null) {
                            out.add(d.build());
                            d = null;
                        }
                        text.setLength(0);
                    }
                    default -> {
                    }
                }
            }
        } catch (XMLStreamException e) {
            int line = e.getLocation() == null ? s.firstLine() : s.firstLine() + Math.max(0, e.getLocation().getLineNumber() - 1);
            String m = e.getMessage() == null ? "malformed XML" : e.getMessage().replaceAll("^ParseError at \\[row,col\\]:\\[\\d+,\\d+\\]\\s*Message: ", "");
            throw new LldpJson.Malformed("not well-formed XML: " + (m.length() > 160 ? m.substring(0, 157) + "..." : m).replace('\n', ' '), line);
        } finally {
            if (r != null) {
                try {
                    r.close();
                } catch (XMLStreamException e) {
                    // nothing held
                }
            }
        }
        if (d != null) {
            out.add(d.build());
        }
        return out;
    }

    private static void end(NeighbourDraft d, String name, String parent, String idType, String text) {
        if ("chassis".equals(parent)) {
            switch (name) {
                case "id" -> {
                    d.chassisIdType = idType;
                    d.chassisId = text;
                }
                case "name" -> d.sysName = text;
                case "descr" -> d.sysDescr = text;
                case "mgmt-ip" -> d.mgmt(text);
                default -> {
                }
            }
        } else if ("port".equals(parent)) {
            if (name.equals("id")) {
                d.portIdType = idType;
                d.portId = text;
            } else if (name.equals("descr")) {
                d.portDescr = text;
            }
        }
    }

    private static String attr(XMLStreamReader r, String name) {
        String v = r.getAttributeValue(null, name);
        return v == null ? "" : v.strip();
    }
}
