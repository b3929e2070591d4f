#!/usr/bin/env bash
# Brings up the infrastructure the tests and the AMQP_URL / MONGODB_URL modes use, without Docker:
#   - RabbitMQ on 127.0.0.1:5672 (started with `rabbitmq-server -detached` when installed here);
#   - a MongoDB-wire server on 127.0.0.1:27017: a healthy one already there (MongoDB or a
#     FerretDB started by hand) is reused, else FerretDB (SQLite backend) is built once by
#     scripts/ferretdb-install.sh and started in the background with its data, pid file and log
#     under .infra/ferretdb/. `bash scripts/infra-down.sh` stops it.
# Prints the environment to use on stdout, so `eval "$(bash scripts/infra-up.sh)"` sets it;
# progress goes to stderr. With Docker instead: `docker compose up rabbitmq mongo`.
# Knobs: FERRETDB_PORT (27017), INFRA_TIMEOUT seconds to wait for each server (30).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
INFRA_DIR="$ROOT/.infra/ferretdb"
PID_FILE="$INFRA_DIR/ferretdb.pid"
LOG_FILE="$INFRA_DIR/ferretdb.log"
AMQP_HOST=127.0.0.1
AMQP_PORT=5672
MONGO_HOST=127.0.0.1
MONGO_PORT=${FERRETDB_PORT:-27017}
TIMEOUT=${INFRA_TIMEOUT:-30}

say() { echo "infra-up: $*" >&2; }
die() { echo "infra-up: error: $*" >&2; exit 1; }

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
if mongo_ping "$MONGO_HOST" "$MONGO_PORT"; then
  if [ -n "$(our_ferretdb_pid)" ]; then
    say "FerretDB: already running (pid $(our_ferretdb_pid), started by this script) on $MONGO_HOST:$MONGO_PORT"
  else
    say "MongoDB wire server already answering on $MONGO_HOST:$MONGO_PORT: reusing it"
  fi
elif port_open "$MONGO_HOST" "$MONGO_PORT"; then
  die "something listens on $MONGO_HOST:$MONGO_PORT but does not answer a MongoDB ping; stop it or set FERRETDB_PORT"
else
  stale=$(our_ferretdb_pid)
  if [ -n "$stale" ]; then
    # Ours but not answering: replace it.
    say "FerretDB: pid $stale is not answering; stopping it"
    kill "$stale" 2>/dev/null || true
    sleep 1
  fi
  rm -f "$PID_FILE"
  command -v node >/dev/null 2>&1 || die "node is needed"
  say "FerretDB: locating or building the binary (scripts/ferretdb-install.sh; the first build takes a few minutes)"
  BIN=$(bash "$ROOT/scripts/ferretdb-install.sh")
  [ -x "$BIN" ] || die "scripts/ferretdb-install.sh printed '$BIN', which is not an executable"
  mkdir -p "$INFRA_DIR/data"
  say "FerretDB: starting $BIN on $MONGO_HOST:$MONGO_PORT (data and log in ${INFRA_DIR#"$ROOT"/})"
  # setsid + nohup: the server outlives this script and its terminal; --debug-addr=- turns off
  # the metrics listener (127.0.0.1:8088), which another FerretDB may already hold.
  setsid nohup "$BIN" \
    --handler=sqlite \
    --sqlite-url="file:$INFRA_DIR/data/" \
    --listen-addr="$MONGO_HOST:$MONGO_PORT" \
    --state-dir="$INFRA_DIR" \
    --debug-addr=- \
    --telemetry=disable \
    --log-level=warn \
    </dev/null >>"$LOG_FILE" 2>&1 &
  pid=$!
  echo "$pid" >"$PID_FILE"
  up=
  for _ in $(seq $((TIMEOUT * 2))); do
    if ! kill -0 "$pid" 2>/dev/null; then
      rm -f "$PID_FILE"
      tail -n 20 "$LOG_FILE" >&2 || true
      die "FerretDB exited during start-up (log: $LOG_FILE)"
    fi
    if mongo_ping "$MONGO_HOST" "$MONGO_PORT"; then up=1; break; fi
    sleep 0.5
  done
  if [ -z "$up" ]; then
    kill "$pid" 2>/dev/null || true
    rm -f "$PID_FILE"
    tail -n 20 "$LOG_FILE" >&2 || true
    die "FerretDB did not answer on $MONGO_HOST:$MONGO_PORT within ${TIMEOUT}s (log: $LOG_FILE)"
  fi
  say "FerretDB: up (pid $pid); stop it with: bash scripts/infra-down.sh"
fi

say "ready; export these (or run: eval \"\$(bash scripts/infra-up.sh)\"):"
echo "export AMQP_URL=amqp://guest:guest@$AMQP_HOST:$AMQP_PORT"
echo "export MONGODB_URL=mongodb://$MONGO_HOST:$MONGO_PORT"
