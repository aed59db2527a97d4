//! What the fuzz targets share: reading a board from the first line of an input.

use pdbformat::Board;

/// The board named on the first line of `data` (`WxH`; 4x4 when that line is unreadable, too
/// large or missing) and the text after it (the whole text when there is no second line);
/// `None` when `data` is not UTF-8.
pub fn board_then_text(data: &[u8]) -> Option<(Board, &str)> {
    let text = std::str::from_utf8(data).ok()?;
    let (first, rest) = text.split_once('\n').unwrap_or(("4x4", text));
    let board = first
        .parse::<Board>()
        .ok()
        .filter(|b| b.cells() <= 4096)
        .unwrap_or(Board::new(4, 4).unwrap());
    Some((board, rest))
}
