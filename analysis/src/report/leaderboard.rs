//! The players' part of the page, from the ratings fitted to each game and preset
//! ([`super::players`]): the sentences (what moving first is worth, who is strongest, which
//! groups never met, who is provisional) and the leaderboards a person reads: per group of
//! players who met, the ranked players with rank, rating and its interval, games and score;
//! the provisional ones apart, without a rank.

use std::fmt::Write;

use records::rating::{Estimate, Rated, Ratings};

use super::draw::thousands;
use super::headlines::{elo_with_interval, percent_with_interval, share};
use super::html::{attribute, escape};
use super::players::Fit;
use records::core::language::Phrases;

fn elo(e: &Estimate, say: &Phrases) -> String {
    say.fill(
        "report.ratings.elo",
        &[("elo", &elo_with_interval(e.value, e.low, e.high, say))],
    )
}

/// What moving first is worth, which groups never met, who is strongest in each, and who is
/// provisional: the seat term said as a finding only when its interval excludes no
/// advantage, "clearly above" only when two intervals do not overlap.
pub fn sentences(fit: &Ratings, say: &Phrases) -> Vec<String> {
    let mut out = Vec::new();
    if fit.seats_confounded {
        out.push(say.fill(
            if fit.seats == 2 {
                "report.ratings.confounded_first"
            } else {
                "report.ratings.confounded_seats"
            },
            &[("games", &thousands(fit.games))],
        ));
    }
    if let Some(equal) = fit.first_seat {
        out.push(seat_sentence(fit, equal, say));
    }
    if fit.groups.len() > 1 {
        let listed: Vec<String> = fit
            .groups
            .iter()
            .enumerate()
            .take(5)
            .map(|(i, g)| {
                say.fill(
                    "report.ratings.group_listed",
                    &[
                        ("n", &(i + 1).to_string()),
                        ("players", &thousands(g.players as u64)),
                        ("games", &thousands(g.games)),
                    ],
                )
            })
            .collect();
        let more = fit.groups.len().saturating_sub(listed.len());
        let more = if more > 0 {
            say.fill("report.ratings.and_more", &[("n", &more.to_string())])
        } else {
            String::new()
        };
        out.push(say.fill(
            "report.ratings.groups",
            &[
                ("n", &fit.groups.len().to_string()),
                ("list", &say.list(&listed)),
                ("more", &more),
            ],
        ));
    }
    for (g, _) in fit.groups.iter().enumerate().take(3) {
        let ranked: Vec<&Rated> = fit
            .players
            .iter()
            .filter(|p| p.group == g && !p.provisional)
            .collect();
        let group = (fit.groups.len() > 1).then_some(g + 1);
        if let Some(s) = strongest(&ranked, group, say) {
            out.push(s);
        }
    }
    let provisional = fit.players.iter().filter(|p| p.provisional).count();
    if provisional > 0 {
        out.push(say.fill(
            if provisional == 1 {
                "report.ratings.provisional_one"
            } else {
                "report.ratings.provisional_many"
            },
            &[
                ("n", &thousands(provisional as u64)),
                ("games", &fit.provisional_games.to_string()),
            ],
        ));
    }
    if !fit.players.is_empty() {
        out.push(say.get("report.ratings.scale"));
    }
    if fit.self_play > 0 {
        out.push(say.fill(
            "report.ratings.self_play",
            &[("games", &thousands(fit.self_play))],
        ));
    }
    out
}

fn seat_sentence(fit: &Ratings, equal: Estimate, say: &Phrases) -> String {
    let equal = percent_with_interval(equal.value, equal.low, equal.high, say);
    let settled = fit.seat_terms.iter().any(|t| t.excludes(0.0));
    let games = thousands(fit.games);
    match (fit.seats, settled) {
        (2, settled) => say.fill(
            if settled {
                "report.ratings.first_worth"
            } else {
                "report.ratings.first_no_advantage"
            },
            &[
                ("elo", &elo(&fit.seat_terms[0], say)),
                ("games", &games),
                ("equal", &equal),
            ],
        ),
        // Three seats: each later seat against the first, named.
        (_, settled) => {
            let terms: Vec<String> = fit
                .seat_terms
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    say.fill(
                        "report.ratings.seat_against_first",
                        &[("seat", &(i + 2).to_string()), ("elo", &elo(t, say))],
                    )
                })
                .collect();
            say.fill(
                if settled {
                    "report.ratings.seats_differ"
                } else {
                    "report.ratings.seats_same"
                },
                &[
                    ("games", &games),
                    ("list", &say.list(&terms)),
                    ("equal", &equal),
                ],
            )
        }
    }
}

/// Who rates highest among `ranked` (best first), and whether clearly; `group` named when
/// there are several.
fn strongest(ranked: &[&Rated], group: Option<usize>, say: &Phrases) -> Option<String> {
    let g = group.map(|g| g.to_string()).unwrap_or_default();
    match ranked {
        [] => None,
        [only] => Some(say.fill(
            if group.is_some() {
                "report.ratings.only_in_group"
            } else {
                "report.ratings.only"
            },
            &[("name", &only.name), ("g", &g)],
        )),
        [best, second, rest @ ..] => {
            let above = say.fill(
                if best.rating.low > second.rating.high {
                    "report.ratings.clearly_above"
                } else {
                    "report.ratings.not_clearly_above"
                },
                &[("name", &second.name), ("elo", &elo(&second.rating, say))],
            );
            let lowest = match rest.last() {
                Some(last) => say.fill(
                    "report.ratings.lowest",
                    &[("name", &last.name), ("elo", &elo(&last.rating, say))],
                ),
                None => String::new(),
            };
            Some(say.fill(
                if group.is_some() {
                    "report.ratings.highest_in_group"
                } else {
                    "report.ratings.highest"
                },
                &[
                    ("g", &g),
                    ("n", &ranked.len().to_string()),
                    ("name", &best.name),
                    ("elo", &elo(&best.rating, say)),
                    ("above", &above),
                    ("lowest", &lowest),
                ],
            ))
        }
    }
}

/// The leaderboards of `game`'s presets: per group, ranked players then provisional ones.
pub fn html(h: &mut String, fits: &[Fit], game: &str, say: &Phrases) {
    for (_, preset, fit) in fits.iter().filter(|(g, _, _)| g == game) {
        if fit.players.is_empty() {
            continue;
        }
        let _ = writeln!(
            h,
            "<h4 id=\"{game}-ratings-{}\">{}</h4><p class=\"muted\">{}</p>",
            attribute(preset),
            escape(&say.fill(
                "report.ratings.heading",
                &[("preset", &super::said::preset(game, preset, say))]
            )),
            escape(&say.get("report.ratings.scale"))
        );
        for (g, group) in fit.groups.iter().enumerate() {
            let players: Vec<&Rated> = fit.players.iter().filter(|p| p.group == g).collect();
            if fit.groups.len() > 1 {
                let _ = writeln!(
                    h,
                    "<p>{}</p>",
                    escape(&say.fill(
                        "report.ratings.group",
                        &[
                            ("n", &(g + 1).to_string()),
                            ("players", &thousands(group.players as u64)),
                            ("games", &thousands(group.games)),
                        ]
                    ))
                );
            }
            let (ranked, provisional): (Vec<&Rated>, Vec<&Rated>) =
                players.into_iter().partition(|p| !p.provisional);
            board(h, &ranked, true, say);
            if !provisional.is_empty() {
                let _ = writeln!(
                    h,
                    "<p>{}</p>",
                    escape(&say.fill(
                        "report.ratings.provisional",
                        &[("games", &fit.provisional_games.to_string())]
                    ))
                );
                board(h, &provisional, false, say);
            }
        }
    }
}

fn board(h: &mut String, players: &[&Rated], ranked: bool, say: &Phrases) {
    if players.is_empty() {
        return;
    }
    let folded = players.len() > super::html::FOLD_ROWS;
    if folded {
        let _ = writeln!(
            h,
            "<details><summary>{}</summary>",
            escape(&say.fill(
                "report.ratings.players",
                &[("n", &thousands(players.len() as u64))]
            ))
        );
    }
    let th = |key: &str| escape(&say.get(key));
    let _ = write!(h, "<table class=\"leaderboard\"><tr>");
    if ranked {
        let _ = write!(h, "<th>{}</th>", th("report.column.rank"));
    }
    let _ = writeln!(
        h,
        "<th class=\"name\">{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
        th("report.column.player"),
        th("report.column.rating_95"),
        th("report.column.games"),
        th("report.column.score")
    );
    for p in players {
        let _ = write!(h, "<tr>");
        if let Some(rank) = p.rank.filter(|_| ranked) {
            let _ = write!(h, "<td>{rank}</td>");
        }
        let _ = writeln!(
            h,
            "<td class=\"name\"><a href=\"players/{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>",
            super::player_pages::file_of(&p.name),
            escape(&p.name),
            elo_with_interval(p.rating.value, p.rating.low, p.rating.high, say),
            thousands(p.games),
            share(p.score / p.games.max(1) as f64)
        );
    }
    let _ = writeln!(h, "</table>");
    if folded {
        let _ = writeln!(h, "</details>");
    }
}

#[cfg(test)]
mod tests {
    use records::rating::{Meeting, Model, fit};

    use super::*;

    fn meeting(players: [&str; 2], outcome: &str, games: u64) -> Meeting {
        Meeting {
            players: players.iter().map(|s| s.to_string()).collect(),
            outcome: outcome.parse().unwrap(),
            games,
        }
    }

    /// Two circles that never met and a newcomer with two games: the page says so, ranks each
    /// group on its own and lists the newcomer apart, without a rank.
    fn two_circles() -> Ratings {
        let mut m = Vec::new();
        for (a, b) in [("ann", "bo"), ("bo", "cy"), ("cy", "ann")] {
            m.push(meeting([a, b], "player1", 14));
            m.push(meeting([b, a], "player1", 12));
            m.push(meeting([a, b], "draw", 4));
        }
        m.push(meeting(["wu", "xi"], "player1", 20));
        m.push(meeting(["xi", "wu"], "player2", 15));
        m.push(meeting(["xi", "wu"], "player1", 5));
        m.push(meeting(["new", "xi"], "player1", 2));
        fit(&m, &Model::default()).unwrap()
    }

    #[test]
    fn groups_that_never_met_are_said_and_ranked_apart() {
        let r = two_circles();
        let en = Phrases::of(records::core::language::Language::English);
        let said = sentences(&r, en).join("\n");
        assert!(
            said.contains("The players fall into 2 groups that never met, directly or through others: group 1 (3 players, 90 games), group 2 (3 players, 42 games)"),
            "{said}"
        );
        assert!(
            said.contains("In group 2, of 2 ranked players wu rates highest"),
            "{said}"
        );
        assert!(
            said.contains("1 player has fewer than 20 games: rated, but provisional"),
            "{said}"
        );
        assert!(said.contains("1 / (1 + 10^(−d/400))"), "{said}");
        let mut h = String::new();
        html(&mut h, &[("banqi".into(), "tcga".into(), r)], "banqi", en);
        assert_eq!(h.matches("<table class=\"leaderboard\">").count(), 3, "{h}");
        assert!(h.contains("Group 2: 3 players, 42 games"), "{h}");
        let provisional = &h[h.find("Provisional").unwrap()..];
        assert!(provisional.starts_with("Provisional (fewer than 20 games), not ranked"));
        assert!(
            provisional
                .contains("<tr><td class=\"name\"><a href=\"players/new.html\">new</a></td><td>"),
            "no rank cell: {provisional}"
        );
        assert!(
            h.contains("<tr><td>1</td><td class=\"name\"><a href=\"players/wu.html\">wu</a></td>"),
            "{h}"
        );
    }
}
