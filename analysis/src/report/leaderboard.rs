//! The players' part of the page, from the ratings fitted to each game and preset
//! ([`super::players`]): the sentences (what moving first is worth, who is strongest, which
//! groups never met, who is provisional) and the leaderboards a person reads: per group of
//! players who met, the ranked players with rank, rating and its interval, games and score;
//! the provisional ones apart, without a rank.

use std::fmt::Write;

use records::rating::{Estimate, Rated, Ratings};

use super::draw::thousands;
use super::headlines::{elo_with_interval, percent_with_interval, share};
use super::players::Fit;

/// How the ratings read, in one sentence: Elo's scale, as people read it.
pub const SCALE: &str = "Ratings are on Elo's scale: a difference of d points predicts an \
     expected score (a win 1, a draw ½) of 1 / (1 + 10^(−d/400)), so +100 is 64%; each group \
     of players who met is rated about its own mean.";

fn elo(e: &Estimate) -> String {
    format!("{} Elo", elo_with_interval(e.value, e.low, e.high))
}

/// What moving first is worth, which groups never met, who is strongest in each, and who is
/// provisional: the seat term said as a finding only when its interval excludes no
/// advantage, "clearly above" only when two intervals do not overlap.
pub fn sentences(fit: &Ratings) -> Vec<String> {
    let mut out = Vec::new();
    if fit.seats_confounded {
        out.push(format!(
            "Who played and where they sat cannot be told apart in these {} games: every \
             player kept to its seat against the others (no pair met the other way round, \
             nobody played itself), so the ratings below hold the {} own advantage too.",
            thousands(fit.games),
            if fit.seats == 2 {
                "first move's"
            } else {
                "seats'"
            }
        ));
    }
    if let Some(equal) = fit.first_seat {
        out.push(seat_sentence(fit, equal));
    }
    if fit.groups.len() > 1 {
        let listed: Vec<String> = fit
            .groups
            .iter()
            .enumerate()
            .take(5)
            .map(|(i, g)| {
                format!(
                    "group {} ({} players, {} games)",
                    i + 1,
                    thousands(g.players as u64),
                    thousands(g.games)
                )
            })
            .collect();
        let more = fit.groups.len().saturating_sub(listed.len());
        out.push(format!(
            "The players fall into {} groups that never met, directly or through others: {}{}. \
             Each group is rated and ranked on its own; a rating says nothing against another \
             group's.",
            fit.groups.len(),
            listed.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ));
    }
    for (g, _) in fit.groups.iter().enumerate().take(3) {
        let ranked: Vec<&Rated> = fit
            .players
            .iter()
            .filter(|p| p.group == g && !p.provisional)
            .collect();
        let group = (fit.groups.len() > 1).then_some(g + 1);
        if let Some(s) = strongest(&ranked, group) {
            out.push(s);
        }
    }
    let provisional = fit.players.iter().filter(|p| p.provisional).count();
    if provisional > 0 {
        out.push(format!(
            "{} {} fewer than {} games: rated, but provisional, listed apart and not ranked.",
            thousands(provisional as u64),
            if provisional == 1 {
                "player has"
            } else {
                "players have"
            },
            fit.provisional_games
        ));
    }
    if !fit.players.is_empty() {
        out.push(SCALE.to_owned());
    }
    if fit.self_play > 0 {
        out.push(format!(
            "{} of the games were a player against itself: they count for the seats, not for \
             the ratings.",
            thousands(fit.self_play)
        ));
    }
    out
}

fn seat_sentence(fit: &Ratings, equal: Estimate) -> String {
    let equal = percent_with_interval(equal.value, equal.low, equal.high);
    let settled = fit.seat_terms.iter().any(|t| t.excludes(0.0));
    let games = thousands(fit.games);
    match (fit.seats, settled) {
        (2, true) => format!(
            "Moving first is worth {} (fitted beside the players' ratings from {games} \
             games): between players of equal strength the first mover scores {equal}.",
            elo(&fit.seat_terms[0])
        ),
        (2, false) => format!(
            "Moving first shows no advantage the {games} games can tell: {}; between players \
             of equal strength the first mover scores {equal}.",
            elo(&fit.seat_terms[0])
        ),
        // Three seats: each later seat against the first, named.
        (_, settled) => {
            let terms: Vec<String> = fit
                .seat_terms
                .iter()
                .enumerate()
                .map(|(i, t)| format!("seat {} against seat 1 {}", i + 2, elo(t)))
                .collect();
            format!(
                "{} ({} games, fitted beside the players' ratings): {}; between players of \
                 equal strength seat 1 places first {equal}.",
                if settled {
                    "The seats differ"
                } else {
                    "The seats show no difference the games can tell"
                },
                games,
                terms.join(", ")
            )
        }
    }
}

/// Who rates highest among `ranked` (best first), and whether clearly; `group` named when
/// there are several.
fn strongest(ranked: &[&Rated], group: Option<usize>) -> Option<String> {
    match ranked {
        [] => None,
        [only] => Some(format!(
            "{} is the only ranked player{}.",
            only.name,
            group.map_or(String::new(), |g| format!(" of group {g}"))
        )),
        [best, second, rest @ ..] => {
            let above = if best.rating.low > second.rating.high {
                format!("clearly above {} at {}", second.name, elo(&second.rating))
            } else {
                format!(
                    "not clearly above {} at {}: their intervals overlap",
                    second.name,
                    elo(&second.rating)
                )
            };
            let lowest = match rest.last() {
                Some(last) => format!("; {} rates lowest at {}", last.name, elo(&last.rating)),
                None => String::new(),
            };
            let within = group.map_or("Of".to_owned(), |g| format!("In group {g}, of"));
            Some(format!(
                "{within} {} ranked players {} rates highest at {}, {above}{lowest}.",
                ranked.len(),
                best.name,
                elo(&best.rating),
            ))
        }
    }
}

/// The leaderboards of `game`'s presets: per group, ranked players then provisional ones.
pub fn html(h: &mut String, fits: &[Fit], game: &str, escape: fn(&str) -> String) {
    for (_, preset, fit) in fits.iter().filter(|(g, _, _)| g == game) {
        if fit.players.is_empty() {
            continue;
        }
        let _ = writeln!(
            h,
            "<h4 id=\"{game}-ratings-{}\">Ratings, {}</h4><p class=\"muted\">{}</p>",
            escape(preset),
            escape(preset),
            escape(SCALE)
        );
        for (g, group) in fit.groups.iter().enumerate() {
            let players: Vec<&Rated> = fit.players.iter().filter(|p| p.group == g).collect();
            if fit.groups.len() > 1 {
                let _ = writeln!(
                    h,
                    "<p><b>Group {}</b>: {} players, {} games among them; they never met the other groups.</p>",
                    g + 1,
                    thousands(group.players as u64),
                    thousands(group.games)
                );
            }
            let (ranked, provisional): (Vec<&Rated>, Vec<&Rated>) =
                players.into_iter().partition(|p| !p.provisional);
            board(h, &ranked, true, escape);
            if !provisional.is_empty() {
                let _ = writeln!(
                    h,
                    "<p>Provisional (fewer than {} games), not ranked:</p>",
                    fit.provisional_games
                );
                board(h, &provisional, false, escape);
            }
        }
    }
}

fn board(h: &mut String, players: &[&Rated], ranked: bool, escape: fn(&str) -> String) {
    if players.is_empty() {
        return;
    }
    let folded = players.len() > super::html::FOLD_ROWS;
    if folded {
        let _ = writeln!(
            h,
            "<details><summary>{} players</summary>",
            thousands(players.len() as u64)
        );
    }
    let _ = write!(h, "<table class=\"leaderboard\"><tr>");
    if ranked {
        let _ = write!(h, "<th>rank</th>");
    }
    let _ = writeln!(
        h,
        "<th class=\"name\">player</th><th>rating (95%)</th><th>games</th><th>score</th></tr>"
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
            elo_with_interval(p.rating.value, p.rating.low, p.rating.high),
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
        let said = sentences(&r).join("\n");
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
        html(
            &mut h,
            &[("banqi".into(), "tcga".into(), r)],
            "banqi",
            |s| s.to_owned(),
        );
        assert_eq!(h.matches("<table class=\"leaderboard\">").count(), 3, "{h}");
        assert!(h.contains("<b>Group 2</b>: 3 players, 42 games"), "{h}");
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
