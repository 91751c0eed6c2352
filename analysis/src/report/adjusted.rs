//! Findings adjusted for who played. A bot that always opens on a1 and wins most games makes
//! a1 look like a strong first flip; a strong player's habits look like good moves. So a
//! flip (a square, a kind) is compared only **within the same players in the same seats**:
//! in each stratum (player 1's name, player 2's name, and for a flip either side may make,
//! the flipper's seat) the games with the flip against the games without it, and the
//! strata's differences pooled with Mantel–Haenszel's weights w = n₁n₀ / (n₁ + n₀). Where
//! every game of a stratum has the flip, or none has, the stratum says nothing of the flip;
//! where no stratum says anything, flip and player cannot be told apart, and the page says
//! so instead of a number.
//!
//! The pooled difference Δ = Σ w (m₁ − m₀) / Σ w, m the mean score (a win 1, a draw ½); its
//! variance Σ w s² / (Σ w)², s² the stratum's score variance (every game of it, as it is with
//! no flip effect: the Cochran–Mantel–Haenszel test's; a stratum of one game has none). A
//! flip is named only with at least [`super::charts::FEW_GAMES`] games compared, and when its
//! interval, widened for as many flips as were compared (Bonferroni), excludes 0. Everything
//! is counts: the count tables it reads add up over parts of a data set.

use std::collections::BTreeMap;

use records::core::language::Phrases;

use super::charts::FEW_GAMES;
use super::headlines::corrected_z;

/// Scores of some games: how many, their sum and their sum of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Scores {
    pub n: f64,
    pub sum: f64,
    pub squares: f64,
}

impl Scores {
    /// From wins, draws and losses.
    pub fn of(wins: f64, draws: f64, losses: f64) -> Scores {
        Scores {
            n: wins + draws + losses,
            sum: wins + draws / 2.0,
            squares: wins + draws / 4.0,
        }
    }

    fn add(self, o: Scores) -> Scores {
        Scores {
            n: self.n + o.n,
            sum: self.sum + o.sum,
            squares: self.squares + o.squares,
        }
    }

    fn less(self, o: Scores) -> Scores {
        Scores {
            n: self.n - o.n,
            sum: self.sum - o.sum,
            squares: self.squares - o.squares,
        }
    }

    fn mean(&self) -> f64 {
        self.sum / self.n
    }

    /// The sample variance (n − 1).
    fn variance(&self) -> f64 {
        if self.n < 2.0 {
            return 0.0;
        }
        ((self.squares - self.sum * self.sum / self.n) / (self.n - 1.0)).max(0.0)
    }
}

/// One flip's games in one stratum (the same players in the same seats).
#[derive(Clone, Debug)]
pub struct Cell {
    pub stratum: Vec<String>,
    pub flip: String,
    pub with: Scores,
}

/// A flip's effect within the same players.
#[derive(Clone, Debug, PartialEq)]
pub struct Effect {
    pub flip: String,
    /// Finished games with the flip in all.
    pub games: u64,
    /// Of them, in strata that also have games without it: the games compared.
    pub compared: u64,
    /// The pooled difference in the flipper's mean score, with − without (None when
    /// nothing compares).
    pub difference: Option<f64>,
    /// Its standard error.
    pub error: f64,
}

/// Each flip's effect within strata; `totals` are each stratum's games, with the flip or
/// not (None: the sum of the cells of the stratum, when every game has exactly one flip of
/// the kind compared, as Banqi's first square).
pub fn effects(cells: &[Cell], totals: Option<&BTreeMap<Vec<String>, Scores>>) -> Vec<Effect> {
    let summed: BTreeMap<Vec<String>, Scores> = match totals {
        Some(_) => BTreeMap::new(),
        None => {
            let mut t: BTreeMap<Vec<String>, Scores> = BTreeMap::new();
            for c in cells {
                let e = t.entry(c.stratum.clone()).or_default();
                *e = e.add(c.with);
            }
            t
        }
    };
    let totals = totals.unwrap_or(&summed);
    let mut by_flip: BTreeMap<&str, Vec<&Cell>> = BTreeMap::new();
    for c in cells.iter().filter(|c| c.with.n > 0.0) {
        by_flip.entry(&c.flip).or_default().push(c);
    }
    by_flip
        .into_iter()
        .map(|(flip, cells)| {
            let (mut weights, mut weighted, mut spread, mut compared, mut games) =
                (0.0, 0.0, 0.0, 0.0, 0.0);
            for c in cells {
                games += c.with.n;
                let Some(total) = totals.get(&c.stratum) else {
                    continue;
                };
                let without = total.less(c.with);
                if without.n < 0.5 {
                    continue;
                }
                let w = c.with.n * without.n / total.n;
                weights += w;
                weighted += w * (c.with.mean() - without.mean());
                spread += w * total.variance();
                compared += c.with.n;
            }
            Effect {
                flip: flip.to_owned(),
                games: games.round() as u64,
                compared: compared.round() as u64,
                difference: (weights > 0.0).then(|| weighted / weights),
                error: if weights > 0.0 {
                    spread.sqrt() / weights
                } else {
                    0.0
                },
            }
        })
        .collect()
}

/// What the effects support: the flips named (enough games compared, and the corrected
/// interval excludes no effect), with their intervals; how many were tried; and how many
/// had the games but could not be compared within the same players.
#[derive(Debug, PartialEq)]
pub struct Findings {
    /// (flip, difference, low, high, games compared), the largest difference first.
    pub standing: Vec<(String, f64, f64, f64, u64)>,
    /// Flips with at least [`FEW_GAMES`] games compared: the tries the correction counts.
    pub tried: usize,
    /// Flips with [`FEW_GAMES`] games or more, but fewer compared within the same players:
    /// flip and player cannot be told apart.
    pub confounded: Vec<String>,
}

pub fn findings(effects: &[Effect]) -> Findings {
    let few = FEW_GAMES;
    let tried: Vec<&Effect> = effects
        .iter()
        .filter(|e| e.compared >= few && e.difference.is_some())
        .collect();
    let z = corrected_z(tried.len());
    let mut standing: Vec<(String, f64, f64, f64, u64)> = tried
        .iter()
        .filter_map(|e| {
            let d = e.difference?;
            let (low, high) = (d - z * e.error, d + z * e.error);
            (low > 0.0 || high < 0.0).then(|| (e.flip.clone(), d, low, high, e.compared))
        })
        .collect();
    standing.sort_by(|a, b| b.1.total_cmp(&a.1));
    let confounded = effects
        .iter()
        .filter(|e| e.games >= few && e.compared < few)
        .map(|e| e.flip.clone())
        .collect();
    Findings {
        standing,
        tried: tried.len(),
        confounded,
    }
}

/// How a game's sentences name what they compare: its words under `key` (`{key}.what`,
/// "first square"; `.whats`, "squares"; `.whose`, "player 1's score"; `.against`, what each
/// is compared with; `.matters`, the finding's opening) and a flip's code in words.
pub struct Words<'a> {
    pub key: &'a str,
    /// A flip's code in words.
    pub name: &'a dyn Fn(&str) -> String,
}

/// The sentences `found` supports: the flips named with their corrected intervals, or that
/// none stands out, or that flip and player cannot be told apart; and which flips could not
/// be compared within the same players.
pub fn sentences(found: &Findings, w: &Words, say: &Phrases) -> Vec<String> {
    let word = |part: &str| say.get(&format!("{}.{part}", w.key));
    let (what, whats, whose, against) =
        (word("what"), word("whats"), word("whose"), word("against"));
    let few = FEW_GAMES.to_string();
    let list = |flips: &[String]| -> String {
        say.list(&flips.iter().map(|f| (w.name)(f)).collect::<Vec<_>>())
    };
    let slots = |extra: &[(&'static str, String)]| -> Vec<(&'static str, String)> {
        let mut all = vec![
            ("what", what.clone()),
            ("whats", whats.clone()),
            ("whose", whose.clone()),
            ("against", against.clone()),
            ("few", few.clone()),
        ];
        all.extend(extra.iter().cloned());
        all
    };
    let fill = |key: &str, slots: Vec<(&'static str, String)>| {
        let borrowed: Vec<(&str, &str)> = slots.iter().map(|(k, v)| (*k, v.as_str())).collect();
        say.fill(key, &borrowed)
    };
    if found.tried == 0 {
        return vec![if found.confounded.is_empty() {
            fill("report.adjusted.too_few", slots(&[]))
        } else {
            fill(
                "report.adjusted.go_with_players",
                slots(&[("list", list(&found.confounded))]),
            )
        }];
    }
    let tried = found.tried.to_string();
    let mut out = vec![if found.standing.is_empty() {
        fill("report.adjusted.none", slots(&[("tried", tried)]))
    } else {
        let named: Vec<String> = found
            .standing
            .iter()
            .map(|(flip, d, low, high, n)| {
                say.fill(
                    "report.adjusted.named",
                    &[
                        ("name", &(w.name)(flip)),
                        ("change", &said(*d, *low, *high, say)),
                        ("games", &super::draw::thousands(*n)),
                    ],
                )
            })
            .collect();
        fill(
            "report.adjusted.standing",
            slots(&[
                ("matters", word("matters")),
                ("list", say.list(&named)),
                ("tried", tried),
            ]),
        )
    }];
    if !found.confounded.is_empty() {
        let key = if found.confounded.len() == 1 {
            "report.adjusted.cannot_tell_one"
        } else {
            "report.adjusted.cannot_tell_many"
        };
        out.push(fill(key, slots(&[("list", list(&found.confounded))])));
    }
    out
}

/// A difference in score for people: `+8.1 points, +2.0 to +14.2`, in percentage points.
pub fn said(d: f64, low: f64, high: f64, say: &Phrases) -> String {
    let p = |x: f64| {
        let v = (x * 1000.0).round() / 10.0;
        if v == 0.0 {
            "0.0".to_owned()
        } else if v < 0.0 {
            format!("−{:.1}", -v)
        } else {
            format!("+{v:.1}")
        }
    };
    say.fill(
        "report.adjusted.change",
        &[("d", &p(d)), ("low", &p(low)), ("high", &p(high))],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(p1: &str, p2: &str, flip: &str, w: f64, d: f64, l: f64) -> Cell {
        Cell {
            stratum: vec![p1.into(), p2.into()],
            flip: flip.into(),
            with: Scores::of(w, d, l),
        }
    }

    /// Greedy opens on file a and wins 85%, random elsewhere and wins 15%: the raw squares
    /// differ by 70 points, yet within the same players no square does: no finding.
    #[test]
    fn a_flip_that_goes_with_a_player_is_no_finding() {
        let mut cells = Vec::new();
        for sq in ["a1", "a2", "a3", "a4"] {
            cells.push(cell("greedy", "random", sq, 85.0, 0.0, 15.0));
        }
        for sq in ["b1", "c2", "d3", "b4"] {
            cells.push(cell("random", "greedy", sq, 15.0, 0.0, 85.0));
        }
        let f = findings(&effects(&cells, None));
        assert_eq!(f.tried, 8);
        assert!(f.standing.is_empty(), "{f:?}");
        assert!(f.confounded.is_empty());
    }

    /// Each player always opens on its own square: nothing compares; the squares are said
    /// to be the players'.
    #[test]
    fn one_square_per_player_cannot_be_told_apart() {
        let cells = [
            cell("greedy", "random", "a1", 170.0, 0.0, 30.0),
            cell("random", "greedy", "b5", 30.0, 0.0, 170.0),
        ];
        let e = effects(&cells, None);
        assert!(e.iter().all(|e| e.difference.is_none() && e.compared == 0));
        let f = findings(&e);
        assert_eq!((f.tried, f.standing.len()), (0, 0));
        assert_eq!(f.confounded, ["a1", "b5"]);
    }

    /// A square that helps whoever flips it, in every stratum, is found, with the pooled
    /// difference; the closed form of one stratum: (m₁ − m₀) ± z s √(1/n₁ + 1/n₀).
    #[test]
    fn a_real_flip_effect_is_found_within_players() {
        let mut cells = Vec::new();
        for (p1, p2) in [("ann", "bo"), ("bo", "ann"), ("cy", "ann")] {
            cells.push(cell(p1, p2, "a1", 70.0, 0.0, 30.0));
            cells.push(cell(p1, p2, "b2", 50.0, 0.0, 50.0));
        }
        let f = findings(&effects(&cells, None));
        assert_eq!(f.tried, 2);
        assert_eq!(f.standing.len(), 2, "a1 above b2, b2 below a1: {f:?}");
        assert_eq!(f.standing[0].0, "a1");
        assert!((f.standing[0].1 - 0.2).abs() < 1e-9);
        let one = effects(&cells[..2], None);
        let all = Scores::of(120.0, 0.0, 80.0);
        let expected = (all.variance() * (1.0 / 100.0 + 1.0 / 100.0)).sqrt();
        assert!((one[0].error - expected).abs() < 1e-12, "{one:?}");
        assert_eq!(
            said(
                0.2,
                0.081,
                0.319,
                Phrases::of(records::core::language::Language::English)
            ),
            "+20.0 points, +8.1 to +31.9"
        );
    }

    /// A flip not every game has (xiangqi-3g's kinds): the stratum's totals come from
    /// elsewhere, and the games without it are the rest.
    #[test]
    fn totals_given_compare_with_the_rest_of_the_stratum() {
        let cells = [cell("ann", "bo", "transform", 30.0, 0.0, 10.0)];
        let mut totals = BTreeMap::new();
        totals.insert(
            vec!["ann".to_owned(), "bo".to_owned()],
            Scores::of(50.0, 0.0, 50.0),
        );
        let e = effects(&cells, Some(&totals));
        // With: 30 of 40; without: 20 of 60.
        assert!((e[0].difference.unwrap() - (0.75 - 20.0 / 60.0)).abs() < 1e-12);
        assert_eq!((e[0].games, e[0].compared), (40, 40));
    }
}
