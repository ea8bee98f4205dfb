package org.fabricscope.model.evidence;

import org.fabricscope.model.core.Evidence;

/** One entry of {@code ls -l /dev/infiniband}: name, mode ({@code crw-rw-rw-}), owner and group. */
public record DeviceFile(String name, String mode, String owner, String group, Evidence evidence) {
    /** Everyone may read and write it (mode {@code ......rw.}). */
    public boolean openToAll() {
        return mode.length() >= 10 && mode.charAt(7) == 'r' && mode.charAt(8) == 'w';
    }

    /** Its group may read and write it (mode {@code ...rw....}). */
    public boolean openToGroup() {
        return mode.length() >= 10 && mode.charAt(4) == 'r' && mode.charAt(5) == 'w';
    }

    /** A user verbs device ({@code uverbsN}), what ibv_open_device opens. */
    public boolean uverbs() {
        return name.startsWith("uverbs");
    }
}
