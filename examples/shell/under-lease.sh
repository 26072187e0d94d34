#!/bin/sh
# Run one command under a Leaseboard lease, from a shell, through psql and the
# protocol's SQL functions (leaseboard_acquire / _renew / _release).
#
#   DATABASE_URL=postgres://... examples/shell/under-lease.sh LEASE TTL_MS -- COMMAND [ARGS...]
#
# Acquires LEASE for TTL_MS (or exits 75, EX_TEMPFAIL, when someone holds it),
# runs COMMAND with LEASEBOARD_LEASE and LEASEBOARD_EPOCH in its environment
# (fenced tables take that epoch: rows carry lease and epoch, and the database
# refuses a stale one with LB001), renews every TTL_MS/3 meanwhile, and stops
# the command (SIGTERM) if a renewal is refused. Releases the lease at the end
# and exits with the command's status (or 70 when the lease was lost).
# For a scheduler that also reports progress and shows on the dashboard, use
# `leaseboard run` or the Python example.
set -eu

[ $# -ge 4 ] && [ "$3" = "--" ] || { echo "usage: $0 LEASE TTL_MS -- COMMAND [ARGS...]" >&2; exit 2; }
lease=$1 ttl=$2
shift 3
case $ttl in '' | *[!0-9]*) echo "$0: TTL_MS must be a number of milliseconds" >&2; exit 2 ;; esac
: "${DATABASE_URL:?set DATABASE_URL}"

# sql QUERY [psql -v NAME=VALUE ...]: psql quotes each :'NAME' itself (variables are
# interpolated only in what it reads, hence stdin rather than -c).
sql() {
  query=$1
  shift
  printf '%s\n' "$query" | psql "$DATABASE_URL" -X -v ON_ERROR_STOP=1 -Atq "$@"
}
# A holder token that names nothing about the machine: random bytes.
holder="sh-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"

epoch=$(sql "SELECT epoch FROM leaseboard_acquire(:'lease', :'holder', 'shell', :'ttl') WHERE granted" -v lease="$lease" -v holder="$holder" -v ttl="$ttl")
[ -n "$epoch" ] || { echo "$0: $lease is held by another holder" >&2; exit 75; }

LEASEBOARD_LEASE=$lease LEASEBOARD_EPOCH=$epoch "$@" &
work=$!
lost=$(mktemp)
trap 'rm -f "$lost"' EXIT
renewals() {
  while sleep "$(awk "BEGIN { print $ttl / 3000 }")"; do
    renewed=$(sql "SELECT 1 FROM leaseboard_renew(:'lease', :'holder', :'epoch')" -v lease="$lease" -v holder="$holder" -v epoch="$epoch") || renewed=""
    if [ -z "$renewed" ]; then
      echo "$0: lease $lease lost at epoch $epoch; stopping the command" >&2
      echo lost >"$lost"
      kill -TERM "$work" 2>/dev/null || true
      return
    fi
  done
}
renewals &
renewer=$!
status=0
wait "$work" || status=$?
kill "$renewer" 2>/dev/null || true
wait "$renewer" 2>/dev/null || true
sql "SELECT released_at FROM leaseboard_release(:'lease', :'holder', :'epoch')" -v lease="$lease" -v holder="$holder" -v epoch="$epoch" >/dev/null
[ ! -s "$lost" ] || exit 70
exit "$status"
