//! What the service adds to each game of the registry besides its routes: the game's
//! examples in the OpenAPI document (the default game's are the operations' own).

use serde_json::Value;

pub mod luzhanqi;
pub mod three_kingdoms;
pub mod xiangqi;

/// One game's examples: its name, its title, and (path, request, response) per operation.
pub type Examples = (
    &'static str,
    &'static str,
    Vec<(&'static str, Value, Value)>,
);

macro_rules! other_games {
    (() $default:ident => $dm:ident :: $DG:ident, $($Kind:ident => $module:ident :: $G:ident,)*) => {
        vec![$((
            <records::games::$module::$G as records::core::Game>::NAME,
            <records::games::$module::$G as records::core::Game>::TITLE,
            $module::by_path(),
        ),)*]
    };
}

/// Every game's examples but the default game's, in the registry's order.
pub fn examples() -> Vec<Examples> {
    records::for_each_game!(other_games)
}
