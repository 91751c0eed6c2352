//! Luzhanqi rulesets as plain data (RULES.md §8): the mode, and each rule option found in the
//! wild as a field, with the presets.

use serde::{Deserialize, Serialize};

use crate::core::{OptionInfo, RulesetError};

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

/// A complete Luzhanqi ruleset.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = LuzhanqiRuleset))]
pub struct Ruleset {
    pub mode: Mode,
    pub mine: MineRule,
    pub railway: Railway,
    pub mountains: Mountains,
    /// When a 司令 dies, its side's flag is shown to the opponent (dark mode).
    pub flag_reveal: bool,
    /// A draw after this many consecutive plies without an attack or a flip.
    pub no_progress: Option<u16>,
    /// A draw once this many plies have been played.
    pub max_plies: Option<u16>,
}

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

    /// This ruleset with `overrides` applied and checked.
    pub fn with(self, o: &Overrides) -> Result<Ruleset, RulesetError> {
        let mut r = self;
        if let Some(v) = o.mode {
            r.mode = v;
        }
        if let Some(v) = o.mine {
            r.mine = v;
        }
        if let Some(v) = o.railway {
            r.railway = v;
        }
        if let Some(v) = o.mountains {
            r.mountains = v;
        }
        if let Some(v) = o.flag_reveal {
            r.flag_reveal = v;
        }
        if let Some(v) = o.no_progress {
            r.no_progress = v;
        }
        if let Some(v) = o.max_plies {
            r.max_plies = v;
        }
        if r.no_progress == Some(0) || r.max_plies == Some(0) {
            return Err(RulesetError::Invalid(
                "no_progress and max_plies must be at least 1 (or null for off)".into(),
            ));
        }
        Ok(r)
    }
}

/// Overrides of a preset's options: each field present replaces the preset's; `null` turns a
/// limit off.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = LuzhanqiOverrides))]
#[serde(deny_unknown_fields)]
pub struct Overrides {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<Mode>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mine: Option<MineRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub railway: Option<Railway>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mountains: Option<Mountains>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flag_reveal: Option<bool>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::core::rules::double_option"
    )]
    pub no_progress: Option<Option<u16>>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::core::rules::double_option"
    )]
    pub max_plies: Option<Option<u16>>,
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

/// Every option, in the order of [`Ruleset`]'s fields.
pub const OPTIONS: &[OptionInfo] = &[
    OptionInfo {
        name: "mode",
        kind: "mode",
        meaning: "open (明棋: both setups public), dark (暗棋: the service referees; each side sees its own pieces and the announced attacks) or flip (翻棋: all pieces face down).",
        source: "seed 004 暗棋 / 明棋 / 翻棋",
    },
    OptionInfo {
        name: "mine",
        kind: "mine",
        meaning: "attacker_dies (the default: a mine survives any attacker but an engineer or a bomb) or both_die.",
        source: "seed 004 各棋子勝負一覽 5",
    },
    OptionInfo {
        name: "railway",
        kind: "railway",
        meaning: "straight (the default: any number of empty stations in a straight line) or three_with_turns (at most 3 stations, turning allowed) for pieces other than engineers.",
        source: "seed 004 行棋",
    },
    OptionInfo {
        name: "mountains",
        kind: "mountains",
        meaning: "closed (the default), engineers or any: who may enter the mountains (山界, points bm and dm) from a railway station around them, and leave to any empty one; a piece there cannot be attacked.",
        source: "seed 004 特殊規則",
    },
    OptionInfo {
        name: "flag_reveal",
        kind: "boolean",
        meaning: "When a 司令 dies its side's flag is shown to the opponent (dark mode; true by default).",
        source: "seed 004 暗棋",
    },
    OptionInfo {
        name: "no_progress",
        kind: "limit",
        meaning: "A draw after this many consecutive plies without an attack or a flip (100). null: no limit.",
        source: "RULES.md §8 quiet-move draw limit; the number is this project's (docs/rules.md)",
    },
    OptionInfo {
        name: "max_plies",
        kind: "limit",
        meaning: "A draw once this many plies have been played (2000). null: no cap.",
        source: "RULES.md §8; the number is this project's (docs/rules.md)",
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
