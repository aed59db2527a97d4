//! Figures as SVG files, drawn with plotters' SVG backend, one file per figure:
//! `advice.rs` (`pdbgen advise --plot`), `comparison.rs` (`solver compare --plot`), `instances.rs` (`solver bench --plot`) and
//! `histogram.rs` (`pdbgen info --plot`). Here what they share: the output path's check, the
//! file written in one piece, the colours and the ranges of logarithmic axes.
//!
//! Every figure draws its data marks with one kind of element and its legend with another
//! (data as circles or triangles, legend keys as rectangles), so that a reader of the SVG,
//! such as the tests, can count one mark per puzzle or per value.

pub mod advice;
pub mod comparison;
pub mod histogram;
pub mod instances;

use anyhow::{bail, Context, Result};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;

/// The series colours, in order (Tableau's ten, then teal and near-black).
pub const PALETTE: [RGBColor; 12] = {
    const RGB: [u32; 12] = [
        0x4E79A7, 0xF28E2B, 0xE15759, 0x76B7B2, 0x59A14F, 0xEDC948, 0xB07AA1, 0xFF9DA7, 0x9C755F,
        0xBAB0AC, 0x17BECF, 0x333333,
    ];
    let mut out = [RGBColor(0, 0, 0); 12];
    let mut i = 0;
    while i < 12 {
        let c = RGB[i];
        out[i] = RGBColor((c >> 16) as u8, (c >> 8) as u8, c as u8);
        i += 1;
    }
    out
};

/// The colour of series `k` (the palette repeats after twelve series).
pub fn series_color(k: usize) -> RGBColor {
    PALETTE[k % PALETTE.len()]
}

/// A colour as SVG writes it, `#RRGGBB` (what the tests look for).
pub fn svg_color(c: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

/// The grey of grid lines and notes.
pub(crate) const GREY: RGBColor = RGBColor(110, 117, 133);

/// Draws a legend across `area`: a key (a small rectangle in the series' style) and a label
/// per entry, in rows of columns `column` pixels wide. The keys are rectangles, never the data
/// marks' shapes, so that data marks can be counted.
pub(crate) fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    entries: &[(String, ShapeStyle)],
    column: i32,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let per_row = ((area.dim_in_pixel().0 as i32 - 40) / column).max(1) as usize;
    for (i, (label, style)) in entries.iter().enumerate() {
        let x = 30 + (i % per_row) as i32 * column;
        let y = 10 + (i / per_row) as i32 * 22;
        area.draw(&Rectangle::new([(x, y), (x + 14, y + 12)], *style))
            .map_err(drawing)?;
        area.draw(&Text::new(
            label.clone(),
            (x + 20, y - 1),
            ("sans-serif", 14).into_font(),
        ))
        .map_err(drawing)?;
    }
    Ok(())
}

/// The height in pixels of a legend of `entries` entries in columns `column` pixels wide
/// across `width` pixels.
pub(crate) fn legend_height(entries: usize, column: i32, width: u32) -> u32 {
    let per_row = ((width as i32 - 40) / column).max(1) as usize;
    (entries.div_ceil(per_row) * 22 + 8) as u32
}

/// Refuses an output path that does not end in `.svg` (the only format drawn), before any
/// work is done.
pub fn check_path(path: &Path) -> Result<()> {
    let svg = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    if !svg {
        bail!(
            "--plot {}: figures are drawn as SVG; give a file name ending in .svg",
            path.display()
        );
    }
    Ok(())
}

/// Draws a figure of `size` pixels on a white ground under `title` (its text and size) with
/// `body`, and writes it to `path` in one piece.
pub(crate) fn render(
    path: &Path,
    size: (u32, u32),
    title: (&str, u32),
    body: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> Result<()>,
) -> Result<()> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE).map_err(drawing)?;
        let root = root
            .titled(title.0, ("sans-serif", title.1))
            .map_err(drawing)?;
        body(&root)?;
        root.present().map_err(drawing)?;
    }
    std::fs::write(path, svg).with_context(|| format!("writing the figure {}", path.display()))
}

/// A plotters drawing error as an error of this crate (they are not `Send + Sync`).
pub(crate) fn drawing<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow::anyhow!("drawing the figure failed: {e:?}")
}

/// The range of a logarithmic axis that holds every value of `values` (values below `floor`
/// count as `floor`): from the power of ten at or below the smallest to the one at or above
/// the largest, at least one decade. `(floor, 10 floor)` when there are no values.
pub(crate) fn log_range(values: impl IntoIterator<Item = f64>, floor: f64) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values {
        let v = v.max(floor);
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (floor, floor * 10.0);
    }
    let lo = 10f64.powf(lo.log10().floor());
    let mut hi = 10f64.powf(hi.log10().ceil());
    if hi <= lo {
        hi = lo * 10.0;
    }
    (lo, hi)
}

/// A number on a logarithmic axis: `1e6` style for powers of ten, short otherwise.
pub(crate) fn log_label(v: f64) -> String {
    if v <= 0.0 {
        return "0".into();
    }
    let e = v.log10();
    if (e - e.round()).abs() < 1e-9 {
        let e = e.round() as i32;
        return match e {
            0 => "1".into(),
            1 => "10".into(),
            -1 => "0.1".into(),
            _ => format!("1e{e}"),
        };
    }
    if v >= 1.0 {
        pdbformat::units::thousands(v.round() as u64)
    } else {
        format!("{v:.3}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_ranges_cover_the_values_in_whole_decades() {
        let near = |(a, b): (f64, f64), (x, y): (f64, f64)| {
            assert!(
                (a / x - 1.0).abs() < 1e-9 && (b / y - 1.0).abs() < 1e-9,
                "({a}, {b}) against ({x}, {y})"
            )
        };
        near(log_range([3.0, 420.0], 1.0), (1.0, 1000.0));
        near(log_range([100.0], 1.0), (100.0, 1000.0));
        near(log_range([0.0, 5.0], 1.0), (1.0, 10.0));
        near(log_range([], 1e-6), (1e-6, 1e-5));
        near(log_range([2e-4, 0.03], 1e-6), (1e-4, 0.1));
    }

    #[test]
    fn labels_and_paths() {
        assert_eq!(log_label(1e6), "1e6");
        assert_eq!(log_label(10.0), "10");
        assert_eq!(log_label(2500.0), "2,500");
        assert_eq!(svg_color(PALETTE[0]), "#4E79A7");
        assert!(check_path(Path::new("a/b.svg")).is_ok());
        assert!(check_path(Path::new("b.SVG")).is_ok());
        assert!(check_path(Path::new("b.png")).is_err());
        assert!(check_path(Path::new("svg")).is_err());
    }
}
