//! A game is its modules and one line of the registry (`records::for_each_game!`): this test
//! counts the places a game is named in the code outside its own modules.
//!
//! A game's own modules are `*/games/<module>/` and `*/games/<module>.rs` in any crate.
//! Comments and doc comments are not code; a file's `#[cfg(test)]` module is a test's (it may
//! pick a game to test with); `pub mod <module>;` declares a game's module. What is left is
//! counted per file and compared with `REMAINING`, which is empty: a game is named outside its
//! modules only by its registry line.

use std::collections::BTreeMap;
mod sources;

use sources::{rust_files, workspace};

/// The game modules and what names a game: its module, its `Rules` type, its record name.
const MODULES: &[&str] = &["banqi", "three_kingdoms", "luzhanqi", "xiangqi"];
const NAMES: &[&str] = &[
    "banqi",
    "three_kingdoms",
    "luzhanqi",
    "xiangqi",
    "Banqi",
    "ThreeKingdoms",
    "Luzhanqi",
    "Xiangqi3g",
    "three-kingdoms",
    "xiangqi-3g",
];

/// Files that still name a game outside its modules, and how many times (none: every seat of
/// the toolkit is derived from the registry). A new name outside a game's modules fails.
const REMAINING: &[(&str, usize)] = &[];

/// Whether `path` (relative to the workspace) is one game's own module.
fn own_module(path: &str) -> bool {
    MODULES.iter().any(|m| {
        path.contains(&format!("/games/{m}/")) || path.ends_with(&format!("/games/{m}.rs"))
    })
}

/// The code of a file: comments removed, the `#[cfg(test)]` module cut off.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    let mut out = String::with_capacity(text.len());
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut in_string = false;
    while i < bytes.len() {
        let rest = &text[i..];
        if !in_string && rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
            continue;
        }
        if !in_string && rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |e| e + 2);
            continue;
        }
        let c = rest.chars().next().unwrap();
        if c == '"' && (i == 0 || bytes[i - 1] != b'\\') {
            in_string = !in_string;
        }
        out.push(c);
        i += c.len_utf8();
    }
    out
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// How many times `code` names a game (whole words).
fn names_in(code: &str) -> usize {
    let mut count = 0;
    for line in code.lines() {
        let trimmed = line.trim();
        if MODULES
            .iter()
            .any(|m| trimmed == format!("pub mod {m};") || trimmed == format!("mod {m};"))
        {
            continue;
        }
        for name in NAMES {
            let mut from = 0;
            while let Some(at) = line[from..].find(name) {
                let start = from + at;
                let end = start + name.len();
                let before = line[..start].chars().next_back();
                let after = line[end..].chars().next();
                if !before.is_some_and(is_word) && !after.is_some_and(is_word) {
                    count += 1;
                }
                from = end;
            }
        }
    }
    count
}

fn census() -> BTreeMap<String, usize> {
    let root = workspace();
    let mut files = Vec::new();
    for krate in ["records/src", "api/src", "analysis/src"] {
        rust_files(&root.join(krate), &mut files);
    }
    let mut counts = BTreeMap::new();
    for file in files {
        let relative = file
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if own_module(&relative) {
            continue;
        }
        let mut n = names_in(&code(&std::fs::read_to_string(&file).unwrap()));
        if relative == "records/src/games/mod.rs" {
            // The registry: one line per game names its kind, module and type (three names).
            n = n.saturating_sub(3 * MODULES.len());
        }
        if n > 0 {
            counts.insert(relative, n);
        }
    }
    counts
}

#[test]
fn a_game_is_named_outside_its_modules_only_in_the_registry() {
    let counts = census();
    let table: String = counts
        .iter()
        .map(|(file, n)| format!("    ({file:?}, {n}),\n"))
        .collect();
    let known: BTreeMap<&str, usize> = REMAINING.iter().copied().collect();
    let mut problems = Vec::new();
    for (file, n) in &counts {
        match known.get(file.as_str()) {
            None => problems.push(format!("{file} names a game {n} times")),
            Some(k) if n > k => problems.push(format!("{file} names a game {n} times, not {k}")),
            _ => {}
        }
    }
    for (file, k) in &known {
        let n = counts.get(*file).copied().unwrap_or(0);
        if n < *k {
            problems.push(format!(
                "{file} now names a game {n} times: lower REMAINING ({k})"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "{}\n\nthe census:\n{table}",
        problems.join("\n")
    );
}

#[test]
fn the_registry_names_every_game_once() {
    let registry = std::fs::read_to_string(workspace().join("records/src/games/mod.rs")).unwrap();
    let start = registry.find("macro_rules! for_each_game").unwrap();
    let body = &registry[start..];
    let body = &body[..body.find("\n}\n").unwrap()];
    for (kind, module) in [
        ("Banqi", "banqi"),
        ("ThreeKingdoms", "three_kingdoms"),
        ("Luzhanqi", "luzhanqi"),
        ("Xiangqi3g", "xiangqi"),
    ] {
        let line = format!("{kind} => {module}::");
        assert_eq!(body.matches(&line).count(), 1, "{line} in the registry");
    }
    let kinds: Vec<&str> = records::games::GameKind::ALL
        .iter()
        .map(|k| k.name())
        .collect();
    assert_eq!(kinds, ["banqi", "three-kingdoms", "luzhanqi", "xiangqi-3g"]);
}

#[test]
fn the_census_reads_code_not_comments() {
    let text = "// banqi\n/// Banqi\nlet x = \"banqi\"; /* luzhanqi */\nuse games::xiangqi::Bitboard;\nlet banqi_games = 1;\npub mod luzhanqi;\n#[cfg(test)]\nmod tests { banqi }\n";
    assert_eq!(names_in(&code(text)), 2);
}
