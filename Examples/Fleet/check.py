"""Runs the fleet SQL (sql/clickhouse with chdb, sql/duckdb with DuckDB) over the JSON Lines
export of a directory of recordings, and holds every answer against what `rewind` itself reads
from the journals:

- "recordings where the total went negative, with the step": `rewind query FILE 'total < 0' --first`;
- "p95 duration of each dispatch name": the nearest-rank percentile of `rewind log FILE --json
  --kind didDispatch`'s durations, across every recording;
- "which app versions show the divergence": `rewind query FILE 'status == "paid" && receipt != nil
  && receipt.total != total' --first`, counted per `rewind info FILE --json` app version.

Usage: check.py REWIND FLEET_DIR   (FLEET_DIR holds *.rewind and recordings/*.jsonl)
Exits 1 on the first answer that differs, printing both.
"""

import glob
import json
import math
import os
import subprocess
import sys

import chdb
import duckdb
from chdb import session as chdb_session

HERE = os.path.dirname(os.path.abspath(__file__))
QUESTIONS = ["negative-total", "dispatch-p95", "divergence-by-version"]
# A missing path differs from every value in rewind's conditions, hence `receipt != nil` first.
DIVERGENCE = 'status == "paid" && receipt != nil && receipt.total != total'


def rewind(binary, *arguments):
    """Runs rewind; a `query` that finds nothing exits 1, which is an answer, not a failure."""
    result = subprocess.run([binary, *arguments], capture_output=True, text=True)
    if result.returncode not in (0, 1):
        sys.exit(f"fleet-check: rewind {' '.join(arguments)} failed: {result.stderr.strip()}")
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def expected_answers(binary, journals):
    negative, durations, versions = [], {}, {}
    events = 0
    for journal in journals:
        info = rewind(binary, "info", journal, "--json")[0]
        recording, version = info["recording_id"], info["app_version"]
        events += info["events"]
        first = rewind(binary, "query", journal, "total < 0", "--first", "--json")
        if first:
            negative.append([recording, version, first[0]["seq"]])
        for row in rewind(binary, "log", journal, "--json", "--kind", "didDispatch"):
            durations.setdefault(row["name"], []).append(row["duration_ns"])
        diverges = bool(rewind(binary, "query", journal, DIVERGENCE, "--first", "--json"))
        counts = versions.setdefault(version, [0, 0])
        counts[0] += 1
        counts[1] += int(diverges)
    p95 = []
    for name in sorted(durations):
        values = sorted(durations[name])
        p95.append([name, len(values), values[math.ceil(0.95 * len(values)) - 1]])
    return events, {
        "negative-total": sorted(negative),
        "dispatch-p95": p95,
        "divergence-by-version": [[version, *counts] for version, counts in sorted(versions.items())],
    }


def sql(engine, name):
    with open(os.path.join(HERE, "sql", engine, name + ".sql")) as file:
        return file.read()


def duckdb_answers():
    connection = duckdb.connect()
    connection.execute(sql("duckdb", "schema"))
    rows = connection.execute("SELECT count(*) FROM rewind_events").fetchone()[0]
    return rows, {question: [list(row) for row in connection.execute(sql("duckdb", question)).fetchall()] for question in QUESTIONS}


def clickhouse_answers():
    database = chdb_session.Session()
    database.query(sql("clickhouse", "schema"))
    database.query(sql("clickhouse", "load"))

    def rows(query):
        return json.loads(str(database.query(query, "JSONCompact")))["data"]

    count = int(rows("SELECT count() FROM rewind_events")[0][0])
    return count, {question: rows(sql("clickhouse", question)) for question in QUESTIONS}


def same(a, b):
    # JSONCompact writes 64-bit integers as strings.
    normalise = lambda rows: [[int(v) if isinstance(v, str) and v.isdigit() else v for v in row] for row in rows]
    return normalise(a) == normalise(b)


def readme_blocks_in_files():
    """Every ```sql block of the fleet article (the DocC catalog's FleetSQL), line for line, in one of the SQL files."""
    with open(os.path.join(HERE, "..", "..", "Sources", "Rewind", "Rewind.docc", "FleetSQL.md")) as file:
        article = file.read()
    blocks = [block.split("```", 1)[0].strip() for block in article.split("```sql\n")[1:]]
    files = []
    for engine in ("clickhouse", "duckdb"):
        for name in glob.glob(os.path.join(HERE, "sql", engine, "*.sql")):
            with open(name) as file:
                files.append("\n".join(line for line in file.read().splitlines() if not line.startswith("--")).strip())
    missing = [block for block in blocks if not any(block in text for text in files)]
    for block in missing:
        print(f"fleet-check: the FleetSQL article's SQL is in no file under Examples/Fleet/sql:\n{block}")
    return bool(blocks) and not missing


def main():
    binary, fleet = sys.argv[1], sys.argv[2]
    if not readme_blocks_in_files():
        sys.exit(1)
    journals = sorted(glob.glob(os.path.join(fleet, "*.rewind")))
    if not journals:
        sys.exit(f"fleet-check: no recordings in {fleet}")
    events, expected = expected_answers(binary, journals)
    os.chdir(fleet)
    failed = False
    for engine, answers in [("duckdb", duckdb_answers), ("clickhouse (chdb)", clickhouse_answers)]:
        rows, answered = answers()
        agrees = rows == events
        if rows != events:
            print(f"fleet-check: {engine} loaded {rows} rows; the {len(journals)} journals hold {events} events")
        for question in QUESTIONS:
            if not same(answered[question], expected[question]):
                print(f"fleet-check: {engine} answers {question} differently from the journals")
                print(f"  SQL:      {answered[question]}")
                print(f"  journals: {expected[question]}")
                agrees = False
        if agrees:
            print(f"fleet-check: {engine}: {rows} rows from {len(journals)} recordings; every answer matches the journals")
        failed = failed or not agrees
    if failed:
        sys.exit(1)
    print(f"fleet-check: {len(expected['negative-total'])} recordings went negative; p95 per dispatch: "
          + ", ".join(f"{name} {p95 / 1000:.1f} µs" for name, _, p95 in expected["dispatch-p95"])
          + "; divergence by version: "
          + ", ".join(f"{version} {diverging}/{total}" for version, total, diverging in expected["divergence-by-version"]))


if __name__ == "__main__":
    main()
