#!/usr/bin/env bash
# Builds FerretDB (the MongoDB-wire-compatible server the tests use as MongoDB) into a cache
# folder, once. `go install ...@v1.24.2` fails here (the proxy refuses the module's version
# list), so the module is downloaded by exact version and built from a writable copy, with the
# version file the upstream build normally generates.
set -euo pipefail
VERSION=v1.24.2
. "$(dirname "${BASH_SOURCE[0]}")/tool-cache.sh"
tool_cache_enter ferretdb "$VERSION"
BIN=$TOOL_BIN
src=$(cd /tmp && go mod download -json "github.com/FerretDB/FerretDB@$VERSION" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
work=$(mktemp -d)
cp -r "$src/." "$work/"
chmod -R u+w "$work"
echo "$VERSION" > "$work/build/version/version.txt"
# A name of this run's own beside the binary, renamed in one step: no run ever sees half a binary.
tmp=$(mktemp "$BIN.XXXXXX")
(cd "$work" && go build -o "$tmp" ./cmd/ferretdb) >&2
mv -f "$tmp" "$BIN"
rm -rf "$work"
echo "$BIN"
