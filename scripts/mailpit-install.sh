#!/usr/bin/env bash
# Builds Mailpit (the local SMTP server with an HTTP API that development and the tests send
# consumer notices to) into a cache folder, once, from the Go module proxy, as
# scripts/ferretdb-install.sh builds FerretDB (scripts/tool-cache.sh: once, under the cache's lock).
# Prints the binary's path.
# The module carries no compiled web UI scripts (Mailpit builds them with npm for its releases):
# the SMTP server, the HTTP API (/api/v1/…) the tests read and the message pages
# (/view/latest.html, /view/<ID>.html) are whole, the inbox page is not.
# docker-compose's axllent/mailpit image has the whole UI.
set -euo pipefail
VERSION=${MAILPIT_VERSION:-v1.33.1}
. "$(dirname "${BASH_SOURCE[0]}")/tool-cache.sh"
tool_cache_enter mailpit "$VERSION"
BIN=$TOOL_BIN
src=$(cd /tmp && go mod download -json "github.com/axllent/mailpit@$VERSION" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
[ -d "$src" ] || { echo "mailpit-install: could not download github.com/axllent/mailpit@$VERSION" >&2; exit 1; }
tmp=$(mktemp "$BIN.XXXXXX")
(cd "$src" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/axllent/mailpit/config.Version=$VERSION" -o "$tmp" .) >&2
mv -f "$tmp" "$BIN"
echo "$BIN"
