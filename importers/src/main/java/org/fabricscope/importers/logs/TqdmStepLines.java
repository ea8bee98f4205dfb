package org.fabricscope.importers.logs;

/**
 * A tqdm progress bar as a trainer draws it (tqdm {@code tqdm/std.py} v4.69.1 {@code format_meter}:
 * {@code {desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} [{elapsed}<{remaining}, {rate_fmt}{postfix}]},
 * the rate {@code {rate:5.2f}it/s}, or {@code {1/rate:5.2f}s/it} below one step a second). Each redraw ends
 * in a carriage return, which the line reader takes as a line end, so every redraw is a line. Two trainers:
 * <ul>
 * <li>Hugging Face Trainer ({@code trainer_callback.py} {@code ProgressCallback}: {@code tqdm(total=state.max_steps)},
 * no description, default smoothing 0.3: the rate is tqdm's moving average): {@code   5%|▌  | 50/1000 [00:30<09:30,
 * 1.67it/s]}, format {@code tqdm} (the scan names it {@code hf-trainer} when the log is the Trainer's); its
 * evaluation bars have no description either, and the scan keeps only the training bar's;</li>
 * <li>PyTorch Lightning ({@code src/lightning/pytorch/callbacks/progress/tqdm_progress.py} 2.6.5
 * {@code TQDMProgressBar}: description {@code Epoch N}, {@code BAR_FORMAT} with {@code rate_noinv_fmt}, always
 * {@code it/s}, {@code smoothing=0}: the average since the epoch began): {@code Epoch 0:  45%|████▌     | 450/1000
 * [01:23<01:41,  5.42it/s, v_num=0, loss=2.34]}, format {@code lightning}; the step counts on over epochs
 * (epoch x batches + batch) when the epoch's batch count is known.</li>
 * </ul>
 * Other descriptions (validation, downloads, dataset maps) and bars with no rate yet ({@code ?it/s}) give nothing.
 */
final class TqdmStepLines {
    private TqdmStepLines() {
    }

    static StepLine parse(StepPrefix p) {
        String l = p.text;
        int pct = l.indexOf("%|", p.body);
        if (pct < 0) {
            return null;
        }
        int k = pct; // the percentage: up to three digits, right-aligned
        while (k > p.body && StepCursor.isDigit(l.charAt(k - 1))) {
            k--;
        }
        if (k == pct || pct - k > 3) {
            return null;
        }
        while (k > p.body && l.charAt(k - 1) == ' ') {
            k--;
        }
        String desc = l.substring(p.body, k);
        long epoch = -1;
        if (!desc.isEmpty()) {
            if (!desc.startsWith("Epoch ") || !desc.endsWith(":")) {
                return null;
            }
            StepCursor e = new StepCursor(desc, 6);
            epoch = e.integer();
            if (!e.ok || e.i != desc.length() - 1) {
                return null;
            }
        }
        int bar = l.indexOf("| ", pct + 2);
        if (bar < 0) {
            return null;
        }
        StepCursor c = new StepCursor(l, bar + 2);
        long n = c.integer();
        c.lit("/");
        long total = c.skip("?") ? -1 : c.integer();
        c.lit(" [");
        if (!c.ok || n <= 0) {
            return null;
        }
        int comma = l.indexOf(", ", c.i);
        if (comma < 0) {
            return null;
        }
        c.i = comma + 2;
        c.spaces();
        double rate = c.decimal();
        if (!c.ok || !(rate > 0) || Double.isInfinite(rate)) {
            return null; // "?it/s": no rate yet
        }
        rate *= scale(c.peek());
        if (scale(c.peek()) != 1) {
            c.i++;
        }
        double ms;
        if (c.skip("it/s")) {
            ms = 1000 / rate;
        } else if (c.skip("s/it")) {
            ms = 1000 * rate;
        } else {
            return null;
        }
        char after = c.peek();
        if (after != ']' && after != ',') {
            return null;
        }
        if (epoch < 0) {
            return StepLine.of(p, "tqdm", n, total, ms, Double.NaN, "");
        }
        boolean counted = total > 0 && epoch <= (Long.MAX_VALUE - n) / total;
        return StepLine.of(p, "lightning", counted ? epoch * total + n : n, total, ms, Double.NaN, "");
    }

    /** tqdm's {@code unit_scale} SI prefix ({@code format_sizeof}); 1 for none. */
    private static double scale(char c) {
        return switch (c) {
            case 'k' -> 1e3;
            case 'M' -> 1e6;
            case 'G' -> 1e9;
            default -> 1;
        };
    }
}
