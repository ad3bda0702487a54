#!/usr/bin/env bash
# Builds a container image for a kruise-vertx jar without a Docker daemon or any registry:
#   - a jlink Java runtime made from this machine's JDK (no base image exists offline),
#   - the glibc/zlib/libstdc++ shared libraries that runtime links against, copied from this machine,
#   - /etc/passwd with uid 65534 (nobody), a /tmp directory, and the jar under /app,
# packed as one tar that is both an OCI image layout (index.json) and a docker-archive (manifest.json),
# so `kind load image-archive`, `ctr images import` and `docker load` all accept it.
# Every timestamp, owner and ordering is fixed: the same inputs give a byte-identical tar.
#
# Usage: hack/build-image.sh --jar JAR --name REPO --out TAR [--tag TAG] [--cmd ARG]... [--modules LIST]
#   --tag defaults to appVersion of chart/Chart.yaml, so the chart's default image names match.
#   --cmd adds a default argument after "java -jar /app/<jar>" (repeatable; e.g. --cmd manager).
set -euo pipefail

die() { echo "build-image: $*" >&2; exit 1; }

repo_root=$(cd "$(dirname "$0")/.." && pwd)
jar="" name="" out="" tag="" cmd=()
modules="java.base,java.logging,java.management,java.naming,java.net.http,java.security.jgss,java.security.sasl,java.sql,java.xml,java.desktop,java.scripting,jdk.crypto.ec,jdk.unsupported,jdk.management,jdk.naming.dns,jdk.zipfs"
while [ $# -gt 0 ]; do
  case "$1" in
    --jar) jar=$2; shift 2 ;;
    --name) name=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --tag) tag=$2; shift 2 ;;
    --cmd) cmd+=("$2"); shift 2 ;;
    --modules) modules=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) die "unknown argument: $1 (see --help)" ;;
  esac
done
[ -n "$jar" ] && [ -n "$name" ] && [ -n "$out" ] || die "--jar, --name and --out are required (see --help)"
[ -f "$jar" ] || die "jar not found: $jar (build it first: mvn -B -o package)"
if [ -z "$tag" ]; then
  tag=$(sed -n 's/^appVersion: *"\{0,1\}\([^"]*\)"\{0,1\} *$/\1/p' "$repo_root/chart/Chart.yaml")
  [ -n "$tag" ] || die "no appVersion in chart/Chart.yaml; pass --tag"
fi
for tool in jlink ldd tar sha256sum jq; do
  command -v "$tool" >/dev/null || die "$tool is required"
done
java_home=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v jlink)")")")}
[ -d "$java_home/jmods" ] || die "$java_home has no jmods (install the full JDK, e.g. Debian's openjdk-17-jdk)"

jar_name=$(basename "$jar")
work=$(mktemp -d "${TMPDIR:-/tmp}/kruise-image.XXXXXX")
trap 'rm -rf "$work"' EXIT
base=$work/base app=$work/app stage=$work/stage
mkdir -p "$base" "$app/app" "$stage/blobs/sha256"

# 1. Java runtime. --strip-debug and no headers/man pages keep it small; jlink output is deterministic.
"$java_home/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
  --compress=2 --output "$base/opt/java"
# Debian links the JDK's cacerts to /etc/ssl/certs/java/cacerts; the image needs a real file.
if [ -L "$base/opt/java/lib/security/cacerts" ] || [ ! -s "$base/opt/java/lib/security/cacerts" ]; then
  rm -f "$base/opt/java/lib/security/cacerts"
  cp -L "$java_home/lib/security/cacerts" "$base/opt/java/lib/security/cacerts"
fi

# java.desktop is here for java.beans only: drop its X11, sound and font natives (and their library trees);
# the JVM runs headless.
for native in libawt_xawt.so libjawt.so libsplashscreen.so libjsound.so libfontmanager.so liblcms.so libjavajpeg.so; do
  rm -f "$base/opt/java/lib/$native"
done

# 2. Shared libraries of every ELF file in the runtime, at the paths the dynamic loader looks in.
libs=$(find "$base/opt/java" -type f \( -name '*.so' -o -path '*/bin/*' \) -print0 \
  | xargs -0 ldd 2>/dev/null \
  | awk '/=> \//{print $3} /^[[:space:]]*\/[^ ]*ld-linux/{print $1}' | sort -u)
for lib in $libs; do
  case "$lib" in "$base"/*) continue ;; esac
  mkdir -p "$base$(dirname "$lib")"
  cp -L "$lib" "$base$lib"
done
[ -f "$base/lib64/ld-linux-x86-64.so.2" ] || die "the dynamic loader was not found by ldd"

# 3. Users, /tmp, the app.
mkdir -p "$base/etc" "$base/tmp"
printf 'root:x:0:0:root:/root:/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/sbin/nologin\n' > "$base/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$base/etc/group"
cp "$jar" "$app/app/$jar_name"
# Normalised modes: the tar must not depend on this machine's umask.
chmod -R u+rwX,go+rX,go-w "$base" "$app"
chmod 1777 "$base/tmp"

# 4. Layers: uncompressed, fixed order, owner and time.
layer() { # dir -> digest of its tar blob
  local t=$work/layer.tar
  tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --format=gnu -C "$1" -cf "$t" .
  local d; d=$(sha256sum "$t" | cut -d' ' -f1)
  mv "$t" "$stage/blobs/sha256/$d"
  echo "$d"
}
base_digest=$(layer "$base")
app_digest=$(layer "$app")
size() { stat -c %s "$stage/blobs/sha256/$1"; }

entrypoint=$(jq -cn --arg jar "/app/$jar_name" '["/opt/java/bin/java","-XX:-UsePerfData","-jar",$jar]')
cmd_json=$(if [ ${#cmd[@]} -gt 0 ]; then printf '%s\n' "${cmd[@]}" | jq -R . | jq -cs .; else echo '[]'; fi)
config=$(jq -cnS --argjson ep "$entrypoint" --argjson cmd "$cmd_json" --arg b "sha256:$base_digest" \
  --arg a "sha256:$app_digest" --arg name "$name" --arg tag "$tag" '{
    architecture: "amd64", os: "linux", created: "1970-01-01T00:00:00Z",
    config: {User: "65534:65534", Entrypoint: $ep, Cmd: $cmd, WorkingDir: "/",
      Env: ["PATH=/opt/java/bin:/usr/bin:/bin", "JAVA_HOME=/opt/java", "LANG=C.UTF-8"],
      Labels: {"org.opencontainers.image.title": $name, "org.opencontainers.image.version": $tag}},
    rootfs: {type: "layers", diff_ids: [$b, $a]},
    history: [{created: "1970-01-01T00:00:00Z", created_by: "jlink runtime, shared libraries, /etc/passwd"},
              {created: "1970-01-01T00:00:00Z", created_by: "application jar"}]}')
config_digest=$(printf '%s' "$config" | sha256sum | cut -d' ' -f1)
printf '%s' "$config" > "$stage/blobs/sha256/$config_digest"

manifest=$(jq -cnS --arg c "sha256:$config_digest" --argjson cs "$(size "$config_digest")" \
  --arg b "sha256:$base_digest" --argjson bs "$(size "$base_digest")" \
  --arg a "sha256:$app_digest" --argjson asz "$(size "$app_digest")" '{
    schemaVersion: 2, mediaType: "application/vnd.oci.image.manifest.v1+json",
    config: {mediaType: "application/vnd.oci.image.config.v1+json", digest: $c, size: $cs},
    layers: [{mediaType: "application/vnd.oci.image.layer.v1.tar", digest: $b, size: $bs},
             {mediaType: "application/vnd.oci.image.layer.v1.tar", digest: $a, size: $asz}]}')
manifest_digest=$(printf '%s' "$manifest" | sha256sum | cut -d' ' -f1)
printf '%s' "$manifest" > "$stage/blobs/sha256/$manifest_digest"

# Short names mean docker.io/ for containerd and kubelet, so the chart's "kruise-vertx/..." resolves here.
case "$name" in
  */*.*/*|localhost/*) full_name=$name ;;
  *) case "${name%%/*}" in *.*|*:*) full_name=$name ;; *) full_name=docker.io/$name ;; esac ;;
esac
jq -cnS --arg m "sha256:$manifest_digest" --argjson ms "${#manifest}" --arg full "$full_name:$tag" --arg tag "$tag" '{
  schemaVersion: 2, mediaType: "application/vnd.oci.image.index.v1+json",
  manifests: [{mediaType: "application/vnd.oci.image.manifest.v1+json", digest: $m, size: $ms,
    platform: {architecture: "amd64", os: "linux"},
    annotations: {"io.containerd.image.name": $full, "org.opencontainers.image.ref.name": $tag}}]}' \
  | tr -d '\n' > "$stage/index.json"
printf '{"imageLayoutVersion":"1.0.0"}' > "$stage/oci-layout"
jq -cn --arg c "blobs/sha256/$config_digest" --arg t "$name:$tag" \
  --arg b "blobs/sha256/$base_digest" --arg a "blobs/sha256/$app_digest" \
  '[{Config: $c, RepoTags: [$t], Layers: [$b, $a]}]' | tr -d '\n' > "$stage/manifest.json"

mkdir -p "$(dirname "$out")"
tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner --format=gnu -C "$stage" \
  -cf "$out.tmp" blobs index.json manifest.json oci-layout
mv "$out.tmp" "$out"
echo "built $out: $full_name:$tag (manifest sha256:$manifest_digest, $(stat -c %s "$out") bytes)"
