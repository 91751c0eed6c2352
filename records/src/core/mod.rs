//! The game-generic core: what every game shares, and the machinery built on it.
//!
//! - vocabulary: [`Seat`]s, the [`Outcome`] that ranks them, end [`Reason`]s and the [`End`]
//!   the rules derive, the [`Violation`] code of an [`IllegalAction`];
//! - the [`Rules`] a game implements (rulesets as data, notation, play, the hidden truth,
//!   scoring credits, views, pictures);
//! - on top of it, for any game: the JSON [`Record`], its [`replay`] and [`Verdict`], and
//!   [`scoring`] credited from the history.
//!
//! Nothing here knows a particular game: games depend on the core, never the reverse.

pub mod analysis;
pub mod board;
pub mod coins;
pub mod explorer;
pub mod glyphs;
pub mod ismcts;
pub mod language;
pub mod outcome;
pub mod pieces;
pub mod play;
#[cfg(feature = "raster")]
pub mod raster;
pub mod record;
pub mod repetition;
pub mod replay;
pub mod review;
pub mod rules;
pub mod scoring;
pub mod seat;
pub mod stats;
pub mod svg;
pub mod text;
pub mod violation;
pub mod words;

pub use board::{PlaceSet, Side};
pub use outcome::{End, Outcome, ParseOutcomeError, Reason};
pub use record::{Record, StatedOutcome, StatedResult, canonical_json};
pub use replay::{Ply, Prepared, RecordProblem, ReplayError, Status, Verdict};
pub use rules::{
    Engine, Game, InvalidHidden, Masked, Misfit, NoStart, OptionInfo, ParsePositionError, Pictures,
    PositionProblem, Preset, Rules, RulesetError, Scoring, Told, Truth, Turn, Unmasked, Visibility,
};
pub use scoring::{
    Credit, Opening, ScoreError, Scored, ScoredResult, SeatSummary, Summary, Table, Tally,
    summarize,
};
pub use seat::{MAX_SEATS, ParseSeatError, Seat};
pub use violation::{IllegalAction, Violation};
