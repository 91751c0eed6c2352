//! Three Kingdoms rulesets as plain data (RULES.md §7): the faction split, the ending, the
//! race target and the no-progress limit, and the presets.

use serde::{Deserialize, Serialize};

use crate::core::RulesetError;

use super::pieces::Split;

/// How a game is decided (seed 003 gives four ways).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// 全滅: a faction with no pieces left is out and ranks below those still playing; the
    /// last faction standing wins.
    Annihilation,
    /// 收軍: as annihilation, and a seat that has captured at least as many pieces as its
    /// faction has on the board may recall them: it finishes above those still playing.
    Recall,
    /// 計分: play as annihilation, then rank every seat by its faction's points, captured
    /// points plus the points of its pieces never captured (320 − lost + captured).
    Points,
    /// The first seat to capture `race_target` points wins.
    Race,
}

impl Ending {
    pub const fn code(self) -> &'static str {
        match self {
            Ending::Annihilation => "annihilation",
            Ending::Recall => "recall",
            Ending::Points => "points",
            Ending::Race => "race",
        }
    }
}

crate::ruleset! {
    /// A complete Three Kingdoms ruleset.
    #[cfg_attr(feature = "openapi", schema(as = ThreeKingdomsRuleset))]
    pub struct Ruleset;
    /// Overrides of a preset's options: each field that is present replaces the preset's;
    /// `no_progress: null` turns the limit off.
    #[cfg_attr(feature = "openapi", schema(as = ThreeKingdomsOverrides))]
    pub struct Overrides;
    pub const OPTIONS;

    split: Split, "split", "seed 003 分隊方式",
        "generals (第一種, the default): 帥將兵卒 / 仕相俥傌炮 / 士象車馬包; soldiers (第二種): 兵卒 / 帥仕相將士象 / 俥傌炮車馬包.";

    ending: Ending, "ending", "seed 003 勝負",
        "annihilation, recall (收軍), points (320 − lost + captured) or race (first to race_target captured points).";

    race_target: u32, "points", "seed 003 勝負 4",
        "The captured points that win a race (200).";

    no_progress: Option<u16>, "limit", "RULES.md §7; the number is this project's (docs/rules.md)",
        "The game stops after this many consecutive plies without a flip, capture or recall (90, thirty rounds); the seats still playing are ranked by points. null: no limit.";

    max_plies: Option<u16>, "limit", "this project's (docs/rules.md)",
        "The game stops once this many plies have been played (ply_limit), the seats still playing ranked by points as at the no-progress limit (null: no cap, every preset's default). The referee sets it on a game its rules would not otherwise end.";
}

crate::option_values!(Split, Ending, u32);

impl Ruleset {
    /// The ruleset of the `three-kingdoms` preset, the base of the others.
    pub const ANNIHILATION: Ruleset = Ruleset {
        split: Split::Generals,
        ending: Ending::Annihilation,
        race_target: 200,
        no_progress: Some(90),
        max_plies: None,
    };

    /// What makes a merged ruleset impossible.
    fn check(&self) -> Result<(), RulesetError> {
        if self.no_progress == Some(0) || self.max_plies == Some(0) {
            return Err(RulesetError::Invalid(
                "no_progress and max_plies must be at least 1 (or null for off)".into(),
            ));
        }
        if self.race_target == 0 {
            return Err(RulesetError::Invalid(
                "race_target must be at least 1".into(),
            ));
        }
        Ok(())
    }
}

/// A named Three Kingdoms ruleset.
pub type Preset = crate::core::Preset<Ruleset>;

const fn ending(ending: Ending) -> Ruleset {
    Ruleset {
        ending,
        ..Ruleset::ANNIHILATION
    }
}

/// Every preset, by name: one per ending of seed 003 (the second split is an option).
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "three-kingdoms",
        title: "Annihilation: the last faction standing wins (seed 003 勝負 1)",
        ruleset: Ruleset::ANNIHILATION,
    },
    Preset {
        name: "three-kingdoms-recall",
        title: "Recall (收軍): the first to recall its pieces finishes first (seed 003 勝負 2)",
        ruleset: ending(Ending::Recall),
    },
    Preset {
        name: "three-kingdoms-points",
        title: "Points: 320 − lost + captured, highest first (seed 003 勝負 3)",
        ruleset: ending(Ending::Points),
    },
    Preset {
        name: "three-kingdoms-race",
        title: "Race: the first to capture 200 points wins (seed 003 勝負 4)",
        ruleset: ending(Ending::Race),
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_differ_by_ending_and_overrides_apply() {
        let endings: Vec<Ending> = PRESETS.iter().map(|p| p.ruleset.ending).collect();
        assert_eq!(
            endings,
            [
                Ending::Annihilation,
                Ending::Recall,
                Ending::Points,
                Ending::Race
            ]
        );
        let o: Overrides =
            serde_json::from_str(r#"{"split": "soldiers", "no_progress": null}"#).unwrap();
        let r = Ruleset::ANNIHILATION.with(&o).unwrap();
        assert_eq!((r.split, r.no_progress), (Split::Soldiers, None));
        let zero: Overrides = serde_json::from_str(r#"{"race_target": 0}"#).unwrap();
        assert!(Ruleset::ANNIHILATION.with(&zero).is_err());
        assert!(serde_json::from_str::<Overrides>(r#"{"cannon": "taiwan"}"#).is_err());
    }
}
