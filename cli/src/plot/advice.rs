//! The figure of `pdbgen advise --plot`: predicted nodes against the tables' bytes, one circle
//! per partition, the best (fewest predicted nodes) a larger red one, both axes logarithmic.

use super::{drawing, log_range, render, series_color, GREY};
use anyhow::Result;
use plotters::prelude::*;
use std::path::Path;

/// One partition.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    /// The partition as written.
    pub label: String,
    /// Bytes of its tables as the solver holds them.
    pub bytes: f64,
    /// Predicted mean nodes expanded.
    pub nodes: f64,
    /// Whether it is the best.
    pub best: bool,
}

/// The colour of the best partition's mark.
pub const BEST: RGBColor = super::PALETTE[2];

/// Draws `points` under `title` into the SVG file `path`.
pub fn draw(path: &Path, title: &str, points: &[Point]) -> Result<()> {
    render(path, (900, 600), (title, 20), |root| {
        let (x0, x1) = log_range(points.iter().map(|p| p.bytes), 1.0);
        let (y0, y1) = log_range(points.iter().map(|p| p.nodes), 1.0);
        let mut chart = ChartBuilder::on(root)
            .margin(20)
            .x_label_area_size(45)
            .y_label_area_size(80)
            .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())
            .map_err(drawing)?;
        chart
            .configure_mesh()
            .x_desc("bytes of the tables")
            .y_desc("predicted nodes expanded (mean)")
            .x_label_formatter(&|x| pdbformat::units::approx_bytes(*x))
            .y_label_formatter(&|y| format!("{y:.0e}"))
            .axis_desc_style(("sans-serif", 15).into_font().color(&GREY))
            .draw()
            .map_err(drawing)?;
        chart
            .draw_series(points.iter().map(|p| {
                let (size, style) = if p.best {
                    (8, BEST.filled())
                } else {
                    (5, series_color(0).filled())
                };
                Circle::new((p.bytes, p.nodes), size, style)
            }))
            .map_err(drawing)?;
        chart
            .draw_series(points.iter().filter(|p| p.best).map(|p| {
                Text::new(
                    format!("best: {}", p.label),
                    (p.bytes, p.nodes),
                    ("sans-serif", 14).into_font(),
                )
            }))
            .map_err(drawing)?;
        Ok(())
    })
}
