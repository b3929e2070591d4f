#!/usr/bin/env bash
# Brings up the infrastructure the tests and the AMQP_URL / MONGODB_URL modes use, without Docker:
#   - RabbitMQ on 127.0.0.1:5672 (started with `rabbitmq-server -detached` when installed here);
#   - a MongoDB-wire server on 127.0.0.1:27017: a healthy one already there (MongoDB or a
#     FerretDB started by hand) is reused, else FerretDB v1 is built once by
#     scripts/ferretdb-install.sh and started in the background with its pid file, log and
#     state under .infra/ferretdb/ (.infra/ferretdb-<port>/ on another FERRETDB_PORT).
#     `bash scripts/infra-down.sh` (same FERRETDB_PORT) stops it.
# FerretDB's storage backend (FERRETDB_BACKEND):
#   - auto (default): postgresql when PostgreSQL is installed here (psql, and a server on
#     127.0.0.1:5432, started if need be), else sqlite, with a note;
#   - postgresql: the PostgreSQL on 127.0.0.1:5432 (started with pg_ctlcluster when it is
#     installed but down). A role `ferretdb` and a database `ferretdb` (`ferretdb_<port>`
#     on another FERRETDB_PORT) are created idempotently with psql as the `postgres` superuser,
#     with synchronous_commit off (a test server: a crash may lose the last commits, never
#     consistency), and an event trigger that gives FerretDB's indexes GIN twins its equality
#     filters can use (FERRETDB_PG_GIN=0 leaves them out). FERRETDB_POSTGRESQL_URL, when set,
#     is used as is and nothing is created.
#     Chosen over SQLite in docs/ferretdb-backends.md (equality filters run in PostgreSQL).
#   - sqlite: files under .infra/ferretdb*/data/; needs nothing else.
# An instance this script started with the other backend on the same port is restarted.
#   - Mailpit (a local SMTP server with a web inbox and an HTTP API, where consumer notices'
#     email goes) on 127.0.0.1:1025 (SMTP) and 127.0.0.1:8025 (HTTP): one already answering there
#     is reused, else it is built once by scripts/mailpit-install.sh and started in the
#     background with its pid file and log under .infra/mailpit/ (.infra/mailpit-<smtp port>/ on
#     other ports). Addresses at the reserved .invalid domain are refused with 550 (a bounce).
# Prints the environment to use on stdout, so `eval "$(bash scripts/infra-up.sh)"` sets it;
# progress goes to stderr. With Docker instead: `docker compose up rabbitmq mongo`.
# Knobs: FERRETDB_BACKEND (auto), FERRETDB_PORT (27017), FERRETDB_POSTGRESQL_URL, FERRETDB_PG_GIN (1),
# MAILPIT_SMTP_PORT (1025), MAILPIT_HTTP_PORT (8025), MAILPIT=0 to leave Mailpit out,
# INFRA_TIMEOUT seconds to wait for each server (30).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
AMQP_HOST=127.0.0.1
AMQP_PORT=5672
MONGO_HOST=127.0.0.1
MONGO_PORT=${FERRETDB_PORT:-27017}
BACKEND=${FERRETDB_BACKEND:-auto}
TIMEOUT=${INFRA_TIMEOUT:-30}
# One state folder per port, so two FerretDBs (say one per backend) can run side by side.
if [ "$MONGO_PORT" = 27017 ]; then INFRA_DIR="$ROOT/.infra/ferretdb"; else INFRA_DIR="$ROOT/.infra/ferretdb-$MONGO_PORT"; fi
PID_FILE="$INFRA_DIR/ferretdb.pid"
BACKEND_FILE="$INFRA_DIR/backend"
LOG_FILE="$INFRA_DIR/ferretdb.log"
PG_HOST=127.0.0.1
PG_PORT=5432
PG_ROLE=ferretdb
if [ "$MONGO_PORT" = 27017 ]; then PG_DB=ferretdb; else PG_DB="ferretdb_$MONGO_PORT"; fi
# pool_max_conns: FerretDB's default is 50 per instance; 20 leaves room for side-by-side runs.
PG_URL=${FERRETDB_POSTGRESQL_URL:-"postgres://$PG_ROLE:$PG_ROLE@$PG_HOST:$PG_PORT/$PG_DB?pool_max_conns=20"}

case "$BACKEND" in
  auto | postgresql | sqlite) ;;
  *) echo "infra-up: error: FERRETDB_BACKEND must be auto, postgresql or sqlite, not '$BACKEND'" >&2; exit 1 ;;
esac

say() { echo "infra-up: $*" >&2; }
die() { echo "infra-up: error: $*" >&2; exit 1; }

# Waits (TIMEOUT s) for the server just started as PID to answer `CHECK ARGS…`. If it exits, or
# does not answer in time, stops it, forgets its pid file and fails with the tail of its log.
# usage: await_start NAME PID PID_FILE LOG WHERE CHECK [ARGS…]
await_start() {
  local name=$1 pid=$2 pid_file=$3 log=$4 where=$5
  shift 5
  for _ in $(seq $((TIMEOUT * 2))); do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$pid_file"
      tail -n 20 "$log" >&2 || true
      die "$name exited during start-up (log: $log)"
    fi
    if "$@"; then return 0; fi
    sleep 0.5
  done
  kill "$pid" 2>/dev/null || true
  rm -f "$pid_file"
  tail -n 20 "$log" >&2 || true
  die "$name did not answer on $where within ${TIMEOUT}s (log: $log)"
}

# Takes a lock named for a server and its port, held until this script exits: two runs side by
# side (two CI runs, even from two clones) would both find the port free and both start a
# server, and the second would fail. Under the lock the second waits, then finds the first's
# server answering and reuses it. The lock lives in the machine's temporary folder because the
# port is the machine's, not the clone's. usage: hold_lock NAME PORT FD
hold_lock() {
  local file="${TMPDIR:-/tmp}/payrail-infra-$1-$2.lock"
  eval "exec $3>>\"\$file\""
  if ! flock -n "$3"; then
    say "$1: another infra-up is starting it on port $2; waiting for it"
    flock "$3"
  fi
}

# True when something accepts TCP connections on host:port.
port_open() { timeout 2 bash -c "exec 3<>/dev/tcp/$1/$2" 2>/dev/null; }

# True when a MongoDB-wire server on host:port answers {ping: 1} with ok: 1. Speaks OP_MSG
# directly so it needs neither mongosh nor node_modules.
mongo_ping() {
  node - "$1" "$2" <<'EOF' 2>/dev/null
const net = require("node:net");
const [host, port] = process.argv.slice(2);
// BSON {ping: 1, $db: "admin"}
const body = Buffer.concat([
  Buffer.from([0x10]), Buffer.from("ping\0"), int32(1),
  Buffer.from([0x02]), Buffer.from("$db\0"), int32(6), Buffer.from("admin\0"),
  Buffer.from([0x00]),
]);
const doc = Buffer.concat([int32(body.length + 4), body]);
// header (length, requestID, responseTo, opCode 2013 = OP_MSG), flagBits, section kind 0, doc
const msg = Buffer.concat([int32(16 + 4 + 1 + doc.length), int32(1), int32(0), int32(2013), int32(0), Buffer.from([0]), doc]);
function int32(n) { const b = Buffer.alloc(4); b.writeInt32LE(n); return b; }

process.exitCode = 1; // anything but an ok reply (e.g. the peer just hangs up) is a failure
const socket = net.connect({ host, port: Number(port) });
const fail = () => process.exit(1);
socket.setTimeout(3000, fail);
socket.on("error", fail);
socket.on("close", fail);
socket.on("connect", () => socket.write(msg));
let buf = Buffer.alloc(0);
socket.on("data", (chunk) => {
  buf = Buffer.concat([buf, chunk]);
  if (buf.length < 4 || buf.length < buf.readInt32LE(0)) return;
  if (buf.readInt32LE(12) !== 2013) fail();
  // Walk the reply document's elements looking for a numeric "ok" equal to 1.
  let i = 21 + 4;
  const end = 21 + buf.readInt32LE(21) - 1;
  while (i < end) {
    const type = buf[i++];
    const nameEnd = buf.indexOf(0, i);
    const name = buf.toString("utf8", i, nameEnd);
    i = nameEnd + 1;
    let size;
    switch (type) {
      case 0x01: if (name === "ok") process.exit(buf.readDoubleLE(i) === 1 ? 0 : 1); size = 8; break;
      case 0x10: if (name === "ok") process.exit(buf.readInt32LE(i) === 1 ? 0 : 1); size = 4; break;
      case 0x12: case 0x09: case 0x11: size = 8; break;
      case 0x08: size = 1; break;
      case 0x0a: size = 0; break;
      case 0x02: size = 4 + buf.readInt32LE(i); break;
      case 0x03: case 0x04: size = buf.readInt32LE(i); break;
      case 0x05: size = 5 + buf.readInt32LE(i); break;
      case 0x07: size = 12; break;
      default: fail();
    }
    i += size;
  }
  fail();
});
EOF
}

# Pid from our pid file when that process is still a FerretDB, else nothing.
our_ferretdb_pid() {
  [ -f "$PID_FILE" ] || return 0
  local pid
  pid=$(cat "$PID_FILE" 2>/dev/null || true)
  if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q ferretdb; then
    echo "$pid"
  fi
}

# Runs psql as a PostgreSQL superuser on database $PGADMIN_DB (default postgres): `postgres`
# over TCP (trust auth, as on this machine and CI), else over the local socket as the postgres
# OS user (peer auth).
pg_admin() {
  local db=${PGADMIN_DB:-postgres}
  if psql -h "$PG_HOST" -p "$PG_PORT" -U postgres -d "$db" -w -c 'select 1' >/dev/null 2>&1; then
    psql -h "$PG_HOST" -p "$PG_PORT" -U postgres -d "$db" -w -v ON_ERROR_STOP=1 -qtA "$@"
  elif [ "$(id -u)" -eq 0 ] && command -v runuser >/dev/null 2>&1; then
    runuser -u postgres -- psql -p "$PG_PORT" -d "$db" -v ON_ERROR_STOP=1 -qtA "$@"
  else
    sudo -n -u postgres psql -p "$PG_PORT" -d "$db" -v ON_ERROR_STOP=1 -qtA "$@"
  fi
}

# FerretDB v1 pushes equality filters down as `_jsonb->'field' @> value`, which its own btree
# indexes on `(_jsonb->'field')` cannot serve: every get by _id is a sequential scan. This event
# trigger gives each top-level field FerretDB indexes a GIN (jsonb_path_ops) twin on the same
# expression, which `@>` uses (measured in docs/ferretdb-backends.md). FerretDB does not see
# these indexes; they go with the table when it drops a collection.
GIN_MIRROR_SQL=$(cat <<'SQL'
SET client_min_messages = warning;
CREATE OR REPLACE FUNCTION public.payrail_ferretdb_gin_twins() RETURNS event_trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  cmd record;
  expr text;
  k int;
BEGIN
  FOR cmd IN SELECT objid FROM pg_event_trigger_ddl_commands() WHERE object_type = 'index' LOOP
    -- Only FerretDB's btree indexes (ours are GIN, which also keeps this from recursing).
    CONTINUE WHEN NOT EXISTS (
      SELECT FROM pg_class c JOIN pg_am a ON a.oid = c.relam WHERE c.oid = cmd.objid AND a.amname = 'btree');
    FOR k IN 1 .. (SELECT indnkeyatts FROM pg_index WHERE indexrelid = cmd.objid) LOOP
      expr := pg_get_indexdef(cmd.objid, k, false);
      -- A top-level field, as `((_jsonb -> 'field'::text))`; FerretDB pushes no dotted paths down.
      CONTINUE WHEN expr !~ '^\(\(_jsonb -> ''([^'']|'''')*''::text\)\)$';
      EXECUTE (
        SELECT format('CREATE INDEX IF NOT EXISTS %I ON %I.%I USING gin (%s jsonb_path_ops)',
                      left(t.relname, 40) || '_' || left(md5(expr), 12) || '_gin', n.nspname, t.relname, expr)
        FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
        WHERE i.indexrelid = cmd.objid);
    END LOOP;
  END LOOP;
END
$fn$;
DROP EVENT TRIGGER IF EXISTS payrail_ferretdb_gin_twins;
CREATE EVENT TRIGGER payrail_ferretdb_gin_twins ON ddl_command_end WHEN TAG IN ('CREATE INDEX')
  EXECUTE FUNCTION public.payrail_ferretdb_gin_twins();
SQL
)

# True when psql is installed and a PostgreSQL listens on PG_HOST:PG_PORT (a local cluster that
# is installed but down is started first).
postgresql_up() {
  command -v psql >/dev/null 2>&1 || return 1
  port_open "$PG_HOST" "$PG_PORT" && return 0
  if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
    for version in $(ls /etc/postgresql); do
      say "PostgreSQL: starting cluster $version/main (pg_ctlcluster)"
      pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 || true
    done
    for _ in $(seq "$TIMEOUT"); do port_open "$PG_HOST" "$PG_PORT" && return 0; sleep 1; done
  fi
  return 1
}

# Makes sure PostgreSQL answers and holds the role and database FerretDB uses (idempotent).
ensure_postgresql() {
  postgresql_up || die "FERRETDB_BACKEND=postgresql needs PostgreSQL (psql, and a server on $PG_HOST:$PG_PORT); start it, or use FERRETDB_BACKEND=sqlite"
  if [ -n "${FERRETDB_POSTGRESQL_URL:-}" ]; then
    say "PostgreSQL: using FERRETDB_POSTGRESQL_URL as given (nothing created)"
    return 0
  fi
  pg_admin -c "DO \$\$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '$PG_ROLE') THEN
        CREATE ROLE $PG_ROLE LOGIN PASSWORD '$PG_ROLE';
      END IF;
    END \$\$;" >&2 || die "could not create the PostgreSQL role $PG_ROLE (needs superuser access as postgres)"
  if [ "$(pg_admin -c "SELECT 1 FROM pg_database WHERE datname = '$PG_DB'")" != 1 ]; then
    say "PostgreSQL: creating database $PG_DB (owner $PG_ROLE)"
    # Another infra-up may create it at the same moment: only a database still missing is an error.
    pg_admin -c "CREATE DATABASE $PG_DB OWNER $PG_ROLE" >&2 ||
      [ "$(pg_admin -c "SELECT 1 FROM pg_database WHERE datname = '$PG_DB'")" = 1 ] ||
      die "could not create the PostgreSQL database $PG_DB"
  fi
  pg_admin -c "ALTER DATABASE $PG_DB SET synchronous_commit = off" >&2
  if [ "${FERRETDB_PG_GIN:-1}" = 1 ]; then
    PGADMIN_DB=$PG_DB pg_admin -c "$GIN_MIRROR_SQL" >&2
  else
    PGADMIN_DB=$PG_DB pg_admin -c "SET client_min_messages = warning; DROP EVENT TRIGGER IF EXISTS payrail_ferretdb_gin_twins" >&2
    say "PostgreSQL: FERRETDB_PG_GIN=0: no GIN twins for indexes created from now on"
  fi
  say "PostgreSQL: database $PG_DB on $PG_HOST:$PG_PORT ready for FerretDB"
}

# Stops the FerretDB this script started (pid given), waiting up to 10 s.
stop_ours() {
  kill "$1" 2>/dev/null || true
  for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || break; sleep 0.2; done
  kill -KILL "$1" 2>/dev/null || true
  rm -f "$PID_FILE"
}

# ---------------------------------------------------------------------------- RabbitMQ
if port_open "$AMQP_HOST" "$AMQP_PORT"; then
  say "RabbitMQ: already listening on $AMQP_HOST:$AMQP_PORT"
elif command -v rabbitmq-server >/dev/null 2>&1; then
  say "RabbitMQ: starting (rabbitmq-server -detached)"
  rabbitmq-server -detached >&2 || true # fails harmlessly when the node is already booting
  if command -v rabbitmqctl >/dev/null 2>&1; then
    timeout $((TIMEOUT * 3)) rabbitmqctl await_startup >&2 || say "RabbitMQ: rabbitmqctl await_startup did not succeed; waiting for the port"
  fi
  for _ in $(seq "$TIMEOUT"); do port_open "$AMQP_HOST" "$AMQP_PORT" && break; sleep 1; done
  port_open "$AMQP_HOST" "$AMQP_PORT" || die "RabbitMQ did not open $AMQP_HOST:$AMQP_PORT (see /var/log/rabbitmq/)"
  say "RabbitMQ: up on $AMQP_HOST:$AMQP_PORT"
else
  die "nothing listens on $AMQP_HOST:$AMQP_PORT and RabbitMQ is not installed here.
  Start the infrastructure with Docker instead:  docker compose up rabbitmq mongo"
fi

# ---------------------------------------------------------------------------- MongoDB / FerretDB
mkdir -p "$INFRA_DIR"
hold_lock ferretdb "$MONGO_PORT" 7
if [ "$BACKEND" = auto ]; then
  if postgresql_up; then
    BACKEND=postgresql
  else
    BACKEND=sqlite
    say "FerretDB: no PostgreSQL here (psql and a server on $PG_HOST:$PG_PORT); using the slower SQLite backend"
  fi
fi
running=$(our_ferretdb_pid)
if [ -n "$running" ] && [ "$(cat "$BACKEND_FILE" 2>/dev/null || echo sqlite)" != "$BACKEND" ]; then
  say "FerretDB: pid $running (started by this script) runs the $(cat "$BACKEND_FILE" 2>/dev/null || echo sqlite) backend; restarting it with $BACKEND"
  stop_ours "$running"
fi
if mongo_ping "$MONGO_HOST" "$MONGO_PORT"; then
  if [ -n "$(our_ferretdb_pid)" ]; then
    say "FerretDB: already running (pid $(our_ferretdb_pid), $BACKEND backend, started by this script) on $MONGO_HOST:$MONGO_PORT"
  else
    say "MongoDB wire server already answering on $MONGO_HOST:$MONGO_PORT: reusing it (FERRETDB_BACKEND does not apply)"
  fi
elif port_open "$MONGO_HOST" "$MONGO_PORT"; then
  die "something listens on $MONGO_HOST:$MONGO_PORT but does not answer a MongoDB ping; stop it or set FERRETDB_PORT"
else
  stale=$(our_ferretdb_pid)
  if [ -n "$stale" ]; then
    # Ours but not answering: replace it.
    say "FerretDB: pid $stale is not answering; stopping it"
    stop_ours "$stale"
  fi
  rm -f "$PID_FILE"
  command -v node >/dev/null 2>&1 || die "node is needed"
  if [ "$BACKEND" = postgresql ]; then
    ensure_postgresql
    backend_flags=(--handler=postgresql --postgresql-url="$PG_URL")
    where="PostgreSQL database $(basename "${PG_URL%%\?*}")"
  else
    mkdir -p "$INFRA_DIR/data"
    backend_flags=(--handler=sqlite --sqlite-url="file:$INFRA_DIR/data/")
    where="SQLite files in ${INFRA_DIR#"$ROOT"/}/data"
  fi
  say "FerretDB: locating or building the binary (scripts/ferretdb-install.sh; the first build takes a few minutes)"
  BIN=$(bash "$ROOT/scripts/ferretdb-install.sh")
  [ -x "$BIN" ] || die "scripts/ferretdb-install.sh printed '$BIN', which is not an executable"
  say "FerretDB: starting $BIN ($BACKEND backend: $where) on $MONGO_HOST:$MONGO_PORT (log in ${LOG_FILE#"$ROOT"/})"
  # setsid + nohup: the server outlives this script and its terminal; --debug-addr=- turns off
  # the metrics listener (127.0.0.1:8088), which another FerretDB may already hold.
  setsid nohup "$BIN" \
    "${backend_flags[@]}" \
    --listen-addr="$MONGO_HOST:$MONGO_PORT" \
    --state-dir="$INFRA_DIR" \
    --debug-addr=- \
    --telemetry=disable \
    --log-level=warn \
    </dev/null >>"$LOG_FILE" 2>&1 7>&- 6>&- & # not the locks: they end with this script
  pid=$!
  echo "$pid" >"$PID_FILE"
  echo "$BACKEND" >"$BACKEND_FILE"
  await_start FerretDB "$pid" "$PID_FILE" "$LOG_FILE" "$MONGO_HOST:$MONGO_PORT" mongo_ping "$MONGO_HOST" "$MONGO_PORT"
  stop_hint="bash scripts/infra-down.sh"
  [ "$MONGO_PORT" = 27017 ] || stop_hint="FERRETDB_PORT=$MONGO_PORT $stop_hint"
  say "FerretDB: up (pid $pid, $BACKEND backend); stop it with: $stop_hint"
fi

# ---------------------------------------------------------------------------- Mailpit
MAILPIT_HOST=127.0.0.1
MAILPIT_SMTP_PORT=${MAILPIT_SMTP_PORT:-1025}
MAILPIT_HTTP_PORT=${MAILPIT_HTTP_PORT:-8025}
if [ "$MAILPIT_SMTP_PORT" = 1025 ]; then MAILPIT_DIR="$ROOT/.infra/mailpit"; else MAILPIT_DIR="$ROOT/.infra/mailpit-$MAILPIT_SMTP_PORT"; fi
# Every address except those at the reserved .invalid domain (RFC 2606): any of the last eight
# characters differs from ".invalid". RE2 has no look-ahead, hence the spelled-out alternatives.
MAILPIT_ALLOWED_RECIPIENTS='(?:[^.].{7}|.[^i].{6}|.{2}[^n].{5}|.{3}[^v].{4}|.{4}[^a].{3}|.{5}[^l].{2}|.{6}[^i].|.{7}[^d])$'

# True when Mailpit's HTTP API answers on host:port.
mailpit_up() {
  node -e "fetch('http://$1:$2/livez').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))" 2>/dev/null
}

[ "${MAILPIT:-1}" = 0 ] || hold_lock mailpit "$MAILPIT_SMTP_PORT" 6
if [ "${MAILPIT:-1}" = 0 ]; then
  say "Mailpit: left out (MAILPIT=0)"
elif mailpit_up "$MAILPIT_HOST" "$MAILPIT_HTTP_PORT"; then
  say "Mailpit: already answering on http://$MAILPIT_HOST:$MAILPIT_HTTP_PORT: reusing it"
elif port_open "$MAILPIT_HOST" "$MAILPIT_SMTP_PORT" || port_open "$MAILPIT_HOST" "$MAILPIT_HTTP_PORT"; then
  die "something listens on $MAILPIT_HOST:$MAILPIT_SMTP_PORT or :$MAILPIT_HTTP_PORT but is not Mailpit; stop it or set MAILPIT_SMTP_PORT / MAILPIT_HTTP_PORT"
else
  mkdir -p "$MAILPIT_DIR"
  say "Mailpit: locating or building the binary (scripts/mailpit-install.sh; the first build takes a few minutes)"
  MAILPIT_BIN=$(bash "$ROOT/scripts/mailpit-install.sh")
  [ -x "$MAILPIT_BIN" ] || die "scripts/mailpit-install.sh printed '$MAILPIT_BIN', which is not an executable"
  # Loopback only; messages in a database of its own folder, the newest 5,000 kept.
  setsid nohup "$MAILPIT_BIN" \
    --smtp="$MAILPIT_HOST:$MAILPIT_SMTP_PORT" \
    --listen="$MAILPIT_HOST:$MAILPIT_HTTP_PORT" \
    --database="$MAILPIT_DIR/mailpit.db" \
    --max=5000 \
    --smtp-allowed-recipients="$MAILPIT_ALLOWED_RECIPIENTS" \
    --disable-version-check \
    --quiet \
    </dev/null >>"$MAILPIT_DIR/mailpit.log" 2>&1 7>&- 6>&- &
  mailpit_pid=$!
  echo "$mailpit_pid" >"$MAILPIT_DIR/mailpit.pid"
  await_start Mailpit "$mailpit_pid" "$MAILPIT_DIR/mailpit.pid" "$MAILPIT_DIR/mailpit.log" "http://$MAILPIT_HOST:$MAILPIT_HTTP_PORT" mailpit_up "$MAILPIT_HOST" "$MAILPIT_HTTP_PORT"
  say "Mailpit: up (pid $mailpit_pid); SMTP smtp://$MAILPIT_HOST:$MAILPIT_SMTP_PORT, inbox and API http://$MAILPIT_HOST:$MAILPIT_HTTP_PORT"
fi

say "ready; export these (or run: eval \"\$(bash scripts/infra-up.sh)\"):"
echo "export AMQP_URL=amqp://guest:guest@$AMQP_HOST:$AMQP_PORT"
echo "export MONGODB_URL=mongodb://$MONGO_HOST:$MONGO_PORT"
if [ "${MAILPIT:-1}" != 0 ]; then
  say "Mailpit (the emails consumers get): http://$MAILPIT_HOST:$MAILPIT_HTTP_PORT/view/latest.html, API http://$MAILPIT_HOST:$MAILPIT_HTTP_PORT/api/v1/messages"
  echo "export SMTP_URL=smtp://$MAILPIT_HOST:$MAILPIT_SMTP_PORT"
  echo "export MAILPIT_URL=http://$MAILPIT_HOST:$MAILPIT_HTTP_PORT"
fi
