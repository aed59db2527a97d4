//! The figure of `solver compare --plot`: for every algorithm × heuristic pair, the nodes and
//! the time of each run against the puzzle's optimal length, on logarithmic axes, one mark per
//! puzzle and pair (pairs side by side at each length), each pair's median per length joined
//! by a line, and a legend.

use super::{drawing, legend, legend_height, log_label, log_range, render, series_color, GREY};
use anyhow::Result;
use plotters::prelude::*;
use std::path::Path;

/// One solved run.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The pair's number (its place in [`Figure::pairs`]).
    pub pair: usize,
    /// The puzzle's optimal length (the x of its marks).
    pub optimum: usize,
    /// Generated nodes.
    pub nodes: u64,
    /// Search time in seconds.
    pub seconds: f64,
}

/// What the figure shows.
#[derive(Debug)]
pub struct Figure<'a> {
    /// The line above both panels (puzzles, board, goal).
    pub title: String,
    /// The pairs' labels, in order (the legend).
    pub pairs: &'a [String],
    /// The solved runs with a known optimum.
    pub runs: &'a [Run],
    /// Runs not shown (stopped, failed, or of a puzzle whose optimum is unknown), for the note
    /// under the figure.
    pub left_out: usize,
}

/// Width of the figure in pixels.
const WIDTH: u32 = 1200;
/// Height of the panels in pixels.
const PANELS: u32 = 480;
/// Width of a legend column in pixels.
const COLUMN: i32 = 290;
/// Seconds below this are drawn at it (a logarithmic axis has no zero).
const MIN_SECONDS: f64 = 1e-6;

/// Draws `figure` into the SVG file `path`.
pub fn draw(path: &Path, figure: &Figure) -> Result<()> {
    let legend_h = legend_height(figure.pairs.len(), COLUMN, WIDTH);
    let height = 40 + PANELS + legend_h + 30;
    render(path, (WIDTH, height), (&figure.title, 20), |root| {
        let (body, rest) = root.split_vertically(PANELS);
        let (keys, foot) = rest.split_vertically(legend_h);
        let (left, right) = body.split_horizontally(WIDTH / 2);
        panel(&left, figure, "generated nodes", 1.0, |r| r.nodes as f64)?;
        panel(&right, figure, "seconds", MIN_SECONDS, |r| r.seconds)?;
        let entries: Vec<(String, ShapeStyle)> = figure
            .pairs
            .iter()
            .enumerate()
            .map(|(k, p)| (p.clone(), series_color(k).filled()))
            .collect();
        legend(&keys, &entries, COLUMN)?;
        let mut note = String::from(
            "One mark per puzzle and pair (the pairs side by side at each length); lines join each pair's median per length.",
        );
        if figure.left_out > 0 {
            note += &format!(
                " {} run{} not shown (stopped, failed, or optimum unknown).",
                figure.left_out,
                if figure.left_out == 1 { "" } else { "s" }
            );
        }
        foot.draw(&Text::new(
            note,
            (30, 6),
            ("sans-serif", 13).into_font().color(&GREY),
        ))
        .map_err(drawing)?;
        Ok(())
    })
}

/// One panel: `value` of each run against its optimum, `floor` the smallest value drawn.
fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    figure: &Figure,
    what: &str,
    floor: f64,
    value: impl Fn(&Run) -> f64,
) -> Result<()>
where
    DB::ErrorType: 'static,
{
    let runs = figure.runs;
    let lo = runs.iter().map(|r| r.optimum).min().unwrap_or(0) as f64 - 1.0;
    let hi = runs.iter().map(|r| r.optimum).max().unwrap_or(1) as f64 + 1.0;
    let (ylo, yhi) = log_range(runs.iter().map(&value), floor);
    let mut chart = ChartBuilder::on(area)
        .caption(
            format!("{what} against the optimal length"),
            ("sans-serif", 17),
        )
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(72)
        .build_cartesian_2d(lo.max(-0.5)..hi, (ylo..yhi).log_scale())
        .map_err(drawing)?;
    chart
        .configure_mesh()
        .x_desc("optimal length (moves)")
        .y_desc(format!("{what} (log scale)"))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| log_label(*y))
        .light_line_style(TRANSPARENT)
        .bold_line_style(RGBColor(228, 231, 238))
        .draw()
        .map_err(drawing)?;
    let pairs = figure.pairs.len().max(1);
    for k in 0..figure.pairs.len() {
        let color = series_color(k);
        // The pairs side by side within each length.
        let dx = (k as f64 + 0.5) / pairs as f64 * 0.7 - 0.35;
        let mine: Vec<&Run> = runs.iter().filter(|r| r.pair == k).collect();
        let medians = medians(&mine, &value);
        if medians.len() > 1 {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    medians
                        .into_iter()
                        .map(|(len, v)| (len as f64 + dx, v.max(floor)))
                        .collect::<Vec<_>>(),
                    color.mix(0.8).stroke_width(1),
                )))
                .map_err(drawing)?;
        }
        chart
            .draw_series(mine.iter().map(|r| {
                Circle::new(
                    (r.optimum as f64 + dx, value(r).max(floor)),
                    3,
                    color.mix(0.8).filled(),
                )
            }))
            .map_err(drawing)?;
    }
    Ok(())
}

/// The median of `value` over `runs` at each optimal length, by length.
fn medians(runs: &[&Run], value: impl Fn(&Run) -> f64) -> Vec<(usize, f64)> {
    let mut lengths: Vec<usize> = runs.iter().map(|r| r.optimum).collect();
    lengths.sort_unstable();
    lengths.dedup();
    lengths
        .into_iter()
        .map(|len| {
            let mut v: Vec<f64> = runs
                .iter()
                .filter(|r| r.optimum == len)
                .map(|r| value(r))
                .collect();
            v.sort_by(f64::total_cmp);
            let m = v.len() / 2;
            let median = if v.len() % 2 == 1 {
                v[m]
            } else {
                (v[m - 1] + v[m]) / 2.0
            };
            (len, median)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_per_length() {
        let r = |optimum, nodes| Run {
            pair: 0,
            optimum,
            nodes,
            seconds: 0.0,
        };
        let runs = [r(10, 5), r(10, 1), r(10, 3), r(12, 4), r(12, 8)];
        let refs: Vec<&Run> = runs.iter().collect();
        assert_eq!(
            medians(&refs, |r| r.nodes as f64),
            vec![(10, 3.0), (12, 6.0)]
        );
    }
}
