//! Pictures as pixels (feature `raster`): a board's SVG rendered by resvg to a PNG, and a
//! record's replay as an animated PNG (APNG: one frame per position, the last action marked),
//! for chat bots, e-mail and sharing a game. The boards draw their text as the project's own
//! glyph paths, so no system font is needed; a fallback `<text>` (a player's name in a script
//! the glyphs lack) is left out.
//!
//! Every frame is painted on white and encoded as it is drawn: an animation's memory is one
//! frame's pixels and the PNG written so far, however long the game.

use resvg::tiny_skia::{Color, Pixmap, Transform};
use resvg::usvg;
use thiserror::Error;

use super::record::Record;
use super::replay::{ReplayError, replay_with, validate};
use super::rules::Rules;
use super::svg::{BadWidth, check_width};

/// The most pixels one animation draws (its frames times a frame's pixels): a thousand frames
/// of a board 276 pixels wide, or 40 frames of one 2,048 wide.
pub const MAX_ANIMATION_PIXELS: u64 = 150_000_000;
/// The shortest and longest time a frame of an animation shows, in milliseconds.
pub const FRAME_MILLIS: std::ops::RangeInclusive<u32> = 100..=10_000;

/// Why no picture was made.
#[derive(Error, Debug)]
pub enum RasterError {
    #[error("{0}")]
    Width(#[from] BadWidth),
    #[error("a frame shows {0} ms; it must be within 100..=10000")]
    FrameMillis(u32),
    #[error(
        "the record has {plies} plies, {frames} frames with its start; at most {max} are drawn"
    )]
    TooManyFrames {
        plies: usize,
        frames: usize,
        max: usize,
    },
    #[error(
        "{frames} frames of {width}×{height} pixels are more than the {MAX_ANIMATION_PIXELS} pixels one animation draws: ask for a smaller width"
    )]
    TooLarge {
        frames: usize,
        width: u32,
        height: u32,
    },
    /// The record does not replay: no animation of an illegal game.
    #[error("{0}")]
    Replay(ReplayError),
    /// An SVG of the project that resvg cannot read, or a PNG that cannot be written: a bug.
    #[error("the picture could not be drawn: {0}")]
    Draw(String),
    /// Drawing stopped before it was done (the one who asked for it went away).
    #[error("the drawing was stopped before it was done")]
    Stopped,
}

/// How large a picture is drawn: `width` pixels wide (the board's own width when None), its
/// height in proportion.
fn pixmap(svg: &str, width: Option<u32>) -> Result<Pixmap, RasterError> {
    let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
        .map_err(|e| RasterError::Draw(e.to_string()))?;
    let size = tree.size();
    let width = match width {
        Some(w) => check_width(w)?,
        None => size.width().round() as u32,
    };
    let scale = width as f32 / size.width();
    let height = (size.height() * scale).round().max(1.0) as u32;
    let mut pixmap =
        Pixmap::new(width, height).ok_or_else(|| RasterError::Draw("an empty picture".into()))?;
    pixmap.fill(Color::WHITE);
    resvg::render(
        &tree,
        Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// The pixels as opaque RGB (painted on white, so nothing is lost with the alpha channel).
fn rgb(pixmap: &Pixmap) -> Vec<u8> {
    pixmap
        .data()
        .chunks_exact(4)
        .flat_map(|p| [p[0], p[1], p[2]])
        .collect()
}

fn encoder<'a>(out: &'a mut Vec<u8>, pixmap: &Pixmap) -> png::Encoder<'a, &'a mut Vec<u8>> {
    let mut encoder = png::Encoder::new(out, pixmap.width(), pixmap.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Balanced);
    encoder
}

fn draw_error(e: png::EncodingError) -> RasterError {
    RasterError::Draw(e.to_string())
}

/// `svg` as a PNG, `width` pixels wide (its own width when None).
pub fn png(svg: &str, width: Option<u32>) -> Result<Vec<u8>, RasterError> {
    let pixmap = pixmap(svg, width)?;
    let mut out = Vec::new();
    let mut writer = encoder(&mut out, &pixmap)
        .write_header()
        .map_err(draw_error)?;
    writer.write_image_data(&rgb(&pixmap)).map_err(draw_error)?;
    writer.finish().map_err(draw_error)?;
    Ok(out)
}

/// How an animation is drawn.
#[derive(Copy, Clone, Debug)]
pub struct Animation {
    /// Pixels wide; the board's own width when None.
    pub width: Option<u32>,
    /// How long each position shows; the last one shows three times as long.
    pub frame_millis: u32,
    /// The most frames drawn (the start and one per ply).
    pub max_frames: usize,
}

impl Default for Animation {
    fn default() -> Animation {
        Animation {
            width: None,
            frame_millis: 1000,
            max_frames: 1000,
        }
    }
}

/// A valid record's replay as an animated PNG: the start, then the position after every ply
/// with that ply's action marked; it plays once. A record that does not replay gives its
/// replay error (which ply, why).
pub fn replay_apng<G: Rules>(record: &Record, how: &Animation) -> Result<Vec<u8>, RasterError> {
    replay_apng_until::<G>(record, how, || false)
}

/// [`replay_apng`], stopped ([`RasterError::Stopped`]) before the next frame once `stop`
/// says so (the service's client went away).
pub fn replay_apng_until<G: Rules>(
    record: &Record,
    how: &Animation,
    stop: impl Fn() -> bool,
) -> Result<Vec<u8>, RasterError> {
    if !FRAME_MILLIS.contains(&how.frame_millis) {
        return Err(RasterError::FrameMillis(how.frame_millis));
    }
    if let Some(w) = how.width {
        check_width(w)?;
    }
    let plies = record.actions.len();
    if plies + 1 > how.max_frames {
        return Err(RasterError::TooManyFrames {
            plies,
            frames: plies + 1,
            max: how.max_frames,
        });
    }
    // The first pass checks the record (and counts the frames, which an APNG states first).
    let verdict = validate::<G>(record);
    if let Some(e) = verdict.error {
        return Err(RasterError::Replay(e));
    }
    let start = super::replay::prepare::<G>(record)
        .map_err(RasterError::Replay)?
        .start;
    let first = pixmap(&G::svg(&start, None), how.width)?;
    let (width, height) = (first.width(), first.height());
    if (plies as u64 + 1) * width as u64 * height as u64 > MAX_ANIMATION_PIXELS {
        return Err(RasterError::TooLarge {
            frames: plies + 1,
            width,
            height,
        });
    }
    let mut out = Vec::new();
    let mut encoder = encoder(&mut out, &first);
    let frames = (plies + 1) as u32;
    encoder.set_animated(frames, 1).map_err(draw_error)?;
    let delay = |last: bool| {
        let ms = if last {
            3 * how.frame_millis
        } else {
            how.frame_millis
        };
        (ms.min(u16::MAX as u32) as u16, 1000)
    };
    let (n, d) = delay(frames == 1);
    encoder.set_frame_delay(n, d).map_err(draw_error)?;
    let mut writer = encoder.write_header().map_err(draw_error)?;
    let mut previous = rgb(&first);
    writer.write_image_data(&previous).map_err(draw_error)?;
    drop(first);
    let mut failed = None;
    replay_with::<G>(record, |ply| {
        if failed.is_some() {
            return;
        }
        if stop() {
            failed = Some(RasterError::Stopped);
            return;
        }
        let frame = pixmap(&G::svg(ply.after, Some(ply.action)), how.width).and_then(|p| {
            // Every frame of one game has the board's size; a picture that grew is a bug.
            if (p.width(), p.height()) != (width, height) {
                return Err(RasterError::Draw("frames of different sizes".into()));
            }
            let (n, d) = delay(ply.number == plies);
            writer.set_frame_delay(n, d).map_err(draw_error)?;
            // A frame is the rectangle that changed, drawn over the one before (APNG's
            // "source" blend, nothing disposed): a ply changes a few squares, so a long game
            // stays small.
            let current = rgb(&p);
            let r = changed(&previous, &current, width, height);
            writer.reset_frame_position().map_err(draw_error)?;
            writer
                .set_frame_dimension(r.width, r.height)
                .map_err(draw_error)?;
            writer.set_frame_position(r.x, r.y).map_err(draw_error)?;
            writer
                .write_image_data(&r.cut(&current, width))
                .map_err(draw_error)?;
            previous = current;
            Ok(())
        });
        if let Err(e) = frame {
            failed = Some(e);
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    writer.finish().map_err(draw_error)?;
    Ok(out)
}

/// A rectangle of a picture, in pixels.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
struct Rect {
    x: u32,
    y: u32,
    width: u32,
    height: u32,
}

impl Rect {
    /// The RGB pixels of this rectangle of `rgb`, a picture `stride` pixels wide.
    fn cut(&self, rgb: &[u8], stride: u32) -> Vec<u8> {
        let mut out = Vec::with_capacity((self.width * self.height * 3) as usize);
        for row in self.y..self.y + self.height {
            let start = ((row * stride + self.x) * 3) as usize;
            out.extend_from_slice(&rgb[start..start + (self.width * 3) as usize]);
        }
        out
    }
}

/// The smallest rectangle holding every pixel that differs between two RGB pictures of one
/// size (one pixel at the corner when none does: a frame has at least one).
fn changed(before: &[u8], after: &[u8], width: u32, height: u32) -> Rect {
    let (mut x0, mut y0, mut x1, mut y1) = (u32::MAX, u32::MAX, 0, 0);
    for y in 0..height {
        let row = (y * width * 3) as usize..((y + 1) * width * 3) as usize;
        let (a, b) = (&before[row.clone()], &after[row]);
        if a == b {
            continue;
        }
        let first = a
            .chunks_exact(3)
            .zip(b.chunks_exact(3))
            .position(|(p, q)| p != q);
        let last = a
            .chunks_exact(3)
            .zip(b.chunks_exact(3))
            .rposition(|(p, q)| p != q);
        if let (Some(first), Some(last)) = (first, last) {
            (x0, x1) = (x0.min(first as u32), x1.max(last as u32));
            (y0, y1) = (y0.min(y), y1.max(y));
        }
    }
    if x0 == u32::MAX {
        return Rect {
            x: 0,
            y: 0,
            width: 1,
            height: 1,
        };
    }
    Rect {
        x: x0,
        y: y0,
        width: x1 - x0 + 1,
        height: y1 - y0 + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_changed_rectangle_bounds_every_changed_pixel() {
        let (w, h) = (5u32, 4u32);
        let before = vec![255u8; (w * h * 3) as usize];
        let mut after = before.clone();
        assert_eq!(
            changed(&before, &after, w, h),
            Rect {
                x: 0,
                y: 0,
                width: 1,
                height: 1
            }
        );
        let mut paint = |x: u32, y: u32| after[((y * w + x) * 3 + 1) as usize] = 0;
        paint(1, 2);
        paint(3, 1);
        let r = changed(&before, &after, w, h);
        assert_eq!(
            r,
            Rect {
                x: 1,
                y: 1,
                width: 3,
                height: 2
            }
        );
        assert_eq!(r.cut(&after, w).len(), 3 * 2 * 3);
        assert_eq!(
            r.cut(&after, w)[7],
            0,
            "the pixel at (3, 1) is the rectangle's (2, 0)"
        );
    }
}
