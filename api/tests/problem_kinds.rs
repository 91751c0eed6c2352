//! Every kind of problem the service declares is one it can answer with: each `ProblemKind`
//! is built somewhere in the service's code, and `GET /problems` lists each once.

use std::path::Path;

use api::ProblemKind;

fn sources(dir: &Path, text: &mut String) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, text);
        } else if path.extension().is_some_and(|e| e == "rs") {
            text.push_str(&std::fs::read_to_string(&path).unwrap());
        }
    }
}

#[test]
fn every_kind_is_used() {
    let mut code = String::new();
    sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut code,
    );
    let unused: Vec<String> = ProblemKind::ALL
        .iter()
        .map(|k| format!("ProblemKind::{k:?}"))
        .filter(|used| {
            !code.match_indices(used.as_str()).any(|(at, _)| {
                let next = code[at + used.len()..].chars().next();
                !next.is_some_and(|c| c.is_alphanumeric() || c == '_')
            })
        })
        .collect();
    assert!(unused.is_empty(), "declared and never used: {unused:?}");
}

#[test]
fn kinds_are_named_once_with_a_status_of_their_class() {
    let mut names: Vec<&str> = ProblemKind::ALL.iter().map(|k| k.name()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), ProblemKind::ALL.len());
    for kind in ProblemKind::ALL {
        assert!((400..600).contains(&kind.status()), "{kind:?}");
        assert_eq!(ProblemKind::named(kind.name()), Some(*kind));
        assert!(!kind.description().is_empty());
    }
    assert_eq!(ProblemKind::named("no-such-kind"), None);
}
