//! What the service knows: health, games, presets, options, and the problem types.

use actix_web::{HttpResponse, web};
use records::banqi::{PRESETS, Preset};
use serde::Serialize;
use serde_json::json;
use utoipa::ToSchema;

use crate::problem::{KINDS, Problem};

#[derive(Serialize, ToSchema)]
#[schema(example = json!({"status": "ok", "version": "0.1.0"}))]
pub struct Health {
    pub status: &'static str,
    pub version: &'static str,
}

/// Liveness and version.
#[utoipa::path(get, path = "/v1/health", tag = "meta",
    responses((status = 200, description = "The service is up.", body = Health,
        example = json!({"status": "ok", "version": "0.1.0"}))))]
pub async fn health() -> web::Json<Health> {
    web::Json(Health {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
    })
}

#[derive(Serialize, ToSchema)]
pub struct GameInfo {
    /// The `game` value of a record.
    pub game: &'static str,
    pub title: &'static str,
    /// `supported`, or `planned` for games the toolkit does not play yet.
    pub status: &'static str,
    /// The presets of a supported game.
    pub presets: Vec<&'static str>,
}

/// The games of the toolkit and whether the service plays them yet.
#[utoipa::path(get, path = "/v1/game-types", tag = "meta",
    responses((status = 200, description = "Every game, with its presets.", body = Vec<GameInfo>,
        example = games_example)))]
pub async fn games() -> web::Json<Vec<GameInfo>> {
    web::Json(game_list())
}

fn games_example() -> serde_json::Value {
    serde_json::to_value(game_list()).expect("serialisable")
}

fn game_list() -> Vec<GameInfo> {
    let planned = |game, title| GameInfo {
        game,
        title,
        status: "planned",
        presets: vec![],
    };
    vec![
        GameInfo {
            game: "banqi",
            title: "Banqi (暗棋, Chinese Dark Chess)",
            status: "supported",
            presets: PRESETS.iter().map(|p| p.name).collect(),
        },
        planned("three-kingdoms-banqi", "Three Kingdoms Banqi (三國暗棋)"),
        planned(
            "luzhanqi",
            "Luzhanqi (陸軍棋): open, dark with referee, flip",
        ),
        planned("xiangqi-3g", "Third-generation xiangqi (番兵象棋)"),
    ]
}

#[derive(Serialize, ToSchema)]
pub struct Presets {
    pub game: &'static str,
    pub presets: Vec<Preset>,
}

fn presets_example() -> serde_json::Value {
    json!({"game": "banqi", "presets": PRESETS})
}

/// Every Banqi preset with its full ruleset (RULES §3).
#[utoipa::path(get, path = "/v1/presets", tag = "meta",
    responses((status = 200, description = "The presets.", body = Presets,
        example = presets_example)))]
pub async fn presets() -> web::Json<Presets> {
    web::Json(Presets {
        game: "banqi",
        presets: PRESETS.to_vec(),
    })
}

fn preset_example() -> serde_json::Value {
    json!(PRESETS.iter().find(|p| p.name == "gametower"))
}

/// One preset by name.
#[utoipa::path(get, path = "/v1/presets/{name}", tag = "meta",
    params(("name" = String, Path, description = "A preset name", example = "gametower")),
    responses(
        (status = 200, description = "The preset.", body = Preset,
            example = preset_example),
        (status = 404, description = "No such preset.", body = Problem, content_type = "application/problem+json",
            example = json!({"type": "/problems/not-found", "title": "Not found", "status": 404,
                "detail": "unknown preset \"blitz\"; GET /v1/presets lists them", "code": "not_found", "field": "name"}))))]
pub async fn preset(name: web::Path<String>) -> Result<web::Json<Preset>, Problem> {
    PRESETS
        .iter()
        .find(|p| p.name == name.as_str())
        .map(|p| web::Json(*p))
        .ok_or_else(|| {
            Problem::new(
                "not-found",
                format!(
                    "unknown preset {:?}; GET /v1/presets lists them",
                    name.as_str()
                ),
            )
            .field("name")
        })
}

#[derive(Serialize, ToSchema)]
pub struct OptionInfo {
    /// The field name in a ruleset and in a record's `options`.
    pub name: &'static str,
    /// `boolean`, `cannon` (`taiwan` | `mainland`), `limit` (a number, or null for off) or
    /// `repetition` (`{"kind": "off"}`, `{"kind": "cycle", "times": n}`,
    /// `{"kind": "position", "occurrences": n}`).
    pub kind: &'static str,
    pub meaning: &'static str,
    /// Where the rule comes from.
    pub source: &'static str,
}

const OPTIONS: &[OptionInfo] = &[
    OptionInfo {
        name: "cannon",
        kind: "cannon",
        meaning: "taiwan: the cannon captures only by jumping exactly one screen onto the first piece beyond, any rank; mainland: it captures like every other piece, adjacent and by rank (rank 6).",
        source: "seed 000",
    },
    OptionInfo {
        name: "chariot_rush",
        kind: "boolean",
        meaning: "車衝: a chariot moves any distance along an empty line; a capture after two or more squares ignores rank.",
        source: "seed 000",
    },
    OptionInfo {
        name: "chariot_charge",
        kind: "boolean",
        meaning: "車直衝: moves stay one square, but a chariot captures two or more squares away along an empty line, ignoring rank. With chariot_rush also on, rush wins.",
        source: "seed 002",
    },
    OptionInfo {
        name: "horse_diagonal",
        kind: "boolean",
        meaning: "馬斜: a horse also moves one square diagonally; a diagonal capture ignores rank.",
        source: "seed 000",
    },
    OptionInfo {
        name: "chain_capture",
        kind: "boolean",
        meaning: "連殺 / 明棋連吃: after a capture the same piece may capture again, any number of times, and stop after any capture.",
        source: "seeds 000, 002",
    },
    OptionInfo {
        name: "dark_capture",
        kind: "boolean",
        meaning: "暗殺: a revealed piece may attack a covered piece it could reach with a capture; an enemy it beats is captured, one it cannot beat survives and the attacker dies, an own piece is simply revealed.",
        source: "seed 000",
    },
    OptionInfo {
        name: "dark_chain_capture",
        kind: "boolean",
        meaning: "暗棋連吃: chain capture in which any link, the first included, may be a dark capture.",
        source: "seed 002",
    },
    OptionInfo {
        name: "no_progress",
        kind: "limit",
        meaning: "空步判和: the game is drawn after this many consecutive plies without a flip or capture (null: off).",
        source: "TCGA 60, Olympiad 180, seed 002 50",
    },
    OptionInfo {
        name: "repetition",
        kind: "repetition",
        meaning: "cycle: drawn when the last 3·p plies are one sequence of p actions played three times; position: drawn when the same position occurs the n-th time.",
        source: "TCGA course (cycle), Olympiad (position)",
    },
    OptionInfo {
        name: "long_chase",
        kind: "limit",
        meaning: "長捉禁手: a player may not chase the same enemy piece this many times in a row (null: off).",
        source: "seed 002",
    },
];

fn options_example() -> serde_json::Value {
    json!(OPTIONS)
}

/// Every ruleset option: what it means and where it comes from.
#[utoipa::path(get, path = "/v1/options", tag = "meta",
    responses((status = 200, description = "The options of a Banqi ruleset.", body = Vec<OptionInfo>,
        example = options_example)))]
pub async fn options() -> web::Json<&'static [OptionInfo]> {
    web::Json(OPTIONS)
}

/// The problem types as a JSON list (RFC 9457 `type` values resolve here).
pub async fn problems() -> HttpResponse {
    let list: Vec<_> = KINDS
        .iter()
        .map(|(name, title, status, about)| {
            json!({"type": format!("/problems/{name}"), "title": title, "status": status, "description": about})
        })
        .collect();
    HttpResponse::Ok().json(list)
}

/// One problem type's description.
pub async fn problem(name: web::Path<String>) -> Result<HttpResponse, Problem> {
    let (name, title, status, about) = KINDS
        .iter()
        .find(|k| k.0 == name.as_str())
        .ok_or_else(|| Problem::new("not-found", format!("no problem type {:?}", name.as_str())))?;
    Ok(HttpResponse::Ok().json(
        json!({"type": format!("/problems/{name}"), "title": title, "status": status, "description": about}),
    ))
}
