# Give each "pod" its own network namespace, as Kubernetes does: named netns trainer-worker-0 and -1 joined
# by one veth pair, each end named eth0 inside its pod (10.42.0.10/24 and 10.42.0.11/24), lo up in each.
# usage: python3 podnet.py up | down      (needs pyroute2 on PYTHONPATH)
import sys
from pyroute2 import netns, NetNS, IPRoute

PODS = [("trainer-worker-0", "10.42.0.10"), ("trainer-worker-1", "10.42.0.11")]


def up():
    for name, _ in PODS:
        if name in netns.listnetns():
            netns.remove(name)
        netns.create(name)
    with IPRoute() as ip:
        ip.link("add", ifname="vw0", kind="veth", peer="vw1")
        for (name, _), dev in zip(PODS, ("vw0", "vw1")):
            idx = ip.link_lookup(ifname=dev)[0]
            ip.link("set", index=idx, net_ns_fd=name)
    for (name, addr), dev in zip(PODS, ("vw0", "vw1")):
        with NetNS(name) as ns:
            idx = ns.link_lookup(ifname=dev)[0]
            ns.link("set", index=idx, ifname="eth0")
            ns.addr("add", index=idx, address=addr, prefixlen=24)
            ns.link("set", index=idx, state="up")
            lo = ns.link_lookup(ifname="lo")[0]
            ns.link("set", index=lo, state="up")
            print(name, [(a.get_attr("IFA_LABEL"), a.get_attr("IFA_ADDRESS")) for a in ns.get_addr()])


def down():
    for name, _ in PODS:
        if name in netns.listnetns():
            netns.remove(name)


{"up": up, "down": down}[sys.argv[1]]()
