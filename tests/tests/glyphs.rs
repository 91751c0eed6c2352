//! The project draws its pictures with its own glyphs (`assets/fonts/AnqiSerif-Regular.otf`,
//! a subset of Noto Serif CJK TC made by `assets/fonts/subset.py`), not with the fonts of the
//! machine that shows them. This test fails when the sources may draw a character the subset
//! lacks: every character beyond U+2000 in a string or character literal of `records`, `api`
//! and `analysis` (the script's own rule), and printable ASCII. Run the script again then.

mod sources;

use sources::{rust_files, workspace};

/// The characters inside string and character literals of `text` (as the script reads them:
/// a quote to the next unescaped quote of the same kind, character literals one character).
fn literal_characters(text: &str, out: &mut Vec<char>) {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '"' => {
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' {
                        i += 1;
                    } else {
                        out.push(chars[i]);
                    }
                    i += 1;
                }
            }
            '\'' if i + 2 < chars.len() && chars[i + 2] == '\'' && chars[i + 1] != '\\' => {
                out.push(chars[i + 1]);
                i += 2;
            }
            _ => {}
        }
        i += 1;
    }
}

#[test]
fn the_glyph_subset_draws_every_character_the_sources_may_draw() {
    let root = workspace();
    let font = std::fs::read(root.join("assets/fonts/AnqiSerif-Regular.otf")).unwrap();
    let face = ttf_parser::Face::parse(&font, 0).unwrap();
    let mut wanted: Vec<char> = (0x20u8..0x7f).map(char::from).collect();
    for krate in ["records/src", "api/src", "analysis/src"] {
        let mut files = Vec::new();
        rust_files(&root.join(krate), &mut files);
        for file in files {
            let mut found = Vec::new();
            literal_characters(&std::fs::read_to_string(&file).unwrap(), &mut found);
            wanted.extend(found.into_iter().filter(|c| *c as u32 > 0x2000));
        }
    }
    // The pages' and the report's words (`i18n/*.json`): the service serves the same font to
    // its pages, so their Chinese reads without system fonts.
    for entry in std::fs::read_dir(root.join("i18n")).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let table: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&text).unwrap();
        for value in table.values() {
            wanted.extend(
                value
                    .as_str()
                    .unwrap()
                    .chars()
                    .filter(|c| *c as u32 > 0x2000),
            );
        }
    }
    wanted.sort();
    wanted.dedup();
    let missing: String = wanted
        .iter()
        .filter(|c| face.glyph_index(**c).is_none())
        .collect();
    assert!(
        missing.is_empty(),
        "the glyph subset lacks {missing:?}: run assets/fonts/subset.py (its docstring says how)"
    );
    // Every piece of every game among them (a sample per game, hand-picked).
    for c in
        "帥將仕士相象俥車傌馬炮包兵卒司令軍師旅團營連排工兵地雷炸彈旗助輔妃骉駝騾臣抛石暗棋".chars()
    {
        assert!(face.glyph_index(c).is_some(), "{c}");
    }
}

#[test]
fn the_scan_reads_literals_only() {
    let mut found = Vec::new();
    literal_characters(
        "// 帥 in a comment\nlet s = \"將\"; let c = '仕'; let q = '\\'';",
        &mut found,
    );
    let cjk: String = found.into_iter().filter(|c| *c as u32 > 0x2000).collect();
    assert_eq!(cjk, "將仕");
}
