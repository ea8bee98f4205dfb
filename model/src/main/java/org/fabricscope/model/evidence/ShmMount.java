package org.fabricscope.model.evidence;

import org.fabricscope.model.core.Evidence;

/** {@code /dev/shm} as {@code df -h /dev/shm} shows it: its size as printed ({@code 64M}) and in bytes. */
public record ShmMount(String size, long bytes, Evidence evidence) {
}
