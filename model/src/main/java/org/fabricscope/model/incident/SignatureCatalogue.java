package org.fabricscope.model.incident;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The failure-signature catalogue: the bundled files ({@code incident/signatures/index.txt}) plus the
 * user's folder, each validated by {@link SignatureLoader}; a user signature with a bundled id
 * replaces it. Matching a text tries only the signatures whose literal it holds ({@link LiteralIndex}).
 * Immutable; {@link #active()} is the catalogue the importers and checks use (the bundled one until
 * the CLI or the app installs the one with the user's folder).
 */
public final class SignatureCatalogue {
    private static final String RESOURCES = "/org/fabricscope/model/incident/signatures/";
    private static volatile SignatureCatalogue bundled;
    private static volatile SignatureCatalogue active;

    private final List<Signature> signatures;
    private final List<SignatureProblem> problems;
    private final Map<Target, Signature[]> byTarget = new java.util.EnumMap<>(Target.class);
    private final Map<Target, LiteralIndex> indexes = new java.util.EnumMap<>(Target.class);
    private final Map<String, Signature> byId = new LinkedHashMap<>();
    /** Per target: the signature (index into {@link #byTarget}) each indexed literal belongs to. */
    private final Map<Target, int[]> ownerOf = new java.util.EnumMap<>(Target.class);

    private SignatureCatalogue(List<Signature> signatures, List<SignatureProblem> problems) {
        this.signatures = List.copyOf(signatures);
        this.problems = List.copyOf(problems);
        for (Signature s : this.signatures) {
            byId.put(s.id(), s);
        }
        for (Target t : Target.values()) {
            Signature[] of = this.signatures.stream().filter(s -> s.on() == t).toArray(Signature[]::new);
            byTarget.put(t, of);
            List<String> literals = new ArrayList<>();
            List<Integer> owners = new ArrayList<>();
            for (int i = 0; i < of.length; i++) {
                for (String l : of[i].literals()) {
                    literals.add(l);
                    owners.add(i);
                }
            }
            indexes.put(t, new LiteralIndex(literals));
            ownerOf.put(t, owners.stream().mapToInt(Integer::intValue).toArray());
        }
    }

    /** The bundled catalogue (read once). */
    public static SignatureCatalogue bundled() {
        SignatureCatalogue c = bundled;
        if (c == null) {
            synchronized (SignatureCatalogue.class) {
                if (bundled == null) {
                    bundled = readBundled();
                }
                c = bundled;
            }
        }
        return c;
    }

    /** The catalogue in use: {@link #bundled()} unless {@link #install} gave another. */
    public static SignatureCatalogue active() {
        SignatureCatalogue c = active;
        return c != null ? c : bundled();
    }

    /** Makes {@code c} the catalogue the importers and checks use from now on. */
    public static void install(SignatureCatalogue c) {
        active = c;
    }

    private static SignatureCatalogue readBundled() {
        List<Signature> all = new ArrayList<>();
        List<SignatureProblem> problems = new ArrayList<>();
        List<String> files;
        try (InputStream in = SignatureCatalogue.class.getResourceAsStream(RESOURCES + "index.txt")) {
            files = in == null ? List.of() : new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        } catch (IOException e) {
            throw new IllegalStateException("the bundled signature index cannot be read", e);
        }
        for (String f : files) {
            try (InputStream in = SignatureCatalogue.class.getResourceAsStream(RESOURCES + f)) {
                if (in == null) {
                    problems.add(new SignatureProblem("signatures/" + f, "", "", "listed in index.txt but missing"));
                    continue;
                }
                SignatureLoader.Result r = SignatureLoader.load(in, "signatures/" + f, false); // SignatureCatalogueTest matches the examples
                merge(all, r.signatures(), problems, false);
                problems.addAll(r.problems());
            } catch (IOException e) {
                problems.add(new SignatureProblem("signatures/" + f, "", "", "cannot be read: " + e.getMessage()));
            }
        }
        return new SignatureCatalogue(all, problems);
    }

    /** Adds {@code more} to {@code all}: a later id replaces an earlier one only when {@code replace}. */
    private static void merge(List<Signature> all, List<Signature> more, List<SignatureProblem> problems, boolean replace) {
        Map<String, Integer> at = new LinkedHashMap<>();
        for (int i = 0; i < all.size(); i++) {
            at.put(all.get(i).id(), i);
        }
        for (Signature s : more) {
            Integer i = at.get(s.id());
            if (i == null) {
                at.put(s.id(), all.size());
                all.add(s);
            } else if (replace) {
                all.set(i, s);
            } else {
                problems.add(new SignatureProblem(s.file(), s.id(), "id", "already defined in " + all.get(i).file()));
            }
        }
    }

    /**
     * This catalogue plus the {@code *.json} files of a folder (a missing folder adds nothing), each
     * validated; their signatures replace bundled ones of the same id.
     */
    public SignatureCatalogue plus(Path dir) {
        if (dir == null || !Files.isDirectory(dir)) {
            return this;
        }
        List<Signature> all = new ArrayList<>(signatures);
        List<SignatureProblem> more = new ArrayList<>(problems);
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".json") && Files.isRegularFile(p)).sorted().toList();
        } catch (IOException e) {
            more.add(new SignatureProblem(dir.toString(), "", "", "cannot be listed: " + e.getMessage()));
            return new SignatureCatalogue(all, more);
        }
        for (Path p : files) {
            try (InputStream in = Files.newInputStream(p)) {
                SignatureLoader.Result r = SignatureLoader.load(in, p.toString());
                merge(all, r.signatures(), more, true);
                more.addAll(r.problems());
            } catch (IOException e) {
                more.add(new SignatureProblem(p.toString(), "", "", "cannot be read: " + e.getMessage()));
            }
        }
        return new SignatureCatalogue(all, more);
    }

    /** The user's folder: {@code $XDG_CONFIG_HOME/fabricscope/signatures}, else {@code ~/.config/fabricscope/signatures}. */
    public static Path userDirectory(Map<String, String> env, String userHome) {
        return org.fabricscope.model.core.UserConfig.directory(env, userHome, "signatures");
    }

    public List<Signature> signatures() {
        return signatures;
    }

    /** The files and entries that were not loaded, and why. */
    public List<SignatureProblem> problems() {
        return problems;
    }

    public Signature byId(String id) {
        return byId.get(id);
    }

    /** A reusable matcher of one target's texts; not thread-safe (one per reading thread). */
    public Matcher matcher(Target target) {
        return new Matcher(byTarget.get(target), indexes.get(target), ownerOf.get(target));
    }

    /** Matches texts of one target against the signatures whose literal they hold. */
    public static final class Matcher {
        private final Signature[] signatures;
        private final LiteralIndex index;
        private final int[] owner;
        private final boolean[] hit;
        private final int[] found;
        private final boolean[] tried;
        private final int[] candidates;
        private final LiteralIndex.Bytes bytes = new LiteralIndex.Bytes();

        private Matcher(Signature[] signatures, LiteralIndex index, int[] owner) {
            this.signatures = signatures;
            this.index = index;
            this.owner = owner;
            this.hit = new boolean[index.size()];
            this.found = new int[index.size()];
            this.tried = new boolean[signatures.length];
            this.candidates = new int[signatures.length];
        }

        /** Whether there are signatures at all. */
        public boolean isEmpty() {
            return signatures.length == 0;
        }

        /**
         * The most specific signature that recognises {@code text} (the longest literal; the first in
         * catalogue order among equals), with its fields, or null.
         */
        public Hit first(CharSequence text) {
            List<Hit> all = match(text);
            Hit best = null;
            for (int i = 0; i < all.size(); i++) { // by index: most lines match nothing, and an iterator is garbage
                Hit h = all.get(i);
                if (best == null || h.signature().literal().length() > best.signature().literal().length()) {
                    best = h;
                }
            }
            return best;
        }

        /** Every signature that recognises the text, in catalogue order. */
        public List<Hit> all(CharSequence text) {
            return match(text);
        }

        private List<Hit> match(CharSequence text) {
            int n = index.find(text, hit, found, bytes);
            if (n == 0) {
                return List.of();
            }
            int c = 0;
            for (int k = 0; k < n; k++) {
                hit[found[k]] = false;
                int sig = owner[found[k]];
                if (!tried[sig]) {
                    tried[sig] = true;
                    candidates[c++] = sig;
                }
            }
            java.util.Arrays.sort(candidates, 0, c);
            List<Hit> out = Collections.emptyList();
            for (int k = 0; k < c; k++) {
                tried[candidates[k]] = false;
            }
            for (int k = 0; k < c; k++) {
                Signature s = signatures[candidates[k]];
                java.util.regex.Matcher m = s.pattern().matcher(new Budget(text));
                boolean found;
                try {
                    found = m.find();
                } catch (Budget.Spent e) {
                    found = false; // a pattern that backtracks without end (a user's file) fails on this text, not the import
                }
                if (found) {
                    if (out.isEmpty()) {
                        out = new ArrayList<>(2);
                    }
                    out.add(new Hit(s, s.fields(m)));
                }
            }
            return out;
        }
    }

    /**
     * A text that a pattern may read at most {@link #STEPS} characters of: a catastrophically backtracking
     * pattern (a user's file may hold one) stops with {@link Spent} instead of stalling the import. Real
     * patterns read a line a few times at most.
     */
    static final class Budget implements CharSequence {
        static final int STEPS = 1 << 20;
        private final CharSequence text;
        private int left = STEPS;

        static final class Spent extends RuntimeException {
            private static final long serialVersionUID = 1L;

            Spent() {
                super("pattern budget spent", null, false, false);
            }
        }

        Budget(CharSequence text) {
            this.text = text;
        }

        @Override
        public char charAt(int index) {
            if (--left < 0) {
                throw new Spent();
            }
            return text.charAt(index);
        }

        @Override
        public int length() {
            return text.length();
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return text.subSequence(start, end);
        }

        @Override
        public String toString() {
            return text.toString();
        }
    }

    /** A signature that recognised a text, with the fields it extracted. */
    public record Hit(Signature signature, Map<String, String> fields) {
    }
}
