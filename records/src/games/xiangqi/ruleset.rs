//! Third-generation xiangqi rulesets as plain data (RULES.md §9): whether pieces carry backs,
//! seed 001's optional soldier rule, the draw rules; and the presets.

use crate::core::RulesetError;

crate::ruleset! {
    /// A complete ruleset.
    #[cfg_attr(feature = "openapi", schema(as = XiangqiRuleset))]
    pub struct Ruleset;
    /// Overrides of a preset's options.
    #[cfg_attr(feature = "openapi", schema(as = XiangqiOverrides))]
    pub struct Overrides;
    pub const OPTIONS;

    backs: bool, "boolean", "seed 001; RULES.md §9",
        "Pieces carry second identities, set up by their owners before the game (true); false: plain xiangqi.";
    soldier_flip_anywhere: bool, "boolean", "seed 001 可選項2減規則",
        "A soldier's flip takes effect on any point of the enemy back rank; 兵仕 then moves one step diagonally anywhere and 兵相 jumps any 田, both never crossing back over the river (false).";
    no_capture: Option<u16>, "limit", "RULES.md §9",
        "A draw after this many consecutive plies without a capture (120). null: no limit.";
    repetition: bool, "boolean", "RULES.md §9",
        "A position repeated a third time is a draw, except that a side that gave check with every one of its moves since the first occurrence loses (true).";
    max_plies: Option<u16>, "limit", "this project's (docs/rules.md)",
        "A draw once this many plies have been played (ply_limit; null: no cap, every preset's default). The referee sets it on a game its rules would not otherwise end.";
}

impl Ruleset {
    pub const THIRD_GENERATION: Ruleset = Ruleset {
        backs: true,
        soldier_flip_anywhere: false,
        no_capture: Some(120),
        repetition: true,
        max_plies: None,
    };

    /// What makes a merged ruleset impossible.
    fn check(&self) -> Result<(), RulesetError> {
        if self.no_capture == Some(0) || self.max_plies == Some(0) {
            return Err(RulesetError::Invalid(
                "no_capture and max_plies must be at least 1 (or null for off)".into(),
            ));
        }
        Ok(())
    }
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
