#!/usr/bin/env bash
# capture.sh NETFILE OUTDIR [FAULTSFILE]
#
# Runs the real infiniband-diags tools against Debian's InfiniBand simulator
# (ibsim + libumad2sim) and saves their output:
#
#   1. starts `ibsim -s NETFILE` (console fed through a FIFO, no TTY needed);
#   2. applies the "pre-SM" fault commands from FAULTSFILE (link changes);
#   3. starts OpenSM (kept running for the capture so SA queries work) and
#      waits for "SUBNET UP";
#   4. applies the "post-SM" fault commands (PerformanceSet ... counters);
#   5. captures into OUTDIR:
#        ibnetdiscover.txt, ibnetdiscover-p.txt (-p), ibnetdiscover-g.txt (-g),
#        iblinkinfo.txt, perfquery-<lid>-<port>.txt (PortCounters: error
#        counters) and perfquery-x-<lid>-<port>.txt (-x, 64-bit data counters)
#        for every port named in a fault / Query line (the switch LID for a
#        switch port, the port's own LID for a CA port), perfquery-a-<lid>.txt
#        (-a, all ports summed) for the first switch hit by a PerformanceSet,
#        ibqueryerrors.txt, nodes.tsv (simulator node id -> type, node GUID, LID);
#   6. stops OpenSM and ibsim (always: EXIT trap, plus a watchdog process).
# OUTDIR is created if needed; existing files in it are overwritten, not removed.
#
# FAULTSFILE: one ibsim console command per line; blank lines and lines
# starting with '#' are ignored.  Examples:
#   Unlink "S-leaf-su1-r8"[31]
#   PerformanceSet "S-leaf-su1-r3"[23] PortCounters.SymbolErrorCounter=1873
#   PerformanceSet "S-leaf-su2-r5"[7] PortCounters.LinkErrorRecoveryCounter=42
#   Query "S-leaf-su1-r6"[12]      (not sent to ibsim: only adds perfquery/perfquery -x of this port)
# Phase: Link/Unlink/ReLink/Clear/Guid/Baselid run before the SM sweeps (so the
# SM routes around the change, like a cable that was already out when the SM
# came up); every other command runs after SUBNET UP.  Prefix a line with
# "pre:" or "post:" to force the phase.
#
# Environment knobs:
#   CAPTURE_TOOL_TIMEOUT  seconds allowed for each diag tool (default 120)
#   CAPTURE_SM_TIMEOUT    seconds to wait for OpenSM "SUBNET UP" (default 180)
#   SIM_HOST              simulator node id the SM and the tools attach to
#                         (default: the first Ca/Hca node of NETFILE)
#   CAPTURE_MAX_SECONDS   hard limit for the whole run; a watchdog then kills
#                         ibsim/opensm even if this script was SIGKILLed (default 900)
#   CAPTURE_KEEP_WORK=1   keep the temporary work dir (ibsim/opensm logs)
#   CAPTURE_EXTRA=FILE    extra captures, see "optional extra captures" below
#
# Exit status: 0 on success; 2 usage; 3 missing tools; 4 simulator/SM failure;
# 5 a capture tool failed.
set -u
set -o pipefail

PROG=capture.sh
die() { local rc=$1; shift; echo "$PROG: ERROR: $*" >&2; exit "$rc"; }
log() { echo "$PROG: $*" >&2; }

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $PROG NETFILE OUTDIR [FAULTSFILE]" >&2
    exit 2
fi
NETFILE=$1
OUTDIR=$2
FAULTS=${3:-}

[ -r "$NETFILE" ] || die 2 "net file '$NETFILE' not readable"
[ -z "$FAULTS" ] || [ -r "$FAULTS" ] || die 2 "faults file '$FAULTS' not readable"

# ---- tool checks --------------------------------------------------------
missing=()
for t in ibsim opensm ibnetdiscover iblinkinfo perfquery ibqueryerrors timeout mkfifo awk; do
    command -v "$t" >/dev/null 2>&1 || missing+=("$t")
done
UMAD2SIM=""
for c in /usr/lib/*/umad2sim/libumad2sim.so /usr/lib/umad2sim/libumad2sim.so \
         /usr/lib64/umad2sim/libumad2sim.so /usr/local/lib/umad2sim/libumad2sim.so; do
    if [ -f "$c" ]; then UMAD2SIM=$c; break; fi
done
[ -n "$UMAD2SIM" ] || missing+=("libumad2sim.so")
if [ ${#missing[@]} -gt 0 ]; then
    die 3 "missing simulator tools: ${missing[*]} (install with: bash .ci/install-sim.sh, i.e. apt-get install ibsim-utils libumad2sim0 opensm infiniband-diags)"
fi

TOOL_TIMEOUT=${CAPTURE_TOOL_TIMEOUT:-120}
SM_TIMEOUT=${CAPTURE_SM_TIMEOUT:-180}

NETFILE_ABS=$(cd "$(dirname "$NETFILE")" && pwd)/$(basename "$NETFILE")
[ -n "$FAULTS" ] && FAULTS_ABS=$(cd "$(dirname "$FAULTS")" && pwd)/$(basename "$FAULTS") || FAULTS_ABS=""
mkdir -p "$OUTDIR" || die 2 "cannot create $OUTDIR"
OUT_ABS=$(cd "$OUTDIR" && pwd)

# ---- work dir, simulator socket, cleanup ------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/fabricscope-capture.XXXXXX") || die 4 "mktemp failed"
# libumad2sim creates ./sys-<pid> helper dirs in the cwd: keep them in WORK.
cd "$WORK" || die 4 "cannot cd to $WORK"
export IBSIM_SOCKNAME="fscap$$x${RANDOM}"
SIM_PID=""
OSM_PID=""
WATCHDOG_PID=""
cleanup() {
    local rc=$?
    [ "${CAPTURE_KEEP_WORK:-0}" = 1 ] && echo "$PROG: work dir kept: $WORK" >&2
    exec 2>/dev/null
    [ -n "$OSM_PID" ] && kill "$OSM_PID" 2>/dev/null
    if [ -n "$SIM_PID" ]; then
        echo "Quit" >&3 2>/dev/null
        sleep 0.2
        kill "$SIM_PID" 2>/dev/null
        sleep 0.2
        kill -9 "$SIM_PID" 2>/dev/null
    fi
    [ -n "$OSM_PID" ] && { sleep 0.2; kill -9 "$OSM_PID" 2>/dev/null; }
    [ -n "$WATCHDOG_PID" ] && kill "$WATCHDOG_PID" 2>/dev/null
    exec 3>&- 2>/dev/null
    wait 2>/dev/null
    cd / 2>/dev/null
    [ "${CAPTURE_KEEP_WORK:-0}" = 1 ] || rm -rf "$WORK"
    exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

fail_logs() {
    echo "---- ibsim log (tail) ----" >&2; tail -n 30 "$WORK/ibsim.log" >&2 2>/dev/null
    [ -f "$WORK/osm/opensm.log" ] && { echo "---- opensm log (tail) ----" >&2; tail -n 20 "$WORK/osm/opensm.log" >&2; }
}

# ---- size limits for ibsim --------------------------------------------------
read -r NSW NCA NPORTS < <(awk '
    /^Switch/ { n=$0; sub(/^Switch[ \t]*/, "", n); p=n+0; sw++; ports+=p+1 }
    /^(Ca|Hca|Rt)/ { n=$0; sub(/^(Ca|Hca|Rt)[ \t]*/, "", n); p=n+0; ca++; ports+=p }
    END { print sw+0, ca+0, ports+0 }' "$NETFILE_ABS")
MAXN=$(( (NSW + NCA) * 2 + 64 )); [ $MAXN -lt 2048 ] && MAXN=2048
MAXS=$(( NSW * 2 + 16 ));        [ $MAXS -lt 256 ] && MAXS=256
MAXP=$(( NPORTS * 2 + 256 ));    [ $MAXP -lt 13312 ] && MAXP=13312

if [ -z "${SIM_HOST:-}" ]; then
    SIM_HOST=$(awk '/^(Ca|Hca)[ \t]/ { if (match($0, /"[^"]*"/)) { print substr($0, RSTART+1, RLENGTH-2); exit } }' "$NETFILE_ABS")
fi
[ -n "${SIM_HOST:-}" ] && export SIM_HOST

# ---- start ibsim ---------------------------------------------------------------
mkfifo "$WORK/console" || die 4 "mkfifo failed"
exec 3<>"$WORK/console"          # O_RDWR: never blocks, keeps the FIFO open
ibsim -N "$MAXN" -S "$MAXS" -P "$MAXP" -s "$NETFILE_ABS" <"$WORK/console" >"$WORK/ibsim.log" 2>&1 &
SIM_PID=$!
echo "$SIM_PID ibsim" >"$WORK/pids"

# Watchdog: if this script dies without running its trap (e.g. SIGKILL) or runs
# longer than CAPTURE_MAX_SECONDS, kill the simulator and OpenSM it started.
MAX_SECONDS=${CAPTURE_MAX_SECONDS:-900}
PARENT=$$
(
    trap - EXIT INT TERM HUP
    start=$SECONDS
    while kill -0 "$PARENT" 2>/dev/null && [ $((SECONDS - start)) -lt "$MAX_SECONDS" ]; do sleep 1; done
    if [ -f "$WORK/pids" ]; then
        while read -r pid name; do
            # only kill it if that pid is still the program we started
            if tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep "^$name " >/dev/null; then   # not -q: see pipefail
                kill -9 "$pid" 2>/dev/null
            fi
        done <"$WORK/pids"
    fi
    kill -0 "$PARENT" 2>/dev/null || { [ "${CAPTURE_KEEP_WORK:-0}" = 1 ] || rm -rf "$WORK"; }
) </dev/null >/dev/null 2>&1 &
WATCHDOG_PID=$!

wait_for() {  # wait_for FILE REGEX SECONDS [PID]
    local f=$1 re=$2 secs=$3 pid=${4:-} i=0
    while [ $i -lt $((secs * 10)) ]; do
        grep -qE "$re" "$f" 2>/dev/null && return 0
        if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then return 2; fi
        sleep 0.1; i=$((i + 1))
    done
    return 1
}

wait_for "$WORK/ibsim.log" 'Network simulator ready' 60 "$SIM_PID"
case $? in
    0) ;;
    2) fail_logs; die 4 "ibsim exited while loading $NETFILE" ;;
    *) fail_logs; die 4 "ibsim did not become ready within 60s" ;;
esac

SYNC=0
console() {  # send one command and wait until ibsim has processed it
    printf '%s\n' "$*" >&3 || { fail_logs; die 4 "cannot write to ibsim console"; }
    SYNC=$((SYNC + 1))
    printf 'Dump "__sync_%d__"\n' "$SYNC" >&3
    wait_for "$WORK/ibsim.log" "__sync_${SYNC}__.*not found" 60 "$SIM_PID" \
        || { fail_logs; die 4 "ibsim console did not answer to: $*"; }
}

# ---- parse faults file --------------------------------------------------------
PRE=()
POST=()
QUERY=()    # "nodeid port" pairs to perfquery -x
if [ -n "$FAULTS_ABS" ]; then
    while IFS= read -r line || [ -n "$line" ]; do
        line="${line%$'\r'}"
        trimmed="${line#"${line%%[![:space:]]*}"}"
        [ -z "$trimmed" ] && continue
        case "$trimmed" in \#*) continue ;; esac
        phase=""
        case "$trimmed" in
            pre:*)  phase=pre;  trimmed="${trimmed#pre:}" ;;
            post:*) phase=post; trimmed="${trimmed#post:}" ;;
        esac
        trimmed="${trimmed#"${trimmed%%[![:space:]]*}"}"
        verb=$(printf '%s' "$trimmed" | awk '{print tolower($1)}')
        target=$(printf '%s' "$trimmed" | sed -n 's/^[^"]*"\([^"]*\)"\[\([0-9]*\)\].*/\1 \2/p')
        if [ "$verb" = query ]; then
            [ -n "$target" ] || die 2 "bad Query line in $FAULTS: $trimmed"
            QUERY+=("$target"); continue
        fi
        [ -n "$target" ] && QUERY+=("$target")
        if [ -z "$phase" ]; then
            case "$verb" in
                link|unlink|relink|clear|guid|baselid) phase=pre ;;
                *) phase=post ;;
            esac
        fi
        if [ "$phase" = pre ]; then PRE+=("$trimmed"); else POST+=("$trimmed"); fi
    done <"$FAULTS_ABS"
fi

check_console_errors() {
    # ibsim answers errors with "# ..." lines (e.g. '# nodeid "x" (x) not found')
    local bad
    bad=$(grep -E '^(sim> )*# ' "$WORK/ibsim.log" | grep -v '__sync_' | grep -vE '# (Net status|dumped)' || true)
    if [ -n "$bad" ]; then
        echo "$bad" >&2
        die 4 "ibsim rejected a fault command (see above)"
    fi
}

for c in "${PRE[@]+"${PRE[@]}"}"; do log "fault (pre-SM): $c"; console "$c"; done
check_console_errors

# ---- OpenSM -------------------------------------------------------------------
# LD_PRELOAD only for the IB programs (never for grep/sleep/awk helpers).
SIMPRELOAD="$UMAD2SIM${LD_PRELOAD:+:$LD_PRELOAD}"
mkdir -p "$WORK/osm"
LD_PRELOAD="$SIMPRELOAD" OSM_TMP_DIR="$WORK/osm" OSM_CACHE_DIR="$WORK/osm" \
    opensm -s 0 -d2 -f "$WORK/osm/opensm.log" </dev/null >"$WORK/osm.out" 2>&1 &
OSM_PID=$!
echo "$OSM_PID opensm" >>"$WORK/pids"
wait_for "$WORK/osm/opensm.log" "SUBNET UP" "$SM_TIMEOUT" "$OSM_PID"
case $? in
    0) ;;
    2) fail_logs; die 4 "opensm exited before SUBNET UP" ;;
    *) fail_logs; die 4 "opensm did not reach SUBNET UP within ${SM_TIMEOUT}s" ;;
esac
log "OpenSM: SUBNET UP"

for c in "${POST[@]+"${POST[@]}"}"; do log "fault (post-SM): $c"; console "$c"; done
check_console_errors

# ---- node id -> guid / lid map (from the simulator's own Dump) --------------------
console 'Dump'
awk '
    /^(sim> )*(Switch|Ca|Rt) [0-9]+ "/ {
        line=$0; sub(/^(sim> )*/, "", line)
        split(line, a, "\"");  id=a[2]; type=line; sub(/ .*/, "", type)
        guid=line; sub(/.*nodeguid /, "", guid); sub(/[ \t].*/, "", guid)
        cur=id; types[id]=type; guids[id]=guid; order[++n]=id; next }
    cur != "" && /\[[0-9]+\]/ && / lid [0-9]+/ {
        p=$0; sub(/^[^\[]*\[/, "", p); p=p+0
        l=$0; sub(/.* lid /, "", l); l=l+0
        if (types[cur] == "Switch") { if (p == 0) lid[cur]=l }
        else if (!(cur in lid) || lid[cur] == 0) lid[cur]=l
        if (l > 0) plid[cur, p]=l }
    END {
        print "# nodeid\ttype\tnodeguid\tlid"
        for (i = 1; i <= n; i++) {
            id=order[i]; g=guids[id]; while (length(g) < 16) g="0" g
            printf "%s\t%s\t0x%s\t%d\n", id, types[id], g, lid[id] }
    }' "$WORK/ibsim.log" >"$OUT_ABS/nodes.tsv"

lid_of() {  # lid_of NODEID PORT -> LID used to reach that port's PMA
    awk -F'\t' -v id="$1" '$1 == id { print $4; exit }' "$OUT_ABS/nodes.tsv"
}
type_of() { awk -F'\t' -v id="$1" '$1 == id { print $2; exit }' "$OUT_ABS/nodes.tsv"; }
# a CA port has its own LID: take it from the CA's Dump section
ca_port_lid() {
    awk -v id="$1" -v port="$2" '
        /^(sim> )*(Switch|Ca|Rt) [0-9]+ "/ { split($0, a, "\""); cur=a[2]; next }
        cur == id && /\[[0-9]+\]/ && / lid [0-9]+/ {
            p=$0; sub(/^[^\[]*\[/, "", p); if (p+0 == port) { l=$0; sub(/.* lid /, "", l); print l+0; exit } }' \
        "$WORK/ibsim.log"
}

# ---- captures -------------------------------------------------------------------
TOOL_FAIL=0
run_tool() {  # run_tool OUTFILE CMD...   (exit codes listed in $OKRC also count as success)
    local out=$1; shift
    local okrc=" ${OKRC:-0} "
    local rc attempt
    # libumad2sim occasionally crashes a tool mid-run (SIGSEGV in the preload shim, seen about once
    # in ten captures with ibqueryerrors); the fabric is unchanged, so such a crash is retried twice.
    for attempt in 1 2 3; do
        timeout -k 5 "$TOOL_TIMEOUT" env LD_PRELOAD="$SIMPRELOAD" "$@" </dev/null >"$OUT_ABS/$out" 2>"$WORK/$out.err"
        rc=$?
        case $rc in
            134|135|139) [ $attempt -lt 3 ] && log "'$1' crashed (rc=$rc, attempt $attempt); retrying" && continue ;;
        esac
        break
    done
    if [ "${okrc/ $rc /}" != "$okrc" ]; then
        log "captured $out ($(wc -l <"$OUT_ABS/$out") lines)"
        return 0
    fi
    log "WARNING: '$*' failed (rc=$rc) -> $out"
    [ $rc -eq 124 ] && log "    (timed out after ${TOOL_TIMEOUT}s)"
    grep -v 'sim_connect: attached' "$WORK/$out.err" | sed 's/^/    /' >&2
    return $rc
}

run_tool ibnetdiscover.txt   ibnetdiscover    || TOOL_FAIL=1
run_tool ibnetdiscover-p.txt ibnetdiscover -p || TOOL_FAIL=1
run_tool ibnetdiscover-g.txt ibnetdiscover -g || TOOL_FAIL=1
run_tool iblinkinfo.txt      iblinkinfo       || TOOL_FAIL=1

# perfquery: for every port named in the faults file, the basic PortCounters
# (error counters live there) and the extended (64-bit data) counters.
AGG_SW_LID=""
declare -A SEEN=()
for q in "${QUERY[@]+"${QUERY[@]}"}"; do
    node=${q% *}; port=${q##* }
    t=$(type_of "$node")
    if [ -z "$t" ]; then log "WARNING: unknown node '$node' in faults file"; continue; fi
    if [ "$t" = Switch ]; then
        lid=$(lid_of "$node")
    else
        lid=$(ca_port_lid "$node" "$port")
    fi
    if [ -z "$lid" ] || [ "$lid" = 0 ]; then
        log "WARNING: $node[$port] has no LID (unreachable?) - no perfquery"; continue
    fi
    key="$lid-$port"
    [ -n "${SEEN[$key]:-}" ] && continue
    SEEN[$key]=1
    run_tool "perfquery-$key.txt"   perfquery    "$lid" "$port" || TOOL_FAIL=1
    run_tool "perfquery-x-$key.txt" perfquery -x "$lid" "$port" || TOOL_FAIL=1
done
# perfquery -a (all ports summed) of one switch: the first switch whose
# counters were set by a PerformanceSet line, else the first switch.
for c in "${POST[@]+"${POST[@]}"}"; do
    case "$c" in [Pp]erformance[Ss]et*) ;; *) continue ;; esac
    node=$(printf '%s' "$c" | sed -n 's/^[^"]*"\([^"]*\)".*/\1/p')
    if [ "$(type_of "$node")" = Switch ]; then AGG_SW_LID=$(lid_of "$node"); break; fi
done
if [ -z "$AGG_SW_LID" ] || [ "$AGG_SW_LID" = 0 ]; then
    AGG_SW_LID=$(awk -F'\t' '$2 == "Switch" && $4 > 0 { print $4; exit }' "$OUT_ABS/nodes.tsv")
fi
if [ -n "$AGG_SW_LID" ]; then
    run_tool "perfquery-a-$AGG_SW_LID.txt" perfquery -a "$AGG_SW_LID" || TOOL_FAIL=1
fi
# ibqueryerrors exits 1 when it reports errors: that is a successful capture.
OKRC="0 1" run_tool ibqueryerrors.txt ibqueryerrors || TOOL_FAIL=1
grep -q '^## Summary' "$OUT_ABS/ibqueryerrors.txt" || { log "ibqueryerrors printed no summary"; TOOL_FAIL=1; }

# ---- optional extra captures (CAPTURE_EXTRA=FILE) ------------------------------------
# Each line: OUTFILE COMMAND [ARGS...]   (OUTFILE relative to OUTDIR, may contain a
# sub directory).  "@lid(NODEID)" is replaced by the LID of that simulator node (the
# switch LID, or port 1 LID of a CA), "@dir" by the directory holding FILE.  Exit
# codes 0 and 1 count as success (ibqueryerrors exits 1 when it reports errors).
if [ -n "${CAPTURE_EXTRA:-}" ]; then
    [ -r "$CAPTURE_EXTRA" ] || die 2 "CAPTURE_EXTRA file '$CAPTURE_EXTRA' not readable"
    EXTRA_DIR=$(cd "$(dirname "$CAPTURE_EXTRA")" && pwd)
    while IFS= read -r line || [ -n "$line" ]; do
        line="${line%$'\r'}"
        case "$line" in ''|\#*) continue ;; esac
        while [[ "$line" =~ @lid\(([^\)]*)\) ]]; do
            n="${BASH_REMATCH[1]}"
            l=$(lid_of "$n")
            [ -n "$l" ] || die 2 "CAPTURE_EXTRA: unknown node '$n'"
            line="${line//"@lid($n)"/$l}"
        done
        line="${line//@dir/$EXTRA_DIR}"
        read -r -a words <<<"$line"
        out=${words[0]}
        mkdir -p "$OUT_ABS/$(dirname "$out")" "$WORK/$(dirname "$out")"
        OKRC="0 1" run_tool "$out" "${words[@]:1}" || TOOL_FAIL=1
    done <"$CAPTURE_EXTRA"
fi

if [ $TOOL_FAIL -ne 0 ]; then
    fail_logs
    die 5 "one or more capture tools failed"
fi
log "done: $OUT_ABS"
exit 0
