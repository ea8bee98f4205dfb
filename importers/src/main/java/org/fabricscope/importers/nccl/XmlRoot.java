package org.fabricscope.importers.nccl;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Head;

/**
 * The root element of a head that is XML (its first non-blank character is {@code <}), comments
 * skipped, and whether it declares a DOCTYPE or ENTITY. Computed once per head for the XML readers.
 */
final class XmlRoot {
    private static final Pattern XML_COMMENT = Pattern.compile("(?s)<!--.*?(?:-->|$)");
    private static final Pattern XML_ROOT = Pattern.compile("<([A-Za-z_][\\w.:-]*)");
    private static final Pattern XML_DOCTYPE = Pattern.compile("<!DOCTYPE\\s+([A-Za-z_][\\w.:-]*)");

    /** Whether the head is XML at all. */
    final boolean xml;
    /** The root element's name, or null. */
    final String root;
    final boolean dtd;

    static XmlRoot of(Head head) {
        return head.derived(XmlRoot.class, XmlRoot::new);
    }

    private XmlRoot(Head head) {
        String text = head.text();
        int i = 0;
        while (i < text.length() && (Character.isWhitespace(text.charAt(i)) || text.charAt(i) == '\uFEFF')) {
            i++;
        }
        if (i >= text.length() || text.charAt(i) != '<') {
            xml = false;
            root = null;
            dtd = false;
            return;
        }
        xml = true;
        String body = XML_COMMENT.matcher(text.substring(i)).replaceAll(" ");
        dtd = body.contains("<!DOCTYPE") || body.contains("<!ENTITY");
        Matcher m = XML_ROOT.matcher(body);
        if (m.find()) {
            root = m.group(1);
        } else {
            Matcher d = XML_DOCTYPE.matcher(body);
            root = d.find() ? d.group(1) : null;
        }
    }

    boolean is(String name) {
        return xml && name.equals(root);
    }
}
