# Shared by the load tests (sourced from the workspace root): wrk, and the release server.

# Installs wrk from Debian when missing.
need_wrk() {
  if ! command -v wrk >/dev/null; then
    echo "installing wrk (Debian package)…" >&2
    local sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get install -y wrk >/dev/null
  fi
}

# start_server LOG [NAME=value …]: starts the release server (built first, unless
# ANQI_API_BIN names a binary) on a free port with request logging off and the given
# environment, its output in LOG; waits until it listens. Sets `pid` and `url`.
start_server() {
  local log="$1"
  shift
  local bin="${ANQI_API_BIN:-target/release/anqi-api}"
  [ -n "${ANQI_API_BIN:-}" ] || cargo build --release -p api --bin anqi-api
  env ANQI_LOG=warn ANQI_PORT=0 "$@" "$bin" >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 100); do
    grep -q "listening on" "$log" && break
    sleep 0.1
  done
  url="$(grep -o 'http://[0-9.:]*' "$log" | head -1)"
}
