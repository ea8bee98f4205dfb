# Two-rank job for hang forensics captures. Modes:
#   hang      the last rank stalls before its 3rd default-group all-reduce (flight recorder dumps on timeout)
#   mismatch  the last rank all-reduces half as many elements at the 3rd step (size mismatch)
#   rasdead   like hang, but the stall is long; the controller queries RAS and kills the stalled rank
# Before the stall, each rank also writes flight recorder dumps itself (JSON and pickle) into CAPTURE_DIR.
import os, sys, time, datetime
import torch, torch.distributed as dist

mode = sys.argv[1] if len(sys.argv) > 1 else "hang"
out = os.environ.get("CAPTURE_DIR", ".")
stall_s = int(os.environ.get("CAPTURE_STALL_S", "60"))
timeout = datetime.timedelta(seconds=int(os.environ.get("CAPTURE_TIMEOUT_S", "20")))
local = int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(local)
dist.init_process_group("nccl", timeout=timeout, device_id=torch.device("cuda", local))
rank, world = dist.get_rank(), dist.get_world_size()
sub = dist.new_group(list(range(world)))          # a second process group ("1")
c10d = torch._C._distributed_c10d


def dump(tag):
    for name, attempts, ext, binary in (
        ("_dump_nccl_trace_json", [dict(includeCollectives=True, onlyActive=False), dict()], "json", False),
        ("_dump_nccl_trace", [dict(includeCollectives=True, includeStackTraces=True, onlyActive=False), dict()], "pkl", True),
    ):
        fn = getattr(c10d, name, None)
        if fn is None:
            print(f"rank {rank}: no {name}", flush=True)
            continue
        for kw in attempts:
            try:
                data = fn(**kw)
                if isinstance(data, str):
                    data = data.encode()
                with open(f"{out}/fr_{tag}_rank{rank}.{ext}", "wb") as f:
                    f.write(data)
                break
            except Exception as e:  # noqa
                print(f"rank {rank}: {name}({kw}) failed: {e!r}", flush=True)


x = torch.ones(16 * 1024 * 1024, device="cuda")
y = torch.empty(world * 1024, device="cuda", dtype=torch.bfloat16)
z = torch.arange(1024, device="cuda", dtype=torch.int64)
for step in range(5):
    if step == 1:
        dist.all_gather_into_tensor(y, torch.ones(1024, device="cuda", dtype=torch.bfloat16), group=sub)
        dist.broadcast(z, src=0, group=sub)
        if world > 1:
            if rank == 0:
                dist.send(z, dst=1)
            elif rank == 1:
                dist.recv(z, src=0)
        dist.barrier()
        torch.cuda.synchronize()
    if step == 2 and rank == world - 1 and mode in ("hang", "rasdead"):
        dump("before-stall")
        open(f"{out}/stall-started", "w").write(str(os.getpid()))
        print(f"rank {rank} pid {os.getpid()}: stalling before step {step}", flush=True)
        time.sleep(stall_s)
        break
    t = x[: x.numel() // 2] if (mode == "mismatch" and step == 2 and rank == world - 1) else x
    work = dist.all_reduce(t, async_op=True)
    if step == 2 and rank == 0:
        time.sleep(3)
        dump("in-flight")
    work.wait()
    torch.cuda.synchronize()
    print(f"rank {rank} step {step} sum[0]={x[0].item():.0f}", flush=True)
dump("end")
if mode == "hang" or mode == "rasdead":
    time.sleep(5)
else:
    dist.destroy_process_group()
