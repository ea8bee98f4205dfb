# FabricScope slowness captures: a DDP training job (torch DDP, NCCL backend) run in two "pods" (see capture.sh).
# Mode (argv[1]) picks what the slow rank (SLOW_RANK, default 1) does before each step's forward pass:
#   normal  nothing (healthy run; also used where the slowness or the hang comes from the environment)
#   input   sleeps SLOW_INPUT_MS (default 80) before each forward: a slow input pipeline, on the CPU
#   gpu     enqueues extra fp32 matrix products (8192x8192) on its GPU before each forward, about SLOW_GPU_MS
#           (default 80) of GPU time, calibrated once at start: slow compute on that GPU
# Every rank prints one line per step ("step 12/80 loss 0.1234 time 45.6 ms": the wall time of the whole
# iteration, the loss read back with .item()). At the end each rank writes its flight recorder dump on demand
# (pickle, and JSON where this PyTorch has it) to CAPTURE_FR_DIR/nccl_trace_rank_<rank>.
# What the capture needs but a real job would not print (calibration, dump API names) goes to CAPTURE_NOTES,
# a JSON file outside the pod's log. CAPTURE_DUMP_AFTER_S (second pass, silent hangs): after that many seconds,
# faulthandler writes every thread's Python stack to CAPTURE_SIDE_DIR/stacks-<host>.txt and a side thread writes
# an on-demand flight recorder dump to CAPTURE_SIDE_DIR/fr-ondemand/ (if it gets the GIL).
import os, sys, time, socket, datetime, json
import torch, torch.nn as nn, torch.nn.functional as F, torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel as DDP

mode = sys.argv[1] if len(sys.argv) > 1 else "normal"
slow_rank = int(os.environ.get("SLOW_RANK", "1"))
steps = int(os.environ.get("STEPS", "80"))
input_ms = float(os.environ.get("SLOW_INPUT_MS", "80"))
gpu_ms = float(os.environ.get("SLOW_GPU_MS", "80"))
width = int(os.environ.get("WIDTH", "2048"))
layers = int(os.environ.get("LAYERS", "4"))
batch = int(os.environ.get("BATCH", "512"))
pg_timeout = datetime.timedelta(seconds=int(os.environ.get("PG_TIMEOUT_S", "60")))
local_rank = int(os.environ.get("LOCAL_RANK", "0"))
host = socket.gethostname()
notes = {"mode": mode, "host": host, "pid": os.getpid()}


def log(msg):
    now = datetime.datetime.now().strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]
    print(f"{now} [{host}] [rank {os.environ.get('RANK', '?')}] {msg}", flush=True)


def save_notes():
    p = os.environ.get("CAPTURE_NOTES")
    if p:
        with open(p, "w") as f:
            json.dump(notes, f, indent=1, default=str)


dump_after = float(os.environ.get("CAPTURE_DUMP_AFTER_S", "0"))
if dump_after > 0:  # what an operator would do to a job that hangs without a timeout: dump stacks and the recorder
    import faulthandler, threading
    stacks = open(os.path.join(os.environ["CAPTURE_SIDE_DIR"], f"stacks-{host}.txt"), "w")
    faulthandler.dump_traceback_later(dump_after, repeat=False, file=stacks)

    def side_dump():
        time.sleep(dump_after + 1)
        d = os.path.join(os.environ["CAPTURE_SIDE_DIR"], "fr-ondemand")
        os.makedirs(d, exist_ok=True)
        data = torch._C._distributed_c10d._dump_nccl_trace(includeCollectives=True, includeStackTraces=True,
                                                           onlyActive=False)
        with open(os.path.join(d, f"nccl_trace_rank_{os.environ.get('RANK', '0')}"), "wb") as f:
            f.write(data)
        notes["side_dump_at"] = time.time()
        save_notes()
    threading.Thread(target=side_dump, daemon=True).start()

torch.cuda.set_device(local_rank)
dev = torch.device("cuda", local_rank)
log(f"init_process_group(backend=nccl) master={os.environ.get('MASTER_ADDR')}:{os.environ.get('MASTER_PORT')} "
    f"world_size={os.environ.get('WORLD_SIZE')} timeout={pg_timeout}")
dist.init_process_group("nccl", timeout=pg_timeout, device_id=dev)
rank, world = dist.get_rank(), dist.get_world_size()
notes["rank"] = rank
log(f"process group ready: rank {rank} of {world}, device {torch.cuda.get_device_name(dev)}")
torch.manual_seed(1234)
mods = []
for _ in range(layers):
    mods += [nn.Linear(width, width), nn.GELU()]
mods.append(nn.Linear(width, 1000))
net = nn.Sequential(*mods).to(dev)
nparams = sum(p.numel() for p in net.parameters())
notes["params"] = nparams
log(f"model: {nparams / 1e6:.1f}M parameters (fp32, {nparams * 4 / 2**20:.0f} MiB of gradients), batch {batch}")
model = DDP(net, device_ids=[local_rank])
opt = torch.optim.SGD(model.parameters(), lr=1e-3)

extra = 0
if mode == "gpu" and rank == slow_rank:
    a = torch.randn(8192, 8192, device=dev)
    b = torch.randn(8192, 8192, device=dev)
    c = torch.empty(8192, 8192, device=dev)
    for _ in range(3):
        torch.mm(a, b, out=c)
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(10):
        torch.mm(a, b, out=c)
    torch.cuda.synchronize()
    per_ms = (time.perf_counter() - t) * 100
    extra = max(1, round(gpu_ms / per_ms))
    notes["gpu_matmul_ms"] = per_ms
    notes["gpu_matmuls_per_step"] = extra
    notes["gpu_extra_ms_per_step"] = per_ms * extra
save_notes()

step_ms = []
t0 = time.perf_counter()
for step in range(1, steps + 1):
    if mode == "input" and rank == slow_rank:
        time.sleep(input_ms / 1000.0)  # the input pipeline: a batch takes this long to arrive
    x = torch.randn(batch, width, device=dev)
    y = torch.randint(0, 1000, (batch,), device=dev)
    for _ in range(extra):  # slow compute on this GPU: queued before the forward pass
        torch.mm(a, b, out=c)
    out = model(x)
    loss = F.cross_entropy(out, y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    lv = loss.item()
    t1 = time.perf_counter()
    step_ms.append((t1 - t0) * 1000)
    log(f"step {step}/{steps} loss {lv:.4f} time {(t1 - t0) * 1000:.1f} ms")
    t0 = t1

torch.cuda.synchronize()
time.sleep(1.5)  # let the watchdog see the last collectives complete
notes["step_ms"] = step_ms
frdir = os.environ.get("CAPTURE_FR_DIR")
if frdir:
    os.makedirs(frdir, exist_ok=True)
    c10d = torch._C._distributed_c10d
    notes["fr_api"] = sorted(n for n in dir(c10d) if "dump" in n.lower() or "trace" in n.lower())
    path = os.path.join(frdir, f"nccl_trace_rank_{rank}")
    try:
        data = c10d._dump_nccl_trace(includeCollectives=True, includeStackTraces=False, onlyActive=False)
        with open(path, "wb") as f:
            f.write(data)
        log(f"flight recorder dump written to {path} ({len(data)} bytes)")
    except Exception as e:  # noqa: BLE001
        notes["fr_pickle_error"] = repr(e)
    try:
        js = c10d._dump_nccl_trace_json(includeCollectives=True, onlyActive=False)
        with open(path + ".json", "wb" if isinstance(js, (bytes, bytearray)) else "w") as f:
            f.write(js)
    except Exception as e:  # noqa: BLE001
        notes["fr_json_error"] = repr(e)
save_notes()
dist.destroy_process_group()
log("training finished")
