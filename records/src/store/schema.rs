//! The tables (kept by hand in step with `migrations/`).

diesel::table! {
    games (id) {
        id -> BigInt,
        content_hash -> Text,
        game -> Text,
        preset -> Text,
        options -> Text,
        player1 -> Text,
        player2 -> Text,
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
        points1 -> Integer,
        points2 -> Integer,
        played_on -> Nullable<Text>,
        source -> Text,
        imported_at -> Text,
        record -> Text,
    }
}
