#!/bin/bash
# Builds a small two-tier RoCE fabric out of network namespaces joined by veth pairs, runs Debian's
# lldpd in every namespace and captures what each node's lldpcli says of its neighbours.
#
#   usage: gen-lldp-fabric.sh VARIANT OUTDIR      (as root; needs lldpd, lldpcli and iproute2)
#   VARIANT: healthy    2 spines, 2 leaves, 4 hosts; each host's ens1f0np0 on leaf-01, ens2f0np0 on leaf-02
#            miscabled  as healthy, but gpu-node-03's ens2f0np0 is cabled to leaf-01 (both NICs on one leaf)
#            one-sided  as healthy, but lldpd on gpu-node-04 runs receive-only (lldpd -r): its cables are
#                       seen from the host's end only
#            mtu-mismatch  as healthy, but gpu-node-02's ens1f0np0 has MTU 1500 (its leaf port 9000) and spine-01's
#                       Ethernet4 MTU 9000 (leaf-02's Ethernet0 at its other end 9100)
#            pfc-one-end  as healthy, but leaf-02's config_db.json leaves priority 3 out of Ethernet8's pfc_enable ("4")
#            neighbour-missing  as healthy, but the leaf-02 end of gpu-node-02's ens2f0np0 is down (as if unplugged) and
#                       gpu-node-03's and gpu-node-04's ens2f0np0 are swapped on leaf-02 (Ethernet20, Ethernet16)
#
# Every variant also writes each switch's config_db.json (SONiC's own configuration file, made here from the
# switch namespace's real ports and MTUs, the designed cabling as DEVICE_NEIGHBOR, PFC on priorities 3 and 4 in
# PORT_QOS_MAP) and each host's ip -d link show and ip -j addr show.
#
# "Switches" have SONiC-style port names (Ethernet0, Ethernet4, ...), hosts ConnectX-style netdev
# names (ens1f0np0, ens2f0np0). Each namespace has its own lldpd (-d, in the foreground, its own
# control socket /run/lldpd-NS.socket) configured by a file given with -O: its hostname, a 1 s
# tx-interval. Every namespace, veth and lldpd this script starts is removed when it exits.
#
# Writes OUTDIR/NODE/lldpcli-neighbors.{json,json0,keyvalue,xml,txt} and OUTDIR/all-nodes.txt, the
# plain-text outputs of every node concatenated with a "==> NODE <==" line before each (tail's marker).
set -euo pipefail

usage="usage: gen-lldp-fabric.sh healthy|miscabled|one-sided|mtu-mismatch|pfc-one-end|neighbour-missing OUTDIR"
variant=${1:?$usage}
out=${2:?$usage}
case $variant in healthy|miscabled|one-sided|mtu-mismatch|pfc-one-end|neighbour-missing) ;; *) echo "unknown variant $variant" >&2; exit 2;; esac
[ "$(id -u)" = 0 ] || { echo "needs root (network namespaces)" >&2; exit 77; }
command -v lldpd >/dev/null && command -v lldpcli >/dev/null || { echo "needs lldpd and lldpcli" >&2; exit 77; }

pfx=fsl$$                      # namespace prefix, unique per run
work=$(mktemp -d)
chmod 755 "$work"   # lldpcli, which lldpd runs on the -O file, must read it
switches=(spine-01 spine-02 leaf-01 leaf-02)
hosts=(gpu-node-01 gpu-node-02 gpu-node-03 gpu-node-04)
nodes=("${switches[@]}" "${hosts[@]}")
pids=()

cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    sleep 0.3
    for n in "${nodes[@]}"; do ip netns del "$pfx-$n" 2>/dev/null || true; done
    [ -n "${KEEP_LOGS:-}" ] && cp -r "$work" "$KEEP_LOGS"; rm -rf "$work"
}
trap cleanup EXIT

for n in "${nodes[@]}"; do ip netns add "$pfx-$n"; done

# next free SONiC port per switch: Ethernet0, Ethernet4, ...
declare -A nextport
for s in "${switches[@]}"; do nextport[$s]=0; done
# sets $port (not echoed: a $(...) subshell would not keep the counter)
sonic_port() { port="Ethernet${nextport[$1]}"; nextport[$1]=$((nextport[$1] + 4)); }

vethn=0
# cable NODE_A IF_A NODE_B IF_B [MTU]
cable() {
    local a=$1 ia=$2 b=$3 ib=$4 mtu=${5:-9100}
    vethn=$((vethn + 1))
    local ta="v${$}a$vethn" tb="v${$}b$vethn"
    ip link add "$ta" type veth peer name "$tb"
    ip link set "$ta" netns "$pfx-$a"
    ip link set "$tb" netns "$pfx-$b"
    ip -n "$pfx-$a" link set "$ta" name "$ia" mtu "$mtu" up
    ip -n "$pfx-$b" link set "$tb" name "$ib" mtu "$mtu" up
}

# spine uplinks: every leaf to every spine
for l in leaf-01 leaf-02; do
    for s in spine-01 spine-02; do
        sonic_port "$l"; lp=$port; sonic_port "$s"
        cable "$l" "$lp" "$s" "$port"
    done
done
# hosts: rail 0 (ens1f0np0) on leaf-01, rail 1 (ens2f0np0) on leaf-02
for h in "${hosts[@]}"; do
    sonic_port leaf-01
    cable "$h" ens1f0np0 leaf-01 "$port" 9000
    second=leaf-02
    [ "$variant" = miscabled ] && [ "$h" = gpu-node-03 ] && second=leaf-01
    sonic_port "$second"
    if [ "$variant" = neighbour-missing ]; then
        case $h in gpu-node-03) port=Ethernet20 ;; gpu-node-04) port=Ethernet16 ;; esac
    fi
    cable "$h" ens2f0np0 "$second" "$port" 9000
    [ "$variant" = neighbour-missing ] && [ "$h" = gpu-node-02 ] && ip -n "$pfx-leaf-02" link set "$port" down
done
if [ "$variant" = mtu-mismatch ]; then
    ip -n "$pfx-gpu-node-02" link set ens1f0np0 mtu 1500
    ip -n "$pfx-spine-01" link set Ethernet4 mtu 9000
fi
# the design, which each switch's config_db.json states as DEVICE_NEIGHBOR: SWITCH PORT NEIGHBOUR NEIGHBOUR-PORT
plan="$work/plan.tsv"
: > "$plan"
for l in 1 2; do
    for s in 1 2; do
        echo "leaf-0$l Ethernet$(( (s - 1) * 4 )) spine-0$s Ethernet$(( (l - 1) * 4 ))" >> "$plan"
        echo "spine-0$s Ethernet$(( (l - 1) * 4 )) leaf-0$l Ethernet$(( (s - 1) * 4 ))" >> "$plan"
    done
done
i=0
for h in "${hosts[@]}"; do
    echo "leaf-01 Ethernet$(( 8 + i * 4 )) $h ens1f0np0" >> "$plan"
    echo "leaf-02 Ethernet$(( 8 + i * 4 )) $h ens2f0np0" >> "$plan"
    i=$((i + 1))
done
# host addresses (lldpd advertises them as management addresses)
i=0
for h in "${hosts[@]}"; do
    i=$((i + 1))
    ip -n "$pfx-$h" addr add "192.168.10.$i/24" dev ens1f0np0
    ip -n "$pfx-$h" addr add "192.168.11.$i/24" dev ens2f0np0
done
i=0
for s in "${switches[@]}"; do
    i=$((i + 1))
    ip -n "$pfx-$s" link set lo up
    ip -n "$pfx-$s" addr add "10.1.0.$i/32" dev lo
done

for n in "${nodes[@]}"; do
    conf="$work/$n.conf"
    {
        echo "configure system hostname $n"
        echo "configure lldp tx-interval 1"
        echo "configure lldp portidsubtype ifname"
        case $n in spine-*|leaf-*) echo "configure system capabilities enabled bridge,router" ;; esac
    } > "$conf"
    chmod 644 "$conf"
    args=(-d -k -u "/run/lldpd-$pfx-$n.socket" -O "$conf")
    case $n in
        spine-*|leaf-*) args+=(-S "SONiC Software Version: SONiC.fabricscope-sim - HwSku: sim-32x400G" -P "x86_64-sim-r0") ;;
        *) args+=(-S "Debian GNU/Linux 12 (bookworm) gpu node") ;;
    esac
    [ "$variant" = one-sided ] && [ "$n" = gpu-node-04 ] && args+=(-r)
    ip netns exec "$pfx-$n" lldpd "${args[@]}" >"$work/$n.log" 2>&1 &
    pids+=($!)
done

# wait until every leaf sees its six neighbours (the one-sided variant's leaves see one fewer host, the
# neighbour-missing variant's leaf-02 too)
want=6; { [ "$variant" = one-sided ] || [ "$variant" = neighbour-missing ]; } && want=5
for t in $(seq 1 60); do
    ok=1
    for l in leaf-01 leaf-02; do
        c=$(lldpcli -u "/run/lldpd-$pfx-$l.socket" show neighbors -f keyvalue 2>/dev/null | grep -c '\.chassis\.name=' || true)
        [ "$c" -ge "$want" ] || ok=0
    done
    [ "$ok" = 1 ] && break
    sleep 1
done
sleep 3 # a few more frames: every name settled

mkdir -p "$out"
: > "$out/all-nodes.txt"
for n in "${nodes[@]}"; do
    sock="/run/lldpd-$pfx-$n.socket"
    mkdir -p "$out/$n"
    lldpcli -u "$sock" show neighbors -f json  > "$out/$n/lldpcli-neighbors.json"
    lldpcli -u "$sock" show neighbors -f json0 > "$out/$n/lldpcli-neighbors.json0"
    lldpcli -u "$sock" show neighbors -f keyvalue > "$out/$n/lldpcli-neighbors.keyvalue"
    lldpcli -u "$sock" show neighbors -f xml   > "$out/$n/lldpcli-neighbors.xml"
    lldpcli -u "$sock" show neighbors          > "$out/$n/lldpcli-neighbors.txt"
    { echo "==> $n <=="; cat "$out/$n/lldpcli-neighbors.txt"; echo; } >> "$out/all-nodes.txt"
done
# host side: MTU and addresses as the hosts see them
for h in "${hosts[@]}"; do
    ip -n "$pfx-$h" -d link show > "$out/$h/ip-d-link.txt"
    ip -n "$pfx-$h" -j addr show > "$out/$h/ip-j-addr.json"
done
# switch side: config_db.json as SONiC's "config save" writes it (keys sorted, 4-space indent), from the
# namespace's own ports and MTUs and the design above
for s in "${switches[@]}"; do
    sw_mac=$(ip -n "$pfx-$s" -o link show Ethernet0 | sed -n 's/.*link\/ether \([0-9a-f:]*\).*/\1/p')
    case $s in spine-*) type=SpineRouter ;; *) type=LeafRouter ;; esac
    ports=$(ip -n "$pfx-$s" -o link show | sed -n 's/^[0-9]*: \(Ethernet[0-9]*\)@[^:]*: .* mtu \([0-9]*\) .*/\1 \2/p' | LC_ALL=C sort)
    {
        echo '{'
        echo '    "DEVICE_METADATA": {'
        echo '        "localhost": {'
        echo '            "default_pfcwd_status": "disable",'
        echo "            \"hostname\": \"$s\","
        echo '            "hwsku": "sim-32x400G",'
        echo "            \"mac\": \"$sw_mac\","
        echo '            "platform": "x86_64-sim-r0",'
        echo "            \"type\": \"$type\""
        echo '        }'
        echo '    },'
        echo '    "DEVICE_NEIGHBOR": {'
        grep "^$s " "$plan" | LC_ALL=C sort -k2,2 | awk 'NR > 1 { print "        }," } { printf "        \"%s\": {\n            \"name\": \"%s\",\n            \"port\": \"%s\"\n", $2, $3, $4 } END { print "        }" }'
        echo '    },'
        echo '    "PORT": {'
        echo "$ports" | awk 'NR > 1 { print "        }," } { n = substr($1, 9); printf "        \"%s\": {\n            \"admin_status\": \"up\",\n            \"alias\": \"etp%d\",\n            \"index\": \"%d\",\n            \"lanes\": \"%d,%d,%d,%d\",\n            \"mtu\": \"%s\",\n            \"speed\": \"400000\"\n", $1, n / 4 + 1, n / 4 + 1, n, n + 1, n + 2, n + 3, $2 } END { print "        }" }'
        echo '    },'
        echo '    "PORT_QOS_MAP": {'
        echo "$ports" | awk -v sw="$s" -v variant="$variant" 'NR > 1 { print "        }," } { pfc = (variant == "pfc-one-end" && sw == "leaf-02" && $1 == "Ethernet8") ? "4" : "3,4"; printf "        \"%s\": {\n            \"dscp_to_tc_map\": \"AZURE\",\n            \"pfc_enable\": \"%s\",\n            \"pfc_to_queue_map\": \"AZURE\",\n            \"tc_to_pg_map\": \"AZURE\",\n            \"tc_to_queue_map\": \"AZURE\"\n", $1, pfc } END { print "        }" }'
        echo '    }'
        echo '}'
    } > "$out/$s/config_db.json"
done
echo "captured $variant into $out"
