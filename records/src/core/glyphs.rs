//! Text in pictures drawn with the project's own glyphs (`assets/fonts/AnqiSerif-Regular.otf`,
//! a subset of Noto Serif CJK TC under the OFL) as SVG paths, so that a board reads the same
//! on a machine without CJK fonts (servers, containers, phones) and in any SVG renderer.
//!
//! A picture collects the glyphs it draws in a [`Glyphs`]: [`Glyphs::text`] writes a run of
//! text where an SVG `<text>` would stand (`x`, the baseline `y`, the size, the anchor), each
//! glyph a `<use>` of a path, and [`Glyphs::defs`] the paths used, once each. A character the
//! font lacks (a player's name in another script) is left to a `<text>` of the viewer's fonts.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::sync::OnceLock;

/// The font, as shipped in the repository.
pub static FONT: &[u8] = include_bytes!("../../../assets/fonts/AnqiSerif-Regular.otf");

fn face() -> &'static ttf_parser::Face<'static> {
    static FACE: OnceLock<ttf_parser::Face<'static>> = OnceLock::new();
    FACE.get_or_init(|| ttf_parser::Face::parse(FONT, 0).expect("the shipped font parses"))
}

/// Where a run of text stands relative to its `x` (SVG's `text-anchor`).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// The glyphs a picture draws, collected as it is written.
#[derive(Default, Debug)]
pub struct Glyphs {
    used: BTreeSet<char>,
}

/// The id of a glyph's path in a picture.
fn id(c: char) -> String {
    format!("anqi-g{:x}", c as u32)
}

impl Glyphs {
    pub fn new() -> Glyphs {
        Glyphs::default()
    }

    /// `text` drawn at `x` (placed by `anchor`) on the baseline `y`, `size` pixels to the em,
    /// in `fill`: the SVG to put where a `<text>` would stand. Its `aria-label` is the text.
    pub fn text(
        &mut self,
        x: f64,
        y: f64,
        size: f64,
        anchor: Anchor,
        fill: &str,
        text: &str,
    ) -> String {
        let face = face();
        let scale = size / face.units_per_em() as f64;
        if text
            .chars()
            .any(|c| !c.is_whitespace() && face.glyph_index(c).is_none())
        {
            return fallback(x, y, size, anchor, fill, text);
        }
        let advance = |c: char| {
            face.glyph_index(c)
                .and_then(|g| face.glyph_hor_advance(g))
                .unwrap_or(face.units_per_em() / 2) as f64
        };
        let width: f64 = text.chars().map(advance).sum();
        let left = match anchor {
            Anchor::Start => x,
            Anchor::Middle => x - width * scale / 2.0,
            Anchor::End => x - width * scale,
        };
        let mut out = String::new();
        let _ = write!(
            out,
            r#"<g aria-label="{}" fill="{fill}" transform="translate({} {}) scale({})">"#,
            escape(text),
            round(left),
            round(y),
            round4(scale)
        );
        let mut pen = 0.0;
        for c in text.chars() {
            // A space has an advance but no outline.
            if !c.is_whitespace() {
                self.used.insert(c);
                let _ = write!(out, r##"<use href="#{}" x="{}"/>"##, id(c), pen);
            }
            pen += advance(c);
        }
        out.push_str("</g>");
        out
    }

    /// The paths of every glyph drawn so far, as a `<defs>` (empty when none).
    pub fn defs(&self) -> String {
        if self.used.is_empty() {
            return String::new();
        }
        let face = face();
        let mut out = String::from("<defs>");
        for &c in &self.used {
            let g = face.glyph_index(c).expect("collected glyphs exist");
            let mut path = Path(String::new());
            if face.outline_glyph(g, &mut path).is_some() {
                let _ = write!(out, r#"<path id="{}" d="{}"/>"#, id(c), path.0.trim_end());
            }
        }
        out.push_str("</defs>");
        out
    }
}

/// The ink of a board's coordinates.
pub const COORDINATE_INK: &str = "#5a4020";

impl Glyphs {
    /// A board's coordinates, outside its pieces: each file's letter centred at its `x` on the
    /// baseline `below` (under the board), each rank's number right-aligned at `left` on its
    /// row's centre `y`. Each label is a `<g class="coordinate" data-coordinate="a">` (the
    /// pages and the tests find them by it).
    pub fn coordinates(
        &mut self,
        files: impl IntoIterator<Item = (u32, String)>,
        below: u32,
        ranks: impl IntoIterator<Item = (u32, String)>,
        left: u32,
    ) -> String {
        let mut out = String::from(r#"<g class="coordinates">"#);
        let files = files
            .into_iter()
            .map(|(x, label)| (x, below, Anchor::Middle, label));
        let ranks = (ranks.into_iter()).map(|(y, label)| (left, y + 5, Anchor::End, label));
        for (x, y, anchor, label) in files.chain(ranks) {
            let text = self.text(x as f64, y as f64, 14.0, anchor, COORDINATE_INK, &label);
            let _ = write!(
                out,
                r#"<g class="coordinate" data-coordinate="{label}">{text}</g>"#
            );
        }
        out.push_str("</g>");
        out
    }
}

/// A `<text>` for what the font cannot draw: the viewer's fonts do.
fn fallback(x: f64, y: f64, size: f64, anchor: Anchor, fill: &str, text: &str) -> String {
    let anchor = match anchor {
        Anchor::Start => "start",
        Anchor::Middle => "middle",
        Anchor::End => "end",
    };
    format!(
        r#"<text x="{}" y="{}" font-size="{}" text-anchor="{anchor}" fill="{fill}" font-family="sans-serif">{}</text>"#,
        round(x),
        round(y),
        round(size),
        escape(text)
    )
}

/// `text` as SVG character data or an attribute value.
pub(crate) fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn round(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

fn round4(v: f64) -> f64 {
    (v * 10_000.0).round() / 10_000.0
}

/// A glyph outline as SVG path data, in font units with y pointing down (SVG's way).
struct Path(String);

impl ttf_parser::OutlineBuilder for Path {
    fn move_to(&mut self, x: f32, y: f32) {
        let _ = write!(self.0, "M{} {} ", x, -y);
    }
    fn line_to(&mut self, x: f32, y: f32) {
        let _ = write!(self.0, "L{} {} ", x, -y);
    }
    fn quad_to(&mut self, x1: f32, y1: f32, x: f32, y: f32) {
        let _ = write!(self.0, "Q{} {} {} {} ", x1, -y1, x, -y);
    }
    fn curve_to(&mut self, x1: f32, y1: f32, x2: f32, y2: f32, x: f32, y: f32) {
        let _ = write!(self.0, "C{} {} {} {} {} {} ", x1, -y1, x2, -y2, x, -y);
    }
    fn close(&mut self) {
        self.0.push_str("Z ");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_uses_each_glyph_and_defines_it_once() {
        let mut glyphs = Glyphs::new();
        let svg = glyphs.text(100.0, 50.0, 20.0, Anchor::Middle, "#000", "帥帥");
        assert_eq!(svg.matches("<use").count(), 2, "{svg}");
        assert!(svg.contains(r#"aria-label="帥帥""#));
        let defs = glyphs.defs();
        assert_eq!(defs.matches("<path").count(), 1, "{defs}");
        assert!(defs.contains(&format!(r#"id="{}""#, id('帥'))));
        // A CJK glyph is a full em wide: two of them at 20 px centred on 100 start at 80.
        assert!(svg.contains("translate(80 50)"), "{svg}");
    }

    #[test]
    fn a_space_advances_without_a_path_and_unknown_text_falls_back() {
        let mut glyphs = Glyphs::new();
        let svg = glyphs.text(0.0, 10.0, 10.0, Anchor::Start, "#000", "a b");
        assert_eq!(svg.matches("<use").count(), 2, "{svg}");
        let name = glyphs.text(0.0, 10.0, 10.0, Anchor::Start, "#000", "Ωμέγα <1>");
        assert!(
            name.starts_with("<text") && name.contains("&lt;1&gt;"),
            "{name}"
        );
    }

    #[test]
    fn every_piece_name_of_every_game_has_a_glyph() {
        let face = face();
        for c in
            "帥仕相俥傌炮兵將士象車馬包卒司令軍師旅團營連排工地雷炸彈旗助輔妃骉駝騾臣抛石山界楚河漢"
                .chars()
        {
            let g = face.glyph_index(c).unwrap_or_else(|| panic!("{c}"));
            assert!(
                face.outline_glyph(g, &mut Path(String::new())).is_some(),
                "{c}"
            );
        }
    }
}
