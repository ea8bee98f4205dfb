#!/usr/bin/env python3
"""Writes sample-fabrics/training-incident/forensics/fr: the PyTorch flight recorder dumps the 16 ranks
of training-incident would have written with TORCH_NCCL_DUMP_ON_TIMEOUT=1, as JSON
(_dump_nccl_trace_json). Synthetic: the fields and their types are those of the real dumps in
gpu-captures/h200x2-forensics-nccl-2.28.9/hang-timing (PyTorch 2.11: pg_status values as strings,
unset times as 0); the numbers follow training-incident's logs: the 15 healthy ranks enqueued the
ALLREDUCE SeqNum 4812 and completed 4811; rank 12 (gpt-train-worker-0 GPU 4) enqueued 4811 and
completed 4810, when its IB completion error stopped it.

usage: gen-training-incident-forensics.py OUT_DIR
"""
import json
import os
import sys

FAIL_SEQ, BAD_RANK, WORLD = 4811, 12, 16
NUMEL, TIMEOUT_MS = 67108864, 600000
T0_NS = 1795302000000000000  # 2026-11-21T22:00:00Z
STEP_NS = 740_000_000


def entry(record, seq, state, rank):
    created = T0_NS + 4_200_000_000_000 + (seq - 4800) * STEP_NS + rank * 1_000
    started = created + 1_000_000 if state != "scheduled" else 0
    completed = started + 700_000_000 if state == "completed" else 0
    e = {"collective_seq_id": seq, "input_dtypes": ["Float"], "input_sizes": [[NUMEL]], "is_p2p": False,
         "op_id": seq, "output_dtypes": ["Float"], "output_sizes": [[NUMEL]], "p2p_seq_id": 0, "pg_id": 0,
         "process_group": ["0", "default_pg"], "profiling_name": "nccl:all_reduce", "record_id": record,
         "retired": state == "completed", "state": state, "thread_id": str(140000000000000 + rank),
         "thread_name": "pt_autograd_0", "time_created_ns": created, "time_discovered_completed_ns": completed,
         "time_discovered_started_ns": started, "timeout_ms": TIMEOUT_MS}
    if state == "completed":
        e["duration_ms"] = 700.0
    return e


def dump(rank):
    last = FAIL_SEQ if rank == BAD_RANK else FAIL_SEQ + 1
    done = last - 1
    entries = []
    for i, seq in enumerate(range(4806, last + 1)):
        state = "completed" if seq <= done else "started"
        entries.append(entry(4000 + i, seq, state, rank))
    return {"comm_lib_version": "2.21.5", "entries": entries,
            "pg_config": {"0": {"desc": "default_pg", "name": "0", "ranks": str(list(range(WORLD)))}},
            "pg_status": {"0": {"last_completed_collective": str(done), "last_enqueued_collective": str(last),
                                "last_started_collective": str(last)}},
            "version": "2.10"}


def main():
    out = os.path.join(sys.argv[1], "fr")
    os.makedirs(out, exist_ok=True)
    for rank in range(WORLD):
        with open(os.path.join(out, "nccl_trace_rank_%d.json" % rank), "w", encoding="utf-8") as f:
            json.dump(dump(rank), f, sort_keys=True, separators=(",", ":"))


if __name__ == "__main__":
    main()
