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
        opening_line -> Nullable<Binary>,
    }
}

diesel::table! {
    seats (game_id, seat) {
        game_id -> BigInt,
        seat -> Integer,
        name -> Text,
        side -> Nullable<Text>,
        points -> Integer,
        named -> Bool,
    }
}

diesel::table! {
    meetings (game, preset, player1, player2, player3, outcome) {
        game -> Text,
        preset -> Text,
        player1 -> Text,
        player2 -> Text,
        player3 -> Text,
        outcome -> Text,
        games -> BigInt,
    }
}

diesel::table! {
    ledger (game_id) {
        game_id -> Text,
        game -> Text,
        preset -> Text,
        options -> Text,
        players -> Text,
        sealed_truth -> Nullable<Text>,
        seed -> Nullable<Text>,
        plies -> Integer,
        result -> Nullable<Text>,
        stored_game -> Nullable<BigInt>,
        created_at -> BigInt,
        updated_at -> BigInt,
        clock_base_ms -> Nullable<BigInt>,
        clock_increment_ms -> Nullable<BigInt>,
        claim_after_ms -> Nullable<BigInt>,
        events -> Integer,
        engines -> Nullable<Text>,
        engine_holder -> Nullable<Text>,
        engine_lease_ms -> Nullable<BigInt>,
    }
}

diesel::table! {
    ledger_actions (game_id, ply) {
        game_id -> Text,
        ply -> Integer,
        action -> Text,
        at_ms -> Nullable<BigInt>,
    }
}

diesel::table! {
    ledger_events (game_id, seq) {
        game_id -> Text,
        seq -> Integer,
        ply -> Integer,
        kind -> Text,
        seat -> Nullable<Text>,
        at_ms -> BigInt,
    }
}

diesel::table! {
    tables (table_id) {
        table_id -> Text,
        terms -> Text,
        players -> Text,
        coins -> Text,
        game_id -> Text,
        closed -> Nullable<Text>,
        version -> BigInt,
        created_at -> BigInt,
        updated_at -> BigInt,
    }
}

diesel::table! {
    table_games (table_id, number) {
        table_id -> Text,
        number -> Integer,
        game_id -> Text,
        chairs -> Text,
        settlement -> Nullable<Text>,
        stored_game -> Nullable<BigInt>,
    }
}

diesel::joinable!(seats -> games (game_id));
diesel::joinable!(ledger_actions -> ledger (game_id));
diesel::joinable!(ledger_events -> ledger (game_id));
diesel::allow_tables_to_appear_in_same_query!(
    games,
    seats,
    meetings,
    ledger,
    ledger_actions,
    ledger_events,
    tables,
    table_games
);

diesel::table! {
    explorer (node, action) {
        node -> BigInt,
        action -> Text,
        next -> BigInt,
        game -> Text,
        preset -> Text,
        ply -> Integer,
        games -> BigInt,
        wins -> BigInt,
        draws -> BigInt,
        losses -> BigInt,
        points -> BigInt,
        coin_stakes -> BigInt,
        coin_margins -> BigInt,
        first_game -> BigInt,
        last_game -> BigInt,
    }
}

diesel::table! {
    explorer_settings (id) {
        id -> Integer,
        depth -> Integer,
        built -> Bool,
        generation -> BigInt,
        months -> Bool,
    }
}

diesel::table! {
    explorer_months (node, month, action) {
        node -> BigInt,
        month -> Integer,
        action -> Text,
        games -> BigInt,
        wins -> BigInt,
        draws -> BigInt,
        losses -> BigInt,
        points -> BigInt,
        coin_stakes -> BigInt,
        coin_margins -> BigInt,
        first_game -> BigInt,
        last_game -> BigInt,
    }
}

diesel::table! {
    explorer_filters (block) {
        block -> BigInt,
        id -> BigInt,
        bits -> Binary,
    }
}

diesel::table! {
    explorer_packed (block, first_node) {
        block -> BigInt,
        first_node -> BigInt,
        entries -> Binary,
    }
}

diesel::table! {
    explorer_games (block, node, game_id) {
        block -> BigInt,
        node -> BigInt,
        game_id -> BigInt,
    }
}
