package org.fabricscope.model.evidence;

import org.fabricscope.model.core.Evidence;

/**
 * One fact an HCA's own tools print about the device or one of its ports, kept as text so that two captures can be
 * compared: {@code firmware} ({@code ibstat}'s "Firmware version", {@code ibv_devinfo}'s {@code fw_ver}),
 * {@code ca type} ({@code ibstat}), {@code part id} and {@code board id} ({@code ibv_devinfo}), and per port
 * {@code active mtu} ({@code ibv_devinfo}'s {@code active_mtu}, in bytes). {@code port} is 0 for a fact of the
 * device. Values longer than {@link #MAX_VALUE} characters are not kept (the reader skips them).
 */
public record HcaFact(String device, int port, String name, String value, Evidence evidence) {
    /** The longest value kept: firmware versions and board ids are short; longer text is not such a value. */
    public static final int MAX_VALUE = 64;

    public static final String FIRMWARE = "firmware";
    public static final String CA_TYPE = "ca type";
    public static final String PART_ID = "part id";
    public static final String BOARD_ID = "board id";
    public static final String ACTIVE_MTU = "active mtu";

    public HcaFact {
        device = device == null ? "" : device;
        value = value == null ? "" : value;
    }

    /** {@code mlx5_0 firmware}, {@code mlx5_0 port 1 active mtu}: how a comparison names it. */
    public String field() {
        return device + (port > 0 ? " port " + port : "") + " " + name;
    }
}
