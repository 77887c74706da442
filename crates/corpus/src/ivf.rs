//! An inverted file over quantised vector rows: the rows grouped into lists
//! around k-means centres, so that a search scores the centres, then only
//! the rows of the lists nearest the query, exactly (the scan is in
//! `dense.rs`; the transformer rows keep their index in `semantic.rs`).
//!
//! The centres are trained in two levels (spherical k-means: the rows are
//! unit vectors and similarity is the dot product): about √lists coarse
//! centres on a sample of the rows, then each coarse group's share of the
//! lists on the sample rows in that group. A row is assigned to the nearest
//! fine centre of its two nearest coarse groups, about `3√lists` dot
//! products instead of `lists`, so building the index over the whole corpus
//! takes about a second. A query scores every fine centre (flat, exact).
//!
//! Everything here works on i8 rows (as bytes, `dim` per row) with the
//! dot-product kernel of the vector scan; centres are quantised the same way.

use crate::binary::SignCodes;
use crate::dense::dot_i8;
use crate::embed::quantize;

/// A set of row ordinals, one bit each.
#[derive(Debug, Clone, Default)]
pub struct Bits {
    words: Vec<u64>,
}

impl Bits {
    /// An empty set for ordinals below `len`.
    pub fn new(len: usize) -> Self {
        Bits {
            words: vec![0; len.div_ceil(64)],
        }
    }

    /// Ordinals the set can hold (a multiple of 64).
    pub fn capacity(&self) -> usize {
        self.words.len() * 64
    }

    /// Empty the set, keeping room for ordinals below `len`.
    pub fn reset(&mut self, len: usize) {
        self.words.clear();
        self.words.resize(len.div_ceil(64), 0);
    }

    /// Whether `i` is in the set (false past the end).
    #[inline]
    pub fn get(&self, i: usize) -> bool {
        self.words
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// Add or remove `i` (ignored past the end).
    #[inline]
    pub fn set(&mut self, i: usize, on: bool) {
        if let Some(w) = self.words.get_mut(i / 64) {
            if on {
                *w |= 1 << (i % 64);
            } else {
                *w &= !(1 << (i % 64));
            }
        }
    }

    /// Add every ordinal of `lo..hi` (clamped to the capacity).
    pub fn set_range(&mut self, lo: usize, hi: usize) {
        let hi = hi.min(self.capacity());
        if lo >= hi {
            return;
        }
        let (first, last) = (lo / 64, (hi - 1) / 64);
        let head = !0u64 << (lo % 64);
        let tail = !0u64 >> (63 - (hi - 1) % 64);
        if first == last {
            self.words[first] |= head & tail;
            return;
        }
        self.words[first] |= head;
        self.words[first + 1..last].fill(!0);
        self.words[last] |= tail;
    }

    /// How many ordinals of `lo..hi` are in the set.
    pub fn count_range(&self, lo: usize, hi: usize) -> u64 {
        let hi = hi.min(self.capacity());
        if lo >= hi {
            return 0;
        }
        let (first, last) = (lo / 64, (hi - 1) / 64);
        let head = !0u64 << (lo % 64);
        let tail = !0u64 >> (63 - (hi - 1) % 64);
        if first == last {
            return (self.words[first] & head & tail).count_ones() as u64;
        }
        let middle: u64 = self.words[first + 1..last]
            .iter()
            .map(|w| w.count_ones() as u64)
            .sum();
        middle
            + (self.words[first] & head).count_ones() as u64
            + (self.words[last] & tail).count_ones() as u64
    }

    /// How many ordinals are in the set.
    pub fn count(&self) -> u64 {
        self.words.iter().map(|w| w.count_ones() as u64).sum()
    }

    /// The 64-bit words (bit `i % 64` of word `i / 64` is ordinal `i`).
    pub fn words(&self) -> &[u64] {
        &self.words
    }
}

/// Quantised unit vectors: i8 components (as bytes, `dim` each), the same
/// widened to i16 (what the dot-product kernel takes as its left side), and
/// one scale each.
#[derive(Debug, Clone, Default)]
struct Points {
    bytes: Vec<u8>,
    wide: Vec<i16>,
    scales: Vec<f32>,
}

impl Points {
    fn from_f32(centres: &[Vec<f32>]) -> Self {
        let mut p = Points::default();
        for c in centres {
            let (q, s) = quantize(c);
            p.bytes.extend(q.iter().map(|x| *x as u8));
            p.wide.extend(q.iter().map(|x| *x as i16));
            p.scales.push(s);
        }
        p
    }

    fn len(&self) -> usize {
        self.scales.len()
    }

    /// The point nearest `row` (largest dot product) among `range`, and its similarity.
    fn nearest_in(&self, row: &[u8], dim: usize, range: std::ops::Range<usize>) -> (usize, f32) {
        let mut best = (range.start, f32::NEG_INFINITY);
        for c in range {
            let Some(w) = self.wide.get(c * dim..(c + 1) * dim) else {
                break;
            };
            let s = dot_i8(w, row) as f32 * self.scales[c];
            if s > best.1 {
                best = (c, s);
            }
        }
        best
    }
}

/// Centres trained on a sample of rows ([`Centres::train`]): the coarse
/// centres, and the fine centres (the lists) grouped by coarse centre.
#[derive(Debug, Clone)]
pub struct Centres {
    dim: usize,
    coarse: Points,
    /// Fine centres of coarse centre `g`: `groups[g]..groups[g + 1]`.
    groups: Vec<usize>,
    fine: Points,
}

/// Lloyd iterations of each k-means.
const ITERATIONS: usize = 8;
/// Coarse groups whose fine centres a row is compared with.
const COARSE_PROBE: usize = 2;
/// Sample rows per list to train on.
pub const SAMPLE_PER_LIST: usize = 40;

/// A small deterministic generator (xorshift64) for the k-means seeds.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// The rows of a training sample: i8 bytes, `dim` per row, one scale each.
pub struct Sample<'a> {
    /// Components.
    pub bytes: &'a [u8],
    /// Scales.
    pub scales: &'a [f32],
    /// Dimensions.
    pub dim: usize,
}

impl Sample<'_> {
    fn rows(&self) -> usize {
        self.scales.len().min(self.bytes.len() / self.dim.max(1))
    }

    fn row(&self, i: usize) -> &[u8] {
        &self.bytes[i * self.dim..(i + 1) * self.dim]
    }
}

/// Spherical k-means with `k` centres over the sample rows `members`:
/// unit centres, each the normalised mean of the rows nearest it.
fn kmeans(sample: &Sample<'_>, members: &[usize], k: usize, rng: &mut Rng) -> Vec<Vec<f32>> {
    let dim = sample.dim;
    if members.is_empty() {
        return Vec::new();
    }
    let k = k.min(members.len()).max(1);
    let seed_row = |rng: &mut Rng| -> Vec<f32> {
        match members.get(rng.below(members.len())) {
            Some(&i) => unit(sample.row(i), sample.scales[i]),
            None => vec![0.0; dim],
        }
    };
    // Distinct seeds: every `members.len() / k`-th row from a random start.
    let step = (members.len() / k).max(1);
    let start = rng.below(step);
    let mut centres: Vec<Vec<f32>> = (0..k)
        .map(|c| {
            let i = members[(start + c * step) % members.len()];
            unit(sample.row(i), sample.scales[i])
        })
        .collect();
    let mut sums = vec![0f32; k * dim];
    let mut counts = vec![0usize; k];
    for _ in 0..ITERATIONS {
        let points = Points::from_f32(&centres);
        sums.fill(0.0);
        counts.fill(0);
        for &i in members {
            let row = sample.row(i);
            let (c, _) = points.nearest_in(row, dim, 0..k);
            counts[c] += 1;
            let s = sample.scales[i];
            for (a, &b) in sums[c * dim..(c + 1) * dim].iter_mut().zip(row) {
                *a += (b as i8) as f32 * s;
            }
        }
        for (c, centre) in centres.iter_mut().enumerate() {
            if counts[c] == 0 {
                *centre = seed_row(rng);
                continue;
            }
            let sum = &sums[c * dim..(c + 1) * dim];
            let norm = sum.iter().map(|x| x * x).sum::<f32>().sqrt();
            if norm > 0.0 {
                for (x, &y) in centre.iter_mut().zip(sum) {
                    *x = y / norm;
                }
            }
        }
    }
    centres
}

/// The unit vector of an i8 row.
fn unit(row: &[u8], scale: f32) -> Vec<f32> {
    let v: Vec<f32> = row.iter().map(|&b| (b as i8) as f32 * scale).collect();
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm == 0.0 {
        return v;
    }
    v.into_iter().map(|x| x / norm).collect()
}

impl Centres {
    /// Train about `lists` centres on the sample (fewer when the sample has
    /// fewer rows); deterministic for a given sample and seed.
    pub fn train(sample: &Sample<'_>, lists: usize, seed: u64) -> Centres {
        let dim = sample.dim;
        let n = sample.rows();
        let lists = lists.clamp(1, n.max(1));
        let mut rng = Rng(seed | 1);
        let all: Vec<usize> = (0..n).collect();
        let k1 = ((lists as f64).sqrt().round() as usize).clamp(1, lists);
        let coarse = Points::from_f32(&kmeans(sample, &all, k1, &mut rng));
        let mut members: Vec<Vec<usize>> = vec![Vec::new(); coarse.len()];
        for i in 0..n {
            let (g, _) = coarse.nearest_in(sample.row(i), dim, 0..coarse.len());
            members[g].push(i);
        }
        let shares = apportion(&members.iter().map(Vec::len).collect::<Vec<_>>(), lists);
        let mut groups = vec![0];
        let mut fine = Vec::with_capacity(lists);
        for (m, &k) in members.iter().zip(&shares) {
            if k > 0 {
                fine.extend(kmeans(sample, m, k, &mut rng));
            }
            groups.push(fine.len());
        }
        Centres {
            dim,
            coarse,
            groups,
            fine: Points::from_f32(&fine),
        }
    }

    /// Lists (fine centres).
    pub fn lists(&self) -> usize {
        self.fine.len()
    }

    /// Dimensions.
    pub fn dim(&self) -> usize {
        self.dim
    }

    /// The list of a row (its i8 components as bytes): the nearest fine
    /// centre in the [`COARSE_PROBE`] nearest coarse groups.
    pub fn assign(&self, row: &[u8]) -> u32 {
        let dim = self.dim;
        let mut near = [(0usize, f32::NEG_INFINITY); COARSE_PROBE];
        for g in 0..self.coarse.len() {
            let s = dot_i8(&self.coarse.wide[g * dim..(g + 1) * dim], row) as f32
                * self.coarse.scales[g];
            if let Some(at) = near.iter().position(|(_, b)| s > *b) {
                near[at..].rotate_right(1);
                near[at] = (g, s);
            }
        }
        let mut best = (0usize, f32::NEG_INFINITY);
        for &(g, s) in &near {
            if s == f32::NEG_INFINITY {
                continue;
            }
            let range = self.groups[g]..self.groups[g + 1];
            if range.is_empty() {
                continue;
            }
            let found = self.fine.nearest_in(row, dim, range);
            if found.1 > best.1 {
                best = found;
            }
        }
        best.0 as u32
    }

    /// Similarity of every list's centre to a query (its i8 components
    /// widened to i16), into `out` as `(similarity, list)`, best first.
    pub fn rank(&self, q16: &[i16], out: &mut Vec<(f32, u32)>) {
        out.clear();
        let dim = self.dim;
        for c in 0..self.fine.len() {
            let s =
                dot_i8(q16, &self.fine.bytes[c * dim..(c + 1) * dim]) as f32 * self.fine.scales[c];
            out.push((s, c as u32));
        }
        out.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        (self.fine.bytes.len() + self.coarse.bytes.len()) * 3
            + (self.fine.len() + self.coarse.len()) * 4
    }
}

/// `total` split over groups in proportion to their sizes (largest
/// remainders), at least one for each non-empty group while that fits.
fn apportion(sizes: &[usize], total: usize) -> Vec<usize> {
    let n: usize = sizes.iter().sum();
    if n == 0 {
        return vec![0; sizes.len()];
    }
    let mut out: Vec<usize> = sizes
        .iter()
        .map(|&s| if s == 0 { 0 } else { (s * total / n).max(1) })
        .collect();
    let mut given: usize = out.iter().sum();
    // Largest remainders first while short, largest shares give back while over.
    let mut order: Vec<usize> = (0..sizes.len()).filter(|&i| sizes[i] > 0).collect();
    order.sort_by_key(|&i| std::cmp::Reverse((sizes[i] * total) % n));
    for &i in order.iter().cycle().take(order.len() * 2) {
        if given >= total {
            break;
        }
        out[i] += 1;
        given += 1;
    }
    while given > total {
        let Some(i) = (0..out.len())
            .filter(|&i| out[i] > 0)
            .max_by_key(|&i| out[i])
        else {
            break;
        };
        out[i] -= 1;
        given -= 1;
    }
    out
}

/// Lists for `rows` rows: about 2√rows (1,024 for the 415,000 English
/// passages of the full corpus; 4,096 at 10× it).
pub fn lists_for(rows: usize) -> usize {
    ((2.0 * (rows as f64).sqrt()).round() as usize).clamp(1, 8192)
}

/// The inverted file: each list's rows (ordinals, ascending), their sign
/// codes in the same order (a list's codes are contiguous, so a probe reads
/// them in one run), and which rows it holds.
#[derive(Debug, Clone)]
pub struct Ivf {
    centres: Centres,
    offsets: Vec<u32>,
    members: Vec<u32>,
    codes: SignCodes,
    /// A scale of 1 per row of the longest list (what the code pass reads
    /// beside the codes: every member has a vector).
    ones: Vec<f32>,
    indexed: Bits,
}

impl Ivf {
    /// The index of rows assigned to lists: `assigned` holds `(ordinal,
    /// list)` pairs in ascending ordinal order, ordinals below `capacity`;
    /// row `j` of `codes` is the sign code of `assigned[j]`.
    pub fn new(
        centres: Centres,
        assigned: &[(u32, u32)],
        codes: &SignCodes,
        dim: usize,
        capacity: usize,
    ) -> Ivf {
        let lists = centres.lists();
        let mut offsets = vec![0u32; lists + 1];
        for &(_, l) in assigned {
            if let Some(o) = offsets.get_mut(l as usize + 1) {
                *o += 1;
            }
        }
        for i in 0..lists {
            offsets[i + 1] += offsets[i];
        }
        let mut next = offsets.clone();
        let mut members = vec![0u32; offsets[lists] as usize];
        let mut member_codes = SignCodes::new(members.len(), dim, codes.centre().to_vec());
        let mut indexed = Bits::new(capacity);
        for (j, &(ord, l)) in assigned.iter().enumerate() {
            if let Some(at) = next.get_mut(l as usize) {
                members[*at as usize] = ord;
                member_codes.copy_row(*at as usize, codes, j);
                *at += 1;
                indexed.set(ord as usize, true);
            }
        }
        let longest = offsets.windows(2).map(|w| w[1] - w[0]).max().unwrap_or(0);
        Ivf {
            centres,
            offsets,
            members,
            codes: member_codes,
            ones: vec![1.0; longest as usize],
            indexed,
        }
    }

    /// The members' sign codes (row `p` is the code of the `p`-th member,
    /// lists one after the other).
    pub fn codes(&self) -> &SignCodes {
        &self.codes
    }

    /// List `l`'s first position among the members and its length.
    pub fn span(&self, l: u32) -> (usize, usize) {
        let l = l as usize;
        match (self.offsets.get(l), self.offsets.get(l + 1)) {
            (Some(&a), Some(&b)) => (a as usize, (b - a) as usize),
            _ => (0, 0),
        }
    }

    /// The ordinal of the member at position `p`.
    #[inline]
    pub fn member(&self, p: usize) -> Option<u32> {
        self.members.get(p).copied()
    }

    /// Scales of 1 for up to the longest list's rows.
    pub fn ones(&self, n: usize) -> &[f32] {
        &self.ones[..n.min(self.ones.len())]
    }

    /// The centres.
    pub fn centres(&self) -> &Centres {
        &self.centres
    }

    /// Rows held.
    pub fn rows(&self) -> usize {
        self.members.len()
    }

    /// Whether the index holds row `ord`.
    #[inline]
    pub fn contains(&self, ord: usize) -> bool {
        self.indexed.get(ord)
    }

    /// The rows of list `l`, ascending.
    pub fn members(&self, l: u32) -> &[u32] {
        let l = l as usize;
        match (self.offsets.get(l), self.offsets.get(l + 1)) {
            (Some(&a), Some(&b)) => &self.members[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.centres.bytes()
            + self.offsets.len() * 4
            + self.members.len() * 4
            + self.codes.bytes()
            + self.ones.len() * 4
            + self.indexed.words().len() * 8
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_ranges_set_and_count() {
        let mut b = Bits::new(300);
        b.set_range(3, 5);
        b.set_range(60, 130);
        b.set(299, true);
        assert_eq!(b.count(), 2 + 70 + 1);
        assert_eq!(b.count_range(0, 300), 73);
        assert_eq!(b.count_range(4, 61), 2);
        assert_eq!(b.count_range(64, 128), 64);
        assert_eq!(b.count_range(129, 299), 1);
        assert!(b.get(299) && !b.get(130) && !b.get(5000));
        b.set(299, false);
        assert_eq!(b.count_range(0, 10_000), 72);
        b.set_range(0, 10_000); // clamped
        assert_eq!(b.count(), 320);
        b.reset(10);
        assert_eq!((b.count(), b.capacity()), (0, 64));
    }

    #[test]
    fn apportion_gives_every_group_its_share() {
        assert_eq!(apportion(&[10, 30, 0, 60], 10), vec![1, 3, 0, 6]);
        assert_eq!(apportion(&[1, 1, 1], 2).iter().sum::<usize>(), 2);
        let a = apportion(&[5, 7, 11, 1], 9);
        assert_eq!(a.iter().sum::<usize>(), 9);
        assert!(a.iter().all(|&k| k >= 1));
        assert_eq!(apportion(&[0, 0], 4), vec![0, 0]);
    }

    /// Rows around `k` random directions, with noise.
    fn clustered(rows: usize, dim: usize, k: usize) -> (Vec<u8>, Vec<f32>, Vec<usize>) {
        let mut rng = Rng(0x1234_5678_9abc_def1);
        let mut gauss = move || ((rng.next() % 2001) as f32 / 1000.0) - 1.0;
        let dirs: Vec<Vec<f32>> = (0..k)
            .map(|_| (0..dim).map(|_| gauss()).collect())
            .collect();
        let (mut bytes, mut scales, mut truth) = (Vec::new(), Vec::new(), Vec::new());
        for i in 0..rows {
            let c = i % k;
            let v: Vec<f32> = dirs[c].iter().map(|x| x + 0.3 * gauss()).collect();
            let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            let (q, s) = quantize(&v.iter().map(|x| x / norm).collect::<Vec<_>>());
            bytes.extend(q.iter().map(|x| *x as u8));
            scales.push(s);
            truth.push(c);
        }
        (bytes, scales, truth)
    }

    #[test]
    fn rows_of_one_cluster_share_a_list_and_the_query_ranks_it_first() {
        let (dim, k) = (48, 8);
        let (bytes, scales, truth) = clustered(800, dim, k);
        let sample = Sample {
            bytes: &bytes,
            scales: &scales,
            dim,
        };
        let centres = Centres::train(&sample, k, 7);
        assert_eq!(centres.lists(), k);
        // Each true cluster's rows land (almost all) in one list.
        let mut lists_of = vec![std::collections::HashMap::<u32, usize>::new(); k];
        let mut assigned = Vec::new();
        for i in 0..800 {
            let l = centres.assign(sample.row(i));
            *lists_of[truth[i]].entry(l).or_default() += 1;
            assigned.push((i as u32, l));
        }
        for m in &lists_of {
            let top = m.values().max().copied().unwrap_or(0);
            assert!(top >= 95, "{lists_of:?}");
        }
        let mut codes = SignCodes::new(assigned.len(), dim, Vec::new());
        for (j, &(ord, _)) in assigned.iter().enumerate() {
            codes.set_row(j, sample.row(ord as usize), scales[ord as usize]);
        }
        let ivf = Ivf::new(centres, &assigned, &codes, dim, 800);
        let (at, len) = ivf.span(2);
        assert_eq!(ivf.members(2).len(), len);
        assert_eq!(ivf.member(at), ivf.members(2).first().copied());
        let q = ivf.members(2)[0] as usize;
        let own = codes.encode(&unit(sample.row(q), scales[q]));
        assert_eq!(ivf.codes().distance(at, &own), 0);
        assert_eq!(ivf.rows(), 800);
        assert!((0..800).all(|i| ivf.contains(i)) && !ivf.contains(800));
        let total: usize = (0..k as u32).map(|l| ivf.members(l).len()).sum();
        assert_eq!(total, 800);
        assert!(ivf.members(k as u32).is_empty());
        // Row 3 as the query: its own list comes first.
        let q16: Vec<i16> = sample.row(3).iter().map(|&b| (b as i8) as i16).collect();
        let mut ranked = Vec::new();
        ivf.centres().rank(&q16, &mut ranked);
        assert_eq!(ranked.len(), k);
        assert!(ivf.members(ranked[0].1).contains(&3));
        assert!(ranked.windows(2).all(|w| w[0].0 >= w[1].0));
    }

    #[test]
    fn tiny_samples_give_fewer_lists() {
        let (bytes, scales, _) = clustered(5, 16, 2);
        let sample = Sample {
            bytes: &bytes,
            scales: &scales,
            dim: 16,
        };
        let centres = Centres::train(&sample, 64, 1);
        assert!(centres.lists() >= 1 && centres.lists() <= 5);
        let empty = Sample {
            bytes: &[],
            scales: &[],
            dim: 16,
        };
        let c = Centres::train(&empty, 8, 1);
        assert!(c.lists() <= 1);
        assert_eq!(c.assign(&[0; 16]), 0);
    }
}
