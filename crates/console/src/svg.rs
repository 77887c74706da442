//! Inline SVG drawings: a bishop's consecration lineage and a small line chart.
//! Every label is escaped; the drawings carry a `<title>` and `role="img"`.

use crate::html::{esc, esc_trunc};
use std::fmt::Write;

/// One box of the lineage graph: its label and where it links.
#[derive(Debug, Clone)]
pub struct Node {
    /// Name shown.
    pub label: String,
    /// Link (already a path; escaped here).
    pub href: Option<String>,
    /// Small second line (role, date).
    pub note: Option<String>,
}

const MAX_ROW: usize = 8;
const BOX_W: i32 = 180;
const BOX_H: i32 = 46;
const GAP: i32 = 14;

fn node_svg(out: &mut String, n: &Node, x: i32, y: i32, strong: bool) {
    let fill = if strong { "#6b1d1d" } else { "#ffffff" };
    let text = if strong { "#ffffff" } else { "#1a1a1a" };
    let mut inner = format!(
        "<rect x=\"{x}\" y=\"{y}\" width=\"{BOX_W}\" height=\"{BOX_H}\" rx=\"6\" fill=\"{fill}\" stroke=\"#6b1d1d\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"13\" fill=\"{text}\">{}</text>",
        x + BOX_W / 2,
        y + 19,
        esc_trunc(&n.label, 26)
    );
    if let Some(note) = &n.note {
        let _ = write!(
            inner,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\" fill=\"{text}\">{}</text>",
            x + BOX_W / 2,
            y + 36,
            esc_trunc(note, 30)
        );
    }
    match &n.href {
        Some(h) => {
            let _ = write!(out, "<a href=\"{}\">{inner}</a>", esc(h));
        }
        None => out.push_str(&inner),
    }
}

/// The lineage of `center`: its consecrators above, those it consecrated below
/// (at most eight a row; the rest counted).
pub fn lineage(center: &Node, above: &[Node], below: &[Node], title: &str) -> String {
    let row_w = |n: usize| (n.min(MAX_ROW) as i32) * (BOX_W + GAP) - GAP;
    let width = row_w(above.len().max(below.len()).max(1)).max(BOX_W) + 2 * GAP;
    let rows = 1 + i32::from(!above.is_empty()) + i32::from(!below.is_empty());
    let height = rows * (BOX_H + 50) + 20;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"lineage\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" role=\"img\" aria-labelledby=\"lineage-title\"><title id=\"lineage-title\">{}</title>",
        esc(title)
    );
    let cx = (width - BOX_W) / 2;
    let mut y = 10;
    let center_y = if above.is_empty() { y } else { y + BOX_H + 50 };
    if !above.is_empty() {
        for (x, n) in row(above, width) {
            let _ = write!(
                s,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#777\" stroke-width=\"1.5\"/>",
                x + BOX_W / 2,
                y + BOX_H,
                cx + BOX_W / 2,
                center_y
            );
            node_svg(&mut s, n, x, y, false);
        }
        more(&mut s, above.len(), width, y + BOX_H + 14);
        y = center_y;
    }
    node_svg(&mut s, center, cx, y, true);
    if !below.is_empty() {
        let by = y + BOX_H + 50;
        for (x, n) in row(below, width) {
            let _ = write!(
                s,
                "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#777\" stroke-width=\"1.5\"/>",
                cx + BOX_W / 2,
                y + BOX_H,
                x + BOX_W / 2,
                by
            );
            node_svg(&mut s, n, x, by, false);
        }
        more(&mut s, below.len(), width, by + BOX_H + 16);
    }
    s.push_str("</svg>");
    s
}

fn row(nodes: &[Node], width: i32) -> Vec<(i32, &Node)> {
    let n = nodes.len().min(MAX_ROW) as i32;
    let start = (width - (n * (BOX_W + GAP) - GAP)) / 2;
    nodes
        .iter()
        .take(MAX_ROW)
        .enumerate()
        .map(|(i, node)| (start + i as i32 * (BOX_W + GAP), node))
        .collect()
}

fn more(s: &mut String, n: usize, width: i32, y: i32) {
    if n > MAX_ROW {
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{y}\" text-anchor=\"middle\" font-size=\"12\" fill=\"#4a4a4a\">+{} more</text>",
            width / 2,
            n - MAX_ROW
        );
    }
}

/// A small line chart of `points` (year, value); `None` when fewer than two points.
pub fn line_chart(title: &str, points: &[(i64, f64)]) -> Option<String> {
    if points.len() < 2 {
        return None;
    }
    let (w, h, pad_l, pad_b, pad_t, pad_r) = (560.0, 220.0, 70.0, 30.0, 24.0, 16.0);
    let x0 = points.iter().map(|p| p.0).min()? as f64;
    let x1 = points.iter().map(|p| p.0).max()? as f64;
    let y1 = points.iter().map(|p| p.1).fold(f64::MIN, f64::max);
    let y0 = points.iter().map(|p| p.1).fold(f64::MAX, f64::min).min(0.0);
    let xr = (x1 - x0).max(1.0);
    let yr = (y1 - y0).max(1.0);
    let px = |x: f64| pad_l + (x - x0) / xr * (w - pad_l - pad_r);
    let py = |y: f64| h - pad_b - (y - y0) / yr * (h - pad_b - pad_t);
    let mut path = String::new();
    for (i, (x, y)) in points.iter().enumerate() {
        let _ = write!(
            path,
            "{}{:.1},{:.1} ",
            if i == 0 { "M" } else { "L" },
            px(*x as f64),
            py(*y)
        );
    }
    let fmt = |v: f64| {
        if v.abs() >= 1_000_000.0 {
            format!("{:.1}M", v / 1_000_000.0)
        } else if v.abs() >= 10_000.0 {
            format!("{:.0}k", v / 1000.0)
        } else {
            format!("{v:.0}")
        }
    };
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" role=\"img\" aria-label=\"{t}\"><title>{t}</title>",
        t = esc(title)
    );
    let _ = write!(
        s,
        "<text x=\"{pad_l}\" y=\"14\" font-size=\"13\" fill=\"#1a1a1a\">{}</text>",
        esc(title)
    );
    let _ = write!(
        s,
        "<line x1=\"{pad_l}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#555\"/><line x1=\"{pad_l}\" y1=\"{pad_t}\" x2=\"{pad_l}\" y2=\"{}\" stroke=\"#555\"/>",
        h - pad_b,
        w - pad_r,
        h - pad_b,
        h - pad_b
    );
    for v in [y0, (y0 + y1) / 2.0, y1] {
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\" font-size=\"11\" fill=\"#333\">{}</text>",
            pad_l - 6.0,
            py(v) + 4.0,
            fmt(v)
        );
    }
    for x in [x0, x1] {
        let _ = write!(
            s,
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\" font-size=\"11\" fill=\"#333\">{x:.0}</text>",
            px(x),
            h - 10.0
        );
    }
    let _ = write!(
        s,
        "<path d=\"{}\" fill=\"none\" stroke=\"#6b1d1d\" stroke-width=\"2\"/>",
        path.trim_end()
    );
    for (x, y) in points {
        let _ = write!(
            s,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3\" fill=\"#6b1d1d\"><title>{x}: {}</title></circle>",
            px(*x as f64),
            py(*y),
            fmt(*y)
        );
    }
    s.push_str("</svg>");
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lineage_escapes_labels() {
        let n = |l: &str| Node {
            label: l.into(),
            href: Some(format!("/lookup?id={l}")),
            note: None,
        };
        let svg = lineage(&n("<b>"), &[n("a\"b")], &[n("c"), n("d")], "t<");
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains("&lt;b&gt;") && svg.contains("a&quot;b") && svg.contains("t&lt;"));
        assert_eq!(svg.matches("<rect").count(), 4);
    }

    #[test]
    fn chart_needs_two_points() {
        assert!(line_chart("x", &[(2020, 1.0)]).is_none());
        let c = line_chart("Catholics", &[(2020, 1.0e6), (2021, 2.0e6)]).unwrap();
        assert!(c.contains("<path") && c.contains("2.0M"));
    }
}
