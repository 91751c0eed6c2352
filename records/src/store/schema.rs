//! The tables (kept by hand in step with `migrations/`).

diesel::table! {
    games (id) {
        id -> BigInt,
        content_hash -> Text,
        game -> Text,
        preset -> Text,
        options -> Text,
        layout -> Nullable<Text>,
        start -> Nullable<Text>,
        actions -> Text,
        plies -> Integer,
        stated_outcome -> Nullable<Text>,
        stated_reason -> Nullable<Text>,
        derived_outcome -> Nullable<Text>,
        derived_reason -> Nullable<Text>,
        result -> Text,
        reason -> Nullable<Text>,
        first_flips -> Nullable<Text>,
        doubled -> Bool,
        played_on -> Nullable<Text>,
        source -> Text,
        imported_at -> Text,
        record -> Text,
    }
}

diesel::table! {
    seats (game_id, seat) {
        game_id -> BigInt,
        seat -> Integer,
        name -> Text,
        side -> Nullable<Text>,
        points -> Integer,
    }
}

diesel::joinable!(seats -> games (game_id));
diesel::allow_tables_to_appear_in_same_query!(games, seats);
