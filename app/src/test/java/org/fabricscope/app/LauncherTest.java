package org.fabricscope.app;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code fabricscope} launcher script at the repository root, run by bash in a copy of the repository
 * layout whose JVM is a stand-in that prints its arguments: whatever an input folder holds (dangling
 * links, loops of links, FIFOs, devices), the launcher hands the command to the jar and never fails or
 * falls silent on its own. And the real CLI, run in its own JVM with a small heap, reports running out of
 * memory in one line, not as "Exception in thread main".
 */
class LauncherTest {
    @TempDir
    Path root;
    Path inputs;

    record Ran(int status, String out, String err) {
    }

    @BeforeEach
    void layout() throws IOException {
        Path script = Path.of(System.getProperty("user.dir")).getParent().resolve("fabricscope");
        Files.copy(script, root.resolve("fabricscope"));
        Files.copy(script.resolveSibling("packaging").resolve("java-huge-pages"),
                Files.createDirectories(root.resolve("packaging")).resolve("java-huge-pages"));
        Path target = Files.createDirectories(root.resolve("app/target"));
        Files.createFile(target.resolve("fabricscope-app.jar"));
        Files.createFile(target.resolve(".built"));
        Path bin = Files.createDirectories(root.resolve("jdk/bin"));
        Path java = bin.resolve("java");
        Files.writeString(java, "#!/bin/sh\necho \"java $*\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        inputs = Files.createDirectories(root.resolve("containers"));
        Files.writeString(inputs.resolve("pod_ns_trainer-0.log"), "a log line\n");
    }

    private Ran launch(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of("bash", root.resolve("fabricscope").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        Map<String, String> env = pb.environment();
        env.put("JAVA_HOME", root.resolve("jdk").toString());
        env.remove("FABRICSCOPE_JAVA_OPTS");
        env.put("FABRICSCOPE_THP_DIR", root.resolve("thp").toString());
        Path out = root.resolve("out.txt");
        Path err = root.resolve("err.txt");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.PIPE).start();
        p.getOutputStream().close();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the launcher returned");
        return new Ran(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Test
    void aFolderOfDanglingAndLoopingLinksReachesTheJar() throws Exception {
        Files.createSymbolicLink(inputs.resolve("gone.log"), Path.of("/var/log/pods/nowhere/0.log"));
        Files.createSymbolicLink(inputs.resolve("loop.log"), inputs.resolve("loop.log"));
        Ran r = launch("diagnose", inputs.toString());
        assertEquals(0, r.status(), "out: " + r.out() + " err: " + r.err());
        assertTrue(r.out().contains("-jar " + root.resolve("app/target/fabricscope-app.jar") + " diagnose " + inputs), r.out());
        assertTrue(r.out().contains("-XX:TieredStopAtLevel=1"), "a small input: the C1 compiler only: " + r.out());
        assertTrue(r.out().contains("-XX:TieredStopAtLevel=1 -XX:Tier3BackEdgeThreshold=5000"),
                "and its loops compiled sooner: " + r.out());
    }

    @Test
    void hugePagesAreAskedForOnlyWhereTheKernelGivesThemOnRequestAndTheyAreTwoMebibytes() throws Exception {
        Path thp = Files.createDirectories(root.resolve("thp"));
        assertFalse(launch("summary", inputs.toString()).out().contains("TransparentHugePages"), "no such folder");
        Files.writeString(thp.resolve("enabled"), "always [madvise] never\n");
        assertTrue(launch("summary", inputs.toString()).out().contains("-XX:+UseTransparentHugePages"), "madvise, no size file");
        Files.writeString(thp.resolve("hpage_pmd_size"), "2097152\n");
        assertTrue(launch("summary", inputs.toString()).out().contains("-XX:+UseTransparentHugePages"), "madvise, 2 MiB");
        assertFalse(launch("--version").out().contains("TransparentHugePages"), "--version alone: nothing to gain");
        Files.writeString(thp.resolve("hpage_pmd_size"), "536870912\n");
        assertFalse(launch("summary", inputs.toString()).out().contains("TransparentHugePages"), "512 MiB pages (arm64, 64K)");
        Files.writeString(thp.resolve("hpage_pmd_size"), "2097152\n");
        for (String mode : List.of("[always] madvise never", "always madvise [never]")) {
            Files.writeString(thp.resolve("enabled"), mode + "\n");
            Ran r = launch("summary", inputs.toString());
            assertEquals(0, r.status(), r.err());
            assertFalse(r.out().contains("TransparentHugePages"), mode);
        }
    }

    @Test
    void pastSixtyFourMebibytesOfInputTheC2CompilerRuns() throws Exception {
        try (var f = new java.io.RandomAccessFile(inputs.resolve("big.log").toFile(), "rw")) {
            f.setLength(65L << 20); // sparse: du -b counts what the file says it holds
        }
        Files.createSymbolicLink(inputs.resolve("gone.log"), Path.of("/var/log/pods/nowhere/0.log"));
        Ran big = launch("summary", inputs.toString());
        assertEquals(0, big.status(), big.err());
        assertFalse(big.out().contains("TieredStopAtLevel"), "65 MiB and a dangling link: C2: " + big.out());
        assertFalse(big.out().contains("Tier3BackEdgeThreshold"), "C2's thresholds left alone: " + big.out());
        Ran small = launch("summary", inputs.resolve("pod_ns_trainer-0.log").toString());
        assertTrue(small.out().contains("-XX:TieredStopAtLevel=1"), small.out());
    }

    @Test
    void theJvmsRealPathIsRememberedAndLookedUpAgainWhenItNamesAnotherFile() throws Exception {
        Path cache = root.resolve("app/target/.java-real");
        Path java = root.resolve("jdk/bin/java").toRealPath();
        assertEquals(0, launch("summary", inputs.toString()).status());
        assertEquals(java + "\n", Files.readString(cache), "remembered");
        // another JVM than the one remembered (a switched JDK): looked up again, not trusted
        Path other = Files.writeString(root.resolve("other-java"), "#!/bin/sh\n");
        Files.writeString(cache, other + "\n");
        assertEquals(0, launch("summary", inputs.toString()).status());
        assertEquals(java + "\n", Files.readString(cache));
        Files.writeString(cache, "garbage\u0000\n");
        Ran r = launch("summary", inputs.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(java + "\n", Files.readString(cache), "an unreadable line: looked up again");
    }

    @Test
    void specialFilesAndBrokenLinksAsArgumentsReachTheJar() throws Exception {
        Path dangling = Files.createSymbolicLink(root.resolve("dangling"), root.resolve("nowhere"));
        Path loop = Files.createSymbolicLink(root.resolve("loop"), root.resolve("loop"));
        Path fifo = root.resolve("fifo");
        boolean haveFifo = new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0;
        Ran r = launch("summary", "--thresholds", "/dev/zero", dangling.toString(), loop.toString(),
                haveFifo ? fifo.toString() : "/dev/null");
        assertEquals(0, r.status(), "out: " + r.out() + " err: " + r.err());
        assertTrue(r.out().contains(" summary --thresholds /dev/zero " + dangling), r.out());
    }

    @Test
    void aLauncherCommandThatFailsSaysSo() throws Exception {
        // a du that fails outright and prints nothing: the probe counts 0 and the jar still runs
        Path fakeBin = Files.createDirectories(root.resolve("fakebin"));
        Path du = fakeBin.resolve("du");
        Files.writeString(du, "#!/bin/sh\nexit 1\n");
        Files.setPosixFilePermissions(du, PosixFilePermissions.fromString("rwxr-xr-x"));
        List<String> cmd = List.of("bash", root.resolve("fabricscope").toString(), "summary", inputs.toString());
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("JAVA_HOME", root.resolve("jdk").toString());
        pb.environment().put("PATH", fakeBin + ":" + System.getenv("PATH"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        assertTrue(out.contains(" summary " + inputs), out);

        // the ERR trap: a command of the launcher's own that fails (a 'false' slipped in) is named with its line
        Path broken = root.resolve("broken.sh");
        String script = Files.readString(root.resolve("fabricscope"));
        Files.writeString(broken, script.replace("needs_build() {", "false\nneeds_build() {"));
        Process b = new ProcessBuilder("bash", broken.toString(), "summary").redirectErrorStream(true).start();
        String said = new String(b.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(b.waitFor(60, TimeUnit.SECONDS));
        assertTrue(b.exitValue() != 0);
        assertTrue(said.contains("fabricscope: the launcher failed at line "), "never without a word: " + said);
    }

    @Test
    void versionAloneRunsTheJarThatIsThereAndOtherCommandsRebuildFromChangedSources() throws Exception {
        // a source newer than the last build; the copy has no Maven wrapper, so a build fails and says so
        Path src = Files.createDirectories(root.resolve("model/src/main/java"));
        Files.writeString(src.resolve("Changed.java"), "class Changed {}\n");
        Files.setLastModifiedTime(root.resolve("app/target/.built"),
                java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        for (String v : List.of("--version", "-V")) {
            Ran version = launch(v);
            assertEquals(0, version.status(), version.err());
            assertTrue(version.out().contains("-jar " + root.resolve("app/target/fabricscope-app.jar") + " " + v), version.out());
            assertFalse(version.err().contains("building"), "no look for changed sources: " + version.err());
            assertFalse(version.out().contains("TransparentHugePages"), "--version alone: nothing to gain: " + version.out());
        }
        Ran checks = launch("checks");
        assertEquals(1, checks.status(), checks.out());
        assertTrue(checks.err().contains("building (first run or sources changed)"), checks.err());
        // without a built jar, --version builds first like any command
        Files.delete(root.resolve("app/target/fabricscope-app.jar"));
        Ran fresh = launch("--version");
        assertEquals(1, fresh.status(), fresh.out());
        assertTrue(fresh.err().contains("building (first run or sources changed)"), fresh.err());
    }

    @Test
    void aClassDataArchiveOlderThanTheJarIsMadeAgainAndANewerOneIsKept() throws Exception {
        // the stand-in JVM writes the archive it is asked to dump, and logs each dump
        Files.createDirectories(root.resolve("sample-fabrics/rail-2su-hdr"));
        Path dumps = root.resolve("dumps.txt");
        Files.writeString(root.resolve("jdk/bin/java"), "#!/bin/sh\necho \"java $*\"\nfor a in \"$@\"; do case \"$a\" in\n"
                + "  -Xshare:dump) dump=1 ;;\n  -XX:SharedArchiveFile=*) f=\"${a#*=}\" ;;\nesac; done\n"
                + "[ -n \"$dump\" ] && echo dump >> " + dumps + " && echo archive > \"$f\"\nexit 0\n");
        Ran first = launch("checks");
        assertEquals(0, first.status(), first.err());
        List<Path> archives;
        try (var s = Files.list(root.resolve("app/target"))) {
            archives = s.filter(f -> f.getFileName().toString().matches("fabricscope-cli-\\d+\\.jsa")).toList();
        }
        assertEquals(1, archives.size(), "one archive, named after the JVM: " + archives);
        Path archive = archives.get(0);
        assertTrue(first.out().contains("-XX:SharedArchiveFile=" + archive), first.out());
        assertEquals(1, Files.readAllLines(dumps).size());

        Ran version = launch("--version");
        assertEquals(1, Files.readAllLines(dumps).size(), "an archive newer than the jar is kept");
        assertTrue(version.out().contains("-jar " + root.resolve("app/target/fabricscope-app.jar") + " --version"), version.out());
        assertTrue(!version.out().contains("SharedArchiveFile"), "--version alone starts faster without the archive: " + version.out());

        // the jar rebuilt after the archive (./mvnw verify): the archive no longer matches it and is made again
        Path jar = root.resolve("app/target/fabricscope-app.jar");
        Files.setLastModifiedTime(archive, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() - 60_000));
        Files.setLastModifiedTime(jar, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis()));
        Ran again = launch("checks");
        assertEquals(0, again.status(), again.err());
        assertEquals(2, Files.readAllLines(dumps).size(), "made again");
        assertTrue(Files.getLastModifiedTime(archive).compareTo(Files.getLastModifiedTime(jar)) >= 0);
        assertTrue(again.out().contains("-XX:SharedArchiveFile=" + archive), again.out());
    }

    @Test
    void runningOutOfMemoryIsOneLineNotAStackTrace() throws Exception {
        Path big = root.resolve("big.ibnetdiscover.txt");
        try (Writer w = Files.newBufferedWriter(big)) {
            for (int i = 0; i < 20_000; i++) {
                String g = String.format("%016x", 0x100000 + i);
                String h = String.format("%016x", 0x900000 + i);
                int lid = i % 40_000 + 1;
                w.write("vendid=0x2c9\ndevid=0xd2f0\nsysimgguid=0x" + g + "\nswitchguid=0x" + g + "(" + g + ")\nSwitch\t8 \"S-" + g
                        + "\"\t\t# \"MF0;sw-" + i + ":MQM8700/U1\" enhanced port 0 lid " + lid + " lmc 0\n[1]\t\"H-" + h
                        + "\"[1]\t\t# \"host-" + i + " HCA-1\" lid " + (lid + 1) + " 4xHDR\n\nvendid=0x2c9\ndevid=0x101b\nsysimgguid=0x"
                        + h + "\ncaguid=0x" + h + "\nCa\t1 \"H-" + h + "\"\t\t# \"host-" + i + " HCA-1\"\n[1](" + h + ") \t\"S-" + g
                        + "\"[1]\t\t# lid " + (lid + 1) + " lmc 0 \"MF0;sw-" + i + ":MQM8700/U1\" lid " + lid + " 4xHDR\n\n");
            }
        }
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        // several heaps, so that the memory runs out at several points: in the model, in a read-ahead batch, while
        // the read-ahead thread waits to hand one over (at 13-16 MiB a close() that needed heap once left the thread
        // holding its batches, and not even the line could be written: "OutOfMemoryError thrown from the
        // UncaughtExceptionHandler", exit 1)
        int fatal = 0;
        for (int mib = 12; mib <= 17; mib++) {
            Process p = new ProcessBuilder(java.toString(), "-Xmx" + mib + "m", "-XX:TieredStopAtLevel=1", "-cp",
                    System.getProperty("java.class.path"), Main.class.getName(), "summary", big.toString())
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(120, TimeUnit.SECONDS));
            assertFalse(out.contains("Exception") || out.contains("\tat "), mib + " MiB: " + out);
            if (p.exitValue() == 70) {
                fatal++;
                assertTrue(out.startsWith("fabricscope: out of memory while reading " + big + " (the Java heap is limited to "),
                        mib + " MiB: " + out);
            } else {
                // the memory ran out in the reader and came back once it unwound: the file's failure, named at its line
                assertEquals(0, p.exitValue(), mib + " MiB: " + out);
                assertTrue(out.contains(big + ":") && out.contains(": error: ran out of memory reading this file at line "),
                        mib + " MiB: " + out);
            }
        }
        assertTrue(fatal > 0, "no heap was small enough to end the run");
    }
}
