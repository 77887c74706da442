//! Binary (sign-bit) codes of the quantised passage vectors: the first pass of
//! a vector search. One bit per dimension (the sign of the component after
//! subtracting a centre vector), so a 384-dimension row is six `u64` words and
//! a whole scan reads 48 bytes per row instead of 384. The Hamming distance
//! between codes orders rows roughly like the cosine; the best few thousand are
//! then rescored exactly from the i8 rows ([`Candidates`]), which keeps the
//! result close to the exact top-k (the recall is measured by `corpus_tool recall`).

/// Sign codes of a set of rows, `words` 64-bit words per row.
#[derive(Debug, Clone)]
pub struct SignCodes {
    words: usize,
    dim: usize,
    centre: Vec<f32>,
    codes: Vec<u64>,
}

impl SignCodes {
    /// Codes for `rows` rows of `dim` dimensions, all zero, with the centre
    /// vector subtracted before taking signs (`centre.len() == dim`, or empty for none).
    pub fn new(rows: usize, dim: usize, centre: Vec<f32>) -> Self {
        let words = dim.div_ceil(64);
        let centre = if centre.len() == dim {
            centre
        } else {
            vec![0.0; dim]
        };
        SignCodes {
            words,
            dim,
            centre,
            codes: vec![0; rows * words],
        }
    }

    /// Codes of every row of an i8 matrix (`dim` bytes per row, one scale
    /// per row), centred on the mean of the rows that have a vector.
    pub fn from_rows(data: &[u8], scales: &[f32], dim: usize) -> Self {
        let centre = mean_row(data, scales, dim);
        let mut codes = SignCodes::new(scales.len(), dim, centre);
        for (i, &s) in scales.iter().enumerate() {
            if s != 0.0 {
                if let Some(row) = data.get(i * dim..(i + 1) * dim) {
                    codes.set_row(i, row, s);
                }
            }
        }
        codes
    }

    /// Words per row.
    pub fn words(&self) -> usize {
        self.words
    }

    /// The centre subtracted before taking signs.
    pub fn centre(&self) -> &[f32] {
        &self.centre
    }

    /// Bytes held.
    pub fn bytes(&self) -> usize {
        self.codes.len() * 8 + self.centre.len() * 4
    }

    /// Set row `i` from its i8 components (as bytes) and scale.
    pub fn set_row(&mut self, i: usize, row: &[u8], scale: f32) {
        let words = self.words;
        let Some(out) = self.codes.get_mut(i * words..(i + 1) * words) else {
            return;
        };
        out.fill(0);
        for (d, (&b, &c)) in row.iter().zip(&self.centre).enumerate() {
            if (b as i8) as f32 * scale > c {
                out[d / 64] |= 1 << (d % 64);
            }
        }
    }

    /// The code of a query vector (same centre).
    pub fn encode(&self, v: &[f32]) -> Vec<u64> {
        let mut out = vec![0u64; self.words];
        for (d, (&x, &c)) in v.iter().zip(&self.centre).take(self.dim).enumerate() {
            if x > c {
                out[d / 64] |= 1 << (d % 64);
            }
        }
        out
    }

    /// Hamming distance between row `i` and a query code (0 past the last row).
    #[inline]
    pub fn distance(&self, i: usize, q: &[u64]) -> u32 {
        let Some(row) = self.codes.get(i * self.words..(i + 1) * self.words) else {
            return 0;
        };
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has the popcnt instruction (checked just above).
            return unsafe { hamming_popcnt(row, q) };
        }
        hamming(row, q)
    }

    /// Copy row `from` of `other` (codes of the same length and centre) into row `to`.
    pub fn copy_row(&mut self, to: usize, other: &SignCodes, from: usize) {
        let w = self.words;
        if other.words != w {
            return;
        }
        if let (Some(dst), Some(src)) = (
            self.codes.get_mut(to * w..(to + 1) * w),
            other.codes.get(from * w..(from + 1) * w),
        ) {
            dst.copy_from_slice(src);
        }
    }

    /// Rows held.
    pub fn rows(&self) -> usize {
        self.codes.len().checked_div(self.words).unwrap_or(0)
    }

    /// Hamming distances to a query code of rows `first..first + out.len()`
    /// that have a vector (`scales[i] != 0`, `scales` aligned with `out`),
    /// [`NO_ROW`] for the others and past the last row; each distance is
    /// counted in `histogram` (indexed by distance, `words() * 64 + 1`
    /// slots). Returns how many of the rows have a vector. The scan's inner
    /// loop: one pass, unrolled for the usual code lengths, with the CPU's popcnt.
    pub fn distances(
        &self,
        q: &[u64],
        first: usize,
        scales: &[f32],
        out: &mut [u16],
        histogram: &mut [u32],
    ) -> u64 {
        let n = out.len().min(scales.len());
        let (out, scales) = (&mut out[..n], &scales[..n]);
        let coded = n.min(self.rows().saturating_sub(first));
        let (head, tail) = out.split_at_mut(coded);
        tail.fill(NO_ROW);
        let mut present = scales[coded..].iter().filter(|s| **s != 0.0).count() as u64;
        if q.len() != self.words || histogram.len() <= self.words * 64 {
            head.fill(NO_ROW);
            return present + scales[..coded].iter().filter(|s| **s != 0.0).count() as u64;
        }
        let pass = Pass {
            codes: &self.codes[first * self.words..(first + coded) * self.words],
            q,
            scales: &scales[..coded],
        };
        present += match self.words {
            4 => pass.dispatch::<4>(head, histogram),
            6 => pass.dispatch::<6>(head, histogram),
            12 => pass.dispatch::<12>(head, histogram),
            _ => pass.generic(head, histogram),
        };
        present
    }
}

/// What [`SignCodes::distances`] gives a row without a vector (farther than any code).
pub const NO_ROW: u16 = u16::MAX;

/// The inputs of one distance pass.
struct Pass<'a> {
    codes: &'a [u64],
    q: &'a [u64],
    scales: &'a [f32],
}

impl Pass<'_> {
    fn dispatch<const W: usize>(&self, out: &mut [u16], histogram: &mut [u32]) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("popcnt") {
            // SAFETY: the CPU has the popcnt instruction (checked just above).
            return unsafe { self.fixed_popcnt::<W>(out, histogram) };
        }
        self.fixed::<W>(out, histogram)
    }

    /// [`Pass::fixed`] compiled with the popcnt instruction.
    ///
    /// # Safety
    /// The CPU must have popcnt.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn fixed_popcnt<const W: usize>(&self, out: &mut [u16], histogram: &mut [u32]) -> u64 {
        self.fixed::<W>(out, histogram)
    }

    #[inline(always)]
    fn fixed<const W: usize>(&self, out: &mut [u16], histogram: &mut [u32]) -> u64 {
        let Ok(q) = <&[u64; W]>::try_from(self.q) else {
            return self.generic(out, histogram);
        };
        let mut present = 0;
        for ((row, d), &s) in self.codes.chunks_exact(W).zip(out).zip(self.scales) {
            let mut sum = 0;
            for w in 0..W {
                sum += (row[w] ^ q[w]).count_ones();
            }
            *d = if s != 0.0 {
                present += 1;
                if let Some(h) = histogram.get_mut(sum as usize) {
                    *h += 1;
                }
                sum as u16
            } else {
                NO_ROW
            };
        }
        present
    }

    fn generic(&self, out: &mut [u16], histogram: &mut [u32]) -> u64 {
        let w = self.q.len().max(1);
        let mut present = 0;
        for ((row, d), &s) in self.codes.chunks_exact(w).zip(out).zip(self.scales) {
            let sum = hamming(row, self.q);
            *d = if s != 0.0 {
                present += 1;
                if let Some(h) = histogram.get_mut(sum as usize) {
                    *h += 1;
                }
                sum as u16
            } else {
                NO_ROW
            };
        }
        present
    }
}

/// The cut-off distance of the `want` closest rows, from a histogram of
/// distances: every row closer than `.0` is kept, and `.1` rows at `.0`
/// (the first ones met) fill the rest.
pub fn cut_off(histogram: &[u32], want: usize) -> (usize, usize) {
    let mut below = 0usize;
    for (d, &n) in histogram.iter().enumerate() {
        if below + n as usize >= want {
            return (d, want - below);
        }
        below += n as usize;
    }
    (histogram.len(), 0)
}

fn hamming(a: &[u64], b: &[u64]) -> u32 {
    a.iter().zip(b).map(|(x, y)| (x ^ y).count_ones()).sum()
}

/// [`hamming`] with the popcnt instruction (baseline x86-64 counts bits in software).
///
/// # Safety
/// The CPU must have popcnt.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn hamming_popcnt(a: &[u64], b: &[u64]) -> u32 {
    hamming(a, b)
}

/// The mean of the rows with a non-zero scale (zeros when there is none).
pub fn mean_row(data: &[u8], scales: &[f32], dim: usize) -> Vec<f32> {
    let mut sum = vec![0f64; dim];
    let mut n = 0u64;
    for (i, &s) in scales.iter().enumerate() {
        if s == 0.0 {
            continue;
        }
        let Some(row) = data.get(i * dim..(i + 1) * dim) else {
            break;
        };
        for (a, &b) in sum.iter_mut().zip(row) {
            *a += (b as i8) as f64 * s as f64;
        }
        n += 1;
    }
    if n == 0 {
        return vec![0.0; dim];
    }
    sum.into_iter().map(|x| (x / n as f64) as f32).collect()
}

/// Collects `(row, Hamming distance)` pairs during a scan and keeps the
/// `want` closest (ties at the cut-off included up to twice `want`).
#[derive(Debug)]
pub struct Candidates {
    want: usize,
    found: Vec<(u32, u16)>,
    histogram: Vec<u32>,
}

impl Candidates {
    /// Keep about `want` rows with codes of `bits` bits.
    pub fn new(want: usize, bits: usize) -> Self {
        Candidates {
            want: want.max(1),
            found: Vec::new(),
            histogram: vec![0; bits + 1],
        }
    }

    /// Record one row.
    #[inline]
    pub fn push(&mut self, row: u64, distance: u32) {
        let d = (distance as usize).min(self.histogram.len() - 1);
        self.histogram[d] += 1;
        self.found.push((row as u32, d as u16));
    }

    /// Rows recorded.
    pub fn len(&self) -> usize {
        self.found.len()
    }

    /// True when nothing was recorded.
    pub fn is_empty(&self) -> bool {
        self.found.is_empty()
    }

    /// The rows to rescore: every row closer than the cut-off distance, and
    /// rows at the cut-off until about `want` are chosen.
    pub fn into_rows(self) -> Vec<u64> {
        let (cut, mut at_cut) = cut_off(&self.histogram, self.want);
        let mut out = Vec::with_capacity(self.want.min(self.found.len()));
        for (row, d) in self.found {
            let d = d as usize;
            if d < cut {
                out.push(row as u64);
            } else if d == cut && at_cut > 0 {
                at_cut -= 1;
                out.push(row as u64);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(v: &[f32]) -> (Vec<u8>, f32) {
        let (q, s) = crate::embed::quantize(v);
        (q.into_iter().map(|x| x as u8).collect(), s)
    }

    #[test]
    fn codes_follow_signs_around_the_centre() {
        let mut c = SignCodes::new(2, 3, vec![0.0, 0.5, 0.0]);
        let (r, s) = row(&[0.6, 0.4, -0.7]);
        c.set_row(1, &r, s);
        // dim 0 above 0, dim 1 below 0.5, dim 2 below 0.
        assert_eq!(c.encode(&[0.6, 0.4, -0.7]), vec![0b001]);
        assert_eq!(c.distance(1, &[0b001]), 0);
        assert_eq!(c.distance(1, &[0b110]), 3);
        assert_eq!(c.distance(0, &[0b001]), 1);
        assert_eq!(c.rows(), 2);
    }

    #[test]
    fn long_rows_span_words() {
        let dim = 130;
        let mut v = vec![-0.1f32; dim];
        v[0] = 0.5;
        v[129] = 0.5;
        let (r, s) = row(&v);
        let mut c = SignCodes::new(1, dim, Vec::new());
        c.set_row(0, &r, s);
        assert_eq!(c.words(), 3);
        assert_eq!(c.encode(&v), vec![1, 0, 2]);
        assert_eq!(c.distance(0, &c.encode(&v)), 0);
    }

    #[test]
    fn from_rows_centres_on_the_mean() {
        let (a, sa) = row(&[1.0, 0.2]);
        let (b, sb) = row(&[0.2, 1.0]);
        let data: Vec<u8> = a.iter().chain(&b).copied().collect();
        let c = SignCodes::from_rows(&data, &[sa, sb], 2);
        assert!((c.centre()[0] - 0.6).abs() < 0.02);
        assert_eq!(c.encode(&[1.0, 0.2]), vec![0b01]);
        assert_eq!(c.distance(0, &[0b01]), 0);
        assert_eq!(c.distance(1, &[0b01]), 2);
    }

    #[test]
    fn candidates_keep_the_closest_and_ties_at_the_cut() {
        let mut c = Candidates::new(3, 8);
        for (row, d) in [(0, 5), (1, 1), (2, 3), (3, 3), (4, 3), (5, 0)] {
            c.push(row, d);
        }
        let rows = c.into_rows();
        // 0 and 1 bits are below the cut; one of the three at 3 bits fills it.
        assert_eq!(rows, vec![1, 2, 5]);
        let mut c = Candidates::new(10, 8);
        c.push(7, 8);
        c.push(8, 200); // clamped to the code length
        assert_eq!(c.into_rows(), vec![7, 8]);
    }
}
