//! A refereed game's life on real SQLite and real PostgreSQL (issue 43): resignations, draws
//! offered, declined and agreed, aborts, clocks whose flag falls, claims against a silent
//! seat, three seats leaving; every ending committed in the ledger and stored in the record.
#![cfg(feature = "referee")]

use records::core::rules::parts::*;
use records::core::{Record, Seat};
use records::games::banqi::Banqi;
use records::games::three_kingdoms::ThreeKingdoms;
use records::referee::{
    DealOrder, Dealt, LifeState, Referee, RefereeError, Request, Settings, TimeControl,
};
use records::store::Store;

#[path = "common/ledger.rs"]
mod ledger;
use ledger::{referee, urls};

fn deal_with<G: Rules>(referee: &Referee, clock: Option<TimeControl>, claim: Option<i64>) -> Dealt {
    referee
        .deal::<G>(DealOrder {
            seed: Some(5),
            players: vec!["east".into(), "west".into()],
            clock,
            claim_after_ms: claim,
            ..DealOrder::default()
        })
        .unwrap()
}

/// Plays `n` plies, each seat with its own token, each the first listed action but one.
fn play<G: Rules>(referee: &Referee, dealt: &Dealt, n: u32) {
    for _ in 0..n {
        let token = referee
            .open::<G, _>(&dealt.game_id, &dealt.token, |game| {
                Ok(game.actions(game.plies())?.to_move)
            })
            .unwrap();
        let token = &dealt.seat_tokens[token.code()];
        referee
            .open::<G, _>(&dealt.game_id, token, |game| {
                let at = game.plies();
                let listed = game.actions(at)?;
                let choice = &listed.actions[(at as usize * 3) % listed.actions.len()];
                game.play(choice, at)
            })
            .unwrap();
    }
}

fn ask<G: Rules>(
    referee: &Referee,
    dealt: &Dealt,
    seat: &str,
    request: Request,
) -> Result<LifeState, RefereeError> {
    let token = &dealt.seat_tokens[seat];
    referee.open::<G, _>(&dealt.game_id, token, |game| game.request(request, None))
}

fn refused(answer: Result<LifeState, RefereeError>) -> &'static str {
    match answer {
        Err(RefereeError::Refused { code, .. }) => code,
        other => panic!("not refused: {other:?}"),
    }
}

/// The stored record of a finished game.
fn stored(url: &str, dealt: &Dealt) -> Record {
    let store = Store::open(url).unwrap();
    let (row, actions) = store.ledger_game(&dealt.game_id).unwrap().unwrap();
    assert!(actions.is_empty(), "compacted");
    store
        .get(row.stored_game.expect("stored"))
        .unwrap()
        .unwrap()
        .1
}

#[test]
fn a_resignation_ends_the_game_and_is_stored() {
    for url in urls("life_resign") {
        let referee = referee(&url, Settings::default());
        let dealt = deal_with::<Banqi>(&referee, None, None);
        play::<Banqi>(&referee, &dealt, 3);
        let life = ask::<Banqi>(&referee, &dealt, "player1", Request::Resign).unwrap();
        assert_eq!(life.status, "ended");
        // Asked again: the same answer, nothing more committed.
        let again = ask::<Banqi>(&referee, &dealt, "player1", Request::Resign).unwrap();
        assert_eq!(again, life);
        assert_eq!(life.events, 1);
        // Nothing more is played, nor asked.
        let token = &dealt.seat_tokens["player2"];
        let err = referee
            .open::<Banqi, _>(&dealt.game_id, token, |game| {
                assert!(game.actions(3)?.actions.is_empty());
                game.play("a1", 3)
            })
            .unwrap_err();
        assert!(err.to_string().contains("resignation"), "{err}");
        assert_eq!(
            refused(ask::<Banqi>(
                &referee,
                &dealt,
                "player2",
                Request::OfferDraw
            )),
            "game-over"
        );
        let record = stored(&url, &dealt);
        let result = serde_json::to_value(record.result).unwrap();
        assert_eq!(
            result,
            serde_json::json!({"outcome": "player2", "reason": "resignation"}),
            "{url}"
        );
        assert_eq!(record.actions.len(), 3);
        assert_eq!(record.metadata["events"][0]["event"], "resign");
        assert_eq!(record.metadata["events"][0]["seat"], "player1");
        assert_eq!(record.metadata["events"][0]["ply"], 3);
        // The game answers from its stored record as it did before.
        let life = referee
            .open::<Banqi, _>(&dealt.game_id, &dealt.token, |game| Ok(game.life()))
            .unwrap();
        assert_eq!((life.status, life.events), ("ended", 1), "{url}");
    }
}

#[test]
fn a_draw_is_offered_declined_and_agreed() {
    for url in urls("life_draw") {
        let referee = referee(&url, Settings::default());
        let dealt = deal_with::<Banqi>(&referee, None, None);
        play::<Banqi>(&referee, &dealt, 2);
        let ask = |seat, request| ask::<Banqi>(&referee, &dealt, seat, request);
        assert_eq!(
            refused(ask("player2", Request::AcceptDraw)),
            "no-draw-offer"
        );
        let life = ask("player1", Request::OfferDraw).unwrap();
        assert_eq!(life.draw_offers, [Seat::FIRST]);
        // The same offer again commits nothing.
        assert_eq!(ask("player1", Request::OfferDraw).unwrap(), life);
        let life = ask("player2", Request::DeclineDraw).unwrap();
        assert!(life.draw_offers.is_empty());
        assert_eq!(life.events, 2);
        // One offer a seat a ply.
        assert_eq!(
            refused(ask("player1", Request::OfferDraw)),
            "offered-already"
        );
        play::<Banqi>(&referee, &dealt, 1);
        // Player 2 offers; player 1 moves instead: the offer lapses with the ply.
        assert_eq!(
            ask("player2", Request::OfferDraw).unwrap().draw_offers,
            [Seat::SECOND]
        );
        play::<Banqi>(&referee, &dealt, 1);
        assert!(ask("player1", Request::OfferDraw).unwrap().draw_offers == [Seat::FIRST]);
        let life = ask("player2", Request::AcceptDraw).unwrap();
        assert_eq!(life.status, "ended");
        let record = stored(&url, &dealt);
        assert_eq!(
            serde_json::to_value(record.result).unwrap(),
            serde_json::json!({"outcome": "draw", "reason": "agreement"}),
            "{url}"
        );
        let kinds: Vec<&str> = (record.metadata["events"].as_array().unwrap().iter())
            .map(|e| e["event"].as_str().unwrap())
            .collect();
        assert_eq!(
            kinds,
            [
                "draw_offer",
                "draw_decline",
                "draw_offer",
                "draw_offer",
                "draw_agreed"
            ]
        );
    }
}

#[test]
fn a_game_is_aborted_only_before_every_seat_has_moved() {
    for url in urls("life_abort") {
        let referee = referee(&url, Settings::default());
        let late = deal_with::<Banqi>(&referee, None, None);
        play::<Banqi>(&referee, &late, 2);
        assert_eq!(
            refused(ask::<Banqi>(&referee, &late, "player1", Request::Abort)),
            "not-abortable"
        );
        let early = deal_with::<Banqi>(&referee, None, None);
        play::<Banqi>(&referee, &early, 1);
        let life = referee
            .open::<Banqi, _>(&early.game_id, &early.token, |game| {
                assert!(game.life().abortable);
                // The game's own token aborts without naming a seat.
                game.request(Request::Abort, None)
            })
            .unwrap();
        assert_eq!((life.status, life.abortable), ("aborted", false));
        let record = stored(&url, &early);
        assert_eq!(
            serde_json::to_value(record.result).unwrap(),
            serde_json::json!({"outcome": "ongoing", "reason": "aborted"}),
            "{url}: an aborted game has no result"
        );
        assert_eq!(record.metadata["events"][0]["event"], "abort");
        assert!(record.metadata["events"][0].get("seat").is_none());
    }
}

#[test]
fn a_flag_falls_when_a_clock_runs_out() {
    for url in urls("life_clock") {
        let referee = referee(&url, Settings::default());
        let clock = TimeControl {
            base_ms: 1_000,
            increment_ms: 0,
        };
        let dealt = deal_with::<Banqi>(&referee, Some(clock), None);
        play::<Banqi>(&referee, &dealt, 2);
        let life = referee
            .open::<Banqi, _>(&dealt.game_id, &dealt.token, |game| Ok(game.life()))
            .unwrap();
        let clocks = life.clock.unwrap();
        // The first moves cost nothing; player 1's clock runs.
        assert_eq!(clocks.running, Some(Seat::FIRST));
        assert!(
            clocks.left_ms[0] <= 1_000 && clocks.left_ms[0] > 500,
            "{clocks:?}"
        );
        assert_eq!(clocks.left_ms[1], 1_000);
        std::thread::sleep(std::time::Duration::from_millis(1_100));
        // Any request about the game lets the flag fall first: a move comes too late.
        let token = &dealt.seat_tokens["player1"];
        let err = referee
            .open::<Banqi, _>(&dealt.game_id, token, |game| {
                assert_eq!(game.life().status, "ended");
                assert_eq!(
                    game.actions(2)?.end.map(|e| e.reason.code()),
                    Some("timeout")
                );
                game.play("a1", 2)
            })
            .unwrap_err();
        assert!(matches!(err, RefereeError::Illegal { .. }), "{err}");
        let record = stored(&url, &dealt);
        assert_eq!(
            serde_json::to_value(record.result).unwrap(),
            serde_json::json!({"outcome": "player2", "reason": "timeout"}),
            "{url}"
        );
        assert_eq!(record.metadata["events"][0]["event"], "flag");
        assert_eq!(record.metadata["clock"]["base_ms"], 1_000);
        assert_eq!(
            record.metadata["clock_left_ms"],
            serde_json::json!([0, 1_000])
        );
        assert_eq!(
            record.metadata["clock_after_ms"],
            serde_json::json!([null, null])
        );
    }
}

#[test]
fn a_silent_seat_is_claimed_against() {
    for url in urls("life_claim") {
        let referee = referee(&url, Settings::default());
        let none = deal_with::<Banqi>(&referee, None, None);
        play::<Banqi>(&referee, &none, 2);
        assert_eq!(
            refused(ask::<Banqi>(&referee, &none, "player2", Request::Claim)),
            "no-claims"
        );
        let dealt = deal_with::<Banqi>(&referee, None, Some(1_000));
        play::<Banqi>(&referee, &dealt, 2);
        let ask = |seat, request| ask::<Banqi>(&referee, &dealt, seat, request);
        assert_eq!(refused(ask("player2", Request::Claim)), "not-claimable");
        std::thread::sleep(std::time::Duration::from_millis(1_050));
        // Player 1 is to move: it cannot claim against itself.
        assert_eq!(refused(ask("player1", Request::Claim)), "not-claimable");
        assert_eq!(ask("player2", Request::Claim).unwrap().status, "ended");
        let record = stored(&url, &dealt);
        assert_eq!(
            serde_json::to_value(record.result).unwrap(),
            serde_json::json!({"outcome": "player2", "reason": "timeout"}),
            "{url}"
        );
        assert_eq!(record.metadata["events"][0]["event"], "claim");
    }
}

#[test]
fn a_seat_that_leaves_a_three_seat_game_places_below_the_others() {
    for url in urls("life_three") {
        let referee = referee(&url, Settings::default());
        let dealt = referee
            .deal::<ThreeKingdoms>(DealOrder {
                seed: Some(3),
                ..DealOrder::default()
            })
            .unwrap();
        play::<ThreeKingdoms>(&referee, &dealt, 6);
        let ask = |seat, request| ask::<ThreeKingdoms>(&referee, &dealt, seat, request);
        // A draw needs every seat still playing.
        ask("player1", Request::OfferDraw).unwrap();
        let life = ask("player2", Request::AcceptDraw).unwrap();
        assert_eq!((life.status, life.draw_offers.len()), ("playing", 2));
        ask("player3", Request::DeclineDraw).unwrap();
        let life = ask("player2", Request::Resign).unwrap();
        assert_eq!(life.status, "ended");
        let record = stored(&url, &dealt);
        let result = record.result.unwrap();
        let outcome = result.outcome.outcome().unwrap();
        assert_eq!(result.reason.map(|r| r.code()), Some("resignation"));
        assert_eq!(outcome.place(Seat::SECOND), 3, "{url}: {outcome}");
        assert!(outcome.place(Seat::FIRST) < 3 && outcome.place(Seat::THIRD) < 3);
    }
}

#[test]
fn an_event_committed_on_one_instance_is_seen_on_another() {
    for url in urls("life_two_instances") {
        let (a, b) = (
            referee(&url, Settings::default()),
            referee(&url, Settings::default()),
        );
        let dealt = deal_with::<Banqi>(&a, None, None);
        play::<Banqi>(&a, &dealt, 2);
        // b keeps the game in memory, then a commits an offer.
        assert!(
            ask::<Banqi>(&b, &dealt, "player2", Request::DeclineDraw).is_err(),
            "nothing to decline yet"
        );
        ask::<Banqi>(&a, &dealt, "player1", Request::OfferDraw).unwrap();
        let life = ask::<Banqi>(&b, &dealt, "player2", Request::AcceptDraw).unwrap();
        assert_eq!(life.status, "ended", "{url}");
    }
}

#[test]
fn a_reader_never_sees_the_game_go_back_while_events_commit() {
    // A request that read the ledger's row before another request committed an event used
    // to load the game again as that older row said: a ply behind, and a stream's mark ahead
    // of the game.
    for url in urls("life_monotone") {
        let referee = referee(&url, Settings::default());
        let dealt = deal_with::<Banqi>(&referee, None, None);
        std::thread::scope(|s| {
            let (referee, dealt) = (&referee, &dealt);
            let writer = s.spawn(move || {
                for _ in 0..40 {
                    play::<Banqi>(referee, dealt, 1);
                    let seat = referee
                        .open::<Banqi, _>(&dealt.game_id, &dealt.token, |g| {
                            Ok(g.actions(g.plies())?.to_move)
                        })
                        .unwrap();
                    let _ = ask::<Banqi>(referee, dealt, seat.code(), Request::OfferDraw);
                }
            });
            let mut last = (0, 0);
            while !writer.is_finished() {
                let token = &dealt.seat_tokens["player2"];
                let mark = referee
                    .open::<Banqi, _>(&dealt.game_id, token, |g| {
                        let m = g.mark();
                        Ok((m.plies, m.events))
                    })
                    .unwrap();
                assert!(mark >= last, "{url}: {mark:?} after {last:?}");
                last = mark;
            }
        });
    }
}

#[test]
fn a_game_that_ends_while_others_read_it_is_stored_once_and_whole() {
    // A request that read the ledger's row just before another stored the game used to store
    // it again from the compacted ledger: a second record with no actions, in its place.
    for url in urls("life_stored_once") {
        for round in 0..5 {
            let referee = referee(&url, Settings::default());
            let dealt = deal_with::<Banqi>(&referee, None, None);
            let done = std::sync::atomic::AtomicBool::new(false);
            std::thread::scope(|s| {
                let (referee, dealt, done) = (&referee, &dealt, &done);
                s.spawn(move || {
                    play::<Banqi>(referee, dealt, 6);
                    ask::<Banqi>(referee, dealt, "player1", Request::Resign).unwrap();
                    done.store(true, std::sync::atomic::Ordering::Relaxed);
                });
                for _ in 0..3 {
                    s.spawn(move || {
                        while !done.load(std::sync::atomic::Ordering::Relaxed) {
                            let token = &dealt.seat_tokens["player2"];
                            let _ =
                                referee.open::<Banqi, _>(&dealt.game_id, token, |g| Ok(g.mark()));
                        }
                    });
                }
            });
            let store = Store::open(&url).unwrap();
            let record = stored(&url, &dealt);
            assert_eq!(record.actions.len(), 6, "{url}, round {round}");
            let (row, _) = store.ledger_game(&dealt.game_id).unwrap().unwrap();
            assert_eq!(
                store
                    .get(row.stored_game.unwrap())
                    .unwrap()
                    .unwrap()
                    .1
                    .actions
                    .len(),
                6
            );
        }
    }
}

#[test]
fn a_stream_ticket_opens_for_a_minute_and_for_its_game_only() {
    static NOW: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(1_795_000_000_000);
    let now = || NOW.load(std::sync::atomic::Ordering::Relaxed);
    for url in urls("life_tickets") {
        let referee = referee(
            &url,
            Settings {
                now_ms: now,
                ..Settings::default()
            },
        );
        let dealt = deal_with::<Banqi>(&referee, None, None);
        let other = deal_with::<Banqi>(&referee, None, None);
        let token = &dealt.seat_tokens["player1"];
        let (ticket, expires) = referee.ticket::<Banqi>(&dealt.game_id, token).unwrap();
        assert_eq!(expires, now() + records::referee::TICKET_MS);
        assert!(
            !ticket.contains(token.as_str()),
            "the token is sealed, not carried"
        );
        assert_eq!(
            referee
                .open_ticket::<Banqi>(&dealt.game_id, &ticket)
                .unwrap(),
            (token.clone(), expires)
        );
        // Not another game's; not a token in a ticket's place.
        assert!(
            referee
                .open_ticket::<Banqi>(&other.game_id, &ticket)
                .is_err()
        );
        assert!(referee.open_ticket::<Banqi>(&dealt.game_id, token).is_err());
        // A token that does not open for the game gets no ticket.
        assert!(
            referee
                .ticket::<Banqi>(&dealt.game_id, &other.seat_tokens["player1"])
                .is_err()
        );
        NOW.fetch_add(
            records::referee::TICKET_MS - 1,
            std::sync::atomic::Ordering::Relaxed,
        );
        assert!(
            referee
                .open_ticket::<Banqi>(&dealt.game_id, &ticket)
                .is_ok()
        );
        NOW.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let expired = referee
            .open_ticket::<Banqi>(&dealt.game_id, &ticket)
            .unwrap_err();
        assert!(expired.to_string().contains("expired"), "{expired}");
        NOW.fetch_sub(
            records::referee::TICKET_MS,
            std::sync::atomic::Ordering::Relaxed,
        );
    }
}
