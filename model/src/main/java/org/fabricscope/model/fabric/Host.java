package org.fabricscope.model.fabric;

import org.fabricscope.model.core.Vertex;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A server, known by name, that groups the HCAs whose node descriptions carry that name
 * ({@code "<host> mlx5_0"}, {@code "<host> HCA-1"}).
 */
public final class Host implements Vertex {
    private final String name;
    private final List<FabricNode> adapters = new ArrayList<>();

    public Host(String name) {
        this.name = name;
    }

    public String name() {
        return name;
    }

    @Override
    public String id() {
        return "host:" + name;
    }

    @Override
    public String displayName() {
        return name;
    }

    public List<FabricNode> adapters() {
        return Collections.unmodifiableList(adapters);
    }

    void addAdapter(FabricNode adapter) {
        adapters.add(adapter);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Host h && h.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return id();
    }
}
