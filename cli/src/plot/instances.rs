//! The figure of `solver bench --plot`: the nodes of each instance on a logarithmic axis, ours
//! beside the published count where the bench file gives one (Korf & Felner's on Korf's
//! 24-puzzle instances): a filled circle per solved instance, a hollow one at the nodes a
//! stopped search had generated, a triangle per published count.

use super::{drawing, legend, legend_height, log_label, log_range, render, GREY};
use anyhow::Result;
use plotters::prelude::*;
use std::path::Path;

/// One instance of the bench file.
#[derive(Clone, Debug, PartialEq)]
pub struct Instance {
    /// Its number (the file's id, else its place from 1).
    pub number: usize,
    /// Our nodes, and whether the search finished (`false`: stopped by a limit, the nodes it
    /// had generated); `None` when it was not searched (an error).
    pub ours: Option<(u64, bool)>,
    /// The published node count, if the file gives one.
    pub published: Option<u64>,
}

/// What the figure shows.
#[derive(Debug)]
pub struct Figure<'a> {
    /// The line above the chart (file and board).
    pub title: String,
    /// The smaller line under it (the heuristic).
    pub subtitle: String,
    /// The instances, in the file's order.
    pub instances: &'a [Instance],
}

/// The colour of our solved instances.
pub const OURS: RGBColor = super::PALETTE[0];
/// The colour of the published counts.
pub const PUBLISHED: RGBColor = super::PALETTE[1];

/// Height of the chart in pixels.
const CHART: u32 = 480;
/// Width of a legend column in pixels.
const COLUMN: i32 = 330;

/// Draws `figure` into the SVG file `path`.
pub fn draw(path: &Path, figure: &Figure) -> Result<()> {
    let n = figure.instances.len();
    let width = (260 + 22 * n as u32).clamp(800, 1800);
    let has = |f: fn(&Instance) -> bool| figure.instances.iter().any(f);
    let stopped = has(|i| matches!(i.ours, Some((_, false))));
    let has_published = has(|i| i.published.is_some());
    let keys = 1 + stopped as usize + has_published as usize;
    let height = 40 + CHART + legend_height(keys, COLUMN, width);
    render(path, (width, height), (&figure.title, 18), |root| {
        let values = figure.instances.iter().flat_map(|i| {
            [i.ours.map(|(n, _)| n as f64), i.published.map(|p| p as f64)]
                .into_iter()
                .flatten()
        });
        let (lo, hi) = log_range(values, 1.0);
        let numbers: Vec<usize> = figure.instances.iter().map(|i| i.number).collect();
        let (body, foot) = root.split_vertically(CHART);
        let mut chart = ChartBuilder::on(&body)
            .caption(
                &figure.subtitle,
                ("sans-serif", 13).into_font().color(&GREY),
            )
            .margin(14)
            .x_label_area_size(44)
            .y_label_area_size(76)
            .build_cartesian_2d(-0.6..(n.max(1) as f64 - 0.4), (lo..hi).log_scale())
            .map_err(drawing)?;
        chart
            .configure_mesh()
            .x_desc("instance")
            .y_desc("nodes (log scale)")
            .x_labels(n.clamp(2, 50))
            .x_label_formatter(&|x| {
                let i = x.round();
                if (x - i).abs() < 1e-6 && i >= 0.0 {
                    numbers
                        .get(i as usize)
                        .map_or(String::new(), |n| n.to_string())
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|y| log_label(*y))
            .light_line_style(TRANSPARENT)
            .bold_line_style(RGBColor(228, 231, 238))
            .draw()
            .map_err(drawing)?;
        let published: Vec<(f64, u64)> = figure
            .instances
            .iter()
            .enumerate()
            .filter_map(|(i, x)| x.published.map(|p| (i as f64, p)))
            .collect();
        let solved = |done: bool| {
            figure
                .instances
                .iter()
                .enumerate()
                .filter_map(move |(i, x)| match x.ours {
                    Some((nodes, d)) if d == done => Some((i as f64, nodes)),
                    _ => None,
                })
        };
        let dx = if has_published { 0.15 } else { 0.0 };
        let mut keys = vec![("ours".to_string(), OURS.filled())];
        chart
            .draw_series(
                solved(true).map(|(x, n)| Circle::new((x - dx, n.max(1) as f64), 4, OURS.filled())),
            )
            .map_err(drawing)?;
        if stopped {
            keys.push((
                "ours, stopped by a limit (the nodes so far)".into(),
                OURS.stroke_width(2),
            ));
            chart
                .draw_series(
                    solved(false).map(|(x, n)| {
                        Circle::new((x - dx, n.max(1) as f64), 4, OURS.stroke_width(2))
                    }),
                )
                .map_err(drawing)?;
        }
        if has_published {
            keys.push(("published (from the bench file)".into(), PUBLISHED.filled()));
            chart
                .draw_series(published.iter().map(|&(x, n)| {
                    TriangleMarker::new((x + dx, n.max(1) as f64), 6, PUBLISHED.filled())
                }))
                .map_err(drawing)?;
        }
        legend(&foot, &keys, COLUMN)?;
        Ok(())
    })
}
