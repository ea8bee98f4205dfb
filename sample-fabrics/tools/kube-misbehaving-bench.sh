#!/usr/bin/env bash
# One-shot `summary --kube` against each misbehaving stand-in server (loopback): mode, exit status, wall time,
# peak RSS, lines printed and the line. Run from anywhere after ./mvnw -B package -DskipTests.
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work=$(mktemp -d)
cd "$here/../.."
port=18443
for mode in stall-headers stall-body trickle endless empty200 html500; do
  python3 "$here"/stub-apiserver.py $mode $port & spid=$!
  sleep 0.5
  cat > "$work"/kc.yaml <<K
apiVersion: v1
kind: Config
clusters:
- name: stub
  cluster:
    server: http://127.0.0.1:$port
contexts:
- name: stub
  context:
    cluster: stub
    user: u
    namespace: default
current-context: stub
users:
- name: u
  user:
    token: t
K
  start=$(date +%s.%N)
  out=$(/usr/bin/time -f '%M' -o "$work"/rss java -jar app/target/fabricscope-app.jar summary --kube --kubeconfig "$work"/kc.yaml 2>&1); rc=$?
  end=$(date +%s.%N)
  printf '%s\trc=%s\t%.1f s\t%s KB\t%s lines\t%s\n' "$mode" "$rc" "$(echo "$end - $start" | bc)" "$(cat "$work"/rss)" "$(printf '%s\n' "$out" | wc -l)" "$(printf '%s' "$out" | head -c 300 | tr '\n' '|')"
  kill $spid 2>/dev/null; wait $spid 2>/dev/null
  port=$((port+1))
done
