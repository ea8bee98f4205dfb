import java.nio.file.Path;
import java.util.List;
import org.fabricscope.importers.FabricImporter;
import org.fabricscope.importers.ImportProgress;
import org.fabricscope.importers.core.Cancellation;
import org.fabricscope.model.FabricModel;
import org.fabricscope.model.forensics.FlightRecorderAnalysis;
import org.fabricscope.model.slowness.FrStragglers;

/**
 * The straggler benchmark of BENCHMARKS.md ("Why is it slow"): FrStragglers.analyse over a folder of flight
 * recorder dumps, ten rounds, with the heap each round allocates. Compile and run against the built app:
 * javac -cp "app/target/fabricscope-app.jar:app/target/lib/*" -d /tmp/sb sample-fabrics/tools/StragglerBench.java
 * java -cp "app/target/fabricscope-app.jar:app/target/lib/*:/tmp/sb" StragglerBench /tmp/frstrag-bench/fr
 */
public class StragglerBench {
    public static void main(String[] a) throws Exception {
        FabricModel m = new FabricImporter().importPaths(List.of(Path.of(a[0])), ImportProgress.NONE, Cancellation.NEVER).model();
        var byRank = FlightRecorderAnalysis.byRank(m.forensics().flightRecorder());
        Runtime rt = Runtime.getRuntime();
        long[] t = new long[10];
        for (int i = 0; i < t.length; i++) {
            System.gc();
            long before = rt.totalMemory() - rt.freeMemory();
            long s = System.nanoTime();
            var v = FrStragglers.analyse(byRank, r -> null);
            t[i] = System.nanoTime() - s;
            long after = rt.totalMemory() - rt.freeMemory();
            System.out.printf("round %d: %.1f ms, heap +%d MB, %s%n", i, t[i] / 1e6, (after - before) >> 20,
                    "rank " + v.get(0).stragglers().get(0).rank() + " " + v.get(0).stragglers().get(0).kind());
        }
        java.util.Arrays.sort(t);
        System.out.printf("min %.1f ms, median %.1f ms, max %.1f ms%n", t[0] / 1e6, t[t.length / 2] / 1e6, t[t.length - 1] / 1e6);
    }
}
