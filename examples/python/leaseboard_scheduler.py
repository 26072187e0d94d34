#!/usr/bin/env python3
"""A scheduler under a Leaseboard lease, in Python (standard library + psycopg 3).

It speaks the protocol only through Leaseboard's SQL functions
(leaseboard_register, leaseboard_acquire, leaseboard_renew, leaseboard_report,
leaseboard_release), so it follows exactly the rules the TypeScript runtime
follows. Its work is fenced: every row it writes carries (lease, epoch), and the
table's fence triggers (leaseboard_fence_table) refuse a row whose epoch is no
longer current with SQLSTATE LB001 -- so a holder that was paused past its lease
and wakes up after a takeover cannot write.

One JSON line per event on stdout: started, acquired, held (someone else has
it), wrote, write_rejected, lost, released.

  DATABASE_URL=postgres://... python3 leaseboard_scheduler.py --lease nightly-export --label py-1

--setup creates the example's fenced table (example_py_writes) and exits.
--pause-before-write N stops this process (SIGSTOP) right before its Nth
write, after its lease was last seen current: the fault the fence exists for.
"""
import argparse
import json
import os
import signal
import sys
import time

import psycopg

TABLE = "example_py_writes"


def emit(event, **fields):
    print(json.dumps({"event": event, **fields}), flush=True)


def setup(conn):
    conn.execute(
        f"CREATE TABLE IF NOT EXISTS {TABLE} ("
        " lease text NOT NULL, epoch bigint NOT NULL, n int NOT NULL,"
        " written_at timestamptz NOT NULL DEFAULT clock_timestamp())"
    )
    conn.execute("SELECT leaseboard_fence_table(%s)", (TABLE,))


def acquire(conn, args, holder):
    row = conn.execute(
        "SELECT granted, epoch, holder FROM leaseboard_acquire(%s, %s, %s, %s)",
        (args.lease, holder, args.label, args.ttl_ms),
    ).fetchone()
    return row[1] if row[0] else None


def renew(conn, lease, holder, epoch):
    return conn.execute("SELECT renewed_at FROM leaseboard_renew(%s, %s, %s)", (lease, holder, epoch)).fetchone() is not None


def run(args):
    holder = f"py-{os.getpid()}-{os.urandom(6).hex()}"
    with psycopg.connect(args.dsn, autocommit=True, application_name="leaseboard-python-example") as conn:
        if args.setup:
            setup(conn)
            return 0
        every = args.renew_every_ms
        conn.execute("SELECT leaseboard_register(%s, %s, %s, %s, %s)", (args.lease, 60_000, every, 300_000, 300_000))
        emit("started", lease=args.lease, label=args.label)
        writes = 0
        deadline = time.monotonic() + args.run_seconds
        while time.monotonic() < deadline:
            epoch = acquire(conn, args, holder)
            if epoch is None:
                emit("held")
                time.sleep(every / 1000)
                continue
            emit("acquired", epoch=epoch)
            seq = 0
            while time.monotonic() < deadline:
                if not renew(conn, args.lease, holder, epoch):
                    emit("lost", epoch=epoch)
                    break
                writes += 1
                if writes == args.pause_before_write:
                    emit("pausing", epoch=epoch)
                    os.kill(os.getpid(), signal.SIGSTOP)
                try:
                    conn.execute(f"INSERT INTO {TABLE} (lease, epoch, n) VALUES (%s, %s, %s)", (args.lease, epoch, writes))
                    emit("wrote", epoch=epoch, n=writes)
                except psycopg.Error as error:
                    if error.sqlstate != "LB001":
                        raise
                    emit("write_rejected", epoch=epoch, sqlstate=error.sqlstate)
                seq += 1
                conn.execute(
                    "SELECT advanced FROM leaseboard_report(%s, %s, %s, %s, %s, %s)",
                    (args.lease, epoch, seq, None, writes, every),
                )
                time.sleep(every / 1000)
            else:
                conn.execute("SELECT released_at FROM leaseboard_release(%s, %s, %s)", (args.lease, holder, epoch))
                emit("released", epoch=epoch)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dsn", default=os.environ.get("DATABASE_URL"), help="PostgreSQL URL (default: DATABASE_URL)")
    parser.add_argument("--lease", default="python-example")
    parser.add_argument("--label", default="python")
    parser.add_argument("--ttl-ms", type=int, default=15_000)
    parser.add_argument("--renew-every-ms", type=int, default=5_000)
    parser.add_argument("--run-seconds", type=float, default=float("inf"))
    parser.add_argument("--pause-before-write", type=int, default=0)
    parser.add_argument("--setup", action="store_true")
    args = parser.parse_args()
    if not args.dsn:
        parser.error("no database: pass --dsn or set DATABASE_URL")
    if not args.ttl_ms > args.renew_every_ms > 0:
        parser.error("--ttl-ms must exceed --renew-every-ms, and both be positive")
    try:
        return run(args)
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    sys.exit(main())
