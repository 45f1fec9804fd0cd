//! Bar charts as standalone SVG: a title, labelled axes with round ticks, one bar per value.

use std::fmt::Write;

/// A bar chart: one bar per (label, value), in order.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct BarChart {
    /// The title over the chart.
    pub title: String,
    /// What the bars are (under the x axis).
    pub x_label: String,
    /// What the values count (beside the y axis).
    pub y_label: String,
    /// The bars.
    pub bars: Vec<(String, f64)>,
}

const WIDTH: f64 = 760.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 50.0;
/// The plot's height, between the title and the bars' labels.
const PLOT_HEIGHT: f64 = 280.0;
/// The most characters of a bar's label (a longer one is cut short with `…`).
const LABEL_CHARS: usize = 32;
/// About how wide a character of the 12 px labels is, and how far a label turned by 45
/// degrees reaches down and left for each pixel of its length.
const CHAR_WIDTH: f64 = 6.8;
const SLANT: f64 = std::f64::consts::FRAC_1_SQRT_2;

impl BarChart {
    /// The chart as an SVG document.
    #[must_use]
    pub fn to_svg(&self) -> String {
        // Labels cut to a length the picture holds, and room under the plot (and left of it,
        // for the first) for them turned by 45 degrees.
        let labels: Vec<String> = self
            .bars
            .iter()
            .map(|(label, _)| {
                if label.chars().count() <= LABEL_CHARS {
                    label.clone()
                } else {
                    let cut: String = label.chars().take(LABEL_CHARS - 1).collect();
                    format!("{}…", cut.trim_end())
                }
            })
            .collect();
        let reach = |label: &String| label.chars().count() as f64 * CHAR_WIDTH * SLANT;
        let longest = labels.iter().map(reach).fold(0.0, f64::max);
        let bottom = (14.0 + longest + 34.0).max(90.0);
        let n = self.bars.len().max(1) as f64;
        let first = labels.first().map_or(0.0, reach);
        let left = (first - (WIDTH - 70.0 - RIGHT) / n / 2.0 + 10.0).max(LEFT);
        let (width, height) = ((WIDTH + left - LEFT).ceil(), (TOP + PLOT_HEIGHT + bottom).ceil());
        let mut svg = String::new();
        let _ = write!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">"#
        );
        let _ = write!(svg, r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##);
        let _ = write!(
            svg,
            r#"<text x="{}" y="28" font-size="16" text-anchor="middle">{}</text>"#,
            width / 2.0,
            escape(&self.title)
        );
        let (plot_w, plot_h) = (width - left - RIGHT, PLOT_HEIGHT);
        let max = self.bars.iter().map(|b| b.1).fold(0.0f64, f64::max);
        let (step, top) = ticks(max);
        // Grid lines and tick labels.
        let mut t = 0.0;
        while t <= top + step / 2.0 {
            let y = TOP + plot_h - t / top * plot_h;
            let _ = write!(
                svg,
                r##"<line x1="{left}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#dddddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{}</text>"##,
                left + plot_w,
                left - 6.0,
                y + 4.0,
                number(t)
            );
            t += step;
        }
        // Bars, with labels under them (every label when they fit, else every k-th).
        let slot = plot_w / n;
        let every = (12.0 / slot).ceil().max(1.0) as usize;
        for (i, (label, value)) in self.bars.iter().enumerate() {
            let h = if top > 0.0 { value / top * plot_h } else { 0.0 };
            let x = left + i as f64 * slot;
            let _ = write!(
                svg,
                r##"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{h:.1}" fill="#3a6ea5"><title>{}: {}</title></rect>"##,
                x + slot * 0.1,
                TOP + plot_h - h,
                slot * 0.8,
                escape(label),
                number(*value)
            );
            if i % every == 0 {
                let (lx, ly) = (x + slot / 2.0, TOP + plot_h + 14.0);
                let _ = write!(
                    svg,
                    r#"<text x="{lx:.1}" y="{ly:.1}" text-anchor="end" transform="rotate(-45 {lx:.1} {ly:.1})">{}</text>"#,
                    escape(&labels[i])
                );
            }
        }
        // Axes and their labels.
        let _ = write!(
            svg,
            r##"<line x1="{left}" y1="{TOP}" x2="{left}" y2="{:.1}" stroke="#333333"/><line x1="{left}" y1="{:.1}" x2="{:.1}" y2="{:.1}" stroke="#333333"/>"##,
            TOP + plot_h,
            TOP + plot_h,
            left + plot_w,
            TOP + plot_h
        );
        let _ = write!(
            svg,
            r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
            left + plot_w / 2.0,
            height - 12.0,
            escape(&self.x_label)
        );
        let _ = write!(
            svg,
            r#"<text x="18" y="{:.1}" text-anchor="middle" transform="rotate(-90 18 {:.1})">{}</text>"#,
            TOP + plot_h / 2.0,
            TOP + plot_h / 2.0,
            escape(&self.y_label)
        );
        svg.push_str("</svg>\n");
        svg
    }
}

/// A round tick step and the axis top for values up to `max`.
fn ticks(max: f64) -> (f64, f64) {
    if max <= 0.0 {
        return (1.0, 1.0);
    }
    let rough = max / 5.0;
    let magnitude = 10f64.powf(rough.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * magnitude).find(|&s| s >= rough).unwrap_or(10.0 * magnitude);
    (step, (max / step).ceil() * step)
}

fn number(x: f64) -> String {
    if (x - x.round()).abs() < 1e-9 { format!("{}", x.round() as i64) } else { format!("{x:.2}") }
}

/// Text made safe for XML.
pub(crate) fn escape(text: &str) -> String {
    // XML has no place for control characters (a name with one made the SVG unreadable).
    crate::notation::printable(text)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether every tag opened is closed in order (self-closing tags aside).
    fn balanced(svg: &str) -> bool {
        let mut stack = Vec::new();
        for part in svg.split('<').skip(1) {
            let tag = part.split('>').next().unwrap_or("");
            let name: String = tag.trim_start_matches('/').chars().take_while(|c| c.is_ascii_alphanumeric()).collect();
            if tag.starts_with('/') {
                if stack.pop() != Some(name) {
                    return false;
                }
            } else if !tag.ends_with('/') {
                stack.push(name);
            }
        }
        stack.is_empty()
    }

    #[test]
    fn a_chart_is_well_formed_svg_with_a_bar_per_value() {
        let chart = BarChart {
            title: "Margins <black & white>".into(),
            x_label: "margin".into(),
            y_label: "games".into(),
            bars: (-10..=10).map(|m| (m.to_string(), f64::from(100 - m * m))).collect(),
        };
        let svg = chart.to_svg();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(balanced(&svg), "{svg}");
        assert_eq!(svg.matches("<rect").count(), 1 + 21, "the background and one bar per value");
        assert!(svg.contains("Margins &lt;black &amp; white&gt;"));
    }

    #[test]
    fn ticks_are_round() {
        assert_eq!(ticks(9113.0), (2000.0, 10000.0));
        assert_eq!(ticks(7.0), (2.0, 8.0));
        assert_eq!(ticks(0.0), (1.0, 1.0));
        assert!(balanced(&BarChart::default().to_svg()));
    }
}
