//! Luzhanqi rulesets as plain data (RULES.md §8): the mode, and each rule option found in the
//! wild as a field, with the presets.

use serde::{Deserialize, Serialize};

use crate::core::RulesetError;

/// How much each side sees.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = LuzhanqiMode))]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// 明棋: both setups are public.
    Open,
    /// 暗棋: each side sees its own pieces only; the service referees.
    Dark,
    /// 翻棋: all 50 pieces face down, turned up by flips and attacks.
    Flip,
}

impl Mode {
    pub const fn code(self) -> &'static str {
        match self {
            Mode::Open => "open",
            Mode::Dark => "dark",
            Mode::Flip => "flip",
        }
    }
}

/// What happens to a piece other than an engineer or a bomb that attacks a mine.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = LuzhanqiMineRule))]
#[serde(rename_all = "snake_case")]
pub enum MineRule {
    /// The mine survives and the attacker dies.
    AttackerDies,
    /// Both die.
    BothDie,
}

/// How far a piece other than an engineer travels on the railway.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = LuzhanqiRailway))]
#[serde(rename_all = "snake_case")]
pub enum Railway {
    /// Any number of empty stations in a straight line.
    Straight,
    /// At most three stations, turning where the railway turns or branches.
    ThreeWithTurns,
}

/// Who may enter the mountains (山界) between the railways at the front.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = LuzhanqiMountains))]
#[serde(rename_all = "snake_case")]
pub enum Mountains {
    /// Nobody (the common rule).
    Closed,
    /// Engineers, from a railway station around the mountain.
    Engineers,
    /// Any movable piece, from a railway station around the mountain.
    Any,
}

crate::ruleset! {
    /// A complete Luzhanqi ruleset.
    #[cfg_attr(feature = "openapi", schema(as = LuzhanqiRuleset))]
    pub struct Ruleset;
    /// Overrides of a preset's options: each field present replaces the preset's; `null` turns a
    /// limit off.
    #[cfg_attr(feature = "openapi", schema(as = LuzhanqiOverrides))]
    pub struct Overrides;
    pub const OPTIONS;

    mode: Mode, "mode", "seed 004 暗棋 / 明棋 / 翻棋",
        "open (明棋: both setups public), dark (暗棋: the service referees; each side sees its own pieces and the announced attacks) or flip (翻棋: all pieces face down).";

    mine: MineRule, "mine", "seed 004 各棋子勝負一覽 5",
        "attacker_dies (the default: a mine survives any attacker but an engineer or a bomb) or both_die.";

    railway: Railway, "railway", "seed 004 行棋",
        "straight (the default: any number of empty stations in a straight line) or three_with_turns (at most 3 stations, turning allowed) for pieces other than engineers.";

    mountains: Mountains, "mountains", "seed 004 特殊規則",
        "closed (the default), engineers or any: who may enter the mountains (山界, points bm and dm) from a railway station around them, and leave to any empty one; a piece there cannot be attacked.";

    flag_reveal: bool, "boolean", "seed 004 暗棋",
        "When a 司令 dies its side's flag is shown to the opponent (dark mode; true by default).";

    no_progress: Option<u16>, "limit", "RULES.md §8 quiet-move draw limit; the number is this project's (docs/rules.md)",
        "A draw after this many consecutive plies without an attack or a flip (100). null: no limit.";

    max_plies: Option<u16>, "limit", "RULES.md §8; the number is this project's (docs/rules.md)",
        "A draw once this many plies have been played (2000). null: no cap.";
}

crate::option_values!(Mode, MineRule, Railway, Mountains);

impl Ruleset {
    /// The `dark` preset, the base of the others.
    pub const DARK: Ruleset = Ruleset {
        mode: Mode::Dark,
        mine: MineRule::AttackerDies,
        railway: Railway::Straight,
        mountains: Mountains::Closed,
        flag_reveal: true,
        no_progress: Some(100),
        max_plies: Some(2000),
    };

    /// A piece that enters a headquarters stays there (dark and open; in flip mode a piece in
    /// a headquarters moves, seed 004 翻棋).
    #[inline]
    pub const fn hq_freeze(&self) -> bool {
        !matches!(self.mode, Mode::Flip)
    }

    /// What makes a merged ruleset impossible.
    fn check(&self) -> Result<(), RulesetError> {
        if self.no_progress == Some(0) || self.max_plies == Some(0) {
            return Err(RulesetError::Invalid(
                "no_progress and max_plies must be at least 1 (or null for off)".into(),
            ));
        }
        Ok(())
    }
}

/// A named Luzhanqi ruleset.
pub type Preset = crate::core::Preset<Ruleset>;

const fn mode(mode: Mode) -> Ruleset {
    Ruleset {
        mode,
        ..Ruleset::DARK
    }
}

/// Every preset, by name.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "dark",
        title: "Dark (暗棋): each side sees its own pieces; the service referees",
        ruleset: Ruleset::DARK,
    },
    Preset {
        name: "open",
        title: "Open (明棋): both setups face up",
        ruleset: mode(Mode::Open),
    },
    Preset {
        name: "flip",
        title: "Flip (翻棋): all 50 pieces face down, the flag carried home",
        ruleset: Ruleset {
            flag_reveal: false,
            ..mode(Mode::Flip)
        },
    },
    Preset {
        name: "dark-house",
        title: "Dark with house rules: three railway stations with turns, mines take their attacker along, mountains open from the railway, no flag reveal",
        ruleset: Ruleset {
            mine: MineRule::BothDie,
            railway: Railway::ThreeWithTurns,
            mountains: Mountains::Any,
            flag_reveal: false,
            ..Ruleset::DARK
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_and_overrides() {
        let modes: Vec<Mode> = PRESETS.iter().map(|p| p.ruleset.mode).collect();
        assert_eq!(modes, [Mode::Dark, Mode::Open, Mode::Flip, Mode::Dark]);
        let o: Overrides =
            serde_json::from_str(r#"{"mine": "both_die", "no_progress": null}"#).unwrap();
        let r = Ruleset::DARK.with(&o).unwrap();
        assert_eq!((r.mine, r.no_progress), (MineRule::BothDie, None));
        let zero: Overrides = serde_json::from_str(r#"{"max_plies": 0}"#).unwrap();
        assert!(Ruleset::DARK.with(&zero).is_err());
        assert!(serde_json::from_str::<Overrides>(r#"{"split": "generals"}"#).is_err());
        assert!(!mode(Mode::Flip).hq_freeze() && Ruleset::DARK.hq_freeze());
    }
}
