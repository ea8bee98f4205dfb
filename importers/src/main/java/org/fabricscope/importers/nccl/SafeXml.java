package org.fabricscope.importers.nccl;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;

/**
 * StAX set up for untrusted XML: no DTD processing, no external entities, no external DTD or
 * schema access, entity references left unreplaced (so a reference is seen, never expanded), and
 * a cap on the bytes read. Depth, element and attribute limits are enforced by the reader loop.
 */
final class SafeXml {
    /** NCCL's dumps are a few KiB; a 1,000-GPU-host hand-written file stays far below this. */
    static final long MAX_BYTES = 16L * 1024 * 1024;

    private SafeXml() {
    }

    static XMLInputFactory factory() {
        XMLInputFactory f = XMLInputFactory.newFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, Boolean.FALSE);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, Boolean.FALSE);
        f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, Boolean.FALSE);
        f.setProperty(XMLInputFactory.IS_COALESCING, Boolean.FALSE);
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, Boolean.FALSE);
        trySet(f, XMLConstants.ACCESS_EXTERNAL_DTD, "");
        trySet(f, XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        f.setXMLResolver((publicId, systemId, baseUri, namespace) -> {
            throw new javax.xml.stream.XMLStreamException("external entity " + systemId + " refused");
        });
        return f;
    }

    private static void trySet(XMLInputFactory f, String name, Object value) {
        try {
            f.setProperty(name, value);
        } catch (IllegalArgumentException e) {
            // a StAX implementation without JAXP 1.5 properties; DTDs are off anyway
        }
    }

    /** Thrown by {@link Capped} when a file is larger than {@link #MAX_BYTES}. */
    static final class TooLarge extends IOException {
        private static final long serialVersionUID = 1L;

        TooLarge() {
            super("file is larger than " + (MAX_BYTES >> 20) + " MiB");
        }
    }

    /** Counts bytes and fails past the cap. */
    static final class Capped extends FilterInputStream {
        private long count;

        Capped(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0 && ++count > MAX_BYTES) {
                throw new TooLarge();
            }
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = super.read(buf, off, len);
            if (n > 0) {
                count += n;
                if (count > MAX_BYTES) {
                    throw new TooLarge();
                }
            }
            return n;
        }
    }
}
