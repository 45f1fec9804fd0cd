//! Drawing: charts (and, later, boards and kifu diagrams) as SVG.

pub mod chart;
