package org.fabricscope.app.live.prom;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;

/**
 * Prometheus' JSON replies read strictly, as a stream (a range query's reply can be large): the envelope
 * ({@code status}, {@code error}, {@code errorType}, {@code data}), vectors and matrices as
 * {@link PromSeries}, string lists ({@code /api/v1/labels}). Duplicate keys, trailing content, nesting past
 * 32, strings past 1 MiB, numbers past 64 digits, and more than {@link PromLimits#MAX_SERIES} series are
 * refused with one line naming the URL.
 */
final class PromReply {
    private static final JsonFactory JSON = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(32).maxStringLength(1 << 20)
                    .maxNumberLength(64).build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    /** Labels one series may have. */
    static final int MAX_LABELS = 128;

    private PromReply() {
    }

    /** The series of a {@code query} or {@code query_range} reply; a PromException for an error reply or bad JSON. */
    static List<PromSeries> series(PromHttp.Reply r, int maxSeries) throws PromException {
        List<PromSeries> out = new ArrayList<>();
        envelope(r, p -> {
            String type = null;
            expect(p, p.nextToken(), JsonToken.START_OBJECT, r);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                JsonToken t = p.nextToken();
                if (f.equals("resultType")) {
                    type = p.getValueAsString();
                } else if (f.equals("result")) {
                    expect(p, t, JsonToken.START_ARRAY, r);
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        if (out.size() >= maxSeries) {
                            throw new PromException(r.url() + " returned more than " + maxSeries
                                    + " series (PromLimits.MAX_SERIES); narrow the query");
                        }
                        out.add(one(p, r));
                    }
                    expect(p, p.currentToken(), JsonToken.END_ARRAY, r);
                } else {
                    p.skipChildren();
                }
            }
            if (type != null && !type.equals("matrix") && !type.equals("vector")) {
                throw new PromException(r.url() + " returned a " + type + ", not series");
            }
        });
        return out;
    }

    /** The label sets of a {@code series} reply, as series without samples. */
    static List<PromSeries> labelSets(PromHttp.Reply r, int maxSeries) throws PromException {
        List<PromSeries> out = new ArrayList<>();
        envelope(r, p -> {
            expect(p, p.nextToken(), JsonToken.START_ARRAY, r);
            while (p.nextToken() == JsonToken.START_OBJECT) {
                if (out.size() >= maxSeries) {
                    throw new PromException(r.url() + " returned more than " + maxSeries
                            + " series (PromLimits.MAX_SERIES); narrow the match");
                }
                Map<String, String> labels = new LinkedHashMap<>();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String k = p.currentName();
                    expect(p, p.nextToken(), JsonToken.VALUE_STRING, r);
                    if (labels.size() >= MAX_LABELS) {
                        throw new PromException(r.url() + " returned a series with more than " + MAX_LABELS + " labels");
                    }
                    labels.put(k, p.getText());
                }
                out.add(new PromSeries(labels, new long[0], new double[0]));
            }
            expect(p, p.currentToken(), JsonToken.END_ARRAY, r);
        });
        return out;
    }

    /** The strings of a {@code labels} or {@code label/x/values} reply. */
    static List<String> strings(PromHttp.Reply r, int max) throws PromException {
        List<String> out = new ArrayList<>();
        envelope(r, p -> {
            expect(p, p.nextToken(), JsonToken.START_ARRAY, r);
            while (p.nextToken() == JsonToken.VALUE_STRING) {
                if (out.size() >= max) {
                    throw new PromException(r.url() + " returned more than " + max + " names (PromLimits.MAX_SERIES)");
                }
                out.add(p.getText());
            }
            expect(p, p.currentToken(), JsonToken.END_ARRAY, r);
        });
        return out;
    }

    /** The string fields of a {@code status/buildinfo} reply's data ({@code version}, ...). */
    static Map<String, String> fields(PromHttp.Reply r) throws PromException {
        Map<String, String> out = new LinkedHashMap<>();
        envelope(r, p -> {
            expect(p, p.nextToken(), JsonToken.START_OBJECT, r);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                JsonToken t = p.nextToken();
                if (t == JsonToken.VALUE_STRING && out.size() < MAX_LABELS) {
                    out.put(f, p.getText());
                } else {
                    p.skipChildren();
                }
            }
        });
        return out;
    }

    private interface Data {
        void read(JsonParser p) throws IOException, PromException;
    }

    /** Reads the envelope; {@code data} reads the value of {@code "data"} (its first token not yet taken). */
    private static void envelope(PromHttp.Reply r, Data data) throws PromException {
        String type = r.contentType().toLowerCase(java.util.Locale.ROOT);
        boolean json = type.contains("json");
        if (!json && r.status() / 100 == 2) {
            throw new PromException(r.url() + " answered with " + (type.isEmpty() ? "no content type" : type.split(";")[0])
                    + ", not JSON: is this the Prometheus API?" + snippet(r.body()));
        }
        String status = null;
        String error = null;
        String errorType = null;
        boolean sawData = false;
        try (JsonParser p = JSON.createParser(r.body())) {
            expect(p, p.nextToken(), JsonToken.START_OBJECT, r);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String f = p.currentName();
                if (f.equals("data") && r.status() / 100 == 2) {
                    data.read(p);
                    sawData = true;
                    continue;
                }
                JsonToken t = p.nextToken();
                switch (f) {
                    case "status" -> status = t == JsonToken.VALUE_STRING ? p.getText() : null;
                    case "error" -> error = t == JsonToken.VALUE_STRING ? p.getText() : null;
                    case "errorType" -> errorType = t == JsonToken.VALUE_STRING ? p.getText() : null;
                    default -> p.skipChildren();
                }
            }
            expect(p, p.currentToken(), JsonToken.END_OBJECT, r);
            if (p.nextToken() != null) {
                throw new PromException(r.url() + " returned JSON followed by more content; not a Prometheus reply");
            }
        } catch (JsonProcessingException e) {
            if (r.status() / 100 != 2) {
                throw new PromException(r.url() + " answered HTTP " + r.status() + hint(r.status()) + snippet(r.body()));
            }
            throw new PromException(r.url() + " returned a reply that is not Prometheus JSON: "
                    + PromHttp.oneLine(e.getOriginalMessage()) + (e.getLocation() == null ? ""
                    : " (at byte " + e.getLocation().getByteOffset() + ")"));
        } catch (IOException e) {
            throw new PromException(r.url() + ": the reply cannot be read: " + PromHttp.oneLine(e.getMessage()));
        }
        if (r.status() / 100 != 2 || "error".equals(status)) {
            throw new PromException(r.url() + " answered HTTP " + r.status() + hint(r.status())
                    + (error == null ? "" : ": " + (errorType == null ? "" : errorType + ": ") + PromHttp.oneLine(error)));
        }
        if (!"success".equals(status) || !sawData) {
            throw new PromException(r.url() + " returned JSON without status \"success\" and data; not a Prometheus reply");
        }
    }

    private static String hint(int status) {
        return switch (status) {
            case 401 -> " (unauthorized: check the bearer token or the user and password)";
            case 403 -> " (forbidden: the credentials may not read this server)";
            case 404 -> " (not found: is the URL the Prometheus server's base, with its path prefix?)";
            case 422 -> " (the query could not be run)";
            case 503 -> " (unavailable: the server is starting or overloaded)";
            default -> "";
        };
    }

    private static String snippet(byte[] body) {
        String s = new String(body, 0, Math.min(body.length, 120), java.nio.charset.StandardCharsets.UTF_8).strip();
        s = s.replaceAll("[\\p{Cntrl}\\s]+", " ");
        return s.isEmpty() ? "" : ": \"" + s + (body.length > 120 ? "…" : "") + "\"";
    }

    /** One {@code {"metric": {...}, "values": [[t, "v"], ...]}} (or {@code "value": [t, "v"]}). */
    private static PromSeries one(JsonParser p, PromHttp.Reply r) throws IOException, PromException {
        Map<String, String> labels = new LinkedHashMap<>();
        long[] t = new long[16];
        double[] v = new double[16];
        int n = 0;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String f = p.currentName();
            JsonToken tok = p.nextToken();
            if (f.equals("metric")) {
                expect(p, tok, JsonToken.START_OBJECT, r);
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String k = p.currentName();
                    expect(p, p.nextToken(), JsonToken.VALUE_STRING, r);
                    if (labels.size() >= MAX_LABELS) {
                        throw new PromException(r.url() + " returned a series with more than " + MAX_LABELS + " labels");
                    }
                    labels.put(k, p.getText());
                }
            } else if (f.equals("value")) {
                long[] tv = new long[1];
                double[] vv = new double[1];
                point(p, tok, r, tv, vv, 0);
                t[0] = tv[0];
                v[0] = vv[0];
                n = 1;
            } else if (f.equals("values")) {
                expect(p, tok, JsonToken.START_ARRAY, r);
                JsonToken x;
                while ((x = p.nextToken()) == JsonToken.START_ARRAY) {
                    if (n == PromLimits.MAX_POINTS) {
                        throw new PromException(r.url() + " returned more than " + PromLimits.MAX_POINTS
                                + " points for one series (PromLimits.MAX_POINTS)");
                    }
                    if (n == t.length) {
                        t = java.util.Arrays.copyOf(t, n * 2);
                        v = java.util.Arrays.copyOf(v, n * 2);
                    }
                    point(p, x, r, t, v, n++);
                }
                expect(p, x, JsonToken.END_ARRAY, r);
            } else {
                p.skipChildren();
            }
        }
        return new PromSeries(labels, java.util.Arrays.copyOf(t, n), java.util.Arrays.copyOf(v, n));
    }

    /** {@code [1795834800.123, "42"]} into slot {@code i}. */
    private static void point(JsonParser p, JsonToken start, PromHttp.Reply r, long[] t, double[] v, int i)
            throws IOException, PromException {
        expect(p, start, JsonToken.START_ARRAY, r);
        JsonToken a = p.nextToken();
        if (a != JsonToken.VALUE_NUMBER_INT && a != JsonToken.VALUE_NUMBER_FLOAT) {
            throw new PromException(r.url() + " returned a sample without a numeric time; not a Prometheus reply");
        }
        t[i] = Math.round(p.getDoubleValue() * 1000);
        expect(p, p.nextToken(), JsonToken.VALUE_STRING, r);
        String s = p.getText();
        try {
            v[i] = switch (s) {
                case "NaN" -> Double.NaN;
                case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
                case "-Inf" -> Double.NEGATIVE_INFINITY;
                default -> Double.parseDouble(s);
            };
        } catch (NumberFormatException e) {
            throw new PromException(r.url() + " returned a sample value that is not a number: \"" + PromHttp.oneLine(s) + "\"");
        }
        expect(p, p.nextToken(), JsonToken.END_ARRAY, r);
    }

    private static void expect(JsonParser p, JsonToken got, JsonToken want, PromHttp.Reply r) throws PromException {
        if (got != want) {
            throw new PromException(r.url() + " returned unexpected JSON (" + (got == null ? "end of reply" : got.asString() == null
                    ? got.name() : "'" + got.asString() + "'") + " where " + want.name().toLowerCase(java.util.Locale.ROOT)
                    .replace('_', ' ') + " was expected, at byte " + p.currentLocation().getByteOffset() + ")");
        }
    }
}
