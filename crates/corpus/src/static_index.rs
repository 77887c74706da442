//! An inverted file over the static model's rows (the vectors every store
//! has from ingest): k-means lists ([`crate::ivf::Centres`]) built in the
//! background when the store is opened (`Dense::open`), so that a search
//! scores the list centres, then every row of the lists nearest the query,
//! exactly, instead of every row.
//!
//! Unlike the transformer's index ([`crate::ivf::Ivf`]) there is no sign-code
//! pass inside the lists: the static model's dimensions are principal
//! components of very unequal variance, and sign codes rank its rows poorly.
//! The lists alone cut the rows read by the probe share (about 20 times at
//! the default), which is what the exact scan spent its time on: reading
//! 128 MB of rows for the full corpus.

use crate::dense::{dot_i8, prefetch, Span, TopK};
use crate::ivf::{lists_for, Bits, Centres, Sample, SAMPLE_PER_LIST};
use std::cell::RefCell;
use std::time::Instant;

/// Stores with fewer rows are scanned exactly (a few milliseconds at most).
pub(crate) const MIN_ROWS: usize = 65_536;
/// Share of the rows a search reads by default (the lists nearest the
/// query): on search_dev it keeps 0.97 of the exact top 100 in a third of
/// the exact scan's time ([`crate::SearchTuning::static_probe_share`]).
pub(crate) const PROBE_SHARE: f32 = 0.2;
/// Fewest rows a probe scores.
const MIN_PROBE_ROWS: usize = 4_096;
/// Seed of the k-means.
const SEED: u64 = 0x0057_a71c;

thread_local! {
    /// The rows passing a search's filters and the lists ranked by their
    /// centres' similarity, reused by the probes of a thread.
    static PROBE: RefCell<(Bits, Vec<(f32, u32)>)> = RefCell::new(Default::default());
}

/// The lists over every row with a vector: centres, each list's rows
/// (ordinals, ascending) one list after the other.
pub(crate) struct StaticIndex {
    centres: Centres,
    /// List `l` is `members[offsets[l]..offsets[l + 1]]`.
    offsets: Vec<u32>,
    members: Vec<u32>,
    /// Seconds the build took.
    pub(crate) seconds: f64,
}

impl StaticIndex {
    /// Train the centres on a sample of the rows (i8 as bytes, `dim` per
    /// row, one scale each; zero: no vector) and assign every row with a
    /// vector to its list. `None` below [`MIN_ROWS`] rows.
    pub(crate) fn build(vectors: &[u8], scales: &[f32], dim: usize) -> Option<StaticIndex> {
        let rows = scales.len().min(vectors.len() / dim.max(1));
        if rows < MIN_ROWS || dim == 0 {
            return None;
        }
        let t0 = Instant::now();
        let lists = lists_for(rows);
        let step = rows.div_ceil(lists * SAMPLE_PER_LIST).max(1);
        let mut bytes = Vec::with_capacity(rows / step * dim + dim);
        let mut sample_scales = Vec::with_capacity(rows / step + 1);
        for o in (0..rows).step_by(step) {
            if scales[o] != 0.0 {
                bytes.extend_from_slice(&vectors[o * dim..(o + 1) * dim]);
                sample_scales.push(scales[o]);
            }
        }
        let sample = Sample {
            bytes: &bytes,
            scales: &sample_scales,
            dim,
        };
        let centres = Centres::train(&sample, lists, SEED);
        let lists = centres.lists();
        let list_of: Vec<u32> = (0..rows)
            .map(|o| {
                if scales[o] == 0.0 {
                    u32::MAX
                } else {
                    centres.assign(&vectors[o * dim..(o + 1) * dim])
                }
            })
            .collect();
        let mut offsets = vec![0u32; lists + 1];
        for &l in &list_of {
            if let Some(c) = offsets.get_mut(l as usize + 1) {
                *c += 1;
            }
        }
        for i in 0..lists {
            offsets[i + 1] += offsets[i];
        }
        let mut next = offsets.clone();
        let mut members = vec![0u32; offsets[lists] as usize];
        for (o, &l) in list_of.iter().enumerate() {
            if let Some(at) = next.get_mut(l as usize) {
                members[*at as usize] = o as u32;
                *at += 1;
            }
        }
        Some(StaticIndex {
            centres,
            offsets,
            members,
            seconds: t0.elapsed().as_secs_f64(),
        })
    }

    /// Lists.
    pub(crate) fn lists(&self) -> usize {
        self.centres.lists()
    }

    /// Rows held.
    pub(crate) fn rows(&self) -> usize {
        self.members.len()
    }

    /// Bytes held.
    pub(crate) fn bytes(&self) -> usize {
        self.centres.bytes() + (self.offsets.len() + self.members.len()) * 4
    }

    /// The `n` rows most similar to the query (`q16`: its i8 components
    /// widened, `qs`: its scale) among the `spans`: the rows of the lists
    /// whose centres are nearest the query, nearest list first, until
    /// `share` of the rows (more when the filters leave only part of them),
    /// all scored exactly. `None` when the probe would read about as many
    /// rows as the spans hold: the caller scans them exactly.
    pub(crate) fn top(
        &self,
        rows: &crate::dense::Rows<'_>,
        (q16, qs): (&[i16], f32),
        n: usize,
        share: f32,
        spans: impl Iterator<Item = Span>,
    ) -> Option<Vec<(u64, f32)>> {
        let dim = rows.dim;
        let len = rows.scales.len();
        PROBE.with(|cell| {
            let (allowed, ranked) = &mut *cell.borrow_mut();
            allowed.reset(len);
            let (mut end, mut whole, mut passing) = (0usize, true, 0usize);
            // Adjacent spans (every document, without filters) are one run.
            let mut run = 0..0;
            for span in spans {
                let lo = (span.first_ord as usize).min(len);
                let hi = ((span.first_ord + span.count) as usize).clamp(lo, len);
                whole &= lo == end;
                end = hi;
                passing += hi - lo;
                if lo == run.end {
                    run.end = hi;
                } else {
                    allowed.set_range(run.start, run.end);
                    run = lo..hi;
                }
            }
            allowed.set_range(run.start, run.end);
            whole &= end == len;
            let total = self.rows().max(1);
            let budget = (share as f64 * total as f64 * len as f64 / passing.max(1) as f64)
                .ceil()
                .max(MIN_PROBE_ROWS.max(n * 4) as f64) as usize;
            if budget >= passing {
                return None;
            }
            self.centres.rank(q16, ranked);
            let mut top = TopK::new(n);
            let mut probed = 0;
            for &(_, list) in ranked.iter() {
                if probed >= budget {
                    break;
                }
                let l = list as usize;
                let (Some(&a), Some(&b)) = (self.offsets.get(l), self.offsets.get(l + 1)) else {
                    continue;
                };
                let members = &self.members[a as usize..b as usize];
                probed += members.len();
                for (i, &ord) in members.iter().enumerate() {
                    if let Some(&ahead) = members.get(i + 2) {
                        prefetch(rows.vectors, ahead as usize * dim);
                    }
                    let o = ord as usize;
                    if !whole && !allowed.get(o) {
                        continue;
                    }
                    let (Some(row), Some(&s)) =
                        (rows.vectors.get(o * dim..(o + 1) * dim), rows.scales.get(o))
                    else {
                        continue;
                    };
                    if s != 0.0 {
                        top.push(ord as u64, dot_i8(q16, row) as f32 * qs * s);
                    }
                }
            }
            Some(top.into_sorted())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dense::{top_cosine, Rows};

    /// Unit rows around `k` random directions, quantised: (bytes, scales).
    fn clustered(rows: usize, dim: usize, k: usize) -> (Vec<u8>, Vec<f32>) {
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            ((seed % 2001) as f32 / 1000.0) - 1.0
        };
        let dirs: Vec<Vec<f32>> = (0..k).map(|_| (0..dim).map(|_| next()).collect()).collect();
        let (mut bytes, mut scales) = (Vec::new(), Vec::new());
        for i in 0..rows {
            let v: Vec<f32> = dirs[(i * 7) % k].iter().map(|x| x + 0.5 * next()).collect();
            let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            let (q, s) = crate::embed::quantize(&v.iter().map(|x| x / norm).collect::<Vec<_>>());
            bytes.extend(q.iter().map(|x| *x as u8));
            scales.push(s);
        }
        (bytes, scales)
    }

    fn spans(ranges: &[(u64, u64)]) -> impl Iterator<Item = Span> + '_ {
        ranges.iter().map(|&(first_ord, count)| Span {
            first_ord,
            count,
            english: true,
        })
    }

    #[test]
    fn small_stores_have_no_index() {
        let (bytes, scales) = clustered(1_000, 16, 4);
        assert!(StaticIndex::build(&bytes, &scales, 16).is_none());
    }

    #[test]
    fn the_probe_finds_what_the_exact_scan_finds_and_keeps_to_the_filters() {
        let (dim, n) = (32, 70_000);
        let (bytes, mut scales) = clustered(n, dim, 60);
        scales[10] = 0.0; // no vector
        let ix = StaticIndex::build(&bytes, &scales, dim).expect("index");
        assert_eq!(ix.rows(), n - 1);
        assert_eq!(ix.lists(), lists_for(n));
        assert!(ix.bytes() > n * 4);
        let rows = Rows {
            vectors: &bytes,
            scales: &scales,
            dim,
            codes: None,
            index: None,
        };
        let all = [(0u64, n as u64)];
        let (mut kept, mut total) = (0, 0);
        for q in (0..n).step_by(3_500) {
            let qv: Vec<f32> = bytes[q * dim..(q + 1) * dim]
                .iter()
                .map(|&b| (b as i8) as f32)
                .collect();
            let (q8, qs) = crate::embed::quantize(&qv);
            let q16: Vec<i16> = q8.iter().map(|x| *x as i16).collect();
            let exact = top_cosine(&rows, &qv, 20, 0, spans(&all)).hits;
            let probed = ix
                .top(&rows, (&q16, qs), 20, 0.1, spans(&all))
                .expect("probed");
            if q != 10 {
                assert_eq!(probed[0].0, q as u64, "a row is its own nearest");
            }
            assert!(probed.iter().all(|h| h.0 != 10));
            assert!(probed.windows(2).all(|w| w[0].1 >= w[1].1));
            let found: std::collections::HashSet<u64> = probed.iter().map(|h| h.0).collect();
            kept += exact.iter().filter(|h| found.contains(&h.0)).count();
            total += exact.len();
            // Filters: only rows of the two spans.
            let some = [(1_000u64, 30_000u64), (50_000, 5_000)];
            let filtered = ix
                .top(&rows, (&q16, qs), 20, 0.1, spans(&some))
                .expect("probed");
            assert!(filtered
                .iter()
                .all(|h| (1_000..31_000).contains(&h.0) || (50_000..55_000).contains(&h.0)));
            // A small filtered set: scanned exactly by the caller.
            let few = [(100u64, 2_000u64)];
            assert!(ix.top(&rows, (&q16, qs), 20, 0.1, spans(&few)).is_none());
        }
        assert!(kept as f64 >= 0.9 * total as f64, "recall {kept}/{total}");
    }
}
