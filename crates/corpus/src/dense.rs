//! Vector scans: the `n` rows nearest a query among i8-quantised rows (the
//! static model's, memory-mapped from the store, or the transformer's),
//! exactly, through an inverted file (the rows of the lists nearest the
//! query, scored exactly), or through 1-bit sign codes with an exact rescore.

use crate::binary::{cut_off, SignCodes, NO_ROW};
use crate::embed::StaticEmbedder;
use crate::ivf::{Bits, Ivf};
use crate::search::{MIN_RESCORE, MODEL_DIR};
use crate::static_index::{StaticIndex, MIN_ROWS};
use crate::store::{SCALE_FILE, VEC_FILE};
use std::cell::RefCell;
use std::path::Path;
use std::sync::{Arc, Mutex, OnceLock};

/// The static model's vectors of a store: the model (to embed queries), the
/// i8 rows (memory-mapped) and one scale per row.
pub(crate) struct Dense {
    pub(crate) embedder: StaticEmbedder,
    pub(crate) vectors: Arc<memmap2::Mmap>,
    pub(crate) scales: Vec<f32>,
    pub(crate) dim: usize,
    /// The inverted file over the rows, once built (in the background after
    /// [`Dense::open`]; never in small stores).
    pub(crate) index: Arc<OnceLock<StaticIndex>>,
    /// The thread building it, until [`Dense::wait_for_index`] joins it.
    builder: Mutex<Option<std::thread::JoinHandle<()>>>,
}

impl Dense {
    /// Open the static vectors of the store in `dir`, which has `rows` passages.
    pub(crate) fn open(dir: &Path, rows: u64) -> Result<Dense, String> {
        let model_dir = dir.join(MODEL_DIR);
        if !model_dir.join("model.safetensors").is_file() {
            return Err("no embedding model was present at ingest".into());
        }
        let embedder = StaticEmbedder::load(&model_dir).map_err(|e| e.to_string())?;
        let dim = embedder.dim();
        let vf = std::fs::File::open(dir.join(VEC_FILE)).map_err(|e| format!("{VEC_FILE}: {e}"))?;
        // SAFETY: the store is written once by the ingester and never modified
        // afterwards (a new ingest writes a new generation directory).
        let vectors = unsafe { memmap2::Mmap::map(&vf) }.map_err(|e| format!("{VEC_FILE}: {e}"))?;
        let sb = std::fs::read(dir.join(SCALE_FILE)).map_err(|e| format!("{SCALE_FILE}: {e}"))?;
        let scales: Vec<f32> = sb
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        if scales.len() as u64 != rows || vectors.len() != scales.len() * dim {
            return Err(format!(
                "vector files do not match the store ({} rows, {} scales, {} bytes)",
                rows,
                scales.len(),
                vectors.len()
            ));
        }
        let vectors = Arc::new(vectors);
        let index = Arc::new(OnceLock::new());
        // Built on a thread of its own (about 1.5 s for the full corpus) so
        // that opening a store, and a one-off search from the command line,
        // do not wait for it: searches scan every row exactly meanwhile.
        let builder = (scales.len() >= MIN_ROWS)
            .then(|| {
                let (rows, slot, scales) = (vectors.clone(), index.clone(), scales.clone());
                std::thread::Builder::new()
                    .name("static-index".into())
                    .spawn(move || {
                        if let Some(ix) = StaticIndex::build(&rows, &scales, dim) {
                            tracing::info!(
                                "static vectors: inverted file of {} lists over {} rows built in {:.1} s ({:.1} MB)",
                                ix.lists(),
                                ix.rows(),
                                ix.seconds,
                                ix.bytes() as f64 / 1e6
                            );
                            let _ = slot.set(ix);
                        }
                    })
                    .map_err(|e| tracing::warn!("static vectors: no inverted file: {e}"))
                    .ok()
            })
            .flatten();
        Ok(Dense {
            embedder,
            vectors,
            scales,
            dim,
            index,
            builder: Mutex::new(builder),
        })
    }

    /// Wait until the inverted file is built (at once when it is, or when
    /// the store is too small to have one): for measurements that must not
    /// see the exact scan of the first seconds.
    pub(crate) fn wait_for_index(&self) {
        let handle = self
            .builder
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(h) = handle {
            let _ = h.join();
        }
    }
}

/// A run of consecutive ordinals to scan (one document's passages).
pub(crate) struct Span {
    /// First ordinal.
    pub(crate) first_ord: u64,
    /// Ordinals in the run.
    pub(crate) count: u64,
    /// Whether the document is English (what the English models can cover).
    pub(crate) english: bool,
}

/// The `n` rows most similar to `qv` among the `spans` (the documents passing the filters)
/// (rows with a zero scale have no vector), and how many rows had one.
/// `rescore_factor` 0 scans every row exactly. Otherwise, with an inverted
/// file ([`Rows::index`]), the rows of the lists nearest the query are scored
/// exactly ([`probe_index`]); without one, sign codes pick `rescore_factor × n`
/// candidates (at least [`MIN_RESCORE`]) and only those are scored from the i8 rows.
pub(crate) fn top_cosine(
    rows: &Rows<'_>,
    qv: &[f32],
    n: usize,
    rescore_factor: usize,
    spans: impl Iterator<Item = Span>,
) -> Scan {
    let mut scan = Scan::default();
    if qv.len() != rows.dim || qv.iter().all(|x| *x == 0.0) {
        return scan;
    }
    let (q8, qs) = crate::embed::quantize(qv);
    let q16: Vec<i16> = q8.iter().map(|x| *x as i16).collect();
    let want = (n * rescore_factor).max(MIN_RESCORE);
    let codes = rows.codes.filter(|_| rescore_factor > 0);
    let mut top = TopK::new(n);
    let score = |ord: u64| {
        let start = ord as usize * rows.dim;
        let row = rows.vectors.get(start..start + rows.dim)?;
        let s = *rows.scales.get(ord as usize)?;
        Some(dot_i8(&q16, row) as f32 * qs * s)
    };
    if let Some(index) = rows.index.as_ref().filter(|_| rescore_factor > 0) {
        let want = (n * rescore_factor).max(MIN_RESCORE);
        let probe = Probe {
            qv,
            q16: &q16,
            n,
            want,
        };
        probe_index(rows, index, &probe, spans, &mut scan, |ord| {
            if let Some(cos) = score(ord) {
                top.push(ord, cos);
            }
        });
        scan.hits = top.into_sorted();
        return scan;
    }
    match codes {
        Some(codes) => {
            let qc = codes.encode(qv);
            for ord in candidates(codes, &qc, rows.scales, spans, want, &mut scan) {
                if let Some(cos) = score(ord) {
                    top.push(ord, cos);
                }
            }
        }
        None => each_row(rows.scales, spans, &mut scan, |ord| {
            prefetch(rows.vectors, (ord as usize + PREFETCH_ROWS) * rows.dim);
            if let Some(cos) = score(ord) {
                top.push(ord, cos);
            }
        }),
    }
    scan.hits = top.into_sorted();
    scan
}

thread_local! {
    /// One Hamming distance per row, reused by the scans of a thread (a
    /// fresh megabyte a query would be mapped and faulted in each time).
    static DISTANCES: RefCell<Vec<u16>> = const { RefCell::new(Vec::new()) };
    /// The rows passing a search's filters, the lists in the order of their
    /// centres' similarity, and the probed members' Hamming distances,
    /// reused by the index probes of a thread.
    static PROBE: RefCell<ProbeBuffers> = RefCell::new(Default::default());
}

/// What [`PROBE`] holds: allowed rows, ranked lists, Hamming distances.
type ProbeBuffers = (Bits, Vec<(f32, u32)>, Vec<u16>);

/// A query as the index probe takes it.
struct Probe<'a> {
    qv: &'a [f32],
    q16: &'a [i16],
    /// Rows asked for.
    n: usize,
    /// Rows the code pass keeps for the exact rescore.
    want: usize,
}

/// The inverted file over a set of rows, with what has changed since it was built.
pub(crate) struct Indexed<'a> {
    /// The lists.
    pub(crate) ivf: &'a Ivf,
    /// Rows with a vector that the lists do not hold (arrived after the build,
    /// or changed since), scored exactly by every search.
    pub(crate) tail: &'a [u32],
    /// Rows of the lists whose vector changed after the build (they are in the tail).
    pub(crate) stale: Option<&'a Bits>,
    /// The rows that have a vector.
    pub(crate) present: &'a Bits,
    /// Share of the indexed rows whose codes a search reads (the nearest lists' rows).
    pub(crate) probe_share: f32,
}

/// Filtered sets of at most this many rows are scanned exactly (the centres
/// and the lists would not save much: about 0.6 ms on one core).
pub(crate) const EXACT_ROWS: u64 = 16_384;
/// Fewest rows a probe of the lists scores, and fewest per row asked for.
pub(crate) const MIN_PROBE_ROWS: usize = 2_000;
const PROBE_ROWS_PER_HIT: usize = 4;

/// The index's pass: call `score` with each row to score among the `spans`,
/// counting the rows with a vector and the English rows in `scan`. A small
/// set of rows (after the filters) is scanned whole; otherwise the lists
/// whose centres are nearest the query, nearest first, until
/// [`Indexed::probe_share`] of the rows (more when filters leave only part
/// of them, or many rows are asked for), give the rows whose sign codes are
/// compared with the query's; the closest `want` of those are scored, and
/// every row the lists do not hold yet.
fn probe_index(
    rows: &Rows<'_>,
    ix: &Indexed<'_>,
    probe: &Probe<'_>,
    spans: impl Iterator<Item = Span>,
    scan: &mut Scan,
    mut score: impl FnMut(u64),
) {
    PROBE.with(|cell| {
        let (allowed, ranked, dist) = &mut *cell.borrow_mut();
        let len = rows.scales.len();
        allowed.reset(len);
        let (mut end, mut whole) = (0usize, true);
        let (mut present, mut english) = (0u64, 0u64);
        // Adjacent spans (every document, without filters) are one run: a
        // range operation per document cost more than the probe's bookkeeping.
        let mut run = 0..0;
        let mut add_run = |run: &std::ops::Range<usize>| {
            allowed.set_range(run.start, run.end);
            present += ix.present.count_range(run.start, run.end);
        };
        for span in spans {
            let lo = (span.first_ord as usize).min(len);
            let hi = ((span.first_ord + span.count) as usize).clamp(lo, len);
            if span.english {
                english += span.count;
            }
            whole &= lo == end;
            end = hi;
            if lo == run.end {
                run.end = hi;
            } else {
                add_run(&run);
                run = lo..hi;
            }
        }
        add_run(&run);
        whole &= end == len;
        scan.present += present;
        scan.english += english;
        let filter = (!whole).then_some(&*allowed);
        if present <= EXACT_ROWS {
            let words = ix.present.words().iter().enumerate();
            for (i, &w) in words {
                let mut w = w & filter.map_or(!0, |f| f.words().get(i).copied().unwrap_or(0));
                while w != 0 {
                    score((i * 64 + w.trailing_zeros() as usize) as u64);
                    w &= w - 1;
                }
            }
            return;
        }
        // Filters that leave a share of the rows: probe that much further.
        let total = ix.present.count().max(1);
        let indexed = ix.ivf.rows();
        let budget = (ix.probe_share as f64 * indexed as f64 * total as f64 / present as f64)
            .ceil()
            .max(MIN_PROBE_ROWS.max(probe.want * PROBE_ROWS_PER_HIT) as f64)
            as usize;
        ix.ivf.centres().rank(probe.q16, ranked);
        let codes = ix.ivf.codes();
        let qc = codes.encode(probe.qv);
        let mut histogram = vec![0u32; codes.words() * 64 + 1];
        let mut probed = 0;
        dist.clear();
        for &(_, list) in ranked.iter() {
            if dist.len() >= budget {
                break;
            }
            let (at, len) = ix.ivf.span(list);
            let start = dist.len();
            dist.resize(start + len, NO_ROW);
            let out = &mut dist[start..];
            codes.distances(&qc, at, ix.ivf.ones(len), out, &mut histogram);
            if filter.is_some() || ix.stale.is_some() {
                for (p, d) in (at..at + len).zip(out.iter_mut()) {
                    let ord = ix.ivf.member(p).unwrap_or(u32::MAX) as usize;
                    let skip =
                        filter.is_some_and(|f| !f.get(ord)) || ix.stale.is_some_and(|s| s.get(ord));
                    if skip && *d != NO_ROW {
                        if let Some(h) = histogram.get_mut(*d as usize) {
                            *h = h.saturating_sub(1);
                        }
                        *d = NO_ROW;
                    }
                }
            }
            probed += 1;
        }
        let (cut, mut at_cut) = cut_off(&histogram, probe.want.max(probe.n));
        let mut k = 0;
        for &(_, list) in ranked.iter().take(probed) {
            let (at, len) = ix.ivf.span(list);
            for (p, &d) in (at..at + len).zip(&dist[k..k + len]) {
                let d = d as usize;
                if d < cut || (d == cut && at_cut > 0) {
                    if d == cut {
                        at_cut -= 1;
                    }
                    if let Some(ord) = ix.ivf.member(p) {
                        score(ord as u64);
                    }
                }
            }
            k += len;
        }
        for &ord in ix.tail {
            let i = ord as usize;
            if filter.is_none_or(|f| f.get(i)) && rows.scales.get(i).is_some_and(|s| *s != 0.0) {
                score(ord as u64);
            }
        }
    })
}

/// The first pass: the rows among the `spans` with a vector whose sign codes
/// are closest to the query's `qc`, about `want` of them (all closer than
/// the cut-off distance, then the first ones at it), in ordinal order;
/// counts the rows with a vector and the English rows in `scan`.
fn candidates(
    codes: &SignCodes,
    qc: &[u64],
    scales: &[f32],
    spans: impl Iterator<Item = Span>,
    want: usize,
    scan: &mut Scan,
) -> Vec<u64> {
    DISTANCES.with(|cell| {
        let mut dist = cell.borrow_mut();
        // Every row is written below (the rows between the spans with
        // NO_ROW), so the buffer is only sized, not cleared.
        dist.resize(scales.len(), NO_ROW);
        let mut histogram = vec![0u32; codes.words() * 64 + 1];
        let mut english = 0;
        let (mut from, mut to) = (scales.len(), 0);
        // Adjacent spans (every document, without filters) are scanned as
        // one run: a call per document cost more than the distances of its rows.
        let mut run = 0..0;
        let mut scan_run = |run: &std::ops::Range<usize>, dist: &mut [u16]| {
            if !run.is_empty() {
                scan.present += codes.distances(
                    qc,
                    run.start,
                    &scales[run.clone()],
                    &mut dist[run.clone()],
                    &mut histogram,
                );
            }
        };
        for span in spans {
            if span.english {
                english += span.count;
            }
            let lo = (span.first_ord as usize).clamp(to, scales.len());
            let hi = ((span.first_ord + span.count) as usize).clamp(lo, scales.len());
            dist[to..lo].fill(NO_ROW);
            (from, to) = (from.min(lo), hi);
            if lo == run.end {
                run.end = hi;
            } else {
                scan_run(&run, &mut dist);
                run = lo..hi;
            }
        }
        scan_run(&run, &mut dist);
        scan.english += english;
        let (cut, mut at_cut) = cut_off(&histogram, want);
        let mut out = Vec::with_capacity(want.min(scan.present as usize));
        for (i, &d) in dist.get(from..to).unwrap_or_default().iter().enumerate() {
            let d = d as usize;
            if d < cut || (d == cut && at_cut > 0) {
                if d == cut {
                    at_cut -= 1;
                }
                out.push((from + i) as u64);
            }
        }
        out
    })
}

/// Call `f` with every ordinal that has a vector among the `spans`,
/// counting them and the English rows in `scan`.
fn each_row(
    scales: &[f32],
    spans: impl Iterator<Item = Span>,
    scan: &mut Scan,
    mut f: impl FnMut(u64),
) {
    for doc in spans {
        if doc.english {
            scan.english += doc.count;
        }
        let lo = (doc.first_ord as usize).min(scales.len());
        let hi = ((doc.first_ord + doc.count) as usize).min(scales.len());
        for (i, &s) in scales[lo..hi].iter().enumerate() {
            if s != 0.0 {
                scan.present += 1;
                f((lo + i) as u64);
            }
        }
    }
}

/// Rows ahead of the scan whose first cache line is requested early (the
/// scan is bound by memory latency, not arithmetic).
const PREFETCH_ROWS: usize = 8;

/// Ask the CPU to bring `data[at]` into the cache (a hint; no effect past the end).
#[inline]
pub(crate) fn prefetch(data: &[u8], at: usize) {
    #[cfg(target_arch = "x86_64")]
    if at < data.len() {
        // SAFETY: `at` is in bounds; a prefetch reads nothing architecturally.
        unsafe {
            std::arch::x86_64::_mm_prefetch(
                data.as_ptr().add(at) as *const i8,
                std::arch::x86_64::_MM_HINT_T0,
            )
        };
    }
}

/// Dot product of an i16 query with an i8 row (bytes): AVX2 where the CPU
/// has it (checked at run time), else 16 lanes the compiler vectorises.
pub(crate) fn dot_i8(q: &[i16], row: &[u8]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2 (checked just above).
        return unsafe { dot_i8_avx2(q, row) };
    }
    dot_i8_portable(q, row)
}

fn dot_i8_portable(q: &[i16], row: &[u8]) -> i32 {
    let mut acc = [0i32; 16];
    let mut qc = q.chunks_exact(16);
    let mut rc = row.chunks_exact(16);
    for (a, b) in (&mut qc).zip(&mut rc) {
        for i in 0..16 {
            acc[i] += a[i] as i32 * (b[i] as i8) as i32;
        }
    }
    let mut sum: i32 = acc.iter().sum();
    for (a, b) in qc.remainder().iter().zip(rc.remainder()) {
        sum += *a as i32 * (*b as i8) as i32;
    }
    sum
}

/// [`dot_i8`] in AVX2: 16 components per step (sign-extend the row to i16,
/// multiply-add pairs into i32).
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn dot_i8_avx2(q: &[i16], row: &[u8]) -> i32 {
    use std::arch::x86_64::*;
    let n = q.len().min(row.len());
    let mut i = 0;
    // SAFETY: every load reads 16 bytes of `row` / 16 i16 of `q` below `n`.
    let mut sum = unsafe {
        let mut acc = _mm256_setzero_si256();
        while i + 16 <= n {
            let r = _mm_loadu_si128(row.as_ptr().add(i) as *const __m128i);
            let qv = _mm256_loadu_si256(q.as_ptr().add(i) as *const __m256i);
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_cvtepi8_epi16(r), qv));
            i += 16;
        }
        let s = _mm_add_epi32(
            _mm256_castsi256_si128(acc),
            _mm256_extracti128_si256(acc, 1),
        );
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
        _mm_cvtsi128_si32(s)
    };
    while i < n {
        sum += q[i] as i32 * (row[i] as i8) as i32;
        i += 1;
    }
    sum
}

/// The rows a vector scan reads: i8 components (as bytes, `dim` per row),
/// one scale per row (zero: no vector), and optionally their sign codes and
/// an inverted file over them.
pub(crate) struct Rows<'a> {
    pub(crate) vectors: &'a [u8],
    pub(crate) scales: &'a [f32],
    pub(crate) dim: usize,
    pub(crate) codes: Option<&'a SignCodes>,
    pub(crate) index: Option<Indexed<'a>>,
}

/// The `k` best `(ordinal, score)` pairs seen.
pub(crate) struct TopK {
    k: usize,
    heap: std::collections::BinaryHeap<std::cmp::Reverse<(OrdF32, u64)>>,
}

impl TopK {
    pub(crate) fn new(k: usize) -> Self {
        TopK {
            k,
            heap: std::collections::BinaryHeap::with_capacity(k + 1),
        }
    }

    #[inline]
    pub(crate) fn push(&mut self, ord: u64, score: f32) {
        if self.heap.len() < self.k {
            self.heap.push(std::cmp::Reverse((OrdF32(score), ord)));
        } else if self.heap.peek().is_some_and(|m| score > m.0 .0 .0) {
            self.heap.pop();
            self.heap.push(std::cmp::Reverse((OrdF32(score), ord)));
        }
    }

    pub(crate) fn into_sorted(self) -> Vec<(u64, f32)> {
        let mut hits: Vec<(u64, f32)> =
            self.heap.into_iter().map(|r| (r.0 .1, r.0 .0 .0)).collect();
        hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        hits
    }
}

/// What a vector scan found.
#[derive(Debug, Default)]
pub(crate) struct Scan {
    /// `(ordinal, cosine)`, best first.
    pub(crate) hits: Vec<(u64, f32)>,
    /// Rows with a vector among the documents scanned.
    pub(crate) present: u64,
    /// Rows of English documents among those scanned (what the English models can cover).
    pub(crate) english: u64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
struct OrdF32(f32);
impl Eq for OrdF32 {}
impl PartialOrd for OrdF32 {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for OrdF32 {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_dot_product_matches_the_portable_one() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for dim in [1usize, 15, 16, 17, 256, 384, 390] {
            let q: Vec<i16> = (0..dim).map(|_| (next() % 255) as i16 - 127).collect();
            let row: Vec<u8> = (0..dim).map(|_| next() as u8).collect();
            assert_eq!(dot_i8(&q, &row), dot_i8_portable(&q, &row), "dim {dim}");
        }
        assert_eq!(dot_i8(&[-127; 32], &[0x81; 32]), 32 * 127 * 127);
    }

    /// The first pass as it was first written: a push per row, then the cut.
    fn candidates_one_by_one(
        codes: &SignCodes,
        qc: &[u64],
        scales: &[f32],
        spans: &[(u64, u64)],
        want: usize,
    ) -> Vec<u64> {
        let mut cands = crate::binary::Candidates::new(want, codes.words() * 64);
        for &(first, count) in spans {
            for ord in first..(first + count).min(scales.len() as u64) {
                if scales[ord as usize] != 0.0 && (ord as usize) < codes.rows() {
                    cands.push(ord, codes.distance(ord as usize, qc));
                }
            }
        }
        cands.into_rows()
    }

    #[test]
    fn the_first_pass_picks_the_rows_a_row_by_row_scan_picks() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for dim in [40usize, 256, 384, 500] {
            let rows = 3000;
            let data: Vec<u8> = (0..rows * dim).map(|_| next() as u8).collect();
            // a tenth of the rows have no vector yet
            let scales: Vec<f32> = (0..rows)
                .map(|_| if next() % 10 == 0 { 0.0 } else { 0.01 })
                .collect();
            let codes = SignCodes::from_rows(&data, &scales, dim);
            let q: Vec<f32> = (0..dim).map(|_| (next() % 200) as f32 - 100.0).collect();
            let qc = codes.encode(&q);
            // documents of 1–40 rows, a third of them filtered out, the last past the rows
            let mut spans = Vec::new();
            let mut at = 0u64;
            while at < rows as u64 + 20 {
                let count = 1 + next() % 40;
                if next() % 3 != 0 {
                    spans.push((at, count));
                }
                at += count;
            }
            for want in [1usize, 100, 1000, 5000] {
                let mut scan = Scan::default();
                let iter = spans.iter().map(|&(first_ord, count)| Span {
                    first_ord,
                    count,
                    english: true,
                });
                let fast = candidates(&codes, &qc, &scales, iter, want, &mut scan);
                let slow = candidates_one_by_one(&codes, &qc, &scales, &spans, want);
                assert_eq!(fast, slow, "dim {dim}, want {want}");
                let present = spans
                    .iter()
                    .flat_map(|&(f, c)| f..f + c)
                    .filter(|&o| scales.get(o as usize).is_some_and(|s| *s != 0.0))
                    .count();
                assert_eq!(scan.present as usize, present);
            }
        }
    }

    /// Unit rows around `k` random directions, quantised: (bytes, scales).
    fn clustered(rows: usize, dim: usize, k: usize, seed: u64) -> (Vec<u8>, Vec<f32>) {
        let mut seed = seed;
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

    fn index_of(
        bytes: &[u8],
        scales: &[f32],
        dim: usize,
        rows: std::ops::Range<usize>,
        lists: usize,
    ) -> Ivf {
        let sample = crate::ivf::Sample { bytes, scales, dim };
        let centres = crate::ivf::Centres::train(&sample, lists, 3);
        let assigned: Vec<(u32, u32)> = rows
            .map(|i| (i as u32, centres.assign(&bytes[i * dim..(i + 1) * dim])))
            .collect();
        let all = SignCodes::from_rows(bytes, scales, dim);
        let mut codes = SignCodes::new(assigned.len(), dim, all.centre().to_vec());
        for (j, &(ord, _)) in assigned.iter().enumerate() {
            codes.copy_row(j, &all, ord as usize);
        }
        Ivf::new(centres, &assigned, &codes, dim, scales.len())
    }

    fn spans_of(ranges: &[(u64, u64)]) -> impl Iterator<Item = Span> + '_ {
        ranges.iter().map(|&(first_ord, count)| Span {
            first_ord,
            count,
            english: true,
        })
    }

    #[test]
    fn the_index_probe_finds_what_the_exact_scan_finds() {
        let (dim, n) = (64, 30_000);
        let (bytes, scales) = clustered(n, dim, 40, 0x51);
        let ivf = index_of(&bytes, &scales, dim, 0..n, 64);
        let mut present = Bits::new(n);
        present.set_range(0, n);
        let rows_with = |share: f32| Rows {
            vectors: &bytes,
            scales: &scales,
            dim,
            codes: None,
            index: Some(Indexed {
                ivf: &ivf,
                tail: &[],
                stale: None,
                present: &present,
                probe_share: share,
            }),
        };
        let all = [(0u64, n as u64)];
        let (mut kept, mut total) = (0, 0);
        for q in (0..n).step_by(1500) {
            let qv: Vec<f32> = bytes[q * dim..(q + 1) * dim]
                .iter()
                .map(|&b| (b as i8) as f32)
                .collect();
            let exact = top_cosine(&rows_with(0.1), &qv, 20, 0, spans_of(&all));
            // Every list probed: the sign codes' candidates over all rows.
            let whole = top_cosine(&rows_with(1.0), &qv, 20, 10, spans_of(&all));
            assert_eq!(whole.hits[0], exact.hits[0]);
            assert_eq!((whole.present, whole.english), (n as u64, n as u64));
            let probed = top_cosine(&rows_with(0.2), &qv, 20, 10, spans_of(&all));
            assert_eq!(probed.hits[0].0, q as u64, "a row is its own nearest");
            let found: std::collections::HashSet<u64> = probed.hits.iter().map(|h| h.0).collect();
            kept += exact.hits.iter().filter(|h| found.contains(&h.0)).count();
            total += exact.hits.len();
        }
        assert!(kept as f64 >= 0.9 * total as f64, "recall {kept}/{total}");
    }

    #[test]
    fn the_index_probe_keeps_to_the_filters_and_scores_the_tail() {
        let (dim, n) = (32, 24_000);
        let (bytes, mut scales) = clustered(n, dim, 12, 0x77);
        // The lists hold rows 0..20,000; 20,000..24,000 arrived after the build,
        // and row 5 changed since (its list entry is stale, it is in the tail).
        let ivf = index_of(&bytes, &scales, dim, 0..20_000, 32);
        let mut tail: Vec<u32> = (20_000..24_000).collect();
        tail.push(5);
        let mut stale = Bits::new(n);
        stale.set(5, true);
        let mut present = Bits::new(n);
        present.set_range(0, n);
        scales[23_999] = 0.0; // no vector (yet)
        present.set(23_999, false);
        let rows = Rows {
            vectors: &bytes,
            scales: &scales,
            dim,
            codes: None,
            index: Some(Indexed {
                ivf: &ivf,
                tail: &tail,
                stale: Some(&stale),
                present: &present,
                probe_share: 0.2,
            }),
        };
        let row_vec = |q: usize| -> Vec<f32> {
            bytes[q * dim..(q + 1) * dim]
                .iter()
                .map(|&b| (b as i8) as f32)
                .collect()
        };
        for q in [5usize, 20_500, 23_000] {
            let scan = top_cosine(&rows, &row_vec(q), 30, 10, spans_of(&[(0, n as u64)]));
            assert_eq!(scan.hits[0].0, q as u64);
            let mut ords: Vec<u64> = scan.hits.iter().map(|h| h.0).collect();
            ords.sort_unstable();
            ords.dedup();
            assert_eq!(ords.len(), scan.hits.len(), "no row twice");
            assert!(!ords.contains(&23_999));
            assert_eq!(scan.present, n as u64 - 1);
        }
        // Two documents pass the filters: 1,000..9,000 (indexed) and 21,000..22,000 (tail).
        let spans = [(1_000u64, 8_000u64), (21_000, 1_000)];
        for q in [3_000usize, 21_500, 15_000] {
            let scan = top_cosine(&rows, &row_vec(q), 50, 10, spans_of(&spans));
            assert_eq!(scan.present, 9_000);
            assert!(scan
                .hits
                .iter()
                .all(|h| (1_000..9_000).contains(&h.0) || (21_000..22_000).contains(&h.0)));
            if q != 15_000 {
                assert_eq!(scan.hits[0].0, q as u64);
            }
        }
        // The same rows as many adjacent documents (runs of spans): the same scan.
        let pieces: Vec<(u64, u64)> = (0..8)
            .map(|i| (1_000 + i * 1_000, 1_000))
            .chain([(21_000, 400), (21_400, 600)])
            .collect();
        let every: Vec<(u64, u64)> = (0..n as u64).step_by(700).map(|f| (f, 700)).collect();
        for q in [3_000usize, 21_500] {
            let two = top_cosine(&rows, &row_vec(q), 50, 10, spans_of(&spans));
            let many = top_cosine(&rows, &row_vec(q), 50, 10, spans_of(&pieces));
            assert_eq!(
                (many.hits, many.present, many.english),
                (two.hits, two.present, two.english)
            );
            let one = top_cosine(&rows, &row_vec(q), 30, 10, spans_of(&[(0, n as u64)]));
            let all = top_cosine(&rows, &row_vec(q), 30, 10, spans_of(&every));
            assert_eq!(all.hits, one.hits);
            assert_eq!(all.present, n as u64 - 1);
        }
        // A small filtered set is scanned exactly.
        let spans = [(100u64, 300u64), (22_000, 100)];
        let q = row_vec(150);
        let exact = top_cosine(&rows, &q, 10, 0, spans_of(&spans));
        let small = top_cosine(&rows, &q, 10, 10, spans_of(&spans));
        assert_eq!(small.hits, exact.hits);
        assert_eq!(small.hits[0].0, 150);
    }
}
