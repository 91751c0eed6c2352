//! The JSON game record (docs/records.md describes it with an example).

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::banqi::{Layout, Outcome, Overrides, Reason};

/// One game as a record: the ruleset (a preset and overrides), the players, optionally the
/// dealt layout and a start position, the actions in notation, the stated result and free
/// metadata.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The game; only `banqi` is supported so far.
    #[serde(default = "default_game")]
    pub game: String,
    /// A preset name (`tcga`, `olympiad`, `taiwan`, …).
    #[serde(default = "default_preset")]
    pub preset: String,
    /// Options that override the preset's.
    #[serde(default, skip_serializing_if = "Overrides::is_empty")]
    pub options: Overrides,
    /// Player 1 (moves first) and player 2.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<String>,
    /// The piece under every square (a1 b1 … d8) when the dealer is known; lets flips omit
    /// the identity and lets the validator check every revealed piece.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<Layout>,
    /// A position string to start from; the standard start when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<String>,
    /// The actions in notation (`b6(K)`, `a2-a3`, `a2-a3(k)-a4`), one per ply.
    pub actions: Vec<String>,
    /// The result the record claims; absent when unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<StatedResult>,
    /// Anything else (date, event, source, time control …).
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub metadata: Map<String, Value>,
}

fn default_game() -> String {
    "banqi".to_owned()
}

fn default_preset() -> String {
    "tcga".to_owned()
}

impl Record {
    /// A record of `actions` under `preset` with nothing else known.
    pub fn new(preset: &str, actions: Vec<String>) -> Record {
        Record {
            game: default_game(),
            preset: preset.to_owned(),
            options: Overrides::default(),
            players: Vec::new(),
            layout: None,
            start: None,
            actions,
            result: None,
            metadata: Map::new(),
        }
    }

    /// Player `i`'s name (0 or 1), or "player 1" / "player 2".
    pub fn player_name(&self, i: usize) -> String {
        self.players
            .get(i)
            .cloned()
            .unwrap_or_else(|| format!("player {}", i + 1))
    }
}

/// What a record says about how its game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct StatedResult {
    pub outcome: StatedOutcome,
    /// Why; absent when the record does not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
    /// For a cycle repetition: the length of the repeated sequence (TCGA writes it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period: Option<u32>,
}

/// A stated outcome: a win, a draw, or a game still going on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum StatedOutcome {
    #[serde(rename = "player1")]
    Player1,
    #[serde(rename = "player2")]
    Player2,
    Draw,
    Ongoing,
}

impl StatedOutcome {
    /// `player1`, `player2`, `draw` or `ongoing`, as in JSON.
    pub fn code(self) -> &'static str {
        self.outcome().map_or("ongoing", Outcome::code)
    }

    pub fn outcome(self) -> Option<Outcome> {
        match self {
            StatedOutcome::Player1 => Some(Outcome::Player1),
            StatedOutcome::Player2 => Some(Outcome::Player2),
            StatedOutcome::Draw => Some(Outcome::Draw),
            StatedOutcome::Ongoing => None,
        }
    }

    pub fn from_outcome(outcome: Outcome) -> StatedOutcome {
        match outcome {
            Outcome::Player1 => StatedOutcome::Player1,
            Outcome::Player2 => StatedOutcome::Player2,
            Outcome::Draw => StatedOutcome::Draw,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minimal_record_fills_defaults() {
        let r: Record = serde_json::from_str(r#"{"actions": ["b8(p)", "b6(R)"]}"#).unwrap();
        assert_eq!(r.game, "banqi");
        assert_eq!(r.preset, "tcga");
        assert_eq!(r.actions.len(), 2);
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"game":"banqi","preset":"tcga","actions":["b8(p)","b6(R)"]}"#
        );
    }

    #[test]
    fn full_record_round_trips() {
        let text = r#"{
            "game": "banqi", "preset": "gametower", "options": {"chariot_charge": true},
            "players": ["A", "B"], "layout": "KGGMMRRNNCCPPPPPkggmmrrnnccppppp",
            "actions": ["a1", "b1"],
            "result": {"outcome": "player2", "reason": "resignation"},
            "metadata": {"event": "test"}
        }"#;
        let r: Record = serde_json::from_str(text).unwrap();
        assert_eq!(r.result.unwrap().reason, Some(Reason::Resignation));
        let again: Record = serde_json::from_str(&serde_json::to_string(&r).unwrap()).unwrap();
        assert_eq!(again, r);
        assert!(serde_json::from_str::<Record>(r#"{"actions": [], "winner": 1}"#).is_err());
    }
}
