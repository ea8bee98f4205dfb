# Failure captures: mode "normal" (plain all-reduce loop) or "kill" (last rank SIGKILLs itself at step 3).
import os, sys, time, signal, datetime
import torch, torch.distributed as dist
mode = sys.argv[1] if len(sys.argv) > 1 else "normal"
timeout = datetime.timedelta(seconds=int(os.environ.get("CAPTURE_TIMEOUT_S", "20")))
local = int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(local)
dist.init_process_group("nccl", timeout=timeout, device_id=torch.device("cuda", local))
rank, world = dist.get_rank(), dist.get_world_size()
x = torch.ones(16 * 1024 * 1024, device="cuda")
for step in range(8):
    if mode == "kill" and rank == world - 1 and step == 3:
        print(f"rank {rank}: SIGKILL to own pid {os.getpid()} before step {step}", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    dist.all_reduce(x)
    torch.cuda.synchronize()
    print(f"rank {rank} step {step} sum[0]={x[0].item():.0f}", flush=True)
    time.sleep(0.5)
dist.destroy_process_group()
