//! The report's tables as counts that add up: every table is key columns and count columns
//! (summed, or for a `max_` column the largest), and its rates, intervals and means are
//! derived from the counts when it is written. Two reports of two parts of a data set are
//! merged by adding their counts row by row, which gives the report of the whole.

use std::cmp::Ordering;
use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// A column derived from counts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Derived {
    /// `{name}_rate`, `{name}_low`, `{name}_high`: k of n with a 95% Wilson interval.
    Rate { name: String, k: String, n: String },
    /// `{name}`: sum / n (null when n is 0).
    Mean {
        name: String,
        sum: String,
        n: String,
    },
}

/// A table of the report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Table {
    pub name: String,
    pub title: String,
    /// All columns in order: keys, counts, derived.
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
    /// The key columns (rows are sorted by them).
    pub keys: Vec<String>,
    /// The count columns, which add up across parts (`max_…` ones take the largest).
    pub counts: Vec<String>,
    pub derived: Vec<Derived>,
    /// The game whose own table this is; None for the tables of every game, which have a
    /// `game` column.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
}

impl Table {
    /// A table from rows of key values and count values, its derived columns computed.
    pub fn new(
        name: &str,
        title: &str,
        keys: &[&str],
        counts: &[&str],
        derived: Vec<Derived>,
        rows: Vec<(Vec<Value>, Vec<Value>)>,
    ) -> Table {
        let mut t = Table {
            name: name.to_owned(),
            title: title.to_owned(),
            columns: Vec::new(),
            rows: Vec::new(),
            keys: keys.iter().map(|s| s.to_string()).collect(),
            counts: counts.iter().map(|s| s.to_string()).collect(),
            derived,
            game: None,
        };
        t.render(rows);
        t
    }

    /// The values of one column.
    pub fn column(&self, name: &str) -> Vec<&Value> {
        let i = self
            .columns
            .iter()
            .position(|c| c == name)
            .unwrap_or_else(|| panic!("no column {name} in {}", self.name));
        self.rows.iter().map(|r| &r[i]).collect()
    }

    /// Key and count values of every row.
    fn parts(&self) -> Vec<(Vec<Value>, Vec<Value>)> {
        let (k, c) = (self.keys.len(), self.counts.len());
        self.rows
            .iter()
            .map(|r| (r[..k].to_vec(), r[k..k + c].to_vec()))
            .collect()
    }

    fn render(&mut self, mut rows: Vec<(Vec<Value>, Vec<Value>)>) {
        rows.sort_by(|a, b| compare_keys(&a.0, &b.0));
        let mut columns: Vec<String> = self.keys.iter().chain(&self.counts).cloned().collect();
        for d in &self.derived {
            match d {
                Derived::Rate { name, .. } => {
                    for suffix in ["rate", "low", "high"] {
                        columns.push(format!("{name}_{suffix}"));
                    }
                }
                Derived::Mean { name, .. } => columns.push(name.clone()),
            }
        }
        let count = |counts: &[Value], name: &str| -> f64 {
            let i = self
                .counts
                .iter()
                .position(|c| c == name)
                .unwrap_or_else(|| panic!("{} derives from a missing count {name}", self.name));
            counts[i].as_f64().unwrap_or(0.0)
        };
        self.rows = rows
            .into_iter()
            .map(|(keys, counts)| {
                let mut row: Vec<Value> = keys.iter().chain(&counts).cloned().collect();
                for d in &self.derived {
                    match d {
                        Derived::Rate { k, n, .. } => {
                            let (k, n) = (count(&counts, k) as u64, count(&counts, n) as u64);
                            let (lo, hi) = wilson(k, n);
                            let rate = if n == 0 { 0.0 } else { k as f64 / n as f64 };
                            row.extend([round(rate), round(lo), round(hi)]);
                        }
                        Derived::Mean { sum, n, .. } => {
                            let (sum, n) = (count(&counts, sum), count(&counts, n));
                            row.push(if n == 0.0 {
                                Value::Null
                            } else {
                                round(sum / n)
                            });
                        }
                    }
                }
                row
            })
            .collect();
        self.columns = columns;
    }

    /// This table with `other`'s counts added, row by row (rows matched by their keys).
    pub fn merge(&self, other: &Table) -> Result<Table, String> {
        if (&self.keys, &self.counts, &self.derived) != (&other.keys, &other.counts, &other.derived)
        {
            return Err(format!(
                "table {} has different columns in the two reports",
                self.name
            ));
        }
        let mut sum: BTreeMap<String, (Vec<Value>, Vec<Value>)> = BTreeMap::new();
        for (keys, counts) in self.parts().into_iter().chain(other.parts()) {
            let id = serde_json::to_string(&keys).expect("values serialise");
            match sum.get_mut(&id) {
                None => {
                    sum.insert(id, (keys, counts));
                }
                Some((_, total)) => {
                    for (i, (t, c)) in total.iter_mut().zip(counts).enumerate() {
                        *t = add(&self.counts[i], t, &c);
                    }
                }
            }
        }
        let mut merged = self.clone();
        merged.render(sum.into_values().collect());
        Ok(merged)
    }
}

/// Adds two counts: integers stay integers, `max_` columns keep the larger.
fn add(column: &str, a: &Value, b: &Value) -> Value {
    if column.starts_with("max_") {
        return if b.as_f64() > a.as_f64() {
            b.clone()
        } else {
            a.clone()
        };
    }
    match (a.as_i64(), b.as_i64()) {
        (Some(x), Some(y)) => json!(x + y),
        _ => round(a.as_f64().unwrap_or(0.0) + b.as_f64().unwrap_or(0.0)),
    }
}

/// Key order: null first, numbers (and numeric strings) by value, then strings.
fn compare_keys(a: &[Value], b: &[Value]) -> Ordering {
    for (x, y) in a.iter().zip(b) {
        let o = compare_value(x, y);
        if o != Ordering::Equal {
            return o;
        }
    }
    Ordering::Equal
}

fn compare_value(a: &Value, b: &Value) -> Ordering {
    let number = |v: &Value| match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.parse::<f64>().ok(),
        _ => None,
    };
    match (a, b) {
        (Value::Null, Value::Null) => Ordering::Equal,
        (Value::Null, _) => Ordering::Less,
        (_, Value::Null) => Ordering::Greater,
        _ => match (number(a), number(b)) {
            (Some(x), Some(y)) => x.partial_cmp(&y).unwrap_or(Ordering::Equal),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => a.to_string().cmp(&b.to_string()),
        },
    }
}

/// The Wilson score interval at 95% for `k` successes in `n` trials.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    records::core::stats::wilson(k as f64, n as f64, 1.959_963_984_540_054)
}

pub fn round(x: f64) -> Value {
    json!((x * 10_000.0).round() / 10_000.0)
}

/// The derived columns of a results table: win, draw and loss rates of finished games, and
/// the mean score (1 win, ½ draw, 0 loss; a three-seat game scores by places beaten).
pub fn results_derived() -> Vec<Derived> {
    let rate = |name: &str, k: &str| Derived::Rate {
        name: name.into(),
        k: k.into(),
        n: "finished".into(),
    };
    vec![
        rate("win", "wins"),
        rate("draw", "draws"),
        rate("loss", "losses"),
        Derived::Mean {
            name: "score".into(),
            sum: "score_sum".into(),
            n: "finished".into(),
        },
    ]
}

/// The count columns of a results table.
pub const RESULT_COUNTS: &[&str] = &["games", "finished", "wins", "draws", "losses", "score_sum"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_hand_computed_values() {
        // 7 of 10: centre (0.7 + 0.19208) / 1.38415 = 0.64448, half 0.24775.
        let (lo, hi) = wilson(7, 10);
        assert!((lo - 0.3968).abs() < 1e-4, "{lo}");
        assert!((hi - 0.8922).abs() < 1e-4, "{hi}");
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (lo, hi) = wilson(0, 5);
        assert_eq!(lo, 0.0);
        assert!((hi - 0.4345).abs() < 1e-4, "{hi}");
    }

    #[test]
    fn merged_counts_are_the_counts_of_the_whole() {
        let table = |rows: Vec<(Vec<Value>, Vec<Value>)>| {
            Table::new(
                "t",
                "t",
                &["preset"],
                RESULT_COUNTS,
                results_derived(),
                rows,
            )
        };
        let a = table(vec![(
            vec![json!("tcga")],
            vec![json!(3), json!(3), json!(1), json!(1), json!(1), json!(1.5)],
        )]);
        let b = table(vec![
            (
                vec![json!("tcga")],
                vec![json!(2), json!(1), json!(1), json!(0), json!(0), json!(1.0)],
            ),
            (
                vec![json!("taiwan")],
                vec![json!(1), json!(0), json!(0), json!(0), json!(0), json!(0.0)],
            ),
        ]);
        let whole = table(vec![
            (
                vec![json!("tcga")],
                vec![json!(5), json!(4), json!(2), json!(1), json!(1), json!(2.5)],
            ),
            (
                vec![json!("taiwan")],
                vec![json!(1), json!(0), json!(0), json!(0), json!(0), json!(0.0)],
            ),
        ]);
        assert_eq!(a.merge(&b).unwrap(), whole);
        assert_eq!(
            whole.rows[1][whole.columns.iter().position(|c| c == "win_rate").unwrap()],
            json!(0.5)
        );
    }
}
