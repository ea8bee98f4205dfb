package org.fabricscope.importers.ibnet;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.fabricscope.model.LinkSpeed;
import org.fabricscope.model.LinkWidth;

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

    /** The parsed token, or null when the text is not a rate token at all. */
    static RateToken parse(String token) {
        Matcher m = TOKEN.matcher(token);
        if (!m.matches()) {
            return null;
        }
        return new RateToken(LinkWidth.parse(m.group(1)), LinkSpeed.parse(m.group(2)));
    }
}
