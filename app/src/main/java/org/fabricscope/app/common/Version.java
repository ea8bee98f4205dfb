package org.fabricscope.app.common;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/** The build's version, from a resource Maven fills in. */
public final class Version {
    private Version() {
    }

    public static String get() {
        try (InputStream in = Version.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "dev";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "dev");
        } catch (IOException e) {
            return "dev";
        }
    }
}
