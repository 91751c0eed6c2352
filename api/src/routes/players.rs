//! Players and their ratings over HTTP: a leaderboard per game and preset, and a player's
//! page. Both read the store's counts and the fits kept beside them
//! ([`records::store::RatingsCache`]): current with every stored game, refereed ones included.

use actix_web::web;
use records::games::GameKind;
use records::store::{Leaderboard, PlayerPage};
use records::with_game;
use serde::Deserialize;
use serde_json::json;
use utoipa::IntoParams;

use super::games::{blocking, store};
use crate::Settings;
use crate::problem::{Problem, ProblemKind};

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct LeaderboardQuery {
    /// The kind of game (default `banqi`).
    #[param(value_type = Option<GameKind>, example = records::games::GameKind::default_name)]
    #[serde(default)]
    pub game: Option<String>,
    /// A preset of the game (default its first).
    #[param(example = "tcga")]
    #[serde(default)]
    pub preset: Option<String>,
    /// Ranks to skip: the previous page's `next`.
    #[param(minimum = 0, example = 0)]
    #[serde(default)]
    pub offset: usize,
    /// Players per page, 1 to 200.
    #[param(minimum = 1, maximum = 200, example = 50)]
    #[serde(default = "default_limit")]
    pub limit: usize,
}

fn default_limit() -> usize {
    50
}

/// The preset `preset` names of `kind` (its first when absent).
fn preset_of(kind: GameKind, preset: Option<&str>) -> Result<&'static str, Problem> {
    with_game!(kind, G => records::core::rules::find_preset(G::PRESETS, preset).map(|p| p.name))
        .map_err(super::parse::ruleset_problem)
}

fn leaderboard_example() -> serde_json::Value {
    let kind = GameKind::DEFAULT;
    json!({
        "game": kind.name(), "preset": preset_of(kind, None).ok(), "games": 0, "self_play": 0, "rated": 0,
        "groups": [], "provisional_games": records::rating::PROVISIONAL_GAMES, "seat_terms": [], "seats_confounded": false, "left_out": {"games": 0, "players": 0}, "ranking": []
    })
}

/// The leaderboard of a game and preset: its players rated from the stored games between
/// named players, a page at a time, with the seats' own advantage fitted beside them
/// (Bradley–Terry with a first-move term for two seats, Plackett–Luce with seat terms for
/// three). Ratings are on Elo's scale: a difference d predicts an expected score of
/// 1 / (1 + 10^(−d/400)), a draw counting half. Players who never met, directly or through
/// others, are in separate `groups`, each rated about its own mean and ranked on its own;
/// a player with fewer than `provisional_games` games is provisional (no rank, listed after
/// its group's ranked players). A game in which a name plays itself counts for the seats'
/// terms only. The 500 most active players are rated (`left_out` says what that leaves).
#[utoipa::path(get, path = "/v1/players", tag = "players",
    params(LeaderboardQuery),
    responses(
        (status = 200, description = "A page of the leaderboard.", body = Leaderboard, example = leaderboard_example),
        (status = 400, description = "A bad page.", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "No such game or preset.", body = Problem, content_type = "application/problem+json")))]
pub async fn leaderboard(
    query: web::Query<LeaderboardQuery>,
    settings: web::Data<Settings>,
) -> Result<web::Json<Leaderboard>, Problem> {
    let store = store(&settings)?;
    let query = query.into_inner();
    let kind = match query.game.as_deref() {
        Some(name) => super::parse::game_kind(name)?,
        None => GameKind::DEFAULT,
    };
    let preset = preset_of(kind, query.preset.as_deref())?;
    if !(1..=200).contains(&query.limit) {
        return Err(Problem::new(ProblemKind::BadParameter, "limit is 1 to 200").field("limit"));
    }
    let ratings = settings.ratings.clone();
    let board = blocking(move || {
        ratings.leaderboard(&store, kind.name(), preset, query.offset, query.limit)
    })
    .await?;
    Ok(web::Json(board))
}

#[derive(Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct PlayerQuery {
    /// How many of the latest games to list, 0 to 100.
    #[param(minimum = 0, maximum = 100, example = 10)]
    #[serde(default = "default_recent")]
    pub recent: i64,
}

fn default_recent() -> i64 {
    10
}

fn player_example() -> serde_json::Value {
    json!({
        "name": "chan", "games": 1, "presets": [],
        "recent": crate::examples::game_list()["games"].clone()
    })
}

/// A player's page: how many stored games name the player, the results and the rating with
/// its 95% interval and rank under each game and preset played (finished games against other
/// named players), and the latest games.
#[utoipa::path(get, path = "/v1/players/{name}", tag = "players",
    params(("name" = String, Path, description = "The player's name as the records give it", example = "chan"), PlayerQuery),
    responses(
        (status = 200, description = "The player.", body = PlayerPage, example = player_example),
        (status = 400, description = "A bad parameter.", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No stored game names the player.", body = Problem, content_type = "application/problem+json")))]
pub async fn player(
    name: web::Path<String>,
    query: web::Query<PlayerQuery>,
    settings: web::Data<Settings>,
) -> Result<web::Json<PlayerPage>, Problem> {
    let store = store(&settings)?;
    let recent = query.recent;
    if !(0..=100).contains(&recent) {
        return Err(Problem::new(ProblemKind::BadParameter, "recent is 0 to 100").field("recent"));
    }
    let name = name.into_inner();
    let ratings = settings.ratings.clone();
    let asked = name.clone();
    let page = blocking(move || ratings.player(&store, &asked, recent)).await?;
    page.map(web::Json).ok_or_else(|| {
        Problem::new(
            ProblemKind::NotFound,
            format!("no stored game names the player {name:?}"),
        )
        .field("name")
    })
}
