package org.fabricscope.importers.ibnet;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.model.fabric.LinkSpeed;
import org.fabricscope.model.fabric.LinkWidth;

/** Splits ibnetdiscover's rate tokens, {@code 4xHDR}, {@code 12xQDR}, {@code ??SDR}, {@code 1x???}. */
final class RateToken {
    private static final Pattern TOKEN = Pattern.compile("^(1x|2x|4x|8x|12x|\\?\\?)(SDR|DDR|QDR|FDR10|FDR|EDR|HDR|NDR|XDR|\\?\\?\\?)$",
            Pattern.CASE_INSENSITIVE);

    final LinkWidth width;
    final LinkSpeed speed;

    private RateToken(LinkWidth width, LinkSpeed speed) {
        this.width = width;
        this.speed = speed;
    }

    private static final java.util.concurrent.ConcurrentHashMap<String, RateToken> SEEN = new java.util.concurrent.ConcurrentHashMap<>();
    private static final RateToken NONE = new RateToken(null, null);

    /** The parsed token, or null when the text is not a rate token at all. A dump has few distinct tokens: cache them. */
    static RateToken parse(String token) {
        RateToken known = SEEN.get(token);
        if (known == null) {
            known = parseUncached(token);
            if (SEEN.size() < 256) {
                SEEN.put(token, known == null ? NONE : known);
            }
        }
        return known == NONE ? null : known;
    }

    private static RateToken parseUncached(String token) {
        Matcher m = TOKEN.matcher(token);
        if (!m.matches()) {
            return null;
        }
        return new RateToken(LinkWidth.parse(m.group(1)), LinkSpeed.parse(m.group(2)));
    }
}
