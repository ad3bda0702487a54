#!/usr/bin/env bash
# Brings up a real container runtime for the node agent's tests: Debian's containerd (CRI plugin) and a
# loopback-only image registry holding a tiny busybox image and a pause image built here, without
# Docker. Root is required. Safe to re-run: whatever already runs and answers is kept.
#
# Stdout carries only `export NAME=value` lines, so a CI script can do
#   eval "$(node-agent/src/test/scripts/cri-setup.sh)"
# and then run Maven; progress goes to stderr. Network: 127.0.0.1 and Debian's package mirror only.
#
# Overridable: KRUISE_CRI_BASE (work dir, default /var/tmp/kruise-cri).
set -euo pipefail

B=${KRUISE_CRI_BASE:-/var/tmp/kruise-cri}
# containerd 1.6 keeps shim sockets under /run/containerd/s whatever its state dir is, so the daemon
# lives in the standard place too; the script refuses to touch a containerd it did not start.
STATE=/run/containerd
SOCK=$STATE/containerd.sock
REGISTRY=127.0.0.1:5000
BUSYBOX_IMAGE=$REGISTRY/test/busybox:1
PAUSE_IMAGE=$REGISTRY/test/pause:3.9
# containernetworking-plugins: the loopback CNI plugin the lo-only network below uses.
PACKAGES=(containerd runc docker-registry skopeo umoci busybox-static containernetworking-plugins curl)

log() { echo "cri-setup: $*" >&2; }
die() { echo "cri-setup: ERROR: $*" >&2; exit 1; }

# true while the process recorded in $B/$1.pid is alive
alive() { [ -f "$B/$1.pid" ] && kill -0 "$(cat "$B/$1.pid")" 2>/dev/null; }

wait_for() { # wait_for <tenths of a second> <command...>
  local n=$1; shift
  for _ in $(seq "$n"); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  return 1
}

registry_up() { curl -sf --max-time 2 "http://$REGISTRY/v2/" >/dev/null; }
# ctr waits ~10 s for a missing socket, so look for the file first.
containerd_up() { [ -S "$SOCK" ] && ctr --address "$SOCK" --timeout 5s version >/dev/null 2>&1; }
cri_plugin_ok() { ctr --address "$SOCK" --timeout 5s plugins ls 2>/dev/null | awk '$2 == "cri" && $4 == "ok" {found=1} END {exit !found}'; }

[ "$(id -u)" = 0 ] || die "must run as root (containerd and runc need it)"
start=$(date +%s)
mkdir -p "$B"

# ---- 1. packages -------------------------------------------------------------------------------
missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -q --no-install-recommends "${missing[@]}" >"$B/apt.log" 2>&1; then
    apt-get update -q >>"$B/apt.log" 2>&1 || die "apt-get update failed, see $B/apt.log"
    apt-get install -y -q --no-install-recommends "${missing[@]}" >>"$B/apt.log" 2>&1 \
      || die "apt-get install ${missing[*]} failed, see $B/apt.log"
  fi
fi

# ---- 2. registry on loopback only ---------------------------------------------------------------
if alive registry && registry_up; then
  log "registry already running (pid $(cat "$B/registry.pid"))"
else
  registry_up && die "something not started by this script already serves $REGISTRY; stop it or run cri-teardown.sh"
  # Debian's packaged config listens on every interface: always use our own, bound to loopback.
  cat > "$B/registry.yml" <<EOT
version: 0.1
log: {level: warn}
storage:
  filesystem: {rootdirectory: $B/registry-data}
  delete: {enabled: true}
http: {addr: "$REGISTRY"}
EOT
  setsid docker-registry serve "$B/registry.yml" >"$B/registry.log" 2>&1 < /dev/null &
  echo $! > "$B/registry.pid"
  wait_for 100 registry_up || die "registry did not come up on $REGISTRY, see $B/registry.log"
  log "registry started (pid $(cat "$B/registry.pid"))"
fi

# ---- 3. images: busybox and pause, built with umoci, pushed with skopeo ---------------------------
image_present() { skopeo inspect --tls-verify=false --raw "docker://$1" >/dev/null 2>&1; }
if image_present "$BUSYBOX_IMAGE" && image_present "$PAUSE_IMAGE"; then
  log "images already in the registry"
else
  log "building $BUSYBOX_IMAGE and $PAUSE_IMAGE"
  rm -rf "$B/oci" "$B/bundle"
  umoci init --layout "$B/oci"
  umoci new --image "$B/oci:base"
  umoci unpack --image "$B/oci:base" "$B/bundle" >/dev/null
  R="$B/bundle/rootfs"
  mkdir -p "$R/bin" "$R/etc" "$R/tmp" "$R/proc" "$R/sys" "$R/dev"
  cp /bin/busybox "$R/bin/busybox"
  for a in sh sleep ls cat echo ps id hostname env true false kill touch rm date test; do ln -sf busybox "$R/bin/$a"; done
  echo 'root:x:0:0:root:/root:/bin/sh' > "$R/etc/passwd"
  echo 'root:x:0:' > "$R/etc/group"
  umoci repack --image "$B/oci:base" "$B/bundle"
  umoci config --image "$B/oci:base" --tag 1 --config.env PATH=/bin \
    --config.cmd /bin/sh --config.cmd -c --config.cmd 'echo hello; sleep 3600'
  umoci config --image "$B/oci:1" --tag pause --clear=config.cmd \
    --config.cmd /bin/sleep --config.cmd 2147483647
  skopeo copy -q --dest-tls-verify=false "oci:$B/oci:1" "docker://$BUSYBOX_IMAGE"
  skopeo copy -q --dest-tls-verify=false "oci:$B/oci:pause" "docker://$PAUSE_IMAGE"
  rm -rf "$B/bundle"
fi

# ---- 4. containerd with the CRI plugin ------------------------------------------------------------
if alive containerd && containerd_up; then
  log "containerd already running (pid $(cat "$B/containerd.pid"))"
else
  containerd_up && die "a containerd not started by this script serves $SOCK; stop it or point the tests at it yourself"
  mkdir -p "$B/certs.d/$REGISTRY" "$B/cni-net.d" "$STATE"
  # A loopback-only CNI network: the runtime reports NetworkReady and sandboxes stay removable. Tests
  # use host-network pods, so no pod addresses ever appear on the host.
  echo '{"cniVersion":"0.4.0","name":"lo-only","plugins":[{"type":"loopback"}]}' > "$B/cni-net.d/99-loopback.conflist"
  cat > "$B/certs.d/$REGISTRY/hosts.toml" <<EOT
server = "http://$REGISTRY"
[host."http://$REGISTRY"]
  capabilities = ["pull", "resolve"]
  skip_verify = true
EOT
  cat > "$B/containerd.toml" <<EOT
version = 2
root = "$B/containerd-root"
state = "$STATE"
[grpc]
  address = "$SOCK"
[plugins]
  [plugins."io.containerd.grpc.v1.cri"]
    sandbox_image = "$PAUSE_IMAGE"
    enable_selinux = false
    # root on these machines lacks CAP_SYS_RESOURCE: a negative oom_score_adj is EPERM and every
    # sandbox start would fail with "can't get final child's PID from pipe".
    restrict_oom_score_adj = true
    [plugins."io.containerd.grpc.v1.cri".containerd]
      snapshotter = "overlayfs"
      default_runtime_name = "runc"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
        runtime_type = "io.containerd.runc.v2"
        [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
          SystemdCgroup = false
    [plugins."io.containerd.grpc.v1.cri".cni]
      bin_dir = "/usr/lib/cni"
      conf_dir = "$B/cni-net.d"
    [plugins."io.containerd.grpc.v1.cri".registry]
      config_path = "$B/certs.d"
  [plugins."io.containerd.internal.v1.opt"]
    path = "$B/containerd-root/opt"
EOT
  setsid containerd --config "$B/containerd.toml" >"$B/containerd.log" 2>&1 < /dev/null &
  echo $! > "$B/containerd.pid"
  wait_for 300 containerd_up || die "containerd did not answer on $SOCK, see $B/containerd.log"
  log "containerd started (pid $(cat "$B/containerd.pid"))"
fi
wait_for 100 cri_plugin_ok || die "containerd's CRI plugin is not ok (ctr --address $SOCK plugins ls), see $B/containerd.log"

log "ready in $(( $(date +%s) - start )) s: CRI unix://$SOCK, registry $REGISTRY"
cat <<EOT
export KRUISE_CRI_ENDPOINT=unix://$SOCK
export KRUISE_CRI_TEST_IMAGE=$BUSYBOX_IMAGE
export KRUISE_CRI_PAUSE_IMAGE=$PAUSE_IMAGE
export KRUISE_CRI_REQUIRED=true
EOT
