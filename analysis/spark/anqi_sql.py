"""Runs the report's statistics (analysis/sql/*.sql) over an anqi dataset (`anqi export`, or a
report's data/) on DuckDB or Spark, and writes tables/<name>.csv and stats.json as `anqi report`
does: the same tables, the same numbers (analysis/tests/sql.rs checks it).

    python analysis/spark/anqi_sql.py --engine duckdb DATASET -o OUT
    python analysis/spark/anqi_sql.py --engine spark --master local[*] DATASET -o OUT
    spark-submit analysis/spark/anqi_sql.py --engine spark s3a://bucket/anqi/ -o OUT

The tables' SQL calls four functions (rate_of, wilson_low, wilson_high, mean_of: the report's
rates, 95% Wilson intervals and means) that analysis/sql/functions/<engine>.sql defines first,
as DuckDB macros or Spark SQL functions: the only SQL that differs between the engines.

Each of the dataset's tables (a folder of Parquet parts in hive layout, docs/analysis.md, "The
data contract") is a view of its folder's name; each SQL file reads the views its `-- reads:`
line names, and is skipped when one is absent (no Banqi game: no Banqi table).
"""

import argparse
import csv
import decimal
import json
import os
import sys

SQL_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "sql")

# The data contract's tables (analysis/src/report/contract.rs).
TABLES = [
    "games",
    "seats",
    "explorer",
    "banqi_games",
    "banqi_flips",
    "three_kingdoms_games",
    "three_kingdoms_seats",
    "luzhanqi_games",
    "xiangqi_flips",
]

SCHEMA_VERSION = 1

# The order of the report's tables (its page shows them so): every game's, then each game's
# own. analysis/tests/sql.rs checks it against `anqi report`'s stats.json.
REPORT_ORDER = [
    "by_preset", "by_variant", "by_seat", "by_side", "length", "endings", "overview", "meetings", "meetings_by_period",
    "explorer", "first_square", "first_square_players", "first_piece", "first_pair", "flips_adjacent", "margin", "bonus",
    "settlement", "banqi_overview",
    "tk_claim_rank", "tk_claim_order", "tk_final_points", "tk_captured",
    "lz_by_mode", "lz_by_first_side", "lz_flag_taken_by",
    "xq_flips", "xq_flip_results", "xq_flip_players",
]


def statements(folder=SQL_DIR):
    """Every SQL file of `folder`: its table's name, what its header says (`-- reads:`,
    `-- title:`, `-- keys:`, `-- counts:`, `-- derived:`), its text."""
    found = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".sql"):
            continue
        with open(os.path.join(folder, name), encoding="utf-8") as f:
            text = f.read()
        header = {"reads": "", "title": "", "keys": "", "counts": "", "derived": ""}
        for line in text.splitlines():
            for field in header:
                if line.startswith(f"-- {field}:"):
                    header[field] = line[len(f"-- {field}:"):].strip()
        found.append((name[: -len(".sql")], header, text))
    return found


def names(text):
    return [t.strip() for t in text.split(",") if t.strip()]


def derived(text):
    """`rate win wins finished; mean score score_sum finished` as the report's stats.json
    gives its derived columns."""
    out = []
    for item in filter(None, (i.strip() for i in text.split(";"))):
        kind, name, a, n = item.split()
        if kind == "rate":
            out.append({"kind": "rate", "name": name, "k": a, "n": n})
        else:
            out.append({"kind": "mean", "name": name, "sum": a, "n": n})
    return out


def define_functions(engine, name):
    """Runs analysis/sql/functions/<name>.sql, statement by statement."""
    with open(os.path.join(SQL_DIR, "functions", name + ".sql"), encoding="utf-8") as f:
        text = "\n".join(line for line in f.read().splitlines() if not line.startswith("--"))
    for statement in filter(None, (s.strip() for s in text.split(";"))):
        engine.execute(statement)


def joined(base, table):
    return base.rstrip("/") + "/" + table


class DuckDB:
    def __init__(self):
        import duckdb

        self.db = duckdb.connect()
        define_functions(self, "duckdb")

    def execute(self, sql):
        self.db.execute(sql)

    def view(self, base, table):
        """Makes `table` a view of its folder; False when the dataset has no such table."""
        folder = joined(base, table)
        if "://" not in base and not os.path.isdir(folder):
            return False
        glob = folder + "/**/*.parquet"
        try:
            self.db.execute(
                f"CREATE OR REPLACE VIEW {table} AS SELECT * FROM read_parquet("
                f"'{glob}', hive_partitioning = true, hive_types_autocast = false)"
            )
            self.db.execute(f"SELECT * FROM {table} LIMIT 0")
        except Exception:  # noqa: BLE001 — a missing folder on object storage
            return False
        return True

    def query(self, sql):
        result = self.db.execute(sql)
        columns = [d[0] for d in result.description]
        return columns, result.fetchall()


class Spark:
    def __init__(self, master):
        from pyspark.sql import SparkSession

        builder = (
            SparkSession.builder.appName("anqi-sql")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", "8")
            # Partition values stay strings (a preset named `1` is a name, not a number).
            .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
        )
        if master:
            builder = builder.master(master)
        self.spark = builder.getOrCreate()
        self.spark.sparkContext.setLogLevel("ERROR")
        define_functions(self, "spark")

    def execute(self, sql):
        self.spark.sql(sql)

    def view(self, base, table):
        folder = joined(base, table)
        if "://" not in base and not os.path.isdir(folder):
            return False
        try:
            frame = self.spark.read.option("basePath", folder).parquet(folder)
        except Exception:  # noqa: BLE001 — no such folder on object storage
            return False
        frame.createOrReplaceTempView(table)
        return True

    def query(self, sql):
        frame = self.spark.sql(sql)
        return frame.columns, [tuple(row) for row in frame.collect()]

    def stop(self):
        self.spark.stop()


def plain(value):
    """A value as `anqi report` writes it: integers as integers, the rest as they are."""
    if isinstance(value, decimal.Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def text(value):
    """A CSV cell as `anqi report` writes it (serde_json's numbers; null empty)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)
    return str(value)


def run(engine, base, out, settings):
    available = {t for t in TABLES if engine.view(base, t)}
    if "games" not in available:
        raise SystemExit(f"anqi_sql: {base} has no games table (not an anqi dataset?)")
    os.makedirs(os.path.join(out, "tables"), exist_ok=True)
    tables = run_folder(engine, available, out, SQL_DIR)
    # The players' tables (sql/players/): in stats.json under `players`, as the report has
    # them; a report drawn from these tables fits its own from `meetings`.
    players = run_folder(engine, available, out, os.path.join(SQL_DIR, "players"))
    return summarise(engine, available, out, settings, tables, players)


def run_folder(engine, available, out, folder):
    """Runs every SQL file of `folder` whose views are there; writes tables/<name>.csv and
    gives the tables as stats.json has them."""
    tables = []
    for name, header, sql in statements(folder):
        if not set(names(header["reads"])) <= available:
            continue
        columns, rows = engine.query(sql)
        keys = names(header["keys"])
        # As the report's stats.json has them: key values as text, the rest as numbers.
        rows = [
            [(None if v is None else text(plain(v))) if i < len(keys) else plain(v) for i, v in enumerate(row)]
            for row in rows
        ]
        with open(os.path.join(out, "tables", name + ".csv"), "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f, lineterminator="\n")
            writer.writerow(columns)
            for row in rows:
                writer.writerow([text(v) for v in row])
        tables.append(
            {
                "name": name,
                "title": header["title"],
                "columns": columns,
                "rows": rows,
                "keys": keys,
                "counts": names(header["counts"]),
                "derived": derived(header["derived"]),
            }
        )
    return tables


def summarise(engine, available, out, settings, tables, players):
    tables.sort(key=lambda t: REPORT_ORDER.index(t["name"]) if t["name"] in REPORT_ORDER else len(REPORT_ORDER))
    # The report's summary, from the tables and the dataset.
    overview = next(t for t in tables if t["name"] == "overview")
    games = sum(row[2] for row in overview["rows"])
    presets = sorted({f"{row[0]}/{row[1]}" for row in overview["rows"]})
    flips = engine.query("SELECT COUNT(*) FROM banqi_flips")[1][0][0] if "banqi_flips" in available else 0
    summary = {
        "games": games,
        "flips": plain(flips),
        "rejected": 0,
        "rejected_listed": 0,
        "presets": presets,
        "stake": settings.stake,
        "bonus_per_point": settings.bonus,
        "flip_depth": 2,
    }
    stats = {
        "summary": summary,
        "tables": tables,
        "players": players,
        "rejected": [],
        "schema_version": SCHEMA_VERSION,
    }
    with open(os.path.join(out, "stats.json"), "w", encoding="utf-8") as f:
        json.dump(stats, f, indent=2, ensure_ascii=False)
    return len(tables)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dataset", help="the dataset directory or URL (s3a://…, hdfs://…)")
    parser.add_argument("-o", "--output", required=True, help="where tables/ and stats.json go")
    parser.add_argument("--engine", choices=["duckdb", "spark"], default="duckdb")
    parser.add_argument("--master", help="Spark's master (local[*], spark://…, yarn); spark-submit's own when absent")
    parser.add_argument("--stake", type=int, default=100, help="the stake S the export settled with (the summary's)")
    parser.add_argument("--bonus", type=int, default=5, help="the points bonus B the export settled with (the summary's)")
    args = parser.parse_args(argv)
    engine = DuckDB() if args.engine == "duckdb" else Spark(args.master)
    try:
        count = run(engine, args.dataset, args.output, args)
    finally:
        if isinstance(engine, Spark):
            engine.stop()
    print(f"{count} tables written to {os.path.join(args.output, 'tables')} ({args.engine})", file=sys.stderr)


if __name__ == "__main__":
    main()
