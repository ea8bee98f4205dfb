package org.fabricscope.importers.core;

import javax.xml.XMLConstants;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;

/**
 * The StAX factory every XML reader uses, set up for untrusted XML: no DTD processing, no external entities, no
 * external DTD or schema access, entity references left unreplaced (a reference is seen, never expanded). Limits on
 * size, depth, elements and attributes are each reader's own.
 */
public final class SecureStax {
    /**
     * One configured factory per thread, made on first use: a factory for each file cost 0.3 ms (a host folder holds
     * hundreds of topology files), and the JDK does not promise that one factory serves several threads at once.
     */
    private static final ThreadLocal<XMLInputFactory> FACTORY = ThreadLocal.withInitial(SecureStax::newFactory);

    private SecureStax() {
    }

    /** This thread's factory. Its settings are not to be changed. */
    public static XMLInputFactory factory() {
        return FACTORY.get();
    }

    private static XMLInputFactory newFactory() {
        // the JDK's own parser, the one these settings are for, without the look-up newFactory() makes on every
        // call (system property, stax.properties, then a ServiceLoader scan of every jar on the class path): 1.2 ms
        // a file, 40 ms of a diagnose of the bundled sample's 32 host files (BENCHMARKS.md, issue 27)
        XMLInputFactory f = XMLInputFactory.newDefaultFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, Boolean.FALSE);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, Boolean.FALSE);
        f.setProperty(XMLInputFactory.IS_REPLACING_ENTITY_REFERENCES, Boolean.FALSE);
        f.setProperty(XMLInputFactory.IS_COALESCING, Boolean.FALSE);
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, Boolean.FALSE);
        trySet(f, XMLConstants.ACCESS_EXTERNAL_DTD, "");
        trySet(f, XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        f.setXMLResolver((publicId, systemId, baseUri, namespace) -> {
            throw new XMLStreamException("external entity " + systemId + " refused");
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
}
