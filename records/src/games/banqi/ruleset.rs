//! Rulesets as plain data: every option of RULES.md §1–2 and the presets of §3.

use serde::{Deserialize, Serialize};

use crate::core::RulesetError;

/// How a cannon captures.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum CannonRule {
    /// Captures only by jumping exactly one screen, any rank (台灣暗棋, the default).
    Taiwan,
    /// Captures like every other piece: adjacent, by rank (rank 6).
    Mainland,
}

/// Which repetition draw rule is in force.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Repetition {
    Off,
    /// TCGA: the last `times`·p plies, none a flip or capture, are one sequence of p actions
    /// played `times` times in a row.
    Cycle {
        times: u8,
    },
    /// Olympiad: the same position (board, covered pool, side to move) occurs for the
    /// `occurrences`-th time.
    Position {
        occurrences: u8,
    },
}

crate::ruleset! {
    /// A complete Banqi ruleset. Every house rule is an independent field; they combine.
    pub struct Ruleset;
    /// Overrides of a preset's options: each field that is present replaces the preset's.
    /// For the optional limits, `null` turns the rule off.
    pub struct Overrides;
    pub const OPTIONS;

    cannon: CannonRule, "cannon", "seed 000",
        "taiwan: the cannon captures only by jumping exactly one screen onto the first piece beyond, any rank; mainland: it captures like every other piece, adjacent and by rank (rank 6).";

    chariot_rush: bool, "boolean", "seed 000",
        "車衝: a chariot moves any distance along an empty line; a capture after two or more squares ignores rank.";

    chariot_charge: bool, "boolean", "seed 002",
        "車直衝: moves stay one square, but a chariot captures two or more squares away along an empty line, ignoring rank. With chariot_rush also on, rush wins.";

    horse_diagonal: bool, "boolean", "seed 000",
        "馬斜: a horse also moves one square diagonally; a diagonal capture ignores rank.";

    chain_capture: bool, "boolean", "seeds 000, 002",
        "連殺 / 明棋連吃: after a capture the same piece may capture again, any number of times, and stop after any capture.";

    dark_capture: bool, "boolean", "seed 000",
        "暗殺: a revealed piece may attack a covered piece it could reach with a capture; an enemy it beats is captured, one it cannot beat survives and the attacker dies, an own piece is simply revealed.";

    dark_chain_capture: bool, "boolean", "seed 002",
        "暗棋連吃: chain capture in which any link, the first included, may be a dark capture.";

    no_progress: Option<u16>, "limit", "TCGA 60, Olympiad 180, seed 002 50",
        "空步判和: the game is drawn after this many consecutive plies without a flip or capture (null: off).";

    repetition: Repetition, "repetition", "TCGA course (cycle), Olympiad (position)",
        "cycle: drawn when the last 3·p plies are one sequence of p actions played three times; position: drawn when the same position occurs the n-th time.";

    long_chase: Option<u8>, "limit", "seed 002",
        "長捉禁手: a player may not chase the same enemy piece this many times in a row (null: off).";

    max_plies: Option<u16>, "limit", "this project's (docs/rules.md)",
        "A draw once this many plies have been played (ply_limit; null: no cap, every preset's default). The referee sets it on a game its rules would not otherwise end.";
}

crate::option_values!(CannonRule, Repetition);

impl Ruleset {
    /// The ruleset of the `tcga` preset, the base of all others.
    pub const TCGA: Ruleset = Ruleset {
        cannon: CannonRule::Taiwan,
        chariot_rush: false,
        chariot_charge: false,
        horse_diagonal: false,
        chain_capture: false,
        dark_capture: false,
        dark_chain_capture: false,
        no_progress: Some(60),
        repetition: Repetition::Cycle { times: 3 },
        long_chase: None,
        max_plies: None,
    };

    /// The ruleset of a named preset.
    pub fn preset(name: &str) -> Option<Ruleset> {
        PRESETS.iter().find(|p| p.name == name).map(|p| p.ruleset)
    }

    /// A preset with overrides applied and checked.
    pub fn from_preset(name: &str, overrides: &Overrides) -> Result<Ruleset, RulesetError> {
        crate::core::rules::find_preset(PRESETS, Some(name))?
            .ruleset
            .with(overrides)
    }

    fn check(&self) -> Result<(), RulesetError> {
        if self.no_progress == Some(0) {
            return Err(RulesetError::Invalid(
                "no_progress must be at least 1 (or null for off)".into(),
            ));
        }
        match self.repetition {
            Repetition::Cycle { times } | Repetition::Position { occurrences: times }
                if times < 2 =>
            {
                return Err(RulesetError::Invalid(
                    "a repetition count must be at least 2".into(),
                ));
            }
            _ => {}
        }
        if self.max_plies == Some(0) {
            return Err(RulesetError::Invalid(
                "max_plies must be at least 1 (or null for off)".into(),
            ));
        }
        if self.long_chase == Some(0) {
            return Err(RulesetError::Invalid(
                "long_chase must be at least 1 (or null for off)".into(),
            ));
        }
        Ok(())
    }

    /// Whether a revealed piece may attack a covered one.
    #[inline]
    pub const fn allows_dark_capture(&self) -> bool {
        self.dark_capture || self.dark_chain_capture
    }

    /// Whether a capture may be followed by another capture in the same turn.
    #[inline]
    pub const fn allows_chain(&self) -> bool {
        self.chain_capture || self.dark_chain_capture
    }

    /// Whether no house rule widens how pieces move or capture (chains aside): every piece
    /// steps one square orthogonally and captures by rank, the Taiwan cannon by its jump.
    #[inline]
    pub const fn is_plain(&self) -> bool {
        !self.chariot_rush
            && !self.chariot_charge
            && !self.horse_diagonal
            && !self.allows_dark_capture()
    }

    /// Whether a chariot captures at distance ≥ 2 (by rush or charge).
    #[inline]
    pub const fn chariot_captures_at_range(&self) -> bool {
        self.chariot_rush || self.chariot_charge
    }
}

impl Overrides {
    pub fn is_empty(&self) -> bool {
        *self == Overrides::default()
    }
}

/// A named Banqi ruleset (RULES.md §3).
pub type Preset = crate::core::Preset<Ruleset>;

const fn with_house(
    base: Ruleset,
    no_progress: u16,
    repetition: Repetition,
    long_chase: Option<u8>,
) -> Ruleset {
    Ruleset {
        no_progress: Some(no_progress),
        repetition,
        long_chase,
        ..base
    }
}

/// Every preset, by name.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "tcga",
        title: "TCGA course rules (Taiwan cannon, 60-ply no-progress, 3-fold cycle)",
        ruleset: Ruleset::TCGA,
    },
    Preset {
        name: "olympiad",
        title: "Computer Olympiad (180-ply no-progress, 3rd occurrence of a position)",
        ruleset: with_house(
            Ruleset::TCGA,
            180,
            Repetition::Position { occurrences: 3 },
            None,
        ),
    },
    Preset {
        name: "taiwan",
        title: "Taiwan Banqi (台灣暗棋), 50-ply no-progress",
        ruleset: with_house(Ruleset::TCGA, 50, Repetition::Off, None),
    },
    Preset {
        name: "taiwan-full",
        title: "Taiwan Banqi with chariot rush, horse diagonal, chain and dark capture (車衝馬斜、連殺、暗殺)",
        ruleset: Ruleset {
            chariot_rush: true,
            horse_diagonal: true,
            chain_capture: true,
            dark_capture: true,
            ..with_house(Ruleset::TCGA, 50, Repetition::Off, None)
        },
    },
    Preset {
        name: "mainland",
        title: "Mainland Banqi (cannon captures by rank), 50-ply no-progress",
        ruleset: Ruleset {
            cannon: CannonRule::Mainland,
            ..with_house(Ruleset::TCGA, 50, Repetition::Off, None)
        },
    },
    Preset {
        name: "gametower",
        title: "戲谷 標準暗棋 (long chase forbidden at 10)",
        ruleset: with_house(Ruleset::TCGA, 50, Repetition::Off, Some(10)),
    },
    Preset {
        name: "gametower-chain",
        title: "戲谷 明棋連吃 (chain capture of revealed pieces)",
        ruleset: Ruleset {
            chain_capture: true,
            ..with_house(Ruleset::TCGA, 50, Repetition::Off, Some(10))
        },
    },
    Preset {
        name: "gametower-dark-chain",
        title: "戲谷 暗棋連吃 (chain capture including covered pieces)",
        ruleset: Ruleset {
            dark_chain_capture: true,
            ..with_house(Ruleset::TCGA, 50, Repetition::Off, Some(10))
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_match_the_table() {
        let tw = Ruleset::preset("taiwan-full").unwrap();
        assert!(tw.chariot_rush && tw.horse_diagonal && tw.chain_capture && tw.dark_capture);
        assert!(!tw.chariot_charge && !tw.dark_chain_capture);
        assert_eq!(tw.no_progress, Some(50));
        let ol = Ruleset::preset("olympiad").unwrap();
        assert_eq!(ol.no_progress, Some(180));
        assert_eq!(ol.repetition, Repetition::Position { occurrences: 3 });
        assert_eq!(
            Ruleset::preset("mainland").unwrap().cannon,
            CannonRule::Mainland
        );
        assert_eq!(Ruleset::preset("gametower").unwrap().long_chase, Some(10));
        assert!(
            Ruleset::preset("gametower-dark-chain")
                .unwrap()
                .allows_dark_capture()
        );
        assert!(
            Ruleset::preset("gametower-dark-chain")
                .unwrap()
                .allows_chain()
        );
        assert_eq!(
            Ruleset::preset("tcga").unwrap().repetition,
            Repetition::Cycle { times: 3 }
        );
        assert_eq!(PRESETS.len(), 8);
    }

    #[test]
    fn overrides_apply_and_null_turns_off() {
        let o: Overrides = serde_json::from_str(
            r#"{"chariot_charge": true, "no_progress": null, "repetition": {"kind": "off"}}"#,
        )
        .unwrap();
        let r = Ruleset::from_preset("gametower", &o).unwrap();
        assert!(r.chariot_charge);
        assert_eq!(r.no_progress, None);
        assert_eq!(r.repetition, Repetition::Off);
        assert_eq!(r.long_chase, Some(10));
        let round: Overrides = serde_json::from_str(&serde_json::to_string(&o).unwrap()).unwrap();
        assert_eq!(round, o);
        assert!(matches!(
            Ruleset::from_preset("nope", &o),
            Err(RulesetError::UnknownPreset { .. })
        ));
        let bad: Overrides = serde_json::from_str(r#"{"no_progress": 0}"#).unwrap();
        assert!(Ruleset::from_preset("tcga", &bad).is_err());
        assert!(serde_json::from_str::<Overrides>(r#"{"chariot_rsh": true}"#).is_err());
    }

    /// `null` turns a limit off, and for any other option means the preset's value.
    #[test]
    fn null_is_off_for_a_limit_and_absent_otherwise() {
        let o: Overrides =
            serde_json::from_str(r#"{"chariot_rush": null, "cannon": null, "long_chase": null}"#)
                .unwrap();
        assert_eq!(o.chariot_rush, None);
        assert_eq!(o.cannon, None);
        assert_eq!(o.long_chase, Some(None));
        let r = Ruleset::from_preset("gametower", &o).unwrap();
        assert_eq!(r.long_chase, None);
        assert_eq!(
            r.chariot_rush,
            Ruleset::preset("gametower").unwrap().chariot_rush
        );
        // Every option is described.
        let mut names: Vec<&str> = OPTIONS.iter().map(|o| o.name).collect();
        let fields = serde_json::to_value(Ruleset::TCGA).unwrap();
        let mut keys: Vec<&str> = fields
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        names.sort();
        keys.sort();
        assert_eq!(names, keys);
    }
}
