//! What every game's SVG picture shares: its root element opens with `viewBox="0 0 W H"
//! width="W" height="H"`, so a picture can be drawn at another width (a chat thumbnail, a
//! print) by its size attributes alone.

/// The narrowest picture drawn, in pixels.
pub const MIN_WIDTH: u32 = 64;
/// The widest picture drawn, in pixels: a 2048-pixel board is 12 MiB of pixels.
pub const MAX_WIDTH: u32 = 2048;

/// A width outside [`MIN_WIDTH`]..=[`MAX_WIDTH`].
#[derive(thiserror::Error, Debug, Clone, PartialEq, Eq)]
#[error("width {0} is outside {MIN_WIDTH}..={MAX_WIDTH} pixels")]
pub struct BadWidth(pub u32);

/// Checks a width asked for.
pub fn check_width(width: u32) -> Result<u32, BadWidth> {
    if (MIN_WIDTH..=MAX_WIDTH).contains(&width) {
        Ok(width)
    } else {
        Err(BadWidth(width))
    }
}

/// `svg` shown `width` pixels wide, its height in proportion (the drawing's own coordinates,
/// its `viewBox`, are unchanged). A picture without the games' root attributes is returned as
/// it is.
pub fn scaled(svg: &str, width: u32) -> Result<String, BadWidth> {
    check_width(width)?;
    let Some(size) = own_size(svg) else {
        return Ok(svg.to_owned());
    };
    let (w, h) = size;
    let height = (h as u64 * width as u64).div_ceil(w.max(1) as u64);
    let old = format!(r#"width="{w}" height="{h}""#);
    let new = format!(r#"width="{width}" height="{height}""#);
    Ok(svg.replacen(&old, &new, 1))
}

/// The root's `viewBox` width and height, when the picture opens as the games' do.
fn own_size(svg: &str) -> Option<(u32, u32)> {
    let root = &svg[..svg.find('>')?];
    let rest = &root[root.find(r#"viewBox="0 0 "#)? + 13..];
    let mut numbers = rest[..rest.find('"')?].split(' ');
    let w = numbers.next()?.parse().ok()?;
    let h = numbers.next()?.parse().ok()?;
    root.contains(&format!(r#"width="{w}" height="{h}""#))
        .then_some((w, h))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picture_is_scaled_by_its_size_attributes() {
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 276 516" width="276" height="516"><rect width="276" height="516"/></svg>"#;
        assert_eq!(
            scaled(svg, 138).unwrap(),
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 276 516" width="138" height="258"><rect width="276" height="516"/></svg>"#
        );
        assert_eq!(scaled(svg, 63), Err(BadWidth(63)));
        assert_eq!(scaled(svg, 2049), Err(BadWidth(2049)));
        assert_eq!(scaled("<svg>", 100).unwrap(), "<svg>");
    }
}
