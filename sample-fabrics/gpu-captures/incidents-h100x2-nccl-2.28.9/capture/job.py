# FabricScope incident captures: a small DDP training job run in two "pods" (see capture.sh).
# Mode (argv[1]) picks what the failing rank (FAIL_RANK, default 1) does at FAIL_STEP (default 3):
#   normal     nothing (healthy run; also used where the failure comes from outside the job)
#   gpu-oom    allocates a 160 GiB tensor on its GPU (torch.OutOfMemoryError)
#   host-oom   keeps host tensors in a list until the kernel's OOM killer ends the process
#   exception  calls cross_entropy with a target of the wrong batch size (a real ValueError from torch)
#   hang       sleeps (never reaches the next collective)
#   dataloader every rank reads batches through a DataLoader with 2 workers (12 MiB samples via /dev/shm)
import os, sys, time, socket, datetime
import torch, torch.nn as nn, torch.nn.functional as F, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

mode = sys.argv[1] if len(sys.argv) > 1 else "normal"
fail_rank = int(os.environ.get("FAIL_RANK", "1"))
fail_step = int(os.environ.get("FAIL_STEP", "3"))
steps = int(os.environ.get("STEPS", "10"))
pg_timeout = datetime.timedelta(seconds=int(os.environ.get("PG_TIMEOUT_S", "20")))
local_rank = int(os.environ.get("LOCAL_RANK", "0"))
host = socket.gethostname()


def log(msg):
    now = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]
    print(f"{now} [{host}] [rank {os.environ.get('RANK', '?')}] {msg}", flush=True)


if os.environ.get("CAPTURE_PIDFILE"):  # side channel for the capture's killer; not printed
    with open(os.environ["CAPTURE_PIDFILE"], "w") as f:
        f.write(str(os.getpid()))


class Images(torch.utils.data.Dataset):
    def __len__(self):
        return 1024

    def __getitem__(self, i):
        return torch.randn(3, 1024, 1024), torch.randint(0, 1000, ()).item()


torch.cuda.set_device(local_rank)
dev = torch.device("cuda", local_rank)
log(f"init_process_group(backend=nccl) master={os.environ.get('MASTER_ADDR')}:{os.environ.get('MASTER_PORT')} "
    f"world_size={os.environ.get('WORLD_SIZE')} timeout={pg_timeout}")
dist.init_process_group("nccl", timeout=pg_timeout, device_id=dev)
rank, world = dist.get_rank(), dist.get_world_size()
log(f"process group ready: rank {rank} of {world}, device {torch.cuda.get_device_name(dev)}")
model = DDP(nn.Sequential(nn.Linear(4096, 4096), nn.GELU(), nn.Linear(4096, 1000)).to(dev), device_ids=[local_rank])
opt = torch.optim.SGD(model.parameters(), lr=1e-3)

batches = None
if mode == "dataloader":
    loader = torch.utils.data.DataLoader(Images(), batch_size=4, num_workers=2)
    batches = iter(loader)
    log("DataLoader: batch_size=4, num_workers=2")

hoard = []
for step in range(steps):
    if rank == fail_rank and step == fail_step:
        if mode == "gpu-oom":
            cache = torch.empty((40, 1024, 1024, 1024), dtype=torch.float32, device=dev)  # 160 GiB
        elif mode == "host-oom":
            while True:
                hoard.append(torch.ones(256 << 20, dtype=torch.uint8))
        elif mode == "hang":
            time.sleep(3600)
    if batches is not None:
        img, y = next(batches)
        x = img.to(dev).flatten(1)[:, :4096]
        y = y.to(dev)
    else:
        x = torch.randn(64, 4096, device=dev)
        y = torch.randint(0, 1000, (64,), device=dev)
    out = model(x)
    if mode == "exception" and rank == fail_rank and step == fail_step:
        y = y[: y.numel() // 2]
    loss = F.cross_entropy(out, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    log(f"step {step} loss {loss.item():.4f}")
    time.sleep(0.5)
dist.destroy_process_group()
log("training finished")
