#!/usr/bin/env bash
# Builds helm (the chart checks: `helm lint`, `helm template`, test/deploy/helm-chart.test.ts)
# from the Go module proxy into a cache folder, once, and prints its path. Like
# scripts/ferretdb-install.sh: the module by exact version, a lock so two runs build once, and
# the binary written under a name of its own and renamed in one step.
set -euo pipefail
VERSION=v3.22.0
CACHE_DIR=${PAYRAIL_TOOLS_DIR:-$HOME/.cache/payrail-tools}
BIN="$CACHE_DIR/helm-$VERSION"
if [ -x "$BIN" ]; then echo "$BIN"; exit 0; fi
command -v go >/dev/null || { echo "helm-install: Go is needed to build helm" >&2; exit 1; }
mkdir -p "$CACHE_DIR"
exec 9>"$CACHE_DIR/.helm-$VERSION.lock"
flock 9
if [ -x "$BIN" ]; then echo "$BIN"; exit 0; fi
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
