package org.fabricscope.importers.k8s;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;

import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.parser.ParserImpl;

import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactoryBuilder;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;

/**
 * Jackson mappers for untrusted kubectl output and kubeconfigs. YAML goes through SnakeYAML with
 * limits on aliases, nesting and size (Jackson streams SnakeYAML events and does not expand
 * aliases, so billion-laughs documents stay their own size) and through {@link LinearStreamReader},
 * so a long scalar costs time in its length, not its square; JSON with Jackson's stream
 * constraints. Both only build trees: no polymorphic typing, no bean binding.
 */
public final class KubeMappers {
    /** The largest Kubernetes file read: a {@code kubectl get pods -A -o json} of a big cluster. */
    public static final int MAX_BYTES = 256 * 1024 * 1024;
    /** Nesting deeper than this (objects in lists in objects ...) ends the file with a diagnostic. */
    public static final int MAX_DEPTH = 64;
    /** The longest single string value (an annotation, a message). Kubernetes caps all annotations at 256 KiB. */
    public static final int MAX_STRING = 16 * 1024 * 1024;
    /** YAML aliases to collections per document. */
    public static final int MAX_ALIASES = 20;

    private KubeMappers() {
    }

    private static StreamReadConstraints constraints() {
        return StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).maxStringLength(MAX_STRING)
                .maxNumberLength(64).build();
    }

    public static ObjectMapper json() {
        return new ObjectMapper(newJsonFactory()); // a mapper makes itself its factory's codec: a factory of its own
    }

    public static ObjectMapper yaml() {
        return new ObjectMapper(newYamlFactory());
    }

    /** Parser factories are thread-safe: one each, shared by every file and allocatable line read. */
    private static final JsonFactory JSON_PARSERS = newJsonFactory();
    private static final JsonFactory YAML_PARSERS = newYamlFactory();

    /**
     * The JSON parsers of {@link #json()} without a mapper: trees are built from them by
     * {@link org.fabricscope.model.core.JsonTrees}, as the mapper builds them. A mapper's first use (date
     * format, locale data, introspection) was 30-60 ms of every {@code diagnose} that read a Kubernetes file.
     * Shared: not to be handed to a mapper, which would make itself its codec.
     */
    public static JsonFactory jsonFactory() {
        return JSON_PARSERS;
    }

    /** The YAML parsers of {@link #yaml()} without a mapper, shared (see {@link #jsonFactory()}). */
    public static JsonFactory yamlFactory() {
        return YAML_PARSERS;
    }

    private static JsonFactory newJsonFactory() {
        return JsonFactory.builder().streamReadConstraints(constraints()).build();
    }

    private static JsonFactory newYamlFactory() {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(MAX_ALIASES);
        options.setNestingDepthLimit(MAX_DEPTH);
        options.setCodePointLimit(MAX_BYTES);
        options.setAllowDuplicateKeys(true);
        return new LinearYamlFactory(YAMLFactory.builder().loaderOptions(options).streamReadConstraints(constraints()));
    }

    /**
     * Composes the YAML documents of {@code text} into SnakeYAML's node graph under the same limits
     * (aliases, nesting, size) and the linear reader, and returns the first document's root, or null
     * when the text holds none. For files handed to a library that parses YAML itself (kubeconfigs
     * go to fabric8): a document this accepts is one whose aliases and depth that library can
     * afford. Throws what SnakeYAML throws ({@link YamlProblems} turns it into one line).
     */
    public static org.yaml.snakeyaml.nodes.Node compose(Reader text) {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(MAX_ALIASES);
        options.setNestingDepthLimit(MAX_DEPTH);
        options.setCodePointLimit(MAX_BYTES);
        options.setAllowDuplicateKeys(true);
        org.yaml.snakeyaml.composer.Composer composer = new org.yaml.snakeyaml.composer.Composer(
                new ParserImpl(new LinearStreamReader(text), options), new org.yaml.snakeyaml.resolver.Resolver(), options);
        org.yaml.snakeyaml.nodes.Node first = null;
        while (composer.checkNode()) {
            org.yaml.snakeyaml.nodes.Node n = composer.getNode();
            if (first == null) {
                first = n;
            }
        }
        return first;
    }

    /** Jackson's YAML factory with SnakeYAML reading through {@link LinearStreamReader}. */
    private static final class LinearYamlFactory extends YAMLFactory {
        private static final long serialVersionUID = 1L;

        LinearYamlFactory(YAMLFactoryBuilder b) {
            super(b);
        }

        @Override
        protected YAMLParser _createParser(InputStream in, IOContext ctxt) throws IOException {
            return parser(_createReader(in, null, ctxt), ctxt);
        }

        @Override
        protected YAMLParser _createParser(Reader r, IOContext ctxt) throws IOException {
            return parser(r, ctxt);
        }

        @Override
        protected YAMLParser _createParser(char[] data, int offset, int len, IOContext ctxt, boolean recyclable)
                throws IOException {
            return parser(new java.io.CharArrayReader(data, offset, len), ctxt);
        }

        @Override
        protected YAMLParser _createParser(byte[] data, int offset, int len, IOContext ctxt) throws IOException {
            return parser(_createReader(data, offset, len, null, ctxt), ctxt);
        }

        private YAMLParser parser(Reader r, IOContext ctxt) {
            return new Parser(ctxt, _parserFeatures, _yamlParserFeatures, _objectCodec, r,
                    new ParserImpl(new LinearStreamReader(r), _loaderOptions));
        }
    }

    /** Opens Jackson's constructor that takes a ready SnakeYAML parser. */
    private static final class Parser extends YAMLParser {
        Parser(IOContext ctxt, int parserFeatures, int formatFeatures, com.fasterxml.jackson.core.ObjectCodec codec,
               Reader reader, ParserImpl yamlParser) {
            super(ctxt, parserFeatures, formatFeatures, codec, reader, yamlParser);
        }
    }
}
