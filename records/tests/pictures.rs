//! The boards as pixels: every game's picture rendered by resvg (no system fonts: the text is
//! the project's glyphs as paths) and compared with a reviewed reference image in
//! `tests/pictures/`, within a small tolerance. A board whose pieces turn into boxes, or lose
//! their glyphs, fails. `UPDATE_PICTURES=1 cargo test -p records --test pictures` writes the
//! references again (review them before committing).

use records::core::rules::parts::*;
use records::games::banqi::Banqi;
use records::games::luzhanqi::Luzhanqi;
use records::games::three_kingdoms::ThreeKingdoms;
use records::games::xiangqi::Xiangqi3g;
use resvg::tiny_skia::Pixmap;
use resvg::usvg;

fn pixels(svg: &str) -> Pixmap {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default()).expect("the SVG parses");
    let size = tree.size().to_int_size();
    let mut pixmap = Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, Default::default(), &mut pixmap.as_mut());
    pixmap
}

/// Compares `svg`'s pixels with the reference `name`.png: at most 0.5% of the pixels may
/// differ by more than 16 in a channel (anti-aliasing across renderer versions).
fn check(name: &str, svg: &str) {
    let path = format!("{}/tests/pictures/{name}.png", env!("CARGO_MANIFEST_DIR"));
    let got = pixels(svg);
    if std::env::var_os("UPDATE_PICTURES").is_some() {
        got.save_png(&path).unwrap();
    }
    let want = Pixmap::load_png(&path)
        .unwrap_or_else(|e| panic!("{path}: {e} (UPDATE_PICTURES=1 writes it)"));
    assert_eq!(
        (got.width(), got.height()),
        (want.width(), want.height()),
        "{name}"
    );
    let differing = got
        .data()
        .chunks(4)
        .zip(want.data().chunks(4))
        .filter(|(a, b)| a.iter().zip(b.iter()).any(|(x, y)| x.abs_diff(*y) > 16))
        .count();
    let total = (got.width() * got.height()) as usize;
    assert!(
        differing * 200 <= total,
        "{name}: {differing} of {total} pixels differ from the reference"
    );
}

/// How many pixels of `svg` are close to `ink` (a piece's colour): the glyphs are drawn.
fn inked(svg: &str, ink: [u8; 3]) -> usize {
    pixels(svg)
        .data()
        .chunks(4)
        .filter(|p| (0..3).all(|i| p[i].abs_diff(ink[i]) < 40))
        .count()
}

#[test]
fn banqi_board() {
    let pos = Banqi::parse_position("k3/4/4/4/4/4/1p2/P2X r C1 5 30").unwrap();
    check("banqi", &Banqi::svg(&pos, None));
}

#[test]
fn three_kingdoms_board() {
    let pos =
        ThreeKingdoms::parse_position("k7g/9/2P1R1c2/4M4/X7N rgb 1 p1 -/-/- --- 0 10").unwrap();
    check("three-kingdoms", &ThreeKingdoms::svg(&pos, None));
}

#[test]
fn luzhanqi_board() {
    let pos = Luzhanqi::parse_position("5/5/5/5/5/2f2/2E2/5/5/5/5/1F2p -- r - - 4 40").unwrap();
    check("luzhanqi", &Luzhanqi::svg(&pos, None));
}

#[test]
fn xiangqi_board() {
    let rules = Xiangqi3g::PRESETS[0].ruleset;
    let backs = Xiangqi3g::parse_hidden(
        &serde_json::json!({"red": "ZQTKAMLXFOSRNCBA", "black": "zqtkamlxfosrncba"}),
    )
    .unwrap();
    let pos = Xiangqi3g::start(&rules, Some(&backs)).unwrap();
    check("xiangqi-3g", &Xiangqi3g::svg(&pos, None));
}

/// A piece's name is ink, not an empty disc: a red 兵 draws red pixels inside its circle.
#[test]
fn a_piece_is_drawn_in_its_ink() {
    let with = Banqi::parse_position("k3/4/4/4/4/4/1p2/P2X r C1 5 30").unwrap();
    let red = [0xb3, 0x12, 0x1b];
    let svg = Banqi::svg(&with, None);
    let without_glyphs = svg.replace("<use ", "<nouse ");
    let (a, b) = (inked(&svg, red), inked(&without_glyphs, red));
    // Measured: 316 with, 260 without (the ring is red too; 兵 is thin at 28 px).
    assert!(a >= b + 40, "{a} red pixels with the glyphs, {b} without");
}

/// Every board names its files and ranks (issue 60), outside its pieces: each label's box
/// (its translate, 14 px tall) lies clear of every point's click circle, which holds the piece.
#[test]
fn every_board_has_its_coordinates_outside_the_pieces() {
    fn check_game<G: Rules>(svg: &str, files: &[&str], ranks: &[&str]) {
        for label in files.iter().chain(ranks) {
            let tag =
                format!(r#"class="coordinate" data-coordinate="{label}"><g aria-label="{label}""#);
            let at = svg
                .find(&tag)
                .unwrap_or_else(|| panic!("no coordinate {label}"));
            let rest = &svg[at + tag.len()..];
            let t = &rest[rest.find("translate(").unwrap() + 10..];
            let mut xy = t[..t.find(')').unwrap()]
                .split(' ')
                .map(|v| v.parse::<f64>().unwrap());
            let (x, baseline) = (xy.next().unwrap(), xy.next().unwrap());
            for (point, cx, cy, r) in G::points() {
                let (cx, cy, r) = (cx as f64, cy as f64, r as f64);
                // The label's box: 8 px a character right of x, 11 px above the baseline.
                let right = x + 8.0 * label.len() as f64;
                let dx = (x - cx).max(cx - right).max(0.0);
                let dy = (baseline - 11.0 - cy).max(cy - baseline).max(0.0);
                assert!(
                    dx * dx + dy * dy > (r - 4.0) * (r - 4.0),
                    "{label} lies on {point}'s piece"
                );
            }
        }
    }
    let banqi = Banqi::parse_position("k3/4/4/4/4/4/1p2/P2X r C1 5 30").unwrap();
    check_game::<Banqi>(&Banqi::svg(&banqi, None), &["a", "d"], &["1", "8"]);
    let tk =
        ThreeKingdoms::parse_position("k7g/9/2P1R1c2/4M4/X7N rgb 1 p1 -/-/- --- 0 10").unwrap();
    check_game::<ThreeKingdoms>(&ThreeKingdoms::svg(&tk, None), &["a", "i"], &["1", "5"]);
    let lz = Luzhanqi::parse_position("5/5/5/5/5/2f2/2E2/5/5/5/5/1F2p -- r - - 4 40").unwrap();
    check_game::<Luzhanqi>(&Luzhanqi::svg(&lz, None), &["a", "e"], &["1", "12"]);
    let rules = Xiangqi3g::PRESETS[0].ruleset;
    let backs = Xiangqi3g::parse_hidden(
        &serde_json::json!({"red": "ZQTKAMLXFOSRNCBA", "black": "zqtkamlxfosrncba"}),
    )
    .unwrap();
    let xq = Xiangqi3g::start(&rules, Some(&backs)).unwrap();
    check_game::<Xiangqi3g>(&Xiangqi3g::svg(&xq, None), &["a", "i"], &["0", "9"]);
}
