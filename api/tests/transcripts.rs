//! The referee's transcript property: everything the service tells one seat (every answer of
//! every endpoint it may call, problems included, attacks included) is byte-identical under two
//! hidden truths that agree on what that seat has legitimately seen.
//!
//! A game is dealt with a truth T1 and played: the watched seat holds only its seat token,
//! plays from the actions it is listed, and at each of its turns also tries what a cheating
//! client would (identities guessed, illegal and malformed actions, a ply played twice, plays
//! out of turn, another seat's view, made-up records, another preset); the other seats play
//! too. Then T2 = `disguise(T1)` for the watched seat (another truth it cannot tell from T1
//! once the game is played), the same requests are sent to a game dealt with T2, and the
//! watched seat's transcripts must be equal.

use actix_web::test as actix_test;
use proptest::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;
use records::core::replay::final_match;
use records::core::rules::ruleset;
use records::core::{Record, Rules, Seat};
use records::games::banqi::Banqi;
use records::games::luzhanqi::Luzhanqi;
use records::games::three_kingdoms::ThreeKingdoms;
use records::games::xiangqi::Xiangqi3g;
use serde_json::{Value, json};

mod common;

/// Texts a cheating client tries as actions: some illegal, some malformed in some games.
const WILD: &[&str] = &[
    "a1-a2", "a2-a1", "b2-b3", "a6-a7", "c5-c6", "a0a1", "e0e1", "e3e4", "a1", "d8", "zz",
];

async fn post<B: actix_web::body::MessageBody>(
    app: &impl actix_web::dev::Service<
        actix_http::Request,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    uri: &str,
    body: &Value,
    token_header: Option<&str>,
) -> (u16, String) {
    let mut req = actix_test::TestRequest::post()
        .uri(uri)
        .insert_header(("content-type", "application/json"))
        .set_payload(body.to_string());
    if let Some(token) = token_header {
        req = req.insert_header(("anqi-token", token.to_owned()));
    }
    let res = actix_test::call_service(app, req.to_request()).await;
    let status = res.status().as_u16();
    let text = String::from_utf8(actix_test::read_body(res).await.to_vec()).unwrap();
    (status, text)
}

/// One world's game: what the watched seat was told, and what was played.
struct Played {
    /// Every answer to the watched seat, with the game's id written as `GAME`.
    transcript: Vec<String>,
    /// The other seats' actions as they sent them, in order.
    others: Vec<String>,
    /// Every action as played (identities written out): the referee's record.
    full: Vec<String>,
}

/// Plays a game of `G` dealt with `truth`, watching `watched`; the other seats play
/// `others` when given (the second world), else choose at random (the first).
async fn world<G: Rules>(
    preset: &str,
    truth: &G::Hidden,
    watched: Seat,
    others: Option<&[String]>,
    seed: u64,
    max_plies: usize,
) -> Played {
    // The referee's clock stands still: its times (a claim's, the clocks') are then the same
    // in both worlds, whatever the machine's speed.
    let mut settings = common::with_store(api::Limits::default());
    settings.referee_settings.now_ms = || 1_795_000_000_000;
    let app = actix_test::init_service(api::app(settings)).await;
    let players = &["A", "B", "C"][..seats::<G>(preset)];
    let (status, text) = post(
        &app,
        "/v1/deal",
        &json!({"game": G::NAME, "preset": preset, "layout": G::hidden_value(truth), "players": players}),
        None,
    )
    .await;
    assert_eq!(status, 200, "{text}");
    let deal: Value = serde_json::from_str(&text).unwrap();
    let game_id = deal["game_id"].as_str().unwrap().to_owned();
    let token = |seat: Seat| {
        deal["seat_tokens"][seat.code()]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let mine = token(watched);
    let ask = |extra: Value| {
        let mut body = json!({"game": G::NAME, "game_id": game_id, "token": mine});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let other_preset = G::PRESETS
        .iter()
        .map(|p| p.name)
        .find(|p| *p != preset)
        .unwrap_or("none");
    let mut transcript = Vec::new();
    // The game's id, and the id its stored game gets once it ends (the two worlds' games are
    // stored one after the other), are the world's own, not what it hides.
    let mut told = |status: u16, text: String| {
        transcript.push(format!(
            "{status} {}",
            without_stored_id(&text.replace(&game_id, "GAME"))
        ));
    };
    // The watched seat's choices, and the other seats' (the second world plays theirs from
    // the first's script): two generators, so that both worlds draw the same for the seat.
    let mut next = lcg(seed);
    let mut next_other = lcg(seed ^ 0x5eed);
    let mut sent: Vec<String> = Vec::new();
    let mut full: Vec<String> = Vec::new();
    let mut played_by_others: Vec<String> = Vec::new();
    while sent.len() < max_plies {
        let ply = sent.len();
        let (status, text) = post(&app, "/v1/actions", &ask(json!({})), None).await;
        told(status, text.clone());
        let listed: Value = serde_json::from_str(&text).unwrap();
        if listed.get("end").is_some() {
            break;
        }
        let (status, text) = post(&app, "/v1/view", &ask(json!({"player": watched})), None).await;
        told(status, text);
        let other_seat = Seat::all(seats::<G>(preset) as u8)
            .find(|s| *s != watched)
            .unwrap();
        let (status, text) =
            post(&app, "/v1/view", &ask(json!({"player": other_seat})), None).await;
        told(status, text);
        // The engine's analysis, for the seat (its time aside: the only field a clock sets).
        let (status, text) = post(
            &app,
            "/v1/analyze",
            &ask(json!({"limits": {"nodes": 3000}, "top": 4})),
            None,
        )
        .await;
        told(status, without_millis(&text));
        // A made-up record: the game so far and one ply more; another preset; a start.
        let mut record = json!({"game": G::NAME, "preset": preset, "actions": sent});
        record["actions"]
            .as_array_mut()
            .unwrap()
            .push(json!(WILD[next(WILD.len())]));
        let (status, text) = post(&app, "/v1/validate", &record, Some(&mine)).await;
        told(status, text);
        let (status, text) = post(
            &app,
            "/v1/actions",
            &ask(json!({"preset": other_preset})),
            None,
        )
        .await;
        told(status, text);
        let (status, text) = post(
            &app,
            "/v1/analyze",
            &ask(json!({"preset": other_preset, "limits": {"nodes": 10}})),
            None,
        )
        .await;
        told(status, without_millis(&text));
        if let Some(last) = full.last() {
            // The last ply with its identity guessed: the committed one is public.
            let mut guessed = sent.clone();
            *guessed.last_mut().unwrap() = format!("{}(K)", without_identity(last));
            let record = json!({"game": G::NAME, "preset": preset, "actions": guessed, "metadata": {"game_id": game_id}});
            let (status, text) = post(&app, "/v1/validate", &record, Some(&mine)).await;
            told(status, text);
        }
        let to_move: Seat = serde_json::from_value(listed["to_move"].clone()).unwrap();
        let actions: Vec<String> = serde_json::from_value(listed["actions"].clone()).unwrap();
        let (mover_token, choice) = if to_move == watched {
            assert!(!actions.is_empty(), "{listed}");
            // Identities guessed on listed actions, wild texts, a ply not yet played.
            for a in actions.iter().take(3) {
                for guess in ["(K)", "(p)", "(R)"] {
                    let (status, text) = post(
                        &app,
                        "/v1/play",
                        &ask(json!({"action": format!("{a}{guess}"), "ply": ply})),
                        None,
                    )
                    .await;
                    told(status, text);
                }
            }
            // (A wild text that is a legal action would be played: only the others are tried.)
            for wild in WILD
                .iter()
                .take(4 + next(WILD.len() - 4))
                .filter(|w| !actions.iter().any(|a| a == *w))
            {
                let (status, text) =
                    post(&app, "/v1/play", &ask(json!({"action": wild})), None).await;
                told(status, text);
            }
            let choice = actions[next(actions.len())].clone();
            (mine.clone(), choice)
        } else {
            // Out of turn: a play, and a play at the ply after.
            let (status, text) = post(
                &app,
                "/v1/play",
                &ask(json!({"action": WILD[next(WILD.len())]})),
                None,
            )
            .await;
            told(status, text);
            let (status, text) = post(
                &app,
                "/v1/play",
                &ask(json!({"action": WILD[0], "ply": ply + 1})),
                None,
            )
            .await;
            told(status, text);
            let theirs = token(to_move);
            let choice = match others {
                Some(script) => script[played_by_others.len()].clone(),
                None => {
                    let (_, text) = post(
                        &app,
                        "/v1/actions",
                        &json!({"game": G::NAME, "game_id": game_id, "token": theirs}),
                        None,
                    )
                    .await;
                    let theirs_listed: Vec<String> = serde_json::from_value(
                        serde_json::from_str::<Value>(&text).unwrap()["actions"].clone(),
                    )
                    .unwrap();
                    theirs_listed[next_other(theirs_listed.len())].clone()
                }
            };
            played_by_others.push(choice.clone());
            (theirs, choice)
        };
        let play = json!({"game": G::NAME, "game_id": game_id, "token": mover_token, "action": choice, "ply": ply});
        let (status, text) = post(&app, "/v1/play", &play, None).await;
        assert_eq!(status, 200, "{choice}: {text}");
        full.push(
            serde_json::from_str::<Value>(&text).unwrap()["action"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
        if to_move == watched {
            told(status, text);
            // The same play again: the same answer; another action at that ply: taken.
            let (status, text) = post(
                &app,
                "/v1/play",
                &ask(json!({"action": choice, "ply": ply})),
                None,
            )
            .await;
            told(status, text);
            if let Some(other) = actions.iter().find(|a| **a != choice) {
                let (status, text) = post(
                    &app,
                    "/v1/play",
                    &ask(json!({"action": other, "ply": ply})),
                    None,
                )
                .await;
                told(status, text);
            }
        }
        sent.push(choice);
    }
    // The watched seat checks the game as far as it went, then at an earlier ply.
    let record = json!({"game": G::NAME, "preset": preset, "actions": sent, "metadata": {"game_id": game_id}});
    let (status, text) = post(&app, "/v1/validate", &record, Some(&mine)).await;
    told(status, text);
    let (status, text) = post(
        &app,
        "/v1/view",
        &ask(json!({"player": watched, "ply": sent.len() / 2})),
        None,
    )
    .await;
    told(status, text);
    // The seat offers a draw and resigns (a game still going on), then reads its whole
    // event stream from the start: the stream closes after the end.
    for action in ["offer_draw", "resign"] {
        let (status, text) =
            post(&app, "/v1/lifecycle", &ask(json!({"action": action})), None).await;
        told(status, text);
    }
    let (status, text) = post(&app, "/v1/stream-ticket", &ask(json!({})), None).await;
    assert_eq!(status, 200, "{text}");
    let url = serde_json::from_str::<Value>(&text).unwrap()["url"]
        .as_str()
        .unwrap()
        .to_owned();
    let req = actix_test::TestRequest::get()
        .uri(&format!("{url}&last_event_id=0.0"))
        .to_request();
    let res = actix_test::call_service(&app, req).await;
    let status = res.status().as_u16();
    let body = String::from_utf8(actix_test::read_body(res).await.to_vec()).unwrap();
    assert_eq!(status, 200, "{body}");
    assert!(body.starts_with("id: 1.0\nevent: ply\ndata: {"), "{body}");
    assert!(
        (body.trim_end().lines().last())
            .is_some_and(|l| l.contains(r#""event":"resign""#) || l.contains(r#""end":"#)),
        "the stream ends with the resignation, or the rules' end: {body}"
    );
    told(status, body);
    Played {
        transcript,
        others: played_by_others,
        full,
    }
}

/// An answer with its top-level `millis` (the time a search took) taken out.
fn without_millis(text: &str) -> String {
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(mut fields)) => {
            fields.remove("millis");
            Value::Object(fields).to_string()
        }
        _ => text.to_owned(),
    }
}

/// A small seeded generator: a number below `n` per call.
/// `text` with a `"stored_game":N` written `"stored_game":STORED`.
fn without_stored_id(text: &str) -> String {
    let key = r#""stored_game":"#;
    let Some(at) = text.find(key) else {
        return text.to_owned();
    };
    let rest = &text[at + key.len()..];
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    format!("{}{key}STORED{}", &text[..at], &rest[digits..])
}

fn lcg(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed;
    move |n| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as usize % n.max(1)
    }
}

fn seats<G: Rules>(preset: &str) -> usize {
    G::seats(&ruleset::<G>(Some(preset), &Default::default()).unwrap()) as usize
}

/// An action's text without what its parentheses enclose.
fn without_identity(text: &str) -> String {
    match text.find('(') {
        Some(i) => text[..i].to_owned(),
        None => text.to_owned(),
    }
}

/// The property for one game: two worlds, one watched seat, equal transcripts.
async fn transcripts_agree<G: Rules>(preset: &str, seed: u64, watched: Seat, max_plies: usize) {
    let rules = ruleset::<G>(Some(preset), &Default::default()).unwrap();
    let mut rng = StdRng::seed_from_u64(seed);
    let t1 = G::deal(&rules, &mut rng);
    let first = world::<G>(preset, &t1, watched, None, seed, max_plies).await;
    // The truth the watched seat cannot tell from T1, once the game is played.
    let mut record = Record::new(G::NAME, preset, first.full.clone());
    record.layout = Some(G::hidden_value(&t1));
    let m = final_match::<G>(&record).unwrap();
    let t2 = G::disguise(&t1, &m, watched, &mut rng);
    let second = world::<G>(preset, &t2, watched, Some(&first.others), seed, max_plies).await;
    assert_eq!(first.transcript.len(), second.transcript.len());
    for (i, (a, b)) in first.transcript.iter().zip(&second.transcript).enumerate() {
        assert_eq!(
            a,
            b,
            "{} {preset}, seed {seed}, {}: answer {i} differs",
            G::NAME,
            watched.code()
        );
    }
    // And the property is not vacuous: the two truths differ where the seat cannot see.
    if t1 != t2 {
        assert_ne!(G::hidden_value(&t1), G::hidden_value(&t2));
    }
}

#[actix_web::test]
async fn banqi_transcripts_do_not_depend_on_the_unseen() {
    transcripts_agree::<Banqi>("tcga", 1, Seat::FIRST, 60).await;
    transcripts_agree::<Banqi>("taiwan-full", 2, Seat::new(1).unwrap(), 60).await;
}

#[actix_web::test]
async fn three_kingdoms_transcripts_do_not_depend_on_the_unseen() {
    transcripts_agree::<ThreeKingdoms>("three-kingdoms", 3, Seat::new(2).unwrap(), 60).await;
}

#[actix_web::test]
async fn luzhanqi_transcripts_do_not_depend_on_the_unseen() {
    transcripts_agree::<Luzhanqi>("dark", 4, Seat::FIRST, 60).await;
    transcripts_agree::<Luzhanqi>("dark", 5, Seat::new(1).unwrap(), 60).await;
    transcripts_agree::<Luzhanqi>("flip", 6, Seat::FIRST, 60).await;
}

#[actix_web::test]
async fn xiangqi_transcripts_do_not_depend_on_the_unseen() {
    transcripts_agree::<Xiangqi3g>("xiangqi-3g", 7, Seat::FIRST, 60).await;
    transcripts_agree::<Xiangqi3g>("xiangqi-3g", 8, Seat::new(1).unwrap(), 60).await;
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 4, .. ProptestConfig::default() })]

    /// The same over random deals, seats and lengths, for every hidden game.
    #[test]
    fn no_transcript_depends_on_the_unseen(seed in any::<u64>(), second in any::<bool>(), plies in 1usize..80) {
        let seat = if second { Seat::new(1).unwrap() } else { Seat::FIRST };
        let run = |f: std::pin::Pin<Box<dyn std::future::Future<Output = ()>>>| actix_web::rt::System::new().block_on(f);
        run(Box::pin(transcripts_agree::<Banqi>("tcga", seed, seat, plies)));
        run(Box::pin(transcripts_agree::<ThreeKingdoms>("three-kingdoms", seed, seat, plies)));
        run(Box::pin(transcripts_agree::<Luzhanqi>("dark", seed, seat, plies)));
        run(Box::pin(transcripts_agree::<Luzhanqi>("flip", seed, seat, plies)));
        run(Box::pin(transcripts_agree::<Xiangqi3g>("xiangqi-3g", seed, seat, plies)));
    }
}
