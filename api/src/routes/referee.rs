//! The referee's answers to a token holder (`records::referee`): each route opens the ledger's
//! game once, checks what the request states against it, and asks it. The ledger is in the
//! record store, so these run off the HTTP workers (`web::block`).

use std::sync::Arc;

use actix_web::web;
use records::core::{Record, Rules, Verdict};
use records::referee::{DealOrder, Referee, Refereed, Stated};

use crate::Settings;
use crate::problem::{Problem, ProblemKind};
use crate::routes::positions::{
    ActionsRequest, ActionsResponse, DealRequest, DealResponse, PlayRequest, PlayResponse,
    ViewRequest,
};

/// The service's referee (503 without a record store, where it keeps its games).
pub(crate) fn the_referee(settings: &Settings) -> Result<Arc<Referee>, Problem> {
    settings.referee.clone().ok_or_else(|| {
        Problem::new(
            ProblemKind::StoreUnavailable,
            "the referee keeps its games in the record store, and this service runs without one",
        )
    })
}

/// Runs `work` with the service's referee, off the HTTP workers.
pub(crate) async fn run<T: Send + 'static>(
    settings: &Settings,
    work: impl FnOnce(&Referee) -> Result<T, Problem> + Send + 'static,
) -> Result<T, Problem> {
    let referee = the_referee(settings)?;
    web::block(move || work(&referee))
        .await
        .map_err(|e| Problem::new(ProblemKind::Internal, e.to_string()))?
}

/// Runs `work` on the ledger's game for a request's token and game id, with the committed ply
/// the request is about (what else it states checked against the ledger).
pub(crate) fn open<G: Rules, T>(
    referee: &Referee,
    game_id: Option<&str>,
    token: &str,
    stated: &Stated,
    work: impl FnOnce(&mut Refereed<'_, G>, u32) -> Result<T, records::referee::RefereeError>,
) -> Result<T, Problem> {
    let game_id = game_id.ok_or_else(|| {
        Problem::new(
            ProblemKind::InvalidToken,
            "a token opens only with the game_id its deal gave",
        )
        .field("game_id")
    })?;
    Ok(referee.open::<G, T>(game_id, token, |game| {
        let at = game.address(stated)?;
        work(game, at)
    })?)
}

/// What a request with a game's fields states besides its action.
fn stated<'a>(
    preset: &'a Option<String>,
    options: &'a serde_json::Map<String, serde_json::Value>,
    position: &'a Option<String>,
    record: &'a Option<Record>,
    ply: Option<u32>,
) -> Stated<'a> {
    Stated {
        preset: preset.as_deref(),
        options: Some(options),
        position: position.as_deref(),
        record: record.as_ref(),
        ply,
    }
}

fn no_layout(layout: Option<&serde_json::Value>) -> Result<(), Problem> {
    match layout {
        Some(_) => Err(Problem::new(
            ProblemKind::BadParameter,
            "give either a token or a layout, not both",
        )
        .field("layout")),
        None => Ok(()),
    }
}

pub(crate) fn deal<G: Rules>(
    referee: &Referee,
    request: &DealRequest,
) -> Result<DealResponse, Problem> {
    let dealt = referee.deal::<G>(DealOrder {
        preset: request.preset.as_deref(),
        options: request.options.clone(),
        players: request.players.clone(),
        seed: request.seed,
        layout: request.layout.as_ref(),
        include_layout: request.include_layout,
        clock: request.clock,
        claim_after_ms: match request.claim_after_ms {
            None => records::referee::default_claim_after_ms(request.clock),
            Some(0) => None,
            Some(ms) => Some(ms),
        },
        engines: request.engines.clone(),
    })?;
    Ok(DealResponse {
        seed: dealt.seed,
        game_id: dealt.game_id,
        token: dealt.token,
        seat_tokens: dealt.seat_tokens,
        layout: dealt.layout,
        position: dealt.position,
        record: dealt.record,
    })
}

pub(crate) fn actions<G: Rules>(
    referee: &Referee,
    request: &ActionsRequest,
    token: &str,
) -> Result<ActionsResponse, Problem> {
    let r = request;
    let stated = stated(&r.preset, &r.options, &r.position, &r.record, r.ply);
    let (told, at, seat, side, players) =
        open::<G, _>(referee, r.game_id.as_deref(), token, &stated, |game, at| {
            let side = game.seat().and_then(|s| game.side(s));
            Ok((
                game.actions(at)?,
                at,
                game.seat(),
                side,
                game.players().to_vec(),
            ))
        })?;
    let stored_game = match (&r.game_id, told.life.status) {
        (Some(id), "ended") => referee.stored_game(id).map_err(Problem::from)?,
        _ => None,
    };
    Ok(ActionsResponse {
        stored_game,
        seat,
        side: side.map(str::to_owned),
        players: Some(players),
        position: told.position,
        to_move: told.to_move,
        count: told.actions.len(),
        actions: told.actions,
        end: told.end,
        ply: Some(at),
        life: Some(told.life),
    })
}

pub(crate) fn play<G: Rules>(
    referee: &Referee,
    request: &PlayRequest,
    token: &str,
) -> Result<PlayResponse, Problem> {
    no_layout(request.layout.as_ref())?;
    let r = request;
    let stated = stated(&r.preset, &r.options, &r.position, &r.record, r.ply);
    let played = open::<G, _>(referee, r.game_id.as_deref(), token, &stated, |game, at| {
        game.play(&request.action, at)
    })?;
    Ok(PlayResponse {
        action: played.action,
        effect: played.effect,
        position: played.position,
        end: played.end,
        ply: Some(played.ply),
        life: Some(played.life),
    })
}

pub(crate) fn view<G: Rules>(
    referee: &Referee,
    request: &ViewRequest,
    token: &str,
) -> Result<serde_json::Value, Problem> {
    no_layout(request.layout.as_ref())?;
    let r = request;
    let stated = stated(&r.preset, &r.options, &r.position, &r.record, r.ply);
    let (view, life) = open::<G, _>(referee, r.game_id.as_deref(), token, &stated, |game, at| {
        Ok((game.view(request.player, at)?, game.life()))
    })?;
    let mut view = serde_json::to_value(view).expect("a view serialises");
    if let Some(fields) = view.as_object_mut() {
        fields.insert(
            "life".into(),
            serde_json::to_value(life).expect("a life serialises"),
        );
    }
    Ok(view)
}

pub(crate) fn analysis<G: Rules>(
    referee: &Referee,
    request: &crate::routes::analysis::AnalyzeRequest,
    token: &str,
    limits: &records::core::analysis::Limits,
) -> Result<records::core::analysis::Analysis, Problem> {
    let r = request;
    let stated = stated(&r.preset, &r.options, &r.position, &r.record, r.ply);
    // The match is copied out and searched after the game is unlocked: an analysis never
    // holds up a play. The engine is given the match and the seat, nothing else.
    let (m, seat) = open::<G, _>(referee, r.game_id.as_deref(), token, &stated, |game, at| {
        Ok((game.match_at(at)?, game.seat()))
    })?;
    Ok(G::analyze(&m, seat, limits).map_err(records::referee::RefereeError::from)?)
}

/// The verdict on the ledger's game as far as `record` goes (its stated result checked).
pub(crate) fn validate<G: Rules>(
    referee: &Referee,
    record: &Record,
    token: &str,
) -> Result<Verdict, Problem> {
    let game_id = record.metadata.get("game_id").and_then(|v| v.as_str());
    let stated = Stated {
        record: Some(record),
        ..Stated::default()
    };
    open::<G, _>(referee, game_id, token, &stated, |game, at| {
        game.verdict(record.result, at)
    })
}
