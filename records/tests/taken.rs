//! The pieces each seat took, as a record's replay gives them (issue 60: the play page shows
//! them after the game): every letter a game names in words has its board's glyph, and a
//! replayed game's pieces taken are its tally's, each with its glyph and its name.

use records::core::rules::parts::*;
use records::core::scoring::steps;
use records::games::banqi::Banqi;
use records::games::luzhanqi::Luzhanqi;
use records::games::three_kingdoms::ThreeKingdoms;
use records::games::xiangqi::Xiangqi3g;

fn every_letter_has_a_glyph<G: Rules>() -> usize {
    let mut named = 0;
    for c in ('A'..='Z').chain('a'..='z') {
        if G::piece(c).is_some() {
            let glyph =
                G::glyph(c).unwrap_or_else(|| panic!("{}: {c} has a name, no glyph", G::TITLE));
            assert!(glyph.chars().all(|g| g as u32 > 0x2000), "{c}: {glyph}");
            named += 1;
        }
    }
    named
}

#[test]
fn every_piece_has_its_glyph() {
    assert_eq!(every_letter_has_a_glyph::<Banqi>(), 14);
    assert_eq!(every_letter_has_a_glyph::<ThreeKingdoms>(), 14);
    assert!(every_letter_has_a_glyph::<Luzhanqi>() >= 24);
    assert!(every_letter_has_a_glyph::<Xiangqi3g>() >= 14);
    assert_eq!(Banqi::glyph('R'), Some("俥"));
    assert_eq!(Banqi::glyph('c'), Some("包"));
}

#[test]
fn a_replayed_game_says_what_each_seat_took() {
    // The engine's Banqi games (tests/data): the tally's letters, glyph by glyph.
    let text = include_str!("data/banqi-engine-games.jsonl");
    let mut checked = 0;
    for line in text.lines().take(50) {
        let record: records::core::Record = serde_json::from_str(line).unwrap();
        let s = steps::<Banqi>(&record);
        if s.summary.is_none() {
            continue;
        }
        assert_eq!(s.taken.len(), 2);
        for t in &s.taken {
            assert_eq!(t.glyphs.len(), t.letters.chars().count());
            assert_eq!(t.names.len(), t.glyphs.len());
            for (letter, glyph) in t.letters.chars().zip(&t.glyphs) {
                assert_eq!(Some(glyph.as_str()), Banqi::glyph(letter));
            }
            // The summary names the same pieces in words.
            if let Some(first) = t.names.first() {
                assert!(
                    s.summary.as_ref().unwrap().contains(first.as_str()),
                    "{first}"
                );
            }
        }
        checked += s.taken.iter().filter(|t| !t.letters.is_empty()).count();
    }
    assert!(checked >= 4, "{checked} seats took something");
}
