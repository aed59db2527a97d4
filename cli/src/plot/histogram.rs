//! The figure of `pdbgen info --plot`: the value histogram of each table of a file, one panel
//! per table, one bar per value (entries holding that value), with the mean marked.

use super::{drawing, render, GREY};
use anyhow::Result;
use plotters::prelude::*;
use std::path::Path;

/// One table's panel.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// The panel's caption (table, pattern, entries).
    pub caption: String,
    /// Entries per value, from 0; `None` when the values are not known (a `bit1` table read
    /// without restoring them), with `note` saying why.
    pub counts: Option<Vec<u64>>,
    /// The mean value, marked by a line.
    pub mean: Option<f64>,
    /// Said in the panel instead of the bars when there are no counts.
    pub note: String,
}

/// The colour of the bars.
pub const BAR: RGBColor = super::PALETTE[0];
/// The colour of the mean's line.
pub const MEAN: RGBColor = super::PALETTE[2];

/// Height of one table's panel in pixels.
const PANEL: u32 = 280;

/// Draws the panels of `tables` under `title` into the SVG file `path`.
pub fn draw(path: &Path, title: &str, tables: &[Table]) -> Result<()> {
    let height = 50 + PANEL * tables.len().max(1) as u32;
    render(path, (900, height), (title, 20), |root| {
        let panels = root.split_evenly((tables.len().max(1), 1));
        for (t, area) in tables.iter().zip(&panels) {
            panel(area, t)?;
        }
        Ok(())
    })
}

/// One table's histogram.
fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    t: &Table,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let Some(counts) = &t.counts else {
        area.draw(&Text::new(
            t.caption.clone(),
            (70, 20),
            ("sans-serif", 16).into_font(),
        ))
        .map_err(drawing)?;
        area.draw(&Text::new(
            t.note.clone(),
            (70, 50),
            ("sans-serif", 14).into_font().color(&GREY),
        ))
        .map_err(drawing)?;
        return Ok(());
    };
    let top = counts.iter().copied().max().unwrap_or(0).max(1) as f64 * 1.08;
    let values = counts.len().max(1) as f64;
    let mut chart = ChartBuilder::on(area)
        .caption(&t.caption, ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(90)
        .build_cartesian_2d(-0.6..values - 0.4, 0.0..top)
        .map_err(drawing)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .x_desc("value (moves of the pattern's tiles)")
        .y_desc("entries")
        .x_labels(counts.len().clamp(2, 40))
        .x_label_formatter(&|x| {
            let v = x.round();
            if (x - v).abs() < 1e-6 && v >= 0.0 {
                format!("{v:.0}")
            } else {
                String::new()
            }
        })
        .y_label_formatter(&|y| pdbformat::units::thousands(y.round() as u64))
        .light_line_style(TRANSPARENT)
        .bold_line_style(RGBColor(228, 231, 238))
        .draw()
        .map_err(drawing)?;
    chart
        .draw_series(counts.iter().enumerate().map(|(v, &c)| {
            let v = v as f64;
            Rectangle::new([(v - 0.4, 0.0), (v + 0.4, c as f64)], BAR.filled())
        }))
        .map_err(drawing)?;
    if let Some(mean) = t.mean {
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(mean, 0.0), (mean, top)],
                MEAN.stroke_width(2),
            )))
            .map_err(drawing)?
            .label(format!("mean {mean:.3}"))
            .legend(|(x, y)| Rectangle::new([(x, y - 2), (x + 14, y + 2)], MEAN.filled()));
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperRight)
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(200, 204, 214))
            .label_font(("sans-serif", 13))
            .draw()
            .map_err(drawing)?;
    }
    Ok(())
}
