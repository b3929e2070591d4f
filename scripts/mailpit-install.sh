#!/usr/bin/env bash
# Builds Mailpit (the local SMTP server with an HTTP API that development and the tests send
# consumer notices to) into a cache folder, once, from the Go module proxy, as
# scripts/ferretdb-install.sh builds FerretDB. Prints the binary's path.
# The module carries no compiled web UI scripts (Mailpit builds them with npm for its releases):
# the SMTP server, the HTTP API (/api/v1/…) the tests read and the message pages
# (/view/latest.html, /view/<ID>.html) are whole, the inbox page is not.
# docker-compose's axllent/mailpit image has the whole UI.
set -euo pipefail
VERSION=${MAILPIT_VERSION:-v1.33.1}
CACHE_DIR=${PAYRAIL_TOOLS_DIR:-$HOME/.cache/payrail-tools}
BIN="$CACHE_DIR/mailpit-$VERSION"
if [ -x "$BIN" ]; then echo "$BIN"; exit 0; fi
command -v go >/dev/null || { echo "mailpit-install: Go is needed to build Mailpit" >&2; exit 1; }
mkdir -p "$CACHE_DIR"
# Two runs side by side build once: the second waits for the first and then finds its binary.
exec 9>"$CACHE_DIR/.mailpit-$VERSION.lock"
flock 9
if [ -x "$BIN" ]; then echo "$BIN"; exit 0; fi
src=$(cd /tmp && go mod download -json "github.com/axllent/mailpit@$VERSION" | sed -n 's/.*"Dir": "\(.*\)".*/\1/p')
[ -d "$src" ] || { echo "mailpit-install: could not download github.com/axllent/mailpit@$VERSION" >&2; exit 1; }
# A name of this run's own beside the binary, renamed in one step: no run ever sees half a binary.
tmp=$(mktemp "$BIN.XXXXXX")
(cd "$src" && CGO_ENABLED=0 go build -trimpath -ldflags "-s -w -X github.com/axllent/mailpit/config.Version=$VERSION" -o "$tmp" .) >&2
mv -f "$tmp" "$BIN"
echo "$BIN"
