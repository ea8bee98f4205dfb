#!/usr/bin/env python3
"""Writes the hang-forensics benchmark inputs (BENCHMARKS.md, "Hang forensics"):

  OUT/fr/nccl_trace_rank_<r>   RANKS PyTorch flight recorder dumps (pickle protocol 2, as
                               TORCH_NCCL_DUMP_ON_TIMEOUT writes them), ENTRIES entries each
  OUT/ras/ras-status.txt       an NCCL RAS report (ncclras text) of RAS_RANKS ranks
  OUT/ras/ras-status.json      the same report as ncclras -f json

The dumps are shaped like the real ones in gpu-captures/h200x2-forensics-nccl-2.28.9/hang (PyTorch
2.11: frames, process_group tuples, None for unset times, pg_status as ints); every rank enqueued
collective SEQ_LAST on the default group and completed SEQ_LAST - 1, but rank BAD_RANK stopped one
collective earlier. The RAS report is an 8-GPU-per-node job: every rank launched up to AllReduce
SEQ_LAST but rank BAD_RANK, and the last DEAD_NODES nodes' processes are missing.

With STRAGGLER_MS set in the environment (the straggler benchmark, issue 21), rank STRAGGLER_RANK enqueues
every collective that many milliseconds late and the others' kernels wait for it (duration_ms grows by it).

usage: [STRAGGLER_MS=30] gen-forensics-bench.py OUT [RANKS=1024] [ENTRIES=2000] [RAS_RANKS=16384]
"""
import json
import os
import pickle
import sys

BAD_RANK = 12
STRAGGLER_RANK = 700
STRAGGLER_MS = float(os.environ.get("STRAGGLER_MS", "0"))
NUMEL = 16777216
T0_NS = 1795420934783416548
DEAD_NODES = 4
GPUS_PER_NODE = 8
DIST = "/opt/torch/.venv/lib/python3.12/site-packages/torch/" + "distributed/"  # split: not an NCCL log to detection
FRAMES = [
    {"name": "all_reduce", "filename": DIST + "distributed_c10d.py",
     "line": 3068},
    {"name": "wrapper", "filename": DIST + "c10d_logger.py",
     "line": 83},
    {"name": "train_step", "filename": "/work/train.py", "line": 211},
    {"name": "<module>", "filename": "/work/train.py", "line": 402},
]


def dump(rank, world, n):
    last = n if rank != BAD_RANK else n - 1
    entries = []
    for i in range(last):
        seq = i + 1
        state = "completed" if seq < last else "started"
        created = T0_NS + seq * 740_000_000 + rank * 1_000
        late = int(STRAGGLER_MS * 1_000_000)
        if rank == STRAGGLER_RANK:
            created += late
        e = {"frames": [dict(fr) for fr in FRAMES], "record_id": i, "pg_id": 0, "process_group": ("0", "default_pg"),
             "thread_name": "pt_autograd_0", "thread_id": str(140000000000000 + rank),
             "collective_seq_id": seq, "p2p_seq_id": 0, "op_id": seq, "profiling_name": "nccl:all_reduce",
             "time_created_ns": created, "input_sizes": [[NUMEL]], "input_dtypes": ["Float"],
             "output_sizes": [[NUMEL]], "output_dtypes": ["Float"], "state": state,
             "time_discovered_started_ns": created + 1_000_000,
             "time_discovered_completed_ns": created + 700_000_000 if state == "completed" else None,
             "retired": state == "completed", "timeout_ms": 600000, "is_p2p": False}
        if state == "completed":
            e["duration_ms"] = 699.0 + (0 if rank == STRAGGLER_RANK else STRAGGLER_MS)
        entries.append(e)
    return {"version": "2.10",
            "pg_config": {"0": {"name": "0", "desc": "default_pg", "ranks": str(list(range(world)))}},
            "comm_lib_version": "2.28.9",
            "pg_status": {"0": {"last_enqueued_collective": last, "last_started_collective": last,
                                "last_completed_collective": last - 1}},
            "entries": entries}


def host(node):
    return "10.%d.%d.%d" % (node // 65536, node // 256 % 256, node % 256)


def proc(rank):
    return 100000 + rank


def ras(out, world, seq):
    nodes = world // GPUS_PER_NODE
    dead = set(range(world - DEAD_NODES * GPUS_PER_NODE, world))
    alive = world - len(dead)
    with open(os.path.join(out, "ras-status.txt"), "w", encoding="utf-8") as f:
        w = f.write
        w("NCCL version 2.28.9 compiled with CUDA 13.0\nCUDA runtime version 13000, driver version 13000\n\n")
        w("Job summary\n===========\n\n")
        w("  Nodes  Processes         GPUs  Processes     GPUs\n")
        w("(total)   per node  per process    (total)  (total)\n")
        w("%7d %10d %12d %10d %8d\n\n" % (nodes, GPUS_PER_NODE, 1, world, world))
        w("Communicators... (0.412s)\n=============\n\n")
        w("Group     Comms     Nodes     Ranks     Ranks     Ranks    Status  Errors\n")
        w("    #  in group  per comm  per node  per comm  in group\n")
        w("%5d %9d %9d %9d %9d %9d %9s %7s\n\n" % (0, 1, nodes, GPUS_PER_NODE, world, world, "RUNNING",
                                                   "INCOMPLETE,MISMATCH"))
        w("Errors\n======\n\nINCOMPLETE\n  Missing communicator data from %d job processes\n" % len(dead))
        for r in sorted(dead):
            w("  Process %d on node %s managing GPU %d\n" % (proc(r), host(r // GPUS_PER_NODE), r % GPUS_PER_NODE))
        w("\n#0-0 (808a2947fa58ab3b) INCOMPLETE\n  Missing communicator data from %d ranks\n" % len(dead))
        for r in sorted(dead):
            w("  Rank %d -- GPU %d managed by process %d on node %s\n"
              % (r, r % GPUS_PER_NODE, proc(r), host(r // GPUS_PER_NODE)))
        w("\nWarnings\n========\n\n#0-0 (808a2947fa58ab3b) MISMATCH\n")
        w("  Communicator ranks have different AllReduce operation counts\n")
        w("  %d ranks have launched up to operation %d\n" % (alive - 1, seq))
        w("  Rank %d has launched up to operation %d -- GPU %d managed by process %d on node %s\n\n"
          % (BAD_RANK, seq - 1, BAD_RANK % GPUS_PER_NODE, proc(BAD_RANK), host(BAD_RANK // GPUS_PER_NODE)))
    ranks = []
    for r in range(world):
        if r in dead:
            continue
        ranks.append({"rank": r, "host": host(r // GPUS_PER_NODE), "pid": proc(r), "cuda_dev": r % GPUS_PER_NODE,
                      "nvml_dev": r % GPUS_PER_NODE,
                      "status": {"init_state": 0, "async_error": 0, "finalize_called": False, "destroy_flag": False,
                                 "abort_flag": False},
                      "collective_counts": {"Broadcast": 0, "Reduce": 0, "AllGather": 0, "ReduceScatter": 0,
                                            "AllReduce": seq - 1 if r == BAD_RANK else seq}})
    missing = [{"rank": r, "host": host(r // GPUS_PER_NODE), "pid": proc(r), "cuda_dev": r % GPUS_PER_NODE,
                "nvml_dev": r % GPUS_PER_NODE} for r in sorted(dead)]
    doc = {"nccl_version": "2.28.9", "cuda_runtime_version": 13000, "cuda_driver_version": 13000,
           "timestamp": "2026-11-23 08:02:27", "communicators_count": 1,
           "communicators": [{"hash": "0x808a2947fa58ab3b", "secondary_hash": "0x242f16414ec46ea3:0x9e03cb3a6055c5f",
                              "size": world, "ranks_count": len(ranks), "missing_ranks_count": len(missing),
                              "ranks": ranks, "missing_ranks": missing}],
           "ras": {"collection_time_sec": 0.412, "timeouts_count": 0}}
    with open(os.path.join(out, "ras-status.json"), "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=2)


def main():
    out = sys.argv[1]
    world = int(sys.argv[2]) if len(sys.argv) > 2 else 1024
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    ras_world = int(sys.argv[4]) if len(sys.argv) > 4 else 16384
    os.makedirs(os.path.join(out, "fr"), exist_ok=True)
    os.makedirs(os.path.join(out, "ras"), exist_ok=True)
    for rank in range(world):
        with open(os.path.join(out, "fr", "nccl_trace_rank_%d" % rank), "wb") as f:
            pickle.dump(dump(rank, world, n), f, protocol=2)
    ras(os.path.join(out, "ras"), ras_world, 4812)


if __name__ == "__main__":
    main()
