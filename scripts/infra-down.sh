#!/usr/bin/env bash
# Stops the Mailpit and the FerretDB that scripts/infra-up.sh started (Mailpit: the one named by
# .infra/mailpit/mailpit.pid, or .infra/mailpit-<port>/ with MAILPIT_SMTP_PORT=<port>).
# Stops the FerretDB that scripts/infra-up.sh started (the one named by .infra/ferretdb/ferretdb.pid,
# or .infra/ferretdb-<port>/ferretdb.pid with FERRETDB_PORT=<port>).
# A MongoDB/FerretDB that was already running when infra-up ran is not ours and is left alone,
# and so is RabbitMQ (a system service here; `rabbitmqctl stop` if you really want it gone).
# Its data stays: in PostgreSQL (database `ferretdb`, or `ferretdb_<port>`; `dropdb -U postgres
# -h 127.0.0.1 ferretdb` for a clean one) or, with the SQLite backend, in .infra/ferretdb*/data.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MONGO_PORT=${FERRETDB_PORT:-27017}
if [ "$MONGO_PORT" = 27017 ]; then INFRA_DIR="$ROOT/.infra/ferretdb"; else INFRA_DIR="$ROOT/.infra/ferretdb-$MONGO_PORT"; fi
PID_FILE="$INFRA_DIR/ferretdb.pid"

say() { echo "infra-down: $*" >&2; }

# Mailpit first: it holds nothing the other servers need.
MAILPIT_SMTP_PORT=${MAILPIT_SMTP_PORT:-1025}
if [ "$MAILPIT_SMTP_PORT" = 1025 ]; then MAILPIT_PID_FILE="$ROOT/.infra/mailpit/mailpit.pid"; else MAILPIT_PID_FILE="$ROOT/.infra/mailpit-$MAILPIT_SMTP_PORT/mailpit.pid"; fi
if [ -f "$MAILPIT_PID_FILE" ]; then
  mpid=$(cat "$MAILPIT_PID_FILE" 2>/dev/null || true)
  # Only signal the pid if it still is a Mailpit (pids get reused).
  if [ -n "$mpid" ] && kill -0 "$mpid" 2>/dev/null && tr '\0' ' ' <"/proc/$mpid/cmdline" 2>/dev/null | grep -q mailpit; then
    say "stopping Mailpit (pid $mpid)"
    kill -TERM "$mpid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$mpid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$mpid" 2>/dev/null || true
  fi
  rm -f "$MAILPIT_PID_FILE"
fi

if [ ! -f "$PID_FILE" ]; then
  say "no FerretDB started by infra-up (no ${PID_FILE#"$ROOT"/})"
  exit 0
fi
pid=$(cat "$PID_FILE" 2>/dev/null || true)
# Only signal the pid if it still is a FerretDB (pids get reused).
if [ -z "$pid" ] || ! kill -0 "$pid" 2>/dev/null || ! tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q ferretdb; then
  say "FerretDB (pid ${pid:-?}) is not running; removing the stale pid file"
  rm -f "$PID_FILE"
  exit 0
fi

say "stopping FerretDB (pid $pid)"
kill -TERM "$pid" 2>/dev/null || true
for _ in $(seq 50); do
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.2
done
if kill -0 "$pid" 2>/dev/null; then
  say "still running after 10s; sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
fi
rm -f "$PID_FILE"
say "stopped"
