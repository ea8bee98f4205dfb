package org.fabricscope.importers.ibnet;

/**
 * A hand-written scanner for ibnetdiscover port lines, the bulk of every dump. It accepts the
 * same grammar as {@link IbnetdiscoverImporter}'s PORT_LINE and PORT_COMMENT patterns for well-formed
 * lines, about five times faster; anything it does not accept goes to the regular expressions,
 * which also produce the diagnostics. Fields are reused between lines.
 */
final class PortLineScanner {
    int localPort;
    String localPortGuid;
    String localExt;
    char peerKind;
    String peerGuid;
    int peerPort;
    String peerExt;
    String peerPortGuid;
    String comment;

    String localLid;
    String localLmc;
    String peerDescription;
    String peerLid;
    String rateToken;

    private String s;
    private int i;

    /** Scans {@code [1](guid) [ext 1]  "S-guid"[2][ext 2] (guid)  # comment}; false when it is not that. */
    boolean scanLine(String line) {
        s = line;
        i = 0;
        localPortGuid = null;
        localExt = null;
        peerExt = null;
        peerPortGuid = null;
        comment = null;
        if (!eat('[')) {
            return false;
        }
        localPort = digits();
        if (localPort < 0 || !eat(']')) {
            return false;
        }
        if (peek() == '(') {
            i++;
            localPortGuid = hexUntil(')');
            if (localPortGuid == null) {
                return false;
            }
        }
        skipSpace();
        if (s.startsWith("[ext ", i)) {
            i += 5;
            localExt = digitsText();
            if (localExt == null || !eat(']')) {
                return false;
            }
            skipSpace();
        }
        if (!eat('"') || i + 2 >= s.length()) {
            return false;
        }
        peerKind = s.charAt(i);
        if ("SHR?".indexOf(peerKind) < 0 || s.charAt(i + 1) != '-') {
            return false;
        }
        i += 2;
        peerGuid = hexUntil('"');
        if (peerGuid == null || !eat('[')) {
            return false;
        }
        peerPort = digits();
        if (peerPort < 0 || !eat(']')) {
            return false;
        }
        if (s.startsWith("[ext ", i)) {
            i += 5;
            peerExt = digitsText();
            if (peerExt == null || !eat(']')) {
                return false;
            }
        }
        skipSpace();
        if (peek() == '(') {
            i++;
            peerPortGuid = hexUntil(')');
            if (peerPortGuid == null) {
                return false;
            }
            skipSpace();
        }
        if (i == s.length()) {
            return true;
        }
        if (!eat('#')) {
            return false;
        }
        skipSpace();
        comment = s.substring(i);
        return true;
    }

    /** Scans {@code [lid N lmc N ]"peer name" lid N 4xHDR[ anything]}; false when it is not that. */
    boolean scanComment(String c) {
        s = c;
        i = 0;
        localLid = null;
        localLmc = null;
        if (s.startsWith("lid ")) {
            i = 4;
            localLid = digitsText();
            if (localLid == null || !s.startsWith(" lmc ", i)) {
                return false;
            }
            i += 5;
            localLmc = digitsText();
            if (localLmc == null) {
                return false;
            }
            skipSpace();
        }
        if (!eat('"')) {
            return false;
        }
        int close = s.lastIndexOf('"');
        if (close < i) {
            return false;
        }
        peerDescription = s.substring(i, close);
        i = close + 1;
        skipSpace();
        if (!s.startsWith("lid", i)) {
            return false;
        }
        i += 3;
        if (!skipSpace()) {
            return false;
        }
        peerLid = digitsText();
        if (peerLid == null || !skipSpace()) {
            return false;
        }
        int start = i;
        while (i < s.length() && !Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        if (i == start) {
            return false;
        }
        rateToken = s.substring(start, i);
        return true;
    }

    private char peek() {
        return i < s.length() ? s.charAt(i) : '\0';
    }

    private boolean eat(char c) {
        if (i < s.length() && s.charAt(i) == c) {
            i++;
            return true;
        }
        return false;
    }

    private boolean skipSpace() {
        int start = i;
        while (i < s.length() && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        return i > start;
    }

    private int digits() {
        int start = i;
        int v = 0;
        while (i < s.length() && Character.isDigit(s.charAt(i)) && i - start < 9) {
            v = v * 10 + (s.charAt(i) - '0');
            i++;
        }
        return i == start || (i < s.length() && Character.isDigit(s.charAt(i))) ? -1 : v;
    }

    private String digitsText() {
        int start = i;
        while (i < s.length() && Character.isDigit(s.charAt(i))) {
            i++;
        }
        return i == start ? null : s.substring(start, i);
    }

    private String hexUntil(char end) {
        int start = i;
        while (i < s.length() && Character.digit(s.charAt(i), 16) >= 0) {
            i++;
        }
        if (i == start || !eat(end)) {
            return null;
        }
        return s.substring(start, i - 1);
    }
}
