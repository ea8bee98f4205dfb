package org.fabricscope.importers.ibnet;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.importers.core.Numbers;

/**
 * One line of a node's id block ({@code vendid=0x2c9}, {@code devid=}, {@code sysimgguid=}, {@code switchguid=},
 * {@code caguid=}, {@code rtguid=}), its value read and checked from the line alone so that this can run ahead of the
 * line's turn; the importer then sets it on the block in line order. A value out of range is kept as the message the
 * importer reports ({@link #error}).
 */
final class IdLine {
    private static final Pattern ID_LINE = Pattern.compile(
            "^(vendid|devid|sysimgguid|switchguid|caguid|rtguid|rtrguid)=(?:0x)?([0-9a-fA-F]+)(?:\\(([0-9a-fA-F]+)\\))?\\s*(?:#.*)?$");
    private static final String[] KEYS = {"vendid", "devid", "sysimgguid", "switchguid", "caguid", "rtguid", "rtrguid"};

    /** Whether the line came as {@code > } (the current side of {@code ibnetdiscover --diff}). */
    final boolean diff;
    /** One of {@link #KEYS}, as the constant. */
    final String key;
    /** The value: a vendor id (24 bits), device id (16 bits) or GUID; meaningless when {@link #error} is set. */
    long value;
    /** Why the value is out of range ("...; line skipped"), or null. */
    String error;

    private IdLine(boolean diff, String key) {
        this.diff = diff;
        this.key = key;
    }

    boolean isVendorId() {
        return key == KEYS[0];
    }

    boolean isDeviceId() {
        return key == KEYS[1];
    }

    boolean isSysImgGuid() {
        return key == KEYS[2];
    }

    /** Line {@code l}, stripped (and without its {@code > }: {@code diff}), read as an id line; null when it is none. */
    static IdLine read(String l, boolean diff) {
        IdLine d = quick(l, diff);
        if (d == null) {
            Matcher m = ID_LINE.matcher(l);
            if (!m.matches()) {
                return null;
            }
            d = value(new IdLine(diff, constant(m.group(1))), m.group(2));
        }
        return d;
    }

    private static String constant(String key) {
        for (String k : KEYS) {
            if (k.equals(key)) {
                return k;
            }
        }
        throw new IllegalArgumentException(key); // the expression admits no other
    }

    private static IdLine value(IdLine d, String text) {
        try {
            switch (d.key) {
                case "vendid" -> d.value = IbnetdiscoverImporter.hex(text, 0xFFFFFF, "vendor id"); // 24 bits (an IEEE OUI)
                case "devid" -> d.value = IbnetdiscoverImporter.hex(text, 0xFFFF, "device id");
                case "sysimgguid" -> d.value = IbnetdiscoverImporter.guid(text, "system image GUID");
                default -> d.value = IbnetdiscoverImporter.guid(text, d.key);
            }
        } catch (Numbers.OutOfRange e) {
            d.error = e.getMessage() + "; line skipped";
        }
        return d;
    }

    /**
     * An id line in the form every ibnetdiscover prints ({@code key=0xHEX}, optionally {@code (HEX)}, nothing after),
     * read without the regex: four of them head every node's block, and with the C1 compiler the window's launcher
     * uses the regex was a tenth of reading ten times Selene. Null (nothing read) for anything else, which
     * {@link #ID_LINE} then decides as before.
     */
    private static IdLine quick(String l, boolean diff) {
        int eq = l.indexOf('=');
        String key = null;
        for (String k : KEYS) {
            if (k.length() == eq && l.startsWith(k)) {
                key = k;
                break;
            }
        }
        if (key == null) {
            return null;
        }
        int n = l.length();
        int i = l.startsWith("0x", eq + 1) ? eq + 3 : eq + 1;
        int start = i;
        while (i < n && asciiHex(l.charAt(i))) {
            i++;
        }
        if (i == start) {
            return null;
        }
        String text = l.substring(start, i);
        if (i < n) {
            if (l.charAt(i) != '(') {
                return null;
            }
            int j = i + 1;
            while (j < n && asciiHex(l.charAt(j))) {
                j++;
            }
            if (j == i + 1 || j != n - 1 || l.charAt(j) != ')') {
                return null;
            }
        }
        return value(new IdLine(diff, key), text);
    }

    /** [0-9a-fA-F], as the regex has it (Character.digit also takes other scripts' digits). */
    static boolean asciiHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
