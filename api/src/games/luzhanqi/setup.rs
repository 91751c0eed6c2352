//! Luzhanqi setups: one side's setup checked alone, as a player submits it before a dark game
//! (the two are then sealed by `POST /v1/deal` with `layout`).

use actix_web::{HttpRequest, web};
use records::games::luzhanqi::{SetupError, Side, SideSetup};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::body;
use crate::problem::{Problem, ProblemKind};

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SetupRequest {
    /// `red` (ranks 1–6, moves first) or `black` (ranks 7–12).
    #[schema(example = "red", pattern = "^(red|black)$")]
    pub side: String,
    /// The side's six ranks as on the board, the rank farthest from red first (red: 6 down to
    /// 1; black: 12 down to 7), `/`-separated, a digit for empty points (the camps): see
    /// docs/notation.md.
    #[schema(example = "RTETR/C1E1J/DP1PT/E1G1J/LCMBP/LFLDB")]
    pub setup: String,
}

#[derive(Serialize, ToSchema)]
pub struct SetupResponse {
    pub valid: bool,
    pub side: &'static str,
    /// The setup as the service writes it (the side's letter case), when valid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub setup: Option<String>,
    /// The first rule it breaks: a code, the point and a sentence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<SetupError>,
}

/// Checks one side's Luzhanqi setup (RULES.md §8): 25 pieces on the side's stations and
/// headquarters, none in a camp, the flag in a headquarters, mines on the last two ranks, no
/// bomb on the front rank. An illegal setup is answered 200 with `valid: false` and the
/// first violation (`wrong_count`, `piece_in_camp`, `flag_not_in_headquarters`,
/// `mine_off_back_ranks`, `bomb_on_front_rank`, `malformed_setup`).
#[utoipa::path(post, path = "/v1/luzhanqi/setup", tag = "positions",
    request_body(content = SetupRequest, example = json!({"side": "red", "setup": "RTETR/C1E1J/DP1PT/E1G1J/LCMBP/LFLDB"})),
    responses(
        (status = 200, description = "The verdict on the setup.", body = SetupResponse,
            example = json!({"valid": true, "side": "red", "setup": "RTETR/C1E1J/DP1PT/E1G1J/LCMBP/LFLDB"})),
        (status = 400, description = "Malformed JSON, or a side that is neither red nor black.", body = Problem,
            content_type = "application/problem+json")))]
pub async fn check(
    req: HttpRequest,
    body: web::Bytes,
    settings: web::Data<crate::Settings>,
) -> Result<web::Json<SetupResponse>, Problem> {
    let request: SetupRequest = body::json(&req, &body, &settings.limits)?;
    let side = match request.side.as_str() {
        "red" => Side::Red,
        "black" => Side::Black,
        other => {
            return Err(Problem::new(
                ProblemKind::BadParameter,
                format!("side {other:?}: a Luzhanqi side is red or black"),
            )
            .field("side"));
        }
    };
    Ok(web::Json(match SideSetup::parse(side, &request.setup) {
        Ok(setup) => SetupResponse {
            valid: true,
            side: side.name(),
            setup: Some(setup.to_string()),
            error: None,
        },
        Err(error) => SetupResponse {
            valid: false,
            side: side.name(),
            setup: None,
            error: Some(error),
        },
    }))
}
