#!/usr/bin/env bash
# Undoes cri-setup.sh: removes every CRI container and sandbox, stops the containerd and registry the
# set-up started (by their recorded pids only), unmounts what containerd mounted and deletes the work
# dir. Leaves the Debian packages installed. Safe to run when nothing is up.
set -uo pipefail

B=${KRUISE_CRI_BASE:-/var/tmp/kruise-cri}
STATE=/run/containerd
SOCK=$STATE/containerd.sock

log() { echo "cri-teardown: $*" >&2; }
alive() { [ -f "$B/$1.pid" ] && kill -0 "$(cat "$B/$1.pid")" 2>/dev/null; }

if alive containerd; then
  ctr_k8s() { ctr --address "$SOCK" --timeout 10s -n k8s.io "$@"; }
  for t in $(ctr_k8s tasks ls -q 2>/dev/null); do ctr_k8s tasks kill -s SIGKILL "$t" >/dev/null 2>&1; done
  for _ in $(seq 50); do [ -z "$(ctr_k8s tasks ls -q 2>/dev/null | head -1)" ] && break
    for t in $(ctr_k8s tasks ls -q 2>/dev/null); do ctr_k8s tasks delete "$t" >/dev/null 2>&1; done; sleep 0.1; done
  for c in $(ctr_k8s containers ls -q 2>/dev/null); do ctr_k8s containers rm "$c" >/dev/null 2>&1; done
fi

for p in containerd registry; do
  if alive "$p"; then
    pid=$(cat "$B/$p.pid")
    kill "$pid" 2>/dev/null
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null
    log "stopped $p (pid $pid)"
  fi
  rm -f "$B/$p.pid"
done

# Sandbox shm, rootfs overlays and netns mounts under our dirs, deepest first.
awk '{print $2}' /proc/mounts | grep -E "^($STATE|$B)/" | sort -r | xargs -r -n1 umount -l 2>/dev/null
if [ -f "$B/containerd.toml" ]; then
  rm -rf "$STATE"
fi
rm -rf "$B"
log "done"
