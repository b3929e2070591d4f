# Sourced by the scripts that build a tool into the tools cache (ferretdb-install.sh,
# helm-install.sh). `tool_cache_enter NAME VERSION` sets TOOL_BIN to the tool's cached binary;
# when it is there, prints it and ends the script. Otherwise it takes the tool's lock (held until
# the script exits), so two runs side by side (two CI runs on one machine) build once: the second
# waits for the first and then finds its binary. The caller builds into a name of its own beside
# TOOL_BIN and renames it in one step, so no run ever sees half a binary.
tool_cache_enter() {
  local cache_dir=${PAYRAIL_TOOLS_DIR:-$HOME/.cache/payrail-tools}
  TOOL_BIN="$cache_dir/$1-$2"
  if [ -x "$TOOL_BIN" ]; then echo "$TOOL_BIN"; exit 0; fi
  command -v go >/dev/null || { echo "$1: Go is needed to build it" >&2; exit 1; }
  mkdir -p "$cache_dir"
  exec 9>"$cache_dir/.$1-$2.lock"
  flock 9
  if [ -x "$TOOL_BIN" ]; then echo "$TOOL_BIN"; exit 0; fi
}
