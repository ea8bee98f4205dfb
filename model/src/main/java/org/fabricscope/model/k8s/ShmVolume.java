package org.fabricscope.model.k8s;

/**
 * The volume mounted at {@code /dev/shm} in a pod: its name, whether it is an emptyDir with
 * {@code medium: Memory} (the only kind that enlarges shared memory beyond the runtime's 64 MB
 * default), and its sizeLimit (null when none is set; the pod's memory limit caps it then).
 */
public record ShmVolume(String name, String type, String medium, Quantity sizeLimit) {
    public boolean memoryBacked() {
        return "emptyDir".equalsIgnoreCase(type) && "Memory".equalsIgnoreCase(medium);
    }
}
