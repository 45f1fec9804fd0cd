//! Drawing: charts, and board diagrams (positions and kifu) as text, SVG or a listing in words.

pub mod chart;
pub mod diagram;
pub mod listing;
pub mod svg;
pub mod text;
