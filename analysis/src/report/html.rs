//! The self-contained HTML page: the charts inline (SVG), every table, the rejected games.

use std::fmt::Write;
use std::path::Path;

use serde_json::Value;

use super::charts::Chart;
use super::ingest::Rejected;
use super::table::Table;

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn cell(v: &Value) -> String {
    match v {
        Value::String(s) => escape(s),
        Value::Null => "—".into(),
        other => other.to_string(),
    }
}

pub fn page(
    summary: &Value,
    tables: &[Table],
    charts: &[Chart],
    rejected: &[Rejected],
    out: &Path,
) -> std::io::Result<String> {
    let mut h = String::with_capacity(1 << 20);
    let _ = write!(
        h,
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Anqi report</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }}
table {{ border-collapse: collapse; margin: 0.5em 0 2em; font-size: 13px; }}
th, td {{ border: 1px solid #ccc; padding: 2px 6px; text-align: right; }}
th {{ background: #f3f3f3; }} td:first-child, th:first-child {{ text-align: left; }}
figure {{ margin: 1em 0 2em; }} figure svg {{ max-width: 100%; height: auto; }}
.summary td {{ text-align: left; }}
</style></head><body>
<h1>Anqi (暗棋) statistics report</h1>
"#
    );
    let _ = writeln!(h, "<table class=\"summary\">");
    for (k, v) in summary.as_object().expect("an object") {
        let _ = writeln!(h, "<tr><th>{}</th><td>{}</td></tr>", escape(k), cell(v));
    }
    let _ = writeln!(
        h,
        "</table><p>Rates are of finished games, with 95% Wilson intervals. The numbers are also in \
         <code>stats.json</code> and <code>tables/*.csv</code>; the games, seats and each \
         game's own facts in <code>data/</code> as Parquet (hive layout by game and preset). \
         Every table is counts: reports of parts merge into the whole with \
         <code>anqi report --merge</code>.</p>"
    );
    let _ = writeln!(h, "<h2>Charts</h2>");
    for c in charts {
        let svg = std::fs::read_to_string(&c.svg)?;
        let png = c
            .png
            .strip_prefix(out)
            .unwrap_or(&c.png)
            .display()
            .to_string();
        let _ = writeln!(
            h,
            "<figure>{svg}<figcaption>{} (<a href=\"{}\">PNG</a>)</figcaption></figure>",
            escape(&c.title),
            escape(&png)
        );
    }
    let _ = writeln!(h, "<h2>Tables</h2>");
    for t in tables {
        let _ = writeln!(
            h,
            "<h3 id=\"{}\">{}</h3><p><code>tables/{}.csv</code></p><table><tr>",
            t.name,
            escape(&t.title),
            t.name
        );
        for c in &t.columns {
            let _ = write!(h, "<th>{}</th>", escape(c));
        }
        let _ = writeln!(h, "</tr>");
        for row in &t.rows {
            let _ = write!(h, "<tr>");
            for v in row {
                let _ = write!(h, "<td>{}</td>", cell(v));
            }
            let _ = writeln!(h, "</tr>");
        }
        let _ = writeln!(h, "</table>");
    }
    let _ = writeln!(h, "<h2 id=\"rejected\">Rejected games</h2>");
    if rejected.is_empty() {
        let _ = writeln!(h, "<p>None: every game replayed.</p>");
    } else {
        let _ = writeln!(
            h,
            "<p>Also in <code>invalid.csv</code>.</p><table><tr><th>source</th><th>code</th><th>error</th></tr>"
        );
        for r in rejected {
            let _ = writeln!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&r.source),
                escape(&r.code),
                escape(&r.error)
            );
        }
        let _ = writeln!(h, "</table>");
    }
    let _ = writeln!(h, "</body></html>");
    Ok(h)
}
