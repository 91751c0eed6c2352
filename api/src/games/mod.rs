//! What the service adds to each game of the registry ([`Edge`]): the game's examples in the
//! OpenAPI document (the default game's are the operations' own) and any route of its own
//! (Luzhanqi's setup check). Every game has a module here, listed by the registry.

use actix_web::web;
use serde_json::Value;

pub mod banqi;
pub mod luzhanqi;
pub mod three_kingdoms;
pub mod xiangqi;

/// What the service adds to one game, on each game module's `Edge`: nothing by default.
pub trait Edge {
    /// (path, request, response) per operation that takes a game: the game's examples,
    /// shown beside the default game's.
    fn examples() -> Vec<(&'static str, Value, Value)> {
        Vec::new()
    }

    /// The game's own routes.
    fn routes(cfg: &mut web::ServiceConfig) {
        let _ = cfg;
    }

    /// The OpenAPI paths and schemas of the game's own routes.
    fn openapi() -> Option<utoipa::openapi::OpenApi> {
        None
    }
}

/// One game's examples: its name, its title, and (path, request, response) per operation.
pub type Examples = (
    &'static str,
    &'static str,
    Vec<(&'static str, Value, Value)>,
);

macro_rules! edges {
    (() $default:ident => $dm:ident :: $DG:ident, $($Kind:ident => $module:ident :: $G:ident,)*) => {
        /// The default game's examples: the operations' own.
        pub use $dm::examples as default_examples;

        /// Every game's examples but the default game's, in the registry's order.
        pub fn examples() -> Vec<Examples> {
            vec![$((
                <records::games::$module::$G as records::core::Game>::NAME,
                <records::games::$module::$G as records::core::Game>::TITLE,
                <$module::Edge as Edge>::examples(),
            ),)*]
        }

        /// Registers every game's own routes.
        pub fn routes(cfg: &mut web::ServiceConfig) {
            <$dm::Edge as Edge>::routes(cfg);
            $(<$module::Edge as Edge>::routes(cfg);)*
        }

        /// The OpenAPI documents of every game's own routes.
        pub fn openapi() -> Vec<utoipa::openapi::OpenApi> {
            let mut out = Vec::new();
            out.extend(<$dm::Edge as Edge>::openapi());
            $(out.extend(<$module::Edge as Edge>::openapi());)*
            out
        }
    };
}

records::for_each_game!(edges);
