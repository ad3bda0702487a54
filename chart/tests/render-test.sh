#!/usr/bin/env bash
# Lints and renders the chart with helm v3.18.0 and checks the result (dev.kruisevertx.chart.ChartRenderTest,
# CrdSchemaTest). KRUISE_REQUIRE_HELM=true (set by CI) turns "helm cannot be fetched" into a failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
export KRUISE_REQUIRE_HELM=${KRUISE_REQUIRE_HELM:-true}
helm=$(chart/tests/fetch-helm.sh)
"$helm" lint chart
exec mvn -B -o -q -pl verticles -am verify -Dtest='dev.kruisevertx.chart.*Test' -Dsurefire.failIfNoSpecifiedTests=false "$@"
