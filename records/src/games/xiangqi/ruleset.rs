//! Third-generation xiangqi rulesets as plain data (RULES.md §9): whether pieces carry backs,
//! seed 001's optional soldier rule, the draw rules; and the presets.

use serde::{Deserialize, Serialize};

use crate::core::{OptionInfo, RulesetError};

/// A complete ruleset.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = XiangqiRuleset))]
pub struct Ruleset {
    /// Pieces carry second identities (番兵象棋); off: plain xiangqi.
    pub backs: bool,
    /// 可選項2減規則: a soldier's flip takes effect anywhere on the enemy back rank.
    pub soldier_flip_anywhere: bool,
    /// A draw after this many consecutive plies without a capture (120).
    pub no_capture: Option<u16>,
    /// A position repeated a third time ends the game (a draw, or a loss for a perpetual
    /// checker).
    pub repetition: bool,
}

impl Ruleset {
    pub const THIRD_GENERATION: Ruleset = Ruleset {
        backs: true,
        soldier_flip_anywhere: false,
        no_capture: Some(120),
        repetition: true,
    };

    pub fn with(self, o: &Overrides) -> Result<Ruleset, RulesetError> {
        let mut r = self;
        if let Some(v) = o.backs {
            r.backs = v;
        }
        if let Some(v) = o.soldier_flip_anywhere {
            r.soldier_flip_anywhere = v;
        }
        if let Some(v) = o.no_capture {
            r.no_capture = v;
        }
        if let Some(v) = o.repetition {
            r.repetition = v;
        }
        if r.no_capture == Some(0) {
            return Err(RulesetError::Invalid(
                "no_capture must be at least 1 (or null for off)".into(),
            ));
        }
        Ok(r)
    }
}

/// Overrides of a preset's options.
#[derive(Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[cfg_attr(feature = "openapi", schema(as = XiangqiOverrides))]
#[serde(deny_unknown_fields)]
pub struct Overrides {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backs: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub soldier_flip_anywhere: Option<bool>,
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::core::rules::double_option"
    )]
    pub no_capture: Option<Option<u16>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repetition: Option<bool>,
}

pub type Preset = crate::core::Preset<Ruleset>;

pub const PRESETS: &[Preset] = &[
    Preset {
        name: "xiangqi-3g",
        title: "Third-generation xiangqi (番兵象棋): every piece with a back, flips on the matching point",
        ruleset: Ruleset::THIRD_GENERATION,
    },
    Preset {
        name: "xiangqi-3g-anywhere",
        title: "Third-generation xiangqi with seed 001's optional rule: a soldier's flip takes effect anywhere on the enemy back rank",
        ruleset: Ruleset {
            soldier_flip_anywhere: true,
            ..Ruleset::THIRD_GENERATION
        },
    },
    Preset {
        name: "xiangqi",
        title: "Xiangqi, the base game: no backs",
        ruleset: Ruleset {
            backs: false,
            ..Ruleset::THIRD_GENERATION
        },
    },
];

pub const OPTIONS: &[OptionInfo] = &[
    OptionInfo {
        name: "backs",
        kind: "boolean",
        meaning: "Pieces carry second identities, set up by their owners before the game (true); false: plain xiangqi.",
        source: "seed 001; RULES.md §9",
    },
    OptionInfo {
        name: "soldier_flip_anywhere",
        kind: "boolean",
        meaning: "A soldier's flip takes effect on any point of the enemy back rank; 兵仕 then moves one step diagonally anywhere and 兵相 jumps any 田, both never crossing back over the river (false).",
        source: "seed 001 可選項2減規則",
    },
    OptionInfo {
        name: "no_capture",
        kind: "limit",
        meaning: "A draw after this many consecutive plies without a capture (120). null: no limit.",
        source: "RULES.md §9",
    },
    OptionInfo {
        name: "repetition",
        kind: "boolean",
        meaning: "A position repeated a third time is a draw, except that a side that gave check with every one of its moves since the first occurrence loses (true).",
        source: "RULES.md §9",
    },
];
