package org.fabricscope.model.evidence;

import org.fabricscope.model.core.Evidence;

/** One variable of a process's or pod's environment ({@code env}, {@code printenv}). */
public record EnvVar(String name, String value, Evidence evidence) {
}
