//! Sheets: several SVG diagrams on one page, in a grid, for printed puzzle and exercise sheets.

/// The space between two diagrams and around the page, in pixels.
const GAP: f64 = 16.0;

/// One page of `diagrams` (SVG documents as [`super::svg`] draws them) in a grid of `columns`,
/// row by row: each column as wide as its widest diagram, each row as tall as its tallest, on a
/// white page (none with `transparent`). A text that is no such SVG is left out.
#[must_use]
pub fn page(diagrams: &[String], columns: usize, transparent: bool) -> String {
    let sized: Vec<(&str, f64, f64)> =
        diagrams.iter().filter_map(|svg| size(svg).map(|(w, h)| (svg.as_str(), w, h))).collect();
    let columns = columns.max(1);
    let rows = sized.len().div_ceil(columns);
    let mut widths = vec![0.0f64; columns];
    let mut heights = vec![0.0f64; rows];
    for (i, &(_, w, h)) in sized.iter().enumerate() {
        widths[i % columns] = widths[i % columns].max(w);
        heights[i / columns] = heights[i / columns].max(h);
    }
    let used = widths.iter().filter(|&&w| w > 0.0).count();
    let width = widths.iter().sum::<f64>() + GAP * (used as f64 + 1.0);
    let height = heights.iter().sum::<f64>() + GAP * (rows as f64 + 1.0);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} \
         {height}\">"
    );
    if !transparent {
        out.push_str(&format!("<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>"));
    }
    let mut y = GAP;
    for (row, height) in heights.iter().enumerate() {
        let mut x = GAP;
        for (column, width) in widths.iter().enumerate() {
            if let Some((svg, _, _)) = sized.get(row * columns + column) {
                // The diagram as a nested `<svg>` placed at (x, y).
                out.push_str(&format!("<svg x=\"{x}\" y=\"{y}\""));
                out.push_str(&svg.trim()["<svg".len()..]);
            }
            x += width + GAP;
        }
        y += height + GAP;
    }
    out.push_str("</svg>\n");
    out
}

/// The `width` and `height` of an SVG document's root element.
fn size(svg: &str) -> Option<(f64, f64)> {
    let svg = svg.trim();
    if !svg.starts_with("<svg") {
        return None;
    }
    let root = &svg[..svg.find('>')?];
    let attribute = |name: &str| -> Option<f64> {
        let at = root.find(&format!(" {name}=\""))? + name.len() + 3;
        root[at..].split('"').next()?.parse().ok()
    };
    Some((attribute("width")?, attribute("height")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diagram(width: u32, height: u32) -> String {
        format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\"><rect/></svg>")
    }

    #[test]
    fn diagrams_are_set_in_a_grid_of_the_widest_and_tallest() {
        let page = page(&[diagram(100, 50), diagram(80, 70), diagram(90, 40)], 2, false);
        // Columns 100 and 80 wide, rows 70 and 40 tall, 16 around and between.
        assert!(page.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"228\" height=\"158\""), "{page}");
        assert!(page.contains("<svg x=\"16\" y=\"16\" xmlns"), "{page}");
        assert!(page.contains("<svg x=\"132\" y=\"16\" xmlns"), "{page}");
        assert!(page.contains("<svg x=\"16\" y=\"102\" xmlns"), "{page}");
        assert_eq!(page.matches("<svg").count(), 4);
        assert_eq!(page.matches("</svg>").count(), 4);
        assert!(!super::page(&[diagram(10, 10)], 3, true).contains("fill=\"#ffffff\""));
    }
}
