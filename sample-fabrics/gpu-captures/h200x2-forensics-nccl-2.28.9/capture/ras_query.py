# Minimal NCCL RAS client (protocol of NCCL src/ras/client.cc): handshake "CLIENT PROTOCOL 2",
# optional "TIMEOUT n", optional "SET FORMAT json", then "STATUS" or "VERBOSE STATUS"; the reply is read
# until NCCL closes the connection and written unchanged to OUTFILE. The exchange goes to stderr.
# Usage: python3 ras_query.py OUTFILE [text|json] [plain|verbose] [PORT] [TIMEOUT_S]
import socket, sys

outfile = sys.argv[1]
fmt = sys.argv[2] if len(sys.argv) > 2 else "text"
verbose = len(sys.argv) > 3 and sys.argv[3] == "verbose"
port = int(sys.argv[4]) if len(sys.argv) > 4 else 28028
tmo = int(sys.argv[5]) if len(sys.argv) > 5 else 5


def line(f):
    s = f.readline().decode(errors="replace")
    print("  <", s.rstrip(), file=sys.stderr)
    return s


s = socket.create_connection(("localhost", port), timeout=tmo + 30)
f = s.makefile("rb")
def send(cmd):
    print("  >", cmd, file=sys.stderr)
    s.sendall((cmd + "\n").encode())
send("CLIENT PROTOCOL 2")
line(f)
send(f"TIMEOUT {tmo}")
line(f)
if fmt == "json":
    send("SET FORMAT json")
    line(f)
send(("VERBOSE " if verbose else "") + "STATUS")
data = f.read()
with open(outfile, "wb") as o:
    o.write(data)
print(f"  {len(data)} bytes -> {outfile}", file=sys.stderr)
