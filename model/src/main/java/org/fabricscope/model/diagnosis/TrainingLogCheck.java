package org.fabricscope.model.diagnosis;

import java.util.List;

import org.fabricscope.model.FabricModel;
import org.fabricscope.model.Finding;
import org.fabricscope.model.training.TrainingChecks;

/**
 * The training layer's findings ({@code rdma-device-missing}, {@code tcp-fallback}, {@code gdr-not-used},
 * {@code nccl-timeout}, {@code nccl-init-hang}, {@code nccl-version-mismatch}, {@code ib-completion-error},
 * {@code rdma-permission}, {@code memlock-limit}) as one check of the diagnosis pass.
 */
public final class TrainingLogCheck implements FabricCheck {
    @Override
    public String id() {
        return "training";
    }

    @Override
    public String description() {
        return "NCCL and PyTorch log findings: missing RDMA, TCP fallback, timeouts, init hangs, IB and verbs errors";
    }

    @Override
    public List<Finding> run(FabricModel model) {
        return TrainingChecks.run(model.trainingLog());
    }
}
