package org.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The installed package's scripts ({@code packaging/fabricscope-cli}, {@code packaging/fabricscope-entry}),
 * run by sh in a copy of the app-image's layout whose JVM and jpackage launcher are stand-ins that print
 * their arguments, reached through a link as {@code /usr/bin} reaches them: the CLI runs the runtime's
 * {@code java} with the archive when the postinst made one, without it for {@code --version} alone or when
 * there is none, and the help with no arguments; the entry starts the window with JavaFX on the module path
 * (the bundled sample with no arguments) and sends every other command to the CLI.
 */
class PackagedLaunchersTest {
    @TempDir
    Path root;
    Path top;

    record Ran(int status, String out) {
    }

    @BeforeEach
    void layout() throws IOException {
        Path packaging = Path.of(System.getProperty("user.dir")).getParent().resolve("packaging");
        top = root.resolve("opt/fabricscope");
        Path bin = Files.createDirectories(top.resolve("bin"));
        Files.copy(packaging.resolve("fabricscope-cli"), bin.resolve("fabricscope-cli"));
        Files.copy(packaging.resolve("fabricscope-entry"), bin.resolve("fabricscope"));
        stub(bin.resolve("FabricScope"), "FabricScope");
        stub(Files.createDirectories(top.resolve("lib/runtime/bin")).resolve("java"), "java");
        Files.createDirectories(top.resolve("lib/app"));
        Files.copy(packaging.resolve("java-huge-pages"), top.resolve("lib/java-huge-pages"));
        Files.createFile(top.resolve("lib/app/fabricscope-app.jar"));
        for (Path f : List.of(bin.resolve("fabricscope-cli"), bin.resolve("fabricscope"))) {
            Files.setPosixFilePermissions(f, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        thpMode("always [madvise] never", "2097152"); // Debian's default on x86
        Path usrBin = Files.createDirectories(root.resolve("usr/bin"));
        Files.createSymbolicLink(usrBin.resolve("fabricscope"), bin.resolve("fabricscope"));
        Files.createSymbolicLink(usrBin.resolve("fabricscope-cli"), bin.resolve("fabricscope-cli"));
    }

    /** What the scripts add for transparent huge pages under the kernel settings {@link #thpMode} writes. */
    private static final String THP = "-XX:+UseTransparentHugePages ";

    /** The kernel's THP settings as the scripts see them (FABRICSCOPE_THP_DIR); null: no such folder. */
    private void thpMode(String enabled, String pmdSize) throws IOException {
        Path dir = root.resolve("thp");
        if (enabled == null) {
            Files.deleteIfExists(dir.resolve("enabled"));
            Files.deleteIfExists(dir.resolve("hpage_pmd_size"));
            return;
        }
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("enabled"), enabled + "\n");
        Files.writeString(dir.resolve("hpage_pmd_size"), pmdSize + "\n");
    }

    private static void stub(Path p, String name) throws IOException {
        Files.writeString(p, "#!/bin/sh\necho \"" + name + " $*\"\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    private Ran run(String link, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("sh", root.resolve("usr/bin").resolve(link).toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().remove("FABRICSCOPE_JAVA_OPTS");
        pb.environment().put("FABRICSCOPE_THP_DIR", root.resolve("thp").toString());
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "returned");
        return new Ran(p.exitValue(), out);
    }

    @Test
    void theCliRunsTheRuntimesJavaWithTheArchiveWhenThereIsOne() throws Exception {
        String java = "java -XX:TieredStopAtLevel=1 -XX:Tier3BackEdgeThreshold=5000 -XX:+UseSerialGC " + THP;
        String jar = "-jar " + top.resolve("lib/app/fabricscope-app.jar");
        Ran without = run("fabricscope-cli", "summary", "dumps");
        assertEquals(0, without.status(), without.out());
        assertEquals(java + jar + " summary dumps\n", without.out(), "no archive made: it starts without one");

        Path jsa = Files.createFile(top.resolve("lib/app/fabricscope-cli.jsa"));
        Ran with = run("fabricscope-cli", "summary", "dumps");
        assertTrue(with.out().startsWith(java + "-XX:SharedArchiveFile=" + jsa + " "), with.out());
        assertTrue(with.out().endsWith(jar + " summary dumps\n"), with.out());
        String version = run("fabricscope-cli", "--version").out();
        assertFalse(version.contains("SharedArchiveFile") || version.contains("TransparentHugePages"),
                "--version alone: no archive, no huge pages: " + version);
        assertTrue(run("fabricscope-cli").out().endsWith(jar + " --help\n"), "no arguments: the help");
    }

    @Test
    void theCliUsesTheC2CompilerPastSixtyFourMebibytesOfInput() throws Exception {
        String jar = "-jar " + top.resolve("lib/app/fabricscope-app.jar");
        Path small = Files.writeString(root.resolve("small.log"), "NCCL INFO\n");
        Path dir = Files.createDirectories(root.resolve("dumps"));
        try (var f = new java.io.RandomAccessFile(dir.resolve("big.log").toFile(), "rw")) {
            f.setLength(40L << 20); // sparse: du -b counts what the file says it holds
        }
        try (var f = new java.io.RandomAccessFile(dir.resolve("big2.log").toFile(), "rw")) {
            f.setLength(30L << 20);
        }
        Files.createSymbolicLink(dir.resolve("gone"), root.resolve("nowhere")); // a dangling link: the rest still counts
        assertEquals("java -XX:TieredStopAtLevel=1 -XX:Tier3BackEdgeThreshold=5000 -XX:+UseSerialGC " + THP + jar + " summary " + small + "\n",
                run("fabricscope-cli", "summary", small.toString()).out(), "a small input: C1");
        assertEquals("java -XX:+UseSerialGC " + THP + jar + " diagnose --json " + dir + "\n",
                run("fabricscope-cli", "diagnose", "--json", dir.toString()).out(), "70 MiB in a folder: C2");
        assertEquals("java -XX:TieredStopAtLevel=1 -XX:Tier3BackEdgeThreshold=5000 -XX:+UseSerialGC " + THP + jar + " summary " + dir.resolve("big.log") + "\n",
                run("fabricscope-cli", "summary", dir.resolve("big.log").toString()).out(), "40 MiB: C1");
        assertTrue(run("fabricscope", "summary", dir.toString()).out().startsWith("java -XX:+UseSerialGC "),
                "through /usr/bin/fabricscope too");
    }

    @Test
    void hugePagesAreAskedForOnlyWhereTheKernelGivesThemOnRequestAndTheyAreTwoMebibytes() throws Exception {
        String jar = "-jar " + top.resolve("lib/app/fabricscope-app.jar");
        String c1 = "java -XX:TieredStopAtLevel=1 -XX:Tier3BackEdgeThreshold=5000 -XX:+UseSerialGC ";
        assertEquals(c1 + THP + jar + " checks\n", run("fabricscope-cli", "checks").out(), "madvise, 2 MiB");
        Path lib = Files.createDirectories(top.resolve("lib/app/lib")); // JavaFX where the entry looks: it starts java itself
        Files.createFile(lib.resolve("javafx-base-21-linux.jar"));
        assertTrue(run("fabricscope", "gui").out().startsWith("java " + THP + "--module-path "), "the window too");
        for (String[] kernel : new String[][] {{"[always] madvise never", "2097152"}, {"always madvise [never]", "2097152"},
                {"always [madvise] never", "536870912"}, {null, null}}) {
            thpMode(kernel[0], kernel[1]);
            String what = kernel[0] + " / " + kernel[1];
            assertEquals(c1 + jar + " checks\n", run("fabricscope-cli", "checks").out(), what);
            String window = run("fabricscope", "gui").out();
            assertTrue(window.startsWith("java --module-path ") && !window.contains("TransparentHugePages"), what + ": " + window);
        }
    }

    @Test
    void theEntryStartsTheWindowWithJavaFxAndSendsTheRestToTheCli() throws Exception {
        String fx = THP + "--module-path " + top.resolve("lib/app/lib/javafx-base-21-linux.jar") + ":"
                + top.resolve("lib/app/lib/javafx-graphics-21-linux.jar") + " --add-modules javafx.controls,javafx.fxml";
        String jar = "-jar " + top.resolve("lib/app/fabricscope-app.jar");
        assertEquals("FabricScope \n", run("fabricscope").out(), "no JavaFX jars where expected: jpackage's launcher");
        Path lib = Files.createDirectories(top.resolve("lib/app/lib"));
        Files.createFile(lib.resolve("javafx-base-21-linux.jar"));
        Files.createFile(lib.resolve("javafx-graphics-21-linux.jar"));
        assertEquals("java " + fx + " " + jar + " gui\n", run("fabricscope").out(), "no sample bundled: an empty window");
        Path sample = Files.createDirectories(top.resolve("lib/app/samples/rail-2su-hdr"));
        assertEquals("java " + fx + " " + jar + " gui " + sample + "\n", run("fabricscope").out(), "the bundled sample");
        assertEquals("java " + fx + " " + jar + " gui dumps\n", run("fabricscope", "gui", "dumps").out());
        assertEquals("java " + fx + " " + jar + " open incident.fsession\n", run("fabricscope", "open", "incident.fsession").out());
        Ran cli = run("fabricscope", "diagnose", "--json", "dumps");
        assertEquals("java -XX:TieredStopAtLevel=1 -XX:Tier3BackEdgeThreshold=5000 -XX:+UseSerialGC " + THP + jar + " diagnose --json dumps\n", cli.out());
    }
}
