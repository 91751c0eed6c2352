//! The explorer's nodes are hashes of public positions' texts: a game may write that text
//! without a formatter (`Truth::write_public`), and then it must write the very bytes its
//! `Display` writes, or every node a store keeps would change.

use records::core::explorer::{position_hash, public_hash};
use records::core::replay::replay_with;
use records::core::rules::parts::*;
use records::core::rules::ruleset;

/// Every position of random games of every preset of `G`: the written public text is the
/// public position's `Display`, and so hashes the same.
fn check<G: Rules>() -> usize {
    let mut positions = 0;
    for preset in G::PRESETS {
        for seed in 0..8u64 {
            let record = records::core::play::random_record::<G>(preset, seed, 80);
            let rules = ruleset::<G>(record.preset.as_deref(), &record.options).unwrap();
            replay_with::<G>(&record, |ply| {
                for pos in [ply.before, ply.after] {
                    let mut written = Vec::new();
                    G::write_public(&rules, pos, &mut written);
                    let public = G::public(&rules, pos);
                    assert_eq!(
                        String::from_utf8(written).unwrap(),
                        public.to_string(),
                        "{} {} seed {seed}, ply {}",
                        G::NAME,
                        preset.name,
                        ply.number
                    );
                    assert_eq!(public_hash::<G>(&rules, pos), position_hash(&public));
                    positions += 1;
                }
            });
        }
    }
    positions
}

#[test]
fn a_written_public_position_is_its_text() {
    for kind in records::games::GameKind::ALL {
        let positions = records::with_game!(*kind, G => check::<G>());
        assert!(positions > 500, "{kind:?}: {positions} positions");
    }
}

/// Banqi's texts, written without a formatter, as the notation writes them: a covered pool
/// with two-digit counts, an empty pool, and counters past 9.
#[test]
fn banqi_positions_write_their_text() {
    use records::games::banqi::Position;
    for text in [
        "XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX/XXXX - K1G2M2R2N2C2P5k1g2m2r2n2c2p5 0 0",
        "4/4/4/4/4/4/1k2/K3 r - 17 230",
        "XK2/4/4/4/4/4/4/3X b P1p1 0 12",
    ] {
        let pos: Position = text.parse().unwrap();
        let mut written = Vec::new();
        pos.write_text(&mut written);
        assert_eq!(String::from_utf8(written).unwrap(), text);
        assert_eq!(pos.to_string(), text);
    }
}
