package org.fabricscope.model.compare;

/**
 * How one PMA counter of one port differs between two captures: its values ({@code before} null when the first
 * capture did not read it, {@code after} null when the second did not), the increase ({@code delta}, 0 when one
 * side is missing), whether the counter went backwards ({@code reset}: it was cleared or the device restarted, and
 * {@code delta} is then the new value, what accumulated since), and the increase per hour when both captures
 * carry a time for the reading ({@code perHour}, null otherwise). Values are 64-bit unsigned.
 */
public record CounterDelta(String port, long guid, int portNumber, String counter, Long before, Long after, long delta,
                           boolean reset, Double perHour) {
    /** Whether the second capture read more of this counter than the first (or read it after a reset). */
    public boolean grew() {
        return before != null && after != null && delta != 0;
    }

    /** {@code port: counter before -> after (+delta)}. */
    public String text() {
        String b = before == null ? "(not read)" : Long.toUnsignedString(before);
        String a = after == null ? "(not read)" : Long.toUnsignedString(after);
        StringBuilder s = new StringBuilder(port).append(": ").append(counter).append(' ').append(b).append(" -> ").append(a);
        if (before != null && after != null) {
            s.append(" (+").append(Long.toUnsignedString(delta)).append(reset ? " since it was cleared" : "").append(')');
        }
        if (perHour != null) {
            s.append(String.format(java.util.Locale.ROOT, ", %.1f/h", perHour));
        }
        return s.toString();
    }
}
