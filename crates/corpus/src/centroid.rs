//! Documents as wholes in the transformer space: each document's centroid
//! (the normalised mean of its passages' vectors), and the documents whose
//! centroid is nearest a query. A query that describes what a document is
//! about ("the encyclical that asks for the rosary in October") is closer to
//! the whole document than to any one passage of it, while a passage list
//! also finds every other work that touches the subject once.

use crate::dense::{dot_i8, Span};
use crate::embed::quantize;

/// Documents' centroids, built from the transformer rows present at one time.
#[derive(Debug, Default)]
pub(crate) struct Centroids {
    /// Document index of each centroid (documents with at least one vector).
    docs: Vec<u32>,
    /// `docs.len() × dim` i8 components (as bytes), each centroid of unit
    /// length before quantisation.
    vectors: Vec<u8>,
    /// One scale per centroid.
    scales: Vec<f32>,
    dim: usize,
    /// Transformer rows present when they were built.
    pub(crate) rows: u64,
}

impl Centroids {
    /// Centroids of the documents `spans` (document index, its passages)
    /// over i8 rows (`dim` bytes each, one scale per row; a zero scale is a
    /// row without a vector). At most `cap` passages of a document count.
    pub(crate) fn build(
        data: &[u8],
        scales: &[f32],
        dim: usize,
        cap: u64,
        spans: impl Iterator<Item = (u32, Span)>,
        rows: u64,
    ) -> Centroids {
        let mut out = Centroids {
            dim,
            rows,
            ..Centroids::default()
        };
        let mut sum = vec![0f32; dim];
        for (doc, span) in spans.filter(|(_, s)| s.english) {
            sum.iter_mut().for_each(|x| *x = 0.0);
            let mut seen = 0u32;
            for ord in span.first_ord..span.first_ord + span.count.min(cap) {
                let i = ord as usize;
                let (Some(&scale), Some(row)) = (scales.get(i), data.get(i * dim..(i + 1) * dim))
                else {
                    break;
                };
                if scale == 0.0 {
                    continue;
                }
                seen += 1;
                for (s, &b) in sum.iter_mut().zip(row) {
                    *s += (b as i8) as f32 * scale;
                }
            }
            let norm = sum.iter().map(|x| x * x).sum::<f32>().sqrt();
            if seen == 0 || norm == 0.0 {
                continue;
            }
            sum.iter_mut().for_each(|x| *x /= norm);
            let (q, scale) = quantize(&sum);
            out.docs.push(doc);
            out.vectors.extend(q.iter().map(|&x| x as u8));
            out.scales.push(scale);
        }
        out
    }

    /// Documents with a centroid.
    pub(crate) fn len(&self) -> usize {
        self.docs.len()
    }

    /// The `n` documents (among those `keep` accepts) whose centroid is
    /// nearest the unit vector `qv`: `(document, cosine)`, best first.
    pub(crate) fn nearest(
        &self,
        qv: &[f32],
        n: usize,
        keep: impl Fn(u32) -> bool,
    ) -> Vec<(u32, f32)> {
        if qv.len() != self.dim || n == 0 {
            return Vec::new();
        }
        let (q8, qs) = quantize(qv);
        let q16: Vec<i16> = q8.iter().map(|&x| x as i16).collect();
        let mut scored: Vec<(u32, f32)> = self
            .docs
            .iter()
            .zip(self.vectors.chunks_exact(self.dim).zip(&self.scales))
            .filter(|(d, _)| keep(**d))
            .map(|(&d, (v, s))| (d, dot_i8(&q16, v) as f32 * qs * s))
            .collect();
        let n = n.min(scored.len());
        if n == 0 {
            return Vec::new();
        }
        scored.select_nth_unstable_by(n - 1, |a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        scored.truncate(n);
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        scored
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(first_ord: u64, count: u64) -> Span {
        Span {
            first_ord,
            count,
            english: true,
        }
    }

    #[test]
    fn a_centroid_is_the_mean_direction_of_the_rows_present() {
        // rows of dim 2: doc 0 has (1,0) and (0,1); doc 1 has (-1,0) and a row without a vector
        let data: Vec<u8> = [100i8, 0, 0, 100, -100, 0, 50, 50]
            .iter()
            .map(|&x| x as u8)
            .collect();
        let scales = [0.01, 0.01, 0.01, 0.0];
        let spans = [(0, span(0, 2)), (1, span(2, 2))];
        let c = Centroids::build(&data, &scales, 2, 100, spans.into_iter(), 3);
        assert_eq!(c.len(), 2);
        let h = std::f32::consts::FRAC_1_SQRT_2;
        let near = c.nearest(&[h, h], 2, |_| true);
        assert_eq!(near[0].0, 0);
        assert!((near[0].1 - 1.0).abs() < 1e-2, "{near:?}");
        assert!((near[1].1 + h).abs() < 1e-2, "{near:?}");
        // the filter, and n larger than the documents
        let only = c.nearest(&[1.0, 0.0], 5, |d| d == 1);
        assert_eq!(only.len(), 1);
        assert_eq!(only[0].0, 1);
        assert!((only[0].1 + 1.0).abs() < 1e-2, "{only:?}");
        // a query of another dimension finds nothing
        assert!(c.nearest(&[1.0], 5, |_| true).is_empty());
    }

    #[test]
    fn documents_without_vectors_or_english_text_have_no_centroid() {
        let data = vec![0u8; 8];
        let scales = [0.0; 4];
        let mut latin = span(2, 2);
        latin.english = false;
        let c = Centroids::build(
            &data,
            &scales,
            2,
            100,
            [(0, span(0, 2)), (1, latin)].into_iter(),
            0,
        );
        assert_eq!(c.len(), 0);
        assert!(c.nearest(&[1.0, 0.0], 3, |_| true).is_empty());
        // spans past the rows are cut, not a panic
        let c = Centroids::build(&data, &[0.5; 4], 2, 100, [(0, span(3, 9))].into_iter(), 4);
        assert_eq!(c.len(), 0);
    }
}
