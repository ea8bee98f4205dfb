# Stalled-rank captures: one rank (STALL_RANK) sleeps STALL_S seconds before step 3, past the process group's
# timeout (CAPTURE_TIMEOUT_S), so that its peer's watchdog fires first. GROUP=tp runs every collective on a
# subgroup of both ranks made after the default group (another PG GUID), with a barrier-free warm-up on the
# default group first, so the two groups' sequence numbers differ. GROUP=tp-split runs 4 workers on the 2 GPUs:
# the default group on gloo (a world NCCL communicator would hold each GPU twice), and two NCCL subgroups "tp",
# {0,1} and {2,3}, one worker of each on each GPU, so that a worker's rank in its subgroup (PyTorch's "[Rank N]")
# is not its global rank (c10's "[rankN]:" tag).
import os, sys, time, datetime
import torch, torch.distributed as dist
timeout = datetime.timedelta(seconds=int(os.environ.get("CAPTURE_TIMEOUT_S", "20")))
stall_rank = int(os.environ.get("STALL_RANK", "1"))
stall_s = float(os.environ.get("STALL_S", "60"))
local = int(os.environ["LOCAL_RANK"])
split = os.environ.get("GROUP") == "tp-split"
if split:
    local = local % torch.cuda.device_count()
    torch.cuda.set_device(local)
    dist.init_process_group("cpu:gloo,cuda:nccl", timeout=timeout)
else:
    torch.cuda.set_device(local)
    dist.init_process_group("nccl", timeout=timeout, device_id=torch.device("cuda", local))
rank, world = dist.get_rank(), dist.get_world_size()
group = None
x = torch.ones(16 * 1024 * 1024, device="cuda")
if split:
    for _ in range(3):
        dist.all_reduce(torch.ones(4))  # the default group, on gloo
    halves = [dist.new_group(r, backend="nccl", timeout=timeout, group_desc="tp") for r in ([0, 1], [2, 3])]
    group = halves[rank // 2]
elif os.environ.get("GROUP") == "tp":
    for _ in range(5):
        dist.all_reduce(x)
    torch.cuda.synchronize()
    group = dist.new_group(list(range(world)), timeout=timeout, group_desc="tp")
for step in range(8):
    if rank == stall_rank and step == 3:
        print(f"rank {rank}: sleeping {stall_s:.0f} s before step {step}", flush=True)
        time.sleep(stall_s)
    dist.all_reduce(x, group=group)
    torch.cuda.synchronize()
    print(f"rank {rank} step {step} sum[0]={x[0].item():.0f}", flush=True)
    time.sleep(0.5)
dist.destroy_process_group()
