package org.fabricscope.app.live.kube;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A scripted container log for {@link PodLogStubServer}: fixed timestamped lines, served from
 * {@code sinceTime} (second precision, as the kubelet does), with planned cuts: at a cut the stub writes
 * half of the next line and then drops the connection (abruptly or with a clean end), once per cut.
 */
final class PodLogScript implements PodLogStubServer.LogSource {
    record Line(long epochNanos, String text) {
        /** The line as the kubelet serves it with timestamps=true. */
        String wire() {
            return rfc3339Nano(epochNanos) + " " + text + "\n";
        }
    }

    record Cut(int beforeLine, boolean abrupt) {
    }

    final List<Line> lines = new ArrayList<>();
    private final List<Cut> cuts = new ArrayList<>();
    private int nextCut;
    /** After serving everything: mark the pod Succeeded and end the stream (else keep it open, silent). */
    private final Runnable onEnd;
    /** Serve this many lines on the first connection, then go silent without closing (a stuck connection). */
    volatile int stallAfter = -1;
    volatile int linesWritten;

    PodLogScript(Runnable onEnd) {
        this.onEnd = onEnd;
    }

    PodLogScript cut(int beforeLine, boolean abrupt) {
        cuts.add(new Cut(beforeLine, abrupt));
        return this;
    }

    @Override
    public void serve(String container, Instant since, OutputStream out) throws IOException, InterruptedException {
        int i = 0;
        if (since != null) {
            long s = since.getEpochSecond() * 1_000_000_000L + since.getNano();
            while (i < lines.size() && lines.get(i).epochNanos() < s) {
                i++;
            }
        }
        int written = 0;
        while (i < lines.size()) {
            Cut c;
            synchronized (this) {
                c = nextCut < cuts.size() && cuts.get(nextCut).beforeLine() <= i ? cuts.get(nextCut++) : null;
            }
            if (c != null) {
                byte[] w = lines.get(i).wire().getBytes(StandardCharsets.UTF_8);
                out.write(w, 0, w.length / 2);
                out.flush();
                Thread.sleep(20);
                if (c.abrupt()) {
                    throw new IOException("cut");   // the JDK server drops the connection mid-body
                }
                return;   // clean end of the chunked body, mid-line
            }
            int stall = stallAfter;
            if (stall >= 0 && written == stall) {
                stallAfter = -1;
                out.flush();
                Thread.sleep(Long.MAX_VALUE);   // until the client gives up and the stub is stopped
            }
            out.write(lines.get(i).wire().getBytes(StandardCharsets.UTF_8));
            linesWritten++;
            written++;
            i++;
            if (i % 7 == 0) {
                out.flush();
                Thread.sleep(1);   // let the pods interleave
            }
        }
        out.flush();
        if (onEnd != null) {
            onEnd.run();
            return;
        }
        Thread.sleep(Long.MAX_VALUE);
    }

    /** Go's time.RFC3339Nano, as the kubelet writes it: trailing zeros of the fraction dropped. */
    static String rfc3339Nano(long epochNanos) {
        Instant t = Instant.ofEpochSecond(Math.floorDiv(epochNanos, 1_000_000_000L), Math.floorMod(epochNanos, 1_000_000_000L));
        String s = t.toString();   // ISO with 0, 3, 6 or 9 fraction digits
        int dot = s.indexOf('.');
        if (dot < 0) {
            return s;
        }
        String frac = s.substring(dot + 1, s.length() - 1).replaceAll("0+$", "");
        return s.substring(0, dot) + (frac.isEmpty() ? "" : "." + frac) + "Z";
    }

    /** Lines of a pod: real NCCL 2.28.9 INFO lines with the pod as host, training output, same-stamp runs. */
    static PodLogScript forPod(String pod, int count, long startNanos, List<String> ncclBodies, Runnable onEnd) {
        PodLogScript s = new PodLogScript(onEnd);
        long t = startNanos;
        for (int i = 0; i < count; i++) {
            if (i % 4 != 3) {
                t += 7_000_000L + (i % 5) * 100_000L;   // some share a timestamp with the line before
            }
            String text;
            if (i % 3 == 0 && !ncclBodies.isEmpty()) {
                text = pod + ":4242:4242 [0] NCCL INFO " + ncclBodies.get(i / 3 % ncclBodies.size());
            } else if (i == 10) {
                text = "";
            } else if (i == 11) {
                text = "Grüße from " + pod + " line " + i;
            } else {
                text = pod + " step " + i + " loss 0." + (1000 + i);
            }
            s.lines.add(new Line(t, text));
        }
        return s;
    }

    /** Expected texts in order. */
    List<String> texts() {
        return lines.stream().map(Line::text).toList();
    }

}
