//! Xiangqi perft: the published counts (chessprogramming.org "Chinese Chess Perft Results"),
//! as data: FEN, depth, nodes.

use records::games::xiangqi::Position;

/// (FEN, [(depth, nodes)]).
const PERFT: &[(&str, &[(u32, u64)])] = &[
    (
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w",
        &[(1, 44), (2, 1_920), (3, 79_666), (4, 3_290_240)],
    ),
    (
        "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w",
        &[(1, 38), (2, 1_128), (3, 43_929)],
    ),
    (
        "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w",
        &[(1, 7), (2, 281), (3, 8_620), (4, 326_201)],
    ),
    (
        "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w",
        &[(1, 25), (2, 424), (3, 9_850), (4, 202_884)],
    ),
    (
        "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w",
        &[(1, 28), (2, 516), (3, 14_808), (4, 395_483)],
    ),
    (
        "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w",
        &[(1, 21), (2, 364), (3, 7_626), (4, 162_837)],
    ),
    (
        "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w",
        &[(1, 28), (2, 222), (3, 6_241), (4, 64_971)],
    ),
    (
        "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w",
        &[(1, 23), (2, 345), (3, 8_124), (4, 149_272)],
    ),
    (
        "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w",
        &[(1, 21), (2, 195), (3, 3_883), (4, 48_060)],
    ),
    (
        "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w",
        &[(1, 30), (2, 830), (3, 22_787)],
    ),
    (
        "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w",
        &[(1, 19), (2, 583), (3, 11_714)],
    ),
];

#[test]
fn published_perft_counts() {
    for (fen, counts) in PERFT {
        let pos: Position = fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"));
        for (depth, nodes) in *counts {
            assert_eq!(pos.perft(*depth), *nodes, "{fen} depth {depth}");
        }
    }
}
