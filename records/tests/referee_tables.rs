//! 戲谷 tables in the referee (issue 61), on real SQLite and real PostgreSQL: a table opened
//! with its first game; a drawn game settled and its question asked; both players carrying
//! the stake; the next game dealt with the first mover swapped; a resignation settled with the
//! carried stake; two referees on one store settling a game once; a referee started again
//! reading the same table; tokens that do not speak for a table refused.
#![cfg(feature = "referee")]

use records::core::Table;
use records::games::banqi::Banqi;
use records::games::luzhanqi::Luzhanqi;
use records::referee::table::{BankMode, TableOrder, TableTime};
use records::referee::{Referee, RefereeError, Request, Settings};

#[path = "common/ledger.rs"]
mod ledger;
use ledger::{referee, urls};

fn order() -> TableOrder<'static> {
    TableOrder {
        preset: Some("gametower"),
        options: Default::default(),
        players: ["ann".into(), "bo".into()],
        coins: Table {
            stake: 100,
            bonus_per_point: 5,
        },
        scene_fee: 0,
        time: TableTime {
            move_ms: 30_000,
            bank_ms: 60_000,
            bank: BankMode::Automatic,
        },
        seed: Some(3),
    }
}

/// Asks the game's life for `request` with a seat token.
fn ask(referee: &Referee, game_id: &str, seat_token: &str, request: Request) {
    referee
        .open::<Banqi, _>(game_id, seat_token, |game| game.request(request, None))
        .unwrap_or_else(|e| panic!("{request:?}: {e}"));
}

#[test]
fn a_table_settles_a_draw_carried_into_a_resignation_once_across_referees() {
    for url in urls("tables") {
        let one = referee(&url, Settings::default());
        let opened = one.open_table::<Banqi>(order()).unwrap();
        let [ann, bo] = opened.chair_tokens.clone();
        let table = opened.table_id.clone();
        assert_eq!(opened.state.games.len(), 1);
        assert_eq!(opened.state.games[0].chairs, [0, 1], "ann moves first");
        assert_eq!(
            opened.state.seat_token, None,
            "the table's own token has no seat"
        );
        // Each chair reads its seat token for the game in play.
        let a = one.table::<Banqi>(&table, &ann).unwrap();
        let b = one.table::<Banqi>(&table, &bo).unwrap();
        assert_eq!((a.chair, b.chair), (Some(0), Some(1)));
        let game1 = a.games[0].game_id.clone();
        // Game 1: a draw, agreed.
        ask(
            &one,
            &game1,
            a.seat_token.as_ref().unwrap(),
            Request::OfferDraw,
        );
        ask(
            &one,
            &game1,
            b.seat_token.as_ref().unwrap(),
            Request::AcceptDraw,
        );
        let drawn = one.table::<Banqi>(&table, &ann).unwrap();
        let settled = drawn.games[0].settlement.as_ref().expect("settled");
        assert_eq!((settled.winner, settled.settlement.amount), (None, 0));
        assert_eq!(drawn.coins.question, Some([None, None]));
        assert_eq!(drawn.games.len(), 1, "no game before both answer");
        assert_eq!(drawn.seat_token, None);
        // Both carry the stake; one answer each.
        let half = one.table_answer::<Banqi>(&table, &ann, true).unwrap();
        assert_eq!(half.coins.question, Some([Some(true), None]));
        assert!(matches!(
            one.table_answer::<Banqi>(&table, &ann, false),
            Err(RefereeError::Refused {
                code: "answered",
                ..
            })
        ));
        assert!(matches!(
            one.table_answer::<Banqi>(&table, &opened.token, true),
            Err(RefereeError::WrongSeat(_))
        ));
        let both = one.table_answer::<Banqi>(&table, &bo, true).unwrap();
        assert_eq!((both.coins.question, both.coins.draws_carried), (None, 1));
        assert_eq!(both.games.len(), 2);
        assert_eq!(both.games[1].chairs, [1, 0], "bo moves first in game 2");
        // Game 2: bo (player 1 now) resigns; ann takes the stake and the carried one.
        let game2 = both.games[1].game_id.clone();
        let bo_seat = both.seat_token.clone().unwrap();
        ask(&one, &game2, &bo_seat, Request::Resign);
        // Two referees on the store find the game ended: it is settled, and game 3 dealt, once.
        let two = referee(&url, Settings::default());
        let (x, y) = std::thread::scope(|s| {
            let x = s.spawn(|| two.table::<Banqi>(&table, &ann).unwrap());
            let y = s.spawn(|| one.table::<Banqi>(&table, &bo).unwrap());
            (x.join().unwrap(), y.join().unwrap())
        });
        assert_eq!(x.games, y.games);
        assert_eq!(x.games.len(), 3, "{url}: game 3 dealt once");
        let won = x.games[1].settlement.as_ref().unwrap();
        assert_eq!(won.winner, Some(0));
        assert_eq!(won.settlement.amount, 200, "{}", won.settlement.formula);
        assert_eq!(won.settlement.formula, "(100 + 0 × 5) × 1 + 100 = 200");
        assert_eq!((x.coins.balances, x.coins.draws_carried), ([200, -200], 0));
        assert_eq!(x.games[2].chairs, [0, 1]);
        // A referee started again reads the same table.
        drop((one, two));
        let again = referee(&url, Settings::default());
        let read = again.table::<Banqi>(&table, &ann).unwrap();
        assert_eq!((read.games, read.coins), (x.games.clone(), x.coins.clone()));
        assert!(read.seat_token.is_some(), "ann plays game 3");
        // Tokens that do not speak for this table, and a table that is not.
        assert!(matches!(
            again.table::<Banqi>(&table, &bo_seat),
            Err(RefereeError::Token(_))
        ));
        let other = again.open_table::<Banqi>(order()).unwrap();
        assert!(matches!(
            again.table::<Banqi>(&table, &other.chair_tokens[0]),
            Err(RefereeError::Token(_))
        ));
        assert!(matches!(
            again.table::<Banqi>("0123456789abcdef0123456789abcdef", &ann),
            Err(RefereeError::NoTable(_))
        ));
        // A table's token never opens a game.
        assert!(matches!(
            again.open::<Banqi, _>(&x.games[2].game_id, &ann, |g| Ok(g.plies())),
            Err(RefereeError::Token(_))
        ));
    }
}

#[test]
fn a_table_plays_a_game_played_for_coins_with_a_time_that_holds() {
    for url in urls("tables_refused") {
        let r = referee(&url, Settings::default());
        let luzhanqi = TableOrder {
            preset: None,
            ..order()
        };
        assert!(matches!(
            r.open_table::<Luzhanqi>(luzhanqi),
            Err(RefereeError::Deal { field: "game", .. })
        ));
        let mut quick = order();
        quick.time.move_ms = 10;
        assert!(matches!(
            r.open_table::<Banqi>(quick),
            Err(RefereeError::Deal { field: "time", .. })
        ));
        let mut unknown = order();
        unknown.preset = Some("no-such-preset");
        assert!(matches!(
            r.open_table::<Banqi>(unknown),
            Err(RefereeError::Ruleset(_))
        ));
        let store = records::store::Store::open(&url).unwrap();
        assert_eq!(store.ledger_len().unwrap(), 0, "nothing dealt");
    }
}
