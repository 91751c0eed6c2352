//! Shapes that depend on the game, for the OpenAPI document only: each is one of the games'
//! own types (the service answers with the game's type itself).

#![allow(dead_code)]

use records::games::{banqi, luzhanqi, three_kingdoms, xiangqi};
use utoipa::ToSchema;

/// Options overriding the preset's: the game's own (Banqi's, Three Kingdoms', Luzhanqi's or third-generation xiangqi's).
#[derive(ToSchema)]
#[serde(untagged)]
pub enum AnyOverrides {
    Banqi(banqi::Overrides),
    ThreeKingdoms(three_kingdoms::Overrides),
    Luzhanqi(luzhanqi::Overrides),
    Xiangqi3g(xiangqi::Overrides),
}

/// What one seat may see: Banqi's player view or Three Kingdoms' seat view.
#[derive(ToSchema)]
#[serde(untagged)]
pub enum AnyView {
    Banqi(banqi::view::PlayerView),
    ThreeKingdoms(three_kingdoms::view::SeatView),
    Luzhanqi(luzhanqi::view::SeatView),
    Xiangqi3g(xiangqi::view::SeatView),
}

/// A scored record: Banqi's points and coin settlement, or Three Kingdoms' seats and points.
#[derive(ToSchema)]
#[serde(untagged)]
pub enum AnyScore {
    Banqi(banqi::scoring::ScoreSheet),
    ThreeKingdoms(three_kingdoms::scoring::ScoreSheet),
    Luzhanqi(luzhanqi::scoring::ScoreSheet),
    Xiangqi3g(xiangqi::scoring::ScoreSheet),
}

/// What a bare position says about the score, per game.
#[derive(ToSchema)]
#[serde(untagged)]
pub enum AnyPositionScore {
    Banqi(banqi::scoring::PositionScore),
    ThreeKingdoms(three_kingdoms::scoring::PositionScore),
    Luzhanqi(luzhanqi::scoring::PositionScore),
    Xiangqi3g(xiangqi::scoring::PositionScore),
}

/// A complete ruleset: the game's own fields.
#[derive(ToSchema)]
#[serde(untagged)]
pub enum AnyRuleset {
    Banqi(banqi::Ruleset),
    ThreeKingdoms(three_kingdoms::Ruleset),
    Luzhanqi(luzhanqi::Ruleset),
    Xiangqi3g(xiangqi::Ruleset),
}
