#!/usr/bin/env bash
# Keeps the machine's cores busy while a test run shows it holds on a loaded machine.
#   bash test/harness/busy.sh start [N]   starts N busy loops (default: one per core), pids in $BUSY_PIDS
#   bash test/harness/busy.sh stop        stops the loops started by `start`, by their pids
# Each loop is a plain shell `while :; do :; done` at normal priority: it takes a core as other work would.
set -euo pipefail
pids_file=${BUSY_PIDS:-/tmp/acp-busy.pids}
case "${1:-}" in
  start)
    n=${2:-$(nproc)}
    : >"$pids_file"
    for _ in $(seq "$n"); do
      bash -c 'while :; do :; done' &
      echo $! >>"$pids_file"
    done
    echo "busy: $n loop(s) started: $(tr '\n' ' ' <"$pids_file")"
    ;;
  stop)
    [ -f "$pids_file" ] || exit 0
    while read -r pid; do kill "$pid" 2>/dev/null || true; done <"$pids_file"
    rm -f "$pids_file"
    echo "busy: stopped"
    ;;
  *)
    echo "usage: busy.sh start [N] | stop" >&2
    exit 2
    ;;
esac
