package org.fabricscope.model.k8s;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Kubernetes resource quantity ({@code k8s.io/apimachinery/pkg/api/resource}): a signed decimal
 * number with an optional suffix, either binary SI ({@code Ki Mi Gi Ti Pi Ei}), decimal SI
 * ({@code n u m k M G T P E}) or a decimal exponent ({@code 1e3}, {@code 1E-3}). The value is kept
 * exactly as a {@link BigDecimal} in base units (cores, bytes, devices) with the text as read.
 */
public record Quantity(BigDecimal value, String text) implements Comparable<Quantity> {
    private static final Pattern FORM = Pattern.compile(
            "^([+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+))(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\\d+)?$");
    public static final Quantity ZERO = new Quantity(BigDecimal.ZERO, "0");

    public Quantity {
        Objects.requireNonNull(value, "value");
        text = text == null ? value.toPlainString() : text;
    }

    /** Parses a quantity; throws {@link IllegalArgumentException} naming the text when it is not one. */
    public static Quantity parse(String text) {
        Quantity q = tryParse(text);
        if (q == null) {
            throw new IllegalArgumentException("not a Kubernetes quantity: \"" + text + "\"");
        }
        return q;
    }

    /** The quantity, or null when the text is not one. */
    public static Quantity tryParse(String text) {
        if (text == null) {
            return null;
        }
        String t = text.trim();
        if (t.isEmpty() || t.length() > 64) {
            return null;
        }
        Matcher m = FORM.matcher(t);
        if (!m.matches()) {
            return null;
        }
        BigDecimal number = new BigDecimal(m.group(1).endsWith(".") ? m.group(1) + "0" : m.group(1));
        String suffix = m.group(2);
        BigDecimal v;
        if (suffix == null) {
            v = number;
        } else if (suffix.length() == 2 && suffix.charAt(1) == 'i') {
            int power = "KMGTPE".indexOf(suffix.charAt(0)) + 1;
            v = number.multiply(BigDecimal.valueOf(1024).pow(power));
        } else if (suffix.length() > 1 && (suffix.charAt(0) == 'e' || suffix.charAt(0) == 'E')) {
            String digits = suffix.substring(1).replace("+", "");
            if (digits.replace("-", "").length() > 3) {
                return null; // an exponent past 999 (or past 32 bits) is no quantity Kubernetes accepts
            }
            int exp = Integer.parseInt(digits);
            if (Math.abs(exp) > 30) {
                return null;
            }
            v = number.scaleByPowerOfTen(exp);
        } else {
            int exp = switch (suffix) {
                case "n" -> -9;
                case "u" -> -6;
                case "m" -> -3;
                case "k" -> 3;
                case "M" -> 6;
                case "G" -> 9;
                case "T" -> 12;
                case "P" -> 15;
                default -> 18; // E
            };
            v = number.scaleByPowerOfTen(exp);
        }
        return new Quantity(v.stripTrailingZeros(), t);
    }

    public static Quantity of(long units) {
        return new Quantity(BigDecimal.valueOf(units), Long.toString(units));
    }

    public Quantity plus(Quantity o) {
        BigDecimal v = value.add(o.value);
        return new Quantity(v, v.stripTrailingZeros().toPlainString());
    }

    public Quantity minus(Quantity o) {
        BigDecimal v = value.subtract(o.value);
        return new Quantity(v, v.stripTrailingZeros().toPlainString());
    }

    public boolean isPositive() {
        return value.signum() > 0;
    }

    /** The value as a double in base units (a CPU of {@code 15890m} is 15.89). */
    public double toDouble() {
        return value.doubleValue();
    }

    /** A short human form in base units: whole numbers plainly, bytes in Gi when large. */
    public String display(String resource) {
        boolean bytes = resource != null && (resource.equals("memory") || resource.startsWith("hugepages-")
                || resource.equals("ephemeral-storage"));
        if (bytes && value.abs().compareTo(BigDecimal.valueOf(1L << 30)) >= 0) {
            return value.divide(BigDecimal.valueOf(1L << 30), 1, RoundingMode.HALF_UP).stripTrailingZeros()
                    .toPlainString() + "Gi";
        }
        return value.setScale(Math.min(Math.max(value.scale(), 0), 3), RoundingMode.HALF_UP).stripTrailingZeros()
                .toPlainString();
    }

    @Override
    public int compareTo(Quantity o) {
        return value.compareTo(o.value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Quantity q && value.compareTo(q.value) == 0;
    }

    @Override
    public int hashCode() {
        return value.stripTrailingZeros().hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
