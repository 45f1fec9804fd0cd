//! Drawing: charts, and board diagrams (positions and kifu) as text, SVG or a listing in words,
//! and sheets of several SVG diagrams.

pub mod chart;
pub mod diagram;
pub mod listing;
pub mod sheet;
pub mod svg;
pub mod text;
