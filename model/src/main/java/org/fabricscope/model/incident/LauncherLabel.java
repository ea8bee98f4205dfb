package org.fabricscope.model.incident;

/**
 * The label a launcher that gathers many processes' output puts before each of their lines: a task id or a host name,
 * a colon and a space ({@link #end}), or a bracketed tag and a colon ({@link #tagEnd}). Read by hand, in one pass:
 * <ul>
 * <li>Slurm's {@code srun --label}: the task id zero-padded to the width of the largest, {@code 03: }
 * ({@code src/common/write_labelled_message.c}, {@code "%0*d: "});</li>
 * <li>pdsh, and DeepSpeed's multi-node launcher that runs it: the host, {@code worker-3: } (pdsh's
 * {@code "%s: "} before each line of a remote command's output).</li>
 * </ul>
 * A host is taken when it looks like one and not like the start of a message: letters, digits, dots and dashes,
 * starting and ending with a letter or digit, at most 63 characters, holding a digit or a dash. So
 * {@code RuntimeError: } and {@code torch.distributed.DistBackendError: } are messages, and a host named with letters
 * only ({@code localhost: }) is not read as a label.
 */
public final class LauncherLabel {
    private LauncherLabel() {
    }

    /** Where the label at {@code at} in {@code s} ends (after its space); {@code at} when there is none. */
    public static int end(String s, int at) {
        int i = at;
        boolean digitOrDash = false;
        while (i < s.length() && i - at < 63) {
            char c = s.charAt(i);
            if (c >= '0' && c <= '9' || c == '-') {
                digitOrDash = true;
            } else if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.')) {
                break;
            }
            i++;
        }
        if (i == at || !digitOrDash || i + 1 >= s.length() || s.charAt(i) != ':' || s.charAt(i + 1) != ' '
                || !alnum(s.charAt(at)) || !alnum(s.charAt(i - 1))) {
            return at;
        }
        return i + 2;
    }

    /**
     * Where a bracketed tag a colon follows ends, from {@code [} at {@code at}: 1 to 63 characters other than brackets,
     * spaces and control characters, then {@code ]:}; {@code at} when there is none. torchrun's worker prefix,
     * {@code [default0]:} (its default {@code [{role}{local_rank}]:}), or what a prefix template made of it
     * ({@code [trainer3|1]:}, {@code [3]:}); PyTorch's own {@code [rank3]:} has this shape too.
     */
    public static int tagEnd(String s, int at) {
        if (at >= s.length() || s.charAt(at) != '[') {
            return at;
        }
        int i = at + 1;
        while (i < s.length() && i - at < 64) {
            char c = s.charAt(i);
            if (c <= ' ' || c == '[' || c == ']') {
                break;
            }
            i++;
        }
        return i > at + 1 && s.startsWith("]:", i) ? i + 2 : at;
    }

    private static boolean alnum(char c) {
        return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
    }
}
