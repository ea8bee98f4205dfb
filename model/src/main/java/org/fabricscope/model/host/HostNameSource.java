package org.fabricscope.model.host;

/** How the host a topology file belongs to was decided, most trusted first. */
public enum HostNameSource {
    /** Given by the caller (an importer told which host it reads). */
    EXPLICIT,
    /** A {@code net guid} matched the system image GUID of HCAs described {@code "<host> mlx5_N"}. */
    FABRIC_GUID,
    /** The file name: {@code <host>.xml}, {@code <host>.topo.xml}. */
    FILE_NAME,
    /** The folder name: {@code <host>/topo.xml}. */
    FOLDER_NAME,
    /** Nothing said; the name is made up from the file. */
    NONE
}
