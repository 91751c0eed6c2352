//! The TCGA NTU 2021 corpus (`tests/data/tcga-ntu2021.tar.gz`), for tests and benchmarks.
//! Included with `#[path]` by the tests and benches that need it (each uses part of it).
#![allow(dead_code)]

pub mod banqi;
pub mod random_game;

use std::io::Read;

use records::core::Record;
use records::games::banqi::tcga;

/// Every game file of the corpus: (name in the archive, text).
pub fn corpus_texts() -> Vec<(String, String)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/tcga-ntu2021.tar.gz"
    );
    let file = std::fs::File::open(path).expect("tests/data/tcga-ntu2021.tar.gz");
    let mut archive = tar::Archive::new(flate2::read::GzDecoder::new(file));
    let mut games = Vec::new();
    for entry in archive.entries().unwrap() {
        let mut entry = entry.unwrap();
        let name = entry.path().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".txt") {
            continue;
        }
        let mut text = String::new();
        entry.read_to_string(&mut text).unwrap();
        games.push((name, text));
    }
    games
}

/// Every game of the corpus as a record, with the name of its file.
pub fn corpus_records() -> Vec<(String, Record)> {
    corpus_texts()
        .into_iter()
        .flat_map(|(name, text)| {
            tcga::parse(&text)
                .unwrap_or_else(|e| panic!("{name}: {e}"))
                .into_iter()
                .map(move |r| (name.clone(), r))
        })
        .collect()
}
