//! Drawing: charts, and board diagrams (positions and kifu) as text or SVG.

pub mod chart;
pub mod diagram;
pub mod svg;
pub mod text;
