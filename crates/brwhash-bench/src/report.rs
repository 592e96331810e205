//! The results as a Markdown table, JSON and an SVG plot.

use std::fmt::Write as _;

use serde_json::{json, Value};

use crate::suite::{FieldKind, Results};

/// `64`, `1 KiB`, `1 MiB`: a length for column headers and axis labels.
pub fn length_label(n: usize) -> String {
    if n >= 1 << 20 && n & ((1 << 20) - 1) == 0 {
        format!("{} MiB", n >> 20)
    } else if n >= 1024 && n & 1023 == 0 {
        format!("{} KiB", n >> 10)
    } else {
        n.to_string()
    }
}

fn field_name(field: FieldKind) -> &'static str {
    match field {
        FieldKind::Prime => "Poly1305",
        FieldKind::Binary => "GHASH/POLYVAL",
    }
}

/// The lines above the tables: machine, clock and method.
pub fn header(r: &Results) -> String {
    let m = &r.machine;
    let names = |v: &[brwhash::Backend]| v.iter().map(|b| b.name()).collect::<Vec<_>>().join(", ");
    let mut s = String::new();
    let _ = writeln!(s, "CPU: {} ({} logical CPUs)", m.cpu, m.logical_cpus);
    let _ = writeln!(s, "Clock: {}", r.clock.describe());
    let _ = writeln!(
        s,
        "brwhash backends: CPU supports {}; built and runnable here: {}",
        names(&m.cpu_backends),
        names(&m.available_backends)
    );
    if !m.peer_versions.is_empty() {
        let _ = writeln!(s, "Peers: {}", m.peer_versions.join("; "));
    }
    let _ = writeln!(s, "{}", method(r));
    s
}

/// The method line: clock source, batches, rounds and the measurement's wall time.
pub fn method(r: &Results) -> String {
    format!(
        "Method: {}, one message per call, median of {} batches of ~{} us, median of {} \
         interleaved rounds{}; measured in {:.1} s",
        r.clock.source,
        r.settings.batches,
        r.settings.batch.as_micros(),
        r.settings.rounds,
        if r.quick {
            " (--quick: rough numbers)"
        } else {
            ""
        },
        r.elapsed.as_secs_f64()
    )
}

fn table_head(s: &mut String, r: &Results, first: &[&str]) {
    s.push('|');
    for h in first {
        let _ = write!(s, " {h} |");
    }
    for &n in &r.lengths {
        let _ = write!(s, " {} |", length_label(n));
    }
    s.push_str("\n|");
    for _ in first {
        s.push_str("---|");
    }
    for _ in &r.lengths {
        s.push_str("---:|");
    }
    s.push('\n');
}

/// The tables: TSC cycles per byte of every row, then each brwhash row's ratio to the
/// fastest peer of its field kind at each length.
pub fn tables(r: &Results) -> String {
    let mut s = String::new();
    let unit = if r.clock.source == "rdtsc" {
        "TSC cycles"
    } else {
        "nanoseconds"
    };
    let _ = writeln!(
        s,
        "{unit} per byte (core cycles per byte ~ {:.3} x these; lower is better):\n",
        r.clock.core_per_tick
    );
    table_head(&mut s, r, &["implementation", "backend / call", "mode"]);
    for (i, row) in r.rows.iter().enumerate() {
        let _ = write!(
            s,
            "| {} | {} | {} |",
            row.info.name(),
            row.info.backend,
            row.info.mode
        );
        for l in 0..r.lengths.len() {
            let _ = write!(s, " {:.3} |", r.tsc_cpb(i, l));
        }
        s.push('\n');
    }
    for field in [FieldKind::Prime, FieldKind::Binary] {
        let ours: Vec<usize> = (0..r.rows.len())
            .filter(|&i| !r.rows[i].info.peer && r.rows[i].info.field == field)
            .collect();
        let best: Vec<Option<usize>> = (0..r.lengths.len())
            .map(|l| r.fastest_peer(field, l))
            .collect();
        if ours.is_empty() || best.iter().any(Option::is_none) {
            continue;
        }
        let same = best.windows(2).all(|w| w[0] == w[1]);
        if same {
            let b = best[0].expect("checked above");
            let _ = writeln!(
                s,
                "\nRatio to {} ({}), the fastest {} peer of this run at every length (row \
                 cycles / peer cycles in each round: the median, and the lowest-highest round; \
                 below 1: faster than every peer):\n",
                r.rows[b].info.name(),
                r.rows[b].info.backend,
                field_name(field)
            );
            table_head(&mut s, r, &["implementation", "backend", "mode"]);
        } else {
            let _ = writeln!(
                s,
                "\nRatio to the fastest {} peer of this run at each length (row cycles / peer \
                 cycles in each round: the median, and the lowest-highest round; below 1: \
                 faster than every peer):\n",
                field_name(field)
            );
            table_head(&mut s, r, &["implementation", "backend", "mode"]);
            let _ = write!(s, "| fastest peer | | |");
            for b in best.iter().flatten() {
                let _ = write!(s, " {} |", r.rows[*b].info.name());
            }
            s.push('\n');
        }
        for &i in &ours {
            let row = &r.rows[i];
            let _ = write!(
                s,
                "| {} | {} | {} |",
                row.info.name(),
                row.info.backend,
                row.info.mode
            );
            for (l, b) in best.iter().enumerate() {
                let q = r.round_ratio(i, b.expect("checked above"), l);
                let _ = write!(s, " {:.2} ({:.2}-{:.2}) |", q.median, q.min, q.max);
            }
            s.push('\n');
        }
    }
    if !r.notes.is_empty() {
        s.push('\n');
        for note in &r.notes {
            let _ = writeln!(s, "Note: {note}");
        }
    }
    s
}

/// A whole Markdown document: a title, [`header`] and [`tables`].
pub fn markdown(r: &Results) -> String {
    let mut s = String::from("# brwhash bench\n\n");
    for line in header(r).lines() {
        let _ = writeln!(s, "{line}  ");
    }
    s.push('\n');
    s.push_str(&tables(r));
    s
}

fn finite(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        Value::Null
    }
}

/// Every measurement as JSON (pretty-printed): the machine, the clock, the method, and one
/// object per row and length with `name`, `algorithm`, `backend`, `mode`, `length`,
/// `tsc_cycles_per_byte`, `core_cycles_per_byte`, `gb_per_s` and more.
pub fn json(r: &Results) -> String {
    let mut measurements = Vec::new();
    for (i, row) in r.rows.iter().enumerate() {
        for (l, &len) in r.lengths.iter().enumerate() {
            let ratio = r
                .fastest_peer(row.info.field, l)
                .filter(|_| !row.info.peer)
                .map(|b| r.round_ratio(i, b, l));
            measurements.push(json!({
                "name": row.info.name(),
                "implementation": row.info.implementation,
                "algorithm": row.info.algorithm,
                "backend": row.info.backend,
                "mode": row.info.mode.name(),
                "peer": row.info.peer,
                "length": len,
                "tsc_cycles_per_call": finite(row.ticks[l]),
                "tsc_cycles_per_byte": finite(r.tsc_cpb(i, l)),
                "core_cycles_per_byte": finite(r.core_cpb(i, l)),
                "gb_per_s": finite(r.gb_per_s(i, l)),
                "round_spread": finite(r.spread(i, l)),
                "ratio_to_fastest_peer": ratio.map_or(Value::Null, |q| finite(q.median)),
                "ratio_round_min": ratio.map_or(Value::Null, |q| finite(q.min)),
                "ratio_round_max": ratio.map_or(Value::Null, |q| finite(q.max)),
            }));
        }
    }
    let names = |v: &[brwhash::Backend]| v.iter().map(|b| b.name()).collect::<Vec<_>>();
    let doc = json!({
        "tool": "brwhash bench",
        "version": env!("CARGO_PKG_VERSION"),
        "machine": {
            "cpu": r.machine.cpu,
            "logical_cpus": r.machine.logical_cpus,
            "cpu_backends": names(&r.machine.cpu_backends),
            "available_backends": names(&r.machine.available_backends),
            "peer_versions": r.machine.peer_versions,
        },
        "clock": {
            "source": r.clock.source,
            "tick_hz": finite(r.clock.tick_hz),
            "core_cycles_per_tick": finite(r.clock.core_per_tick),
            "core_hz_estimate": finite(r.clock.core_hz()),
        },
        "method": {
            "batch_us": r.settings.batch.as_secs_f64() * 1e6,
            "batches": r.settings.batches,
            "rounds": r.settings.rounds,
            "quick": r.quick,
            "elapsed_s": r.elapsed.as_secs_f64(),
        },
        "lengths": r.lengths,
        "notes": r.notes,
        "measurements": measurements,
    });
    let mut out = serde_json::to_string_pretty(&doc).expect("JSON values serialise");
    out.push('\n');
    out
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Tick values 1, 2, 5 x 10^k within [lo, hi].
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let mut v = Vec::new();
    let mut e = lo.log10().floor() as i32 - 1;
    while 10f64.powi(e) <= hi * 1.0001 {
        for m in [1.0, 2.0, 5.0] {
            let t = m * 10f64.powi(e);
            if t >= lo * 0.9999 && t <= hi * 1.0001 {
                v.push(t);
            }
        }
        e += 1;
    }
    v
}

fn number_label(x: f64) -> String {
    if x >= 10.0 {
        format!("{x:.0}")
    } else if x >= 1.0 {
        format!("{x:.1}")
    } else if x >= 0.1 {
        format!("{x:.2}")
    } else {
        format!("{x:.3}")
    }
}

/// Twenty distinguishable colours (the "tab20" order, dark shades first).
const PALETTE: [&str; 20] = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#bcbd22", "#7f7f7f", "#393b79", "#637939", "#8c6d31", "#843c39", "#7b4173", "#3182bd",
    "#e6550d", "#31a354", "#756bb1", "#636363",
];

/// Legend line spacing in pixels.
const LEGEND_STEP: f64 = 17.0;

/// An SVG plot of cycles per byte against message length, both axes logarithmic (as the
/// lengths span 64 bytes to megabytes and the rows an order of magnitude), one line per row:
/// brwhash rows solid (one-shot dashed), peers dotted with hollow markers; a legend on the
/// right (the picture grows taller when the legend needs it).
pub fn svg(r: &Results) -> String {
    // Wide enough for the longest legend label (about 6.6 px per character at 12 px).
    let longest = r
        .rows
        .iter()
        .map(|row| legend_label(&row.info).chars().count());
    let w = f64::max(1250.0, 840.0 + 6.6 * longest.max().unwrap_or(0) as f64).round();
    let h = f64::max(620.0, 70.0 + LEGEND_STEP * r.rows.len() as f64);
    let (left, right, top, bottom) = (80.0, 780.0, 50.0, 560.0);
    let lens: Vec<f64> = r.lengths.iter().map(|&n| n as f64).collect();
    let (mut xmin, mut xmax) = (
        lens.iter().copied().fold(f64::MAX, f64::min),
        lens.iter().copied().fold(f64::MIN, f64::max),
    );
    if xmax / xmin < 2.0 {
        xmin /= 2.0;
        xmax *= 2.0;
    }
    let values: Vec<f64> = (0..r.rows.len())
        .flat_map(|i| (0..r.lengths.len()).map(move |l| (i, l)))
        .map(|(i, l)| r.tsc_cpb(i, l))
        .filter(|v| v.is_finite() && *v > 0.0)
        .collect();
    let (mut ymin, mut ymax) = (
        values.iter().copied().fold(f64::MAX, f64::min),
        values.iter().copied().fold(f64::MIN, f64::max),
    );
    if values.is_empty() {
        (ymin, ymax) = (0.1, 10.0);
    }
    // Pad to whole 1-2-5 steps.
    let down = |v: f64| {
        let e = 10f64.powf(v.log10().floor());
        [5.0, 2.0, 1.0]
            .into_iter()
            .map(|m| m * e)
            .find(|&t| t <= v)
            .unwrap_or(e)
    };
    let up = |v: f64| {
        let e = 10f64.powf(v.log10().floor());
        [1.0, 2.0, 5.0, 10.0]
            .into_iter()
            .map(|m| m * e)
            .find(|&t| t >= v)
            .unwrap_or(10.0 * e)
    };
    ymin = down(ymin);
    ymax = up(ymax);
    if ymax / ymin < 2.0 {
        ymax = ymin * 10.0;
    }
    let x = |v: f64| left + (v.ln() - xmin.ln()) / (xmax.ln() - xmin.ln()) * (right - left);
    let y = |v: f64| bottom - (v.ln() - ymin.ln()) / (ymax.ln() - ymin.ln()) * (bottom - top);

    let mut s = String::new();
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">"
    );
    let _ = writeln!(s, "<rect width=\"{w}\" height=\"{h}\" fill=\"white\"/>");
    let unit = if r.clock.source == "rdtsc" {
        "TSC cycles per byte"
    } else {
        "nanoseconds per byte"
    };
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"24\" text-anchor=\"middle\" font-size=\"15\">{}</text>",
        (left + right) / 2.0,
        xml_escape(&format!("{unit} vs message length - {}", r.machine.cpu))
    );
    // Grid and ticks.
    for &n in &r.lengths {
        let px = x(n as f64);
        let _ = writeln!(
            s,
            "<line x1=\"{px:.1}\" y1=\"{top}\" x2=\"{px:.1}\" y2=\"{bottom}\" stroke=\"#e5e5e5\"/>\
             <text x=\"{px:.1}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            bottom + 18.0,
            xml_escape(&length_label(n))
        );
    }
    for t in log_ticks(ymin, ymax) {
        let py = y(t);
        let _ = writeln!(
            s,
            "<line x1=\"{left}\" y1=\"{py:.1}\" x2=\"{right}\" y2=\"{py:.1}\" stroke=\"#e5e5e5\"/>\
             <text x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            left - 6.0,
            py + 4.0,
            number_label(t)
        );
    }
    let _ = writeln!(
        s,
        "<rect x=\"{left}\" y=\"{top}\" width=\"{}\" height=\"{}\" fill=\"none\" \
         stroke=\"#333\"/>",
        right - left,
        bottom - top
    );
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">message length (bytes, log scale)</text>",
        (left + right) / 2.0,
        bottom + 40.0
    );
    let _ = writeln!(
        s,
        "<text x=\"20\" y=\"{0}\" text-anchor=\"middle\" transform=\"rotate(-90 20 {0})\">{1} \
         (log scale)</text>",
        (top + bottom) / 2.0,
        unit
    );
    // Lines and legend.
    for (i, row) in r.rows.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        let (dash, width, hollow) = match (row.info.peer, row.info.mode) {
            (true, _) => ("2 3", 2.0, true),
            (false, crate::suite::Mode::OneShot) => ("7 4", 1.6, false),
            (false, crate::suite::Mode::Key) => ("none", 1.6, false),
            (false, crate::suite::Mode::Stream) => ("1 3", 1.6, false),
            (false, crate::suite::Mode::NewKey) => ("7 2 1 2", 1.6, false),
        };
        let points: Vec<String> = (0..r.lengths.len())
            .filter(|&l| r.tsc_cpb(i, l).is_finite() && r.tsc_cpb(i, l) > 0.0)
            .map(|l| format!("{:.1},{:.1}", x(lens[l]), y(r.tsc_cpb(i, l))))
            .collect();
        let _ = writeln!(
            s,
            "<polyline fill=\"none\" stroke=\"{color}\" stroke-width=\"{width}\" \
             stroke-dasharray=\"{dash}\" points=\"{}\"><title>{}</title></polyline>",
            points.join(" "),
            xml_escape(&row.info.label())
        );
        for p in &points {
            let (px, py) = p.split_once(',').expect("x,y");
            let fill = if hollow { "white" } else { color };
            let _ = writeln!(
                s,
                "<circle cx=\"{px}\" cy=\"{py}\" r=\"2.6\" fill=\"{fill}\" stroke=\"{color}\"/>"
            );
        }
        let ly = top + 8.0 + LEGEND_STEP * i as f64;
        let lx = right + 16.0;
        let _ = writeln!(
            s,
            "<line x1=\"{lx}\" y1=\"{ly:.1}\" x2=\"{:.1}\" y2=\"{ly:.1}\" stroke=\"{color}\" \
             stroke-width=\"{width}\" stroke-dasharray=\"{dash}\"/><text x=\"{:.1}\" \
             y=\"{:.1}\" font-size=\"11\">{}</text><circle cx=\"{:.1}\" cy=\"{ly:.1}\" \
             r=\"2.6\" fill=\"{}\" stroke=\"{color}\"/>",
            lx + 28.0,
            lx + 34.0,
            ly + 4.0,
            xml_escape(&legend_label(&row.info)),
            lx + 14.0,
            if hollow { "white" } else { color },
        );
    }
    s.push_str("</svg>\n");
    s
}

fn legend_label(info: &crate::suite::RowInfo) -> String {
    if info.peer {
        format!("{} ({})", info.name(), info.backend)
    } else {
        format!("{} [{}, {}]", info.name(), info.backend, info.mode)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_labelled() {
        assert_eq!(length_label(64), "64");
        assert_eq!(length_label(1024), "1 KiB");
        assert_eq!(length_label(65536), "64 KiB");
        assert_eq!(length_label(1 << 20), "1 MiB");
        assert_eq!(length_label(1000), "1000");
    }

    /// A run of one brwhash row and one peer over three rounds at one length.
    fn two_rows(ours: [f64; 3], peer: [f64; 3]) -> Results {
        use crate::harness::{Clock, Settings};
        use crate::machine::Machine;
        use crate::suite::{Mode, RowInfo, RowResult};
        let row = |rounds: [f64; 3], is_peer: bool| {
            let mut sorted = rounds;
            sorted.sort_by(f64::total_cmp);
            RowResult {
                info: RowInfo {
                    implementation: if is_peer { "Peer" } else { "brwhash" }.into(),
                    algorithm: "Poly1305".into(),
                    backend: "scalar".into(),
                    mode: Mode::Key,
                    peer: is_peer,
                    field: FieldKind::Prime,
                },
                ticks: vec![sorted[1]],
                rounds: vec![rounds.to_vec()],
            }
        };
        Results {
            machine: Machine {
                cpu: "test".into(),
                logical_cpus: 1,
                cpu_backends: vec![],
                available_backends: vec![],
                peer_versions: vec![],
            },
            clock: Clock {
                source: "rdtsc",
                tick_hz: 1e9,
                core_per_tick: 1.0,
            },
            settings: Settings::quick(),
            quick: true,
            lengths: vec![1024],
            rows: vec![row(ours, false), row(peer, true)],
            notes: vec![],
            elapsed: std::time::Duration::from_secs(1),
        }
    }

    /// Ratios are taken round by round: a slow round of one row (here the second round of
    /// ours) moves the median of the rows' medians, not the median of the rounds' ratios.
    #[test]
    fn ratios_are_per_round() {
        let r = two_rows([10.0, 22.0, 30.0], [5.0, 10.0, 30.0]);
        // Medians 22 / 10 = 2.2; rounds 10/5 = 2, 22/10 = 2.2, 30/30 = 1.
        let q = r.round_ratio(0, 1, 0);
        assert_eq!((q.median, q.min, q.max), (2.0, 1.0, 2.2));
        let t = tables(&r);
        assert!(
            t.contains("| brwhash Poly1305 | scalar | key | 2.00 (1.00-2.20) |"),
            "{t}"
        );
        let doc: Value = serde_json::from_str(&json(&r)).unwrap();
        let m = &doc["measurements"][0];
        assert_eq!(m["ratio_to_fastest_peer"], 2.0);
        assert_eq!(m["ratio_round_min"], 1.0);
        assert_eq!(m["ratio_round_max"], 2.2);
        assert_eq!(doc["measurements"][1]["ratio_to_fastest_peer"], Value::Null);
    }

    #[test]
    fn log_ticks_are_1_2_5() {
        assert_eq!(log_ticks(0.1, 1.0), vec![0.1, 0.2, 0.5, 1.0]);
        assert_eq!(log_ticks(2.0, 20.0), vec![2.0, 5.0, 10.0, 20.0]);
    }
}
