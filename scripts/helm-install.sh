#!/usr/bin/env bash
# Builds helm (the chart checks: `helm lint`, `helm template`, test/deploy/helm-chart.test.ts)
# from the Go module proxy into the tools cache, once, and prints its path. Like
# scripts/ferretdb-install.sh: the module by exact version, built under the cache's lock, and
# renamed into place in one step.
set -euo pipefail
VERSION=v3.22.0
. "$(dirname "${BASH_SOURCE[0]}")/tool-cache.sh"
tool_cache_enter helm "$VERSION"
BIN=$TOOL_BIN
MODULE=helm.sh/helm/v3
src=$(cd /tmp && go mod download -json "$MODULE@$VERSION" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
# The Kubernetes version helm assumes without a cluster (`.Capabilities.KubeVersion`, lint's
# deprecation checks), as upstream's Makefile derives it from the client-go it is built with.
kube=$(sed -n 's/^[[:space:]]*k8s\.io\/client-go v0\.\([0-9]*\)\..*/\1/p' "$src/go.mod")
[ -n "$kube" ] || { echo "helm-install: no k8s.io/client-go version in $src/go.mod" >&2; exit 1; }
ldflags="-w -s -X $MODULE/internal/version.version=$VERSION -X $MODULE/internal/version.gitTreeState=clean"
for pkg in pkg/lint/rules pkg/chartutil; do
  ldflags="$ldflags -X $MODULE/$pkg.k8sVersionMajor=1 -X $MODULE/$pkg.k8sVersionMinor=$kube"
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
(cd /tmp && CGO_ENABLED=0 GOBIN="$out" go install -trimpath -ldflags "$ldflags" "$MODULE/cmd/helm@$VERSION") >&2
tmp=$(mktemp "$BIN.XXXXXX")
mv -f "$out/helm" "$tmp"
chmod 755 "$tmp"
mv -f "$tmp" "$BIN"
echo "$BIN"
