#!/usr/bin/env bash
# Builds both images from jars already built by `mvn -B package` (no Docker, no registry):
#   verticles/target/image/kruise-manager-image.tar     kruise-vertx/kruise-manager:<chart appVersion>
#   node-agent/target/image/kruise-node-agent-image.tar kruise-vertx/kruise-node-agent:<chart appVersion>
# Load them with: kind load image-archive <tar>   or   ctr -n k8s.io images import <tar>
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/hack/build-image.sh" --jar "$root/verticles/target/kruise-manager.jar" --name kruise-vertx/kruise-manager \
  --cmd manager --out "$root/verticles/target/image/kruise-manager-image.tar"
"$root/hack/build-image.sh" --jar "$root/node-agent/target/kruise-node-agent.jar" --name kruise-vertx/kruise-node-agent \
  --out "$root/node-agent/target/image/kruise-node-agent-image.tar"
