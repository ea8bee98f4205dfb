# Launcher-prefix captures: mode "kill" (last rank SIGKILLs itself before step 3) or "stall" (last rank sleeps
# past the process group's timeout before step 3, so that the other rank's watchdog fires).
import os, sys, time, signal, datetime
import torch, torch.distributed as dist
mode = sys.argv[1] if len(sys.argv) > 1 else "kill"
timeout = datetime.timedelta(seconds=int(os.environ.get("CAPTURE_TIMEOUT_S", "20")))
local = int(os.environ["LOCAL_RANK"])
torch.cuda.set_device(local)
dist.init_process_group("nccl", timeout=timeout, device_id=torch.device("cuda", local))
rank, world = dist.get_rank(), dist.get_world_size()
x = torch.ones(16 * 1024 * 1024, device="cuda")
for step in range(8):
    if rank == world - 1 and step == 3:
        if mode == "kill":
            print(f"rank {rank}: SIGKILL to own pid {os.getpid()} before step {step}", flush=True)
            os.kill(os.getpid(), signal.SIGKILL)
        else:
            print(f"rank {rank}: sleeping 60 s before step {step}", flush=True)
            time.sleep(60)
    dist.all_reduce(x)
    torch.cuda.synchronize()
    print(f"rank {rank} step {step} sum[0]={x[0].item():.0f}", flush=True)
    time.sleep(0.5)
dist.destroy_process_group()
