//! The tantivy BM25 index over passages: schema, analysers per language,
//! query parsing with title/author/heading boosts, filters.

use crate::CorpusError;
use std::ops::Bound;
use tantivy::collector::TopDocs;
use tantivy::fieldnorm::FieldNormReader;
use tantivy::query::{
    Bm25Weight, BooleanQuery, BoostQuery, EmptyQuery, EnableScoring, Occur, PhraseQuery, Query,
    QueryParser, RangeQuery, TermQuery,
};
use tantivy::schema::{
    Field, IndexRecordOption, NumericOptions, Schema, TextFieldIndexing, TextOptions, STRING,
};
use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer,
    StopWordFilter, TextAnalyzer,
};
use tantivy::{DocAddress, DocSet, Index, Score, Searcher, SeekDangerResult, Term};

/// Languages with their own stemmed body field; others use the plain field.
pub const STEMMED: &[(&str, Language)] = &[
    ("en", Language::English),
    ("fr", Language::French),
    ("it", Language::Italian),
    ("es", Language::Spanish),
    ("pt", Language::Portuguese),
    ("de", Language::German),
];

/// The index fields.
#[derive(Debug, Clone)]
pub struct Fields {
    /// Global passage ordinal (fast field).
    pub ord: Field,
    /// Document title (English stemming).
    pub title: Field,
    /// Author (plain).
    pub author: Field,
    /// Heading (English stemming).
    pub heading: Field,
    /// Passage reference (plain: `john 6 51`).
    pub reference: Field,
    /// Body fields: one per stemmed language, then the plain one.
    pub bodies: Vec<(String, Field)>,
    /// Plain body (Latin and other languages).
    pub body_plain: Field,
    /// Type, exact.
    pub doc_type: Field,
    /// Language, exact.
    pub language: Field,
    /// Year (fast, for ranges; documents without a year are not indexed here).
    pub year: Field,
    /// 1 for magisterial documents.
    pub magisterial: Field,
}

fn text_opts(tokenizer: &str) -> TextOptions {
    TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(tokenizer)
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    )
}

/// The schema and its fields.
pub fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let ord = b.add_u64_field("ord", NumericOptions::default().set_fast());
    let title = b.add_text_field("title", text_opts("c_en"));
    let author = b.add_text_field("author", text_opts("c_plain"));
    let heading = b.add_text_field("heading", text_opts("c_en"));
    let reference = b.add_text_field("reference", text_opts("c_plain"));
    let mut bodies = Vec::new();
    for (lang, _) in STEMMED {
        let f = b.add_text_field(&format!("body_{lang}"), text_opts(&format!("c_{lang}")));
        bodies.push((lang.to_string(), f));
    }
    let body_plain = b.add_text_field("body_plain", text_opts("c_plain"));
    bodies.push(("plain".to_string(), body_plain));
    let doc_type = b.add_text_field("type", STRING);
    let language = b.add_text_field("language", STRING);
    let year = b.add_i64_field("year", NumericOptions::default().set_indexed().set_fast());
    let magisterial = b.add_u64_field("magisterial", NumericOptions::default().set_indexed());
    (
        b.build(),
        Fields {
            ord,
            title,
            author,
            heading,
            reference,
            bodies,
            body_plain,
            doc_type,
            language,
            year,
            magisterial,
        },
    )
}

/// Register the analysers the schema names.
pub fn register_tokenizers(index: &Index) {
    let tm = index.tokenizers();
    tm.register(
        "c_plain",
        TextAnalyzer::builder(SimpleTokenizer::default())
            .filter(RemoveLongFilter::limit(40))
            .filter(LowerCaser)
            .filter(AsciiFoldingFilter)
            .build(),
    );
    for (lang, l) in STEMMED {
        let b = TextAnalyzer::builder(SimpleTokenizer::default())
            .filter(RemoveLongFilter::limit(40))
            .filter(LowerCaser)
            .filter_dynamic(AsciiFoldingFilter);
        let b = match StopWordFilter::new(*l) {
            Some(stop) => b.filter_dynamic(stop),
            None => b,
        };
        tm.register(
            &format!("c_{lang}"),
            b.filter_dynamic(Stemmer::new(*l)).build(),
        );
    }
}

/// The body field for a language code.
pub fn body_field(fields: &Fields, language: &str) -> Field {
    fields
        .bodies
        .iter()
        .find(|(l, _)| l == language)
        .map(|(_, f)| *f)
        .unwrap_or(fields.body_plain)
}

/// Search filters.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Filters {
    /// Document type (`encyclical`, `scripture`, …), exact, lower case.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub doc_type: Option<String>,
    /// Author: every word must occur in the author's name (`"augustine"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// Language code (`en`, `la`, …), or several separated by commas (`en,it`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Earliest year, inclusive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year_from: Option<i32>,
    /// Latest year, inclusive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year_to: Option<i32>,
    /// Only magisterial documents.
    #[serde(default)]
    pub magisterial_only: bool,
    /// Leave out magisterial documents (scholarly sources only).
    #[serde(default)]
    pub exclude_magisterial: bool,
    /// Leave out catalogue entries without text.
    #[serde(default)]
    pub exclude_metadata_only: bool,
}

impl Filters {
    /// True when no filter is set.
    pub fn is_empty(&self) -> bool {
        *self == Filters::default()
    }
}

/// A lexical query, in the shape that searches it fastest.
pub enum LexicalQuery {
    /// A query with `+`/`-` operators: searched as it is, proximity included.
    Whole(Box<dyn Query>),
    /// A query of plain words (with their other wordings and translations):
    /// its terms with their boosts, the filters, and the proximity pass's
    /// sloppy phrases. [`top_docs`] finds the candidates with the terms that
    /// few passages have, as one flat disjunction scored term by term
    /// ([`accumulate`]; filtered or very large ones by tantivy's block-max
    /// WAND over the same term queries), then adds the scores of the common
    /// terms and of the proximity phrases to the best [`RESCORE_POOL`] × n
    /// candidates only. A candidate's score is the
    /// one the whole query gives it (the same terms and BM25 statistics).
    /// A query with phrases (quoted, hyphenated words, a Summa reference)
    /// finds its candidates with every term and the phrases.
    Split {
        /// Distinct terms and their summed boosts.
        terms: Vec<(Term, Score)>,
        /// Phrases that find candidates beside the terms, with their boosts.
        phrases: Vec<(Box<dyn Query>, Score)>,
        /// Required and excluded clauses of the filters.
        filters: Vec<(Occur, Box<dyn Query>)>,
        /// Scores added to the candidates' (boosted): the proximity pass's
        /// phrases, a described title's phrase, the author or kind of
        /// document it names.
        rescore: Vec<Box<dyn Query>>,
    },
}

/// Candidates rescored per passage wanted (the common terms and the proximity
/// pass can lift a passage by a few hundred places, not by more).
pub const RESCORE_POOL: usize = 4;

/// A term in more than this share of the passages is common: it is scored on
/// the candidates only, not used to find them (dev set, lexical list: 0.2
/// keeps recall@10 at 0.550 with MRR 0.405 against 0.410 for the whole query;
/// 0.05 lost recall, 0.497).
pub const COMMON_SHARE: f64 = 0.2;

/// Build the lexical query for `q` with `filters` and the (title, author) boosts.
pub fn build_query(
    index: &Index,
    fields: &Fields,
    q: &str,
    filters: &Filters,
    boosts: (f32, f32),
) -> Result<LexicalQuery, CorpusError> {
    build(index, fields, q, filters, boosts, true)
}

/// [`build_query`]; `split` false always makes [`LexicalQuery::Whole`].
fn build(
    index: &Index,
    fields: &Fields,
    q: &str,
    filters: &Filters,
    boosts: (f32, f32),
    split: bool,
) -> Result<LexicalQuery, CorpusError> {
    let mut default_fields = vec![
        fields.title,
        fields.author,
        fields.heading,
        fields.reference,
    ];
    default_fields.extend(fields.bodies.iter().map(|(_, f)| *f));
    let field_boost = |f: Field| -> f32 {
        if f == fields.title {
            boosts.0
        } else if f == fields.author {
            boosts.1
        } else if f == fields.heading {
            1.3
        } else if f == fields.reference {
            1.5
        } else {
            1.0
        }
    };
    let mut parser = QueryParser::for_index(index, default_fields);
    let expansion = crate::query::expand(q);
    // A Summa reference is found by its reference, not by its words' order; a
    // question in another language by its terms' translations.
    let proximity = expansion.summa.is_none() && expansion.translations.is_empty();
    let filters = filter_clauses(fields, filters);
    let flat = split
        .then(|| flat_terms(&parser, fields, q, &expansion, &field_boost))
        .flatten();
    if let Some((terms, phrases, mut rescore)) = flat {
        if proximity && crate::query::enabled() {
            rescore.extend(
                crate::query::proximity::phrases(index, body_field(fields, "en"), q)
                    .into_iter()
                    .map(|p| boosted(p, PROXIMITY_BOOST)),
            );
        }
        return Ok(LexicalQuery::Split {
            terms,
            phrases,
            filters,
            rescore,
        });
    }
    for f in [
        fields.title,
        fields.author,
        fields.heading,
        fields.reference,
    ] {
        parser.set_field_boost(f, field_boost(f));
    }
    // Lenient: user input never fails to parse; field syntax is disabled by escaping ':'
    // outside quotes would lose "John 6:51", so only known field names are honoured.
    let (query, _errors) = parser.parse_query_lenient(&sanitize(q));
    let query = with_expansion(&parser, fields, query, &expansion);
    let near = proximity
        .then(|| proximity_query(index, fields, q))
        .flatten();
    let query = match near {
        Some(near) => Box::new(BooleanQuery::new(vec![
            (Occur::Must, query),
            (Occur::Should, near),
        ])),
        None => query,
    };
    Ok(LexicalQuery::Whole(with_filters(query, filters)))
}

/// `query` with the filters' clauses beside it (itself without filters).
fn with_filters(query: Box<dyn Query>, filters: Vec<(Occur, Box<dyn Query>)>) -> Box<dyn Query> {
    if filters.is_empty() {
        return query;
    }
    let mut all = vec![(Occur::Must, query)];
    all.extend(filters);
    Box::new(BooleanQuery::new(all))
}

fn boosted(q: Box<dyn Query>, boost: Score) -> Box<dyn Query> {
    if boost == 1.0 {
        q
    } else {
        Box::new(BoostQuery::new(q, boost))
    }
}

/// Terms with their boosts.
type BoostedTerms = Vec<(Term, Score)>;
/// Phrases with their boosts.
type BoostedPhrases = Vec<(Box<dyn Query>, Score)>;
/// A query's terms, phrases, and the queries that only add to scores.
type FlatQuery = (BoostedTerms, BoostedPhrases, Vec<Box<dyn Query>>);

/// The query's words and their other wordings and translations as distinct
/// terms with summed boosts, its phrases and a Summa reference's (the same
/// score as the nested query the parser and [`with_expansion`] make), and
/// what a described title adds to the scores; `None` when the query has
/// required or excluded clauses.
fn flat_terms(
    parser: &QueryParser,
    fields: &Fields,
    q: &str,
    exp: &crate::query::Expansion,
    field_boost: &dyn Fn(Field) -> f32,
) -> Option<FlatQuery> {
    let mut out = Vec::new();
    let mut phrases = Vec::new();
    let mut rescore = Vec::new();
    let (query, _errors) = parser.parse_query_lenient(&sanitize(q));
    if !flatten(query.as_ref(), 1.0, field_boost, &mut out, &mut phrases) {
        return None;
    }
    if let Some(s) = &exp.summa {
        let terms: Vec<Term> = s
            .tokens()
            .iter()
            .map(|t| Term::from_field_text(fields.reference, t))
            .collect();
        if terms.len() >= 2 {
            phrases.push((Box::new(PhraseQuery::new(terms)), SUMMA_BOOST));
        }
    }
    for (terms, boost) in [
        (&exp.translations, TRANSLATION_BOOST),
        (&exp.romance, ROMANCE_BOOST),
        (&exp.variants, VARIANT_BOOST),
    ] {
        if !terms.is_empty() {
            let (q, _errors) = parser.parse_query_lenient(&sanitize(&terms.join(" ")));
            if !flatten(q.as_ref(), boost, field_boost, &mut out, &mut phrases) {
                return None;
            }
        }
    }
    if let Some(d) = &exp.described {
        let title = sanitize(&d.title).replace('"', " ");
        if !title.trim().is_empty() {
            // The title phrase's words are title terms of the query's words:
            // a passage it matches is among the candidates already.
            let (q, _errors) = parser.parse_query_lenient(&format!("title:\"{}\"", title.trim()));
            rescore.push(boosted(q, TITLE_PHRASE_BOOST * field_boost(fields.title)));
            if !d.types.is_empty() || d.author.is_some() {
                let (q, _errors) = parser.parse_query_lenient(&title);
                if !flatten(q.as_ref(), 1.0, field_boost, &mut out, &mut phrases) {
                    return None;
                }
            }
        }
        rescore.extend(described_boosts(fields, d));
    }
    // One clause per distinct term: a term's score is linear in its boost.
    let mut terms: Vec<(Term, Score)> = Vec::with_capacity(out.len());
    for (t, b) in out {
        match terms.iter_mut().find(|(u, _)| *u == t) {
            Some((_, sum)) => *sum += b,
            None => terms.push((t, b)),
        }
    }
    Some((terms, phrases, rescore))
}

/// The boosts of the author and the kinds of document a described query
/// names: scores added to the passages matched, never a match of their own.
fn described_boosts(fields: &Fields, d: &crate::query::describe::Described) -> Vec<Box<dyn Query>> {
    let mut out = Vec::new();
    if let Some(a) = &d.author {
        let words: Vec<(Occur, Box<dyn Query>)> = a
            .split(' ')
            .filter(|w| !w.is_empty())
            .map(|w| {
                let q: Box<dyn Query> = Box::new(TermQuery::new(
                    Term::from_field_text(fields.author, w),
                    IndexRecordOption::Basic,
                ));
                (Occur::Must, q)
            })
            .collect();
        if !words.is_empty() {
            out.push(boosted(Box::new(BooleanQuery::new(words)), AUTHOR_BOOST));
        }
    }
    for t in &d.types {
        let q = TermQuery::new(
            Term::from_field_text(fields.doc_type, t),
            IndexRecordOption::Basic,
        );
        out.push(boosted(Box::new(q), TYPE_BOOST));
    }
    out
}

/// Append the terms of a disjunction (nested disjunctions included) to
/// `out` and its phrases to `phrases`, each with `boost` times its field's
/// boost; false when `q` has anything else (a required or excluded clause).
fn flatten(
    q: &dyn Query,
    boost: f32,
    field_boost: &dyn Fn(Field) -> f32,
    out: &mut Vec<(Term, Score)>,
    phrases: &mut BoostedPhrases,
) -> bool {
    if let Some(b) = q.downcast_ref::<BooleanQuery>() {
        return b.get_minimum_number_should_match() <= 1
            && b.clauses().iter().all(|(occur, sub)| {
                *occur == Occur::Should && flatten(sub.as_ref(), boost, field_boost, out, phrases)
            });
    }
    if let Some(t) = q.downcast_ref::<TermQuery>() {
        out.push((t.term().clone(), boost * field_boost(t.term().field())));
        return true;
    }
    if let Some(p) = q.downcast_ref::<PhraseQuery>() {
        phrases.push((q.box_clone(), boost * field_boost(p.field())));
        return true;
    }
    q.is::<EmptyQuery>()
}

fn term_query(t: &Term, boost: Score) -> Box<dyn Query> {
    boosted(
        Box::new(TermQuery::new(t.clone(), IndexRecordOption::WithFreqs)),
        boost,
    )
}

/// The best `n` passages for `q`, best first (see [`LexicalQuery`]).
pub fn top_docs(
    searcher: &Searcher,
    q: &LexicalQuery,
    n: usize,
) -> Result<Vec<(Score, DocAddress)>, CorpusError> {
    let n = n.max(1);
    let (terms, phrases, filters, rescore) = match q {
        LexicalQuery::Whole(query) => {
            return Ok(searcher.search(query, &TopDocs::with_limit(n).order_by_score())?)
        }
        LexicalQuery::Split {
            terms,
            phrases,
            filters,
            rescore,
        } => (terms, phrases, filters, rescore),
    };
    let limit = (searcher.num_docs() as f64 * COMMON_SHARE) as u64;
    let mut common = Vec::with_capacity(terms.len());
    let mut freqs = Vec::with_capacity(terms.len());
    for (t, _) in terms {
        let df = searcher.doc_freq(t)?;
        freqs.push(df);
        common.push(df > limit);
    }
    // A query with phrases finds with all its terms, as it did when it was
    // searched whole (its phrases are seldom on the common words' passages).
    if common.iter().all(|c| *c) || !phrases.is_empty() {
        common.iter_mut().for_each(|c| *c = false);
    }
    let mut finding: Vec<(Occur, Box<dyn Query>)> = terms
        .iter()
        .zip(&common)
        .filter(|(_, c)| !**c)
        .map(|((t, b), _)| (Occur::Should, term_query(t, *b)))
        .collect();
    finding.extend(
        phrases
            .iter()
            .map(|(p, b)| (Occur::Should, boosted(p.box_clone(), *b))),
    );
    let mut rescoring: Vec<Box<dyn Query>> = terms
        .iter()
        .zip(&common)
        .filter(|(_, c)| **c)
        .map(|((t, b), _)| term_query(t, *b))
        .collect();
    rescoring.extend(rescore.iter().map(|p| p.box_clone()));
    let pool = if rescoring.is_empty() {
        n
    } else {
        n.saturating_mul(RESCORE_POOL)
    };
    // Most of a query's term clauses (its words in the other languages'
    // fields, the author and reference fields) have no postings at all.
    let (mut finding_terms, mut postings) = (Vec::with_capacity(terms.len()), 0);
    for (((t, b), c), df) in terms.iter().zip(&common).zip(&freqs) {
        if !*c && *df > 0 {
            finding_terms.push((t, *b));
            postings += *df;
        }
    }
    let mut top = if filters.is_empty() && postings <= ACCUMULATE_POSTINGS {
        accumulate(searcher, &finding_terms, phrases, pool)?
    } else {
        let finding = with_filters(
            Box::new(BooleanQuery::new(finding)),
            filters.iter().map(|(o, f)| (*o, f.box_clone())).collect(),
        );
        searcher.search(&finding, &TopDocs::with_limit(pool).order_by_score())?
    };
    if rescoring.is_empty() {
        sort_best_first(&mut top);
        return Ok(top);
    }
    add_scores(searcher, &rescoring, &mut top)?;
    sort_best_first(&mut top);
    top.truncate(n);
    Ok(top)
}

/// Best score first; equal scores in index order.
fn sort_best_first(top: &mut [(Score, DocAddress)]) {
    top.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then((a.1.segment_ord, a.1.doc_id).cmp(&(b.1.segment_ord, b.1.doc_id)))
    });
}

/// A finding pass whose terms have at most this many postings in all is
/// scored term by term into one score a passage ([`accumulate`]); a larger
/// one goes to tantivy's block-max WAND, whose cost grows more slowly with
/// the postings (at 500,000 passages the dev and test queries' finding terms
/// have 143,000 postings at the median, 723,000 at most).
pub const ACCUMULATE_POSTINGS: u64 = 2_000_000;

thread_local! {
    /// A score per passage of a segment and the passages scored, reused by
    /// the finding passes of a thread (kept zeroed between passes).
    static SCORES: std::cell::RefCell<(Vec<Score>, Vec<u32>)> =
        const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// A candidate of [`accumulate`]'s heap, ordered worst first: a lower score,
/// or the same score later in the index.
#[derive(PartialEq)]
struct Candidate(Score, u32, u32);

impl Eq for Candidate {}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other
            .0
            .total_cmp(&self.0)
            .then((self.1, self.2).cmp(&(other.1, other.2)))
    }
}

/// The best `k` passages of a disjunction of `terms` (each with its boost),
/// with the scores tantivy's `BooleanQuery` of boosted term queries gives
/// them (the same BM25 weights: the searcher's statistics), found by adding
/// each term's score to its passages one term at a time. On these queries
/// (20-40 term clauses, a pool of 400) this costs a few nanoseconds a posting,
/// where block-max WAND re-sorts its scorers at every passage it scores.
pub fn accumulate(
    searcher: &Searcher,
    terms: &[(&Term, Score)],
    phrases: &[(Box<dyn Query>, Score)],
    k: usize,
) -> Result<Vec<(Score, DocAddress)>, CorpusError> {
    let scoring = EnableScoring::enabled_from_searcher(searcher);
    let mut phrase_weights = Vec::with_capacity(phrases.len());
    for (p, b) in phrases {
        if *b > 0.0 {
            phrase_weights.push(boosted(p.box_clone(), *b).weight(scoring)?);
        }
    }
    let mut weights = Vec::with_capacity(terms.len());
    for (t, b) in terms {
        // A clause that adds nothing cannot lift a passage (and would make
        // a zero score look like an unscored passage below).
        if *b > 0.0 {
            weights.push((
                *t,
                Bm25Weight::for_terms(searcher, &[(*t).clone()])?.boost_by(*b),
            ));
        }
    }
    let mut heap: std::collections::BinaryHeap<Candidate> =
        std::collections::BinaryHeap::with_capacity(k + 1);
    SCORES.with(|cell| -> Result<(), CorpusError> {
        let (scores, seen) = &mut *cell.borrow_mut();
        for (seg, reader) in searcher.segment_readers().iter().enumerate() {
            let max = reader.max_doc() as usize;
            if scores.len() < max {
                scores.resize(max, 0.0);
            }
            seen.clear();
            let mut added = add_postings(reader, &weights, scores, seen);
            for w in &phrase_weights {
                if added.is_err() {
                    break;
                }
                added = w
                    .for_each(reader, &mut |doc, score| {
                        if let Some(slot) = scores.get_mut(doc as usize) {
                            if *slot == 0.0 {
                                seen.push(doc);
                            }
                            *slot += score;
                        }
                    })
                    .map_err(CorpusError::from);
            }
            let alive = reader.alive_bitset();
            for &doc in seen.iter() {
                let score = std::mem::take(&mut scores[doc as usize]);
                if k == 0 || alive.is_some_and(|a| !a.is_alive(doc)) {
                    continue;
                }
                let c = Candidate(score, seg as u32, doc);
                if heap.len() < k {
                    heap.push(c);
                } else if let Some(mut worst) = heap.peek_mut() {
                    if c < *worst {
                        *worst = c;
                    }
                }
            }
            added?;
        }
        Ok(())
    })?;
    Ok(heap
        .into_iter()
        .map(|Candidate(score, seg, doc)| (score, DocAddress::new(seg, doc)))
        .collect())
}

/// Add each term's BM25 score (`weights`: boosted) to `scores` for the
/// passages of one segment that have it, block by block; a passage's first
/// score puts it in `seen`.
fn add_postings(
    reader: &tantivy::SegmentReader,
    weights: &[(&Term, Bm25Weight)],
    scores: &mut [Score],
    seen: &mut Vec<u32>,
) -> Result<(), CorpusError> {
    for (term, weight) in weights {
        let field = term.field();
        let Some(mut block) = reader
            .inverted_index(field)?
            .read_block_postings(term, IndexRecordOption::WithFreqs)
            .map_err(tantivy::TantivyError::from)?
        else {
            continue;
        };
        // As tantivy's term scorer: a field without norms counts one token.
        let norms = match reader.fieldnorms_readers().get_field(field)? {
            Some(n) => n,
            None => FieldNormReader::constant(reader.max_doc(), 1),
        };
        loop {
            let docs = block.docs();
            if docs.is_empty() {
                break;
            }
            let freqs = block.freqs();
            for (i, &doc) in docs.iter().enumerate() {
                let tf = freqs.get(i).copied().unwrap_or(1);
                let Some(slot) = scores.get_mut(doc as usize) else {
                    continue;
                };
                if *slot == 0.0 {
                    seen.push(doc);
                }
                *slot += weight.score(norms.fieldnorm_id(doc), tf);
            }
            block.advance();
        }
    }
    Ok(())
}

/// Add each query's score to the passages of `top` that it matches (each
/// query's scorer seeks through the candidates of a segment in document order).
fn add_scores(
    searcher: &Searcher,
    queries: &[Box<dyn Query>],
    top: &mut [(Score, DocAddress)],
) -> Result<(), CorpusError> {
    top.sort_by_key(|(_, a)| (a.segment_ord, a.doc_id));
    for query in queries {
        let weight = query.weight(EnableScoring::enabled_from_searcher(searcher))?;
        let mut i = 0;
        while i < top.len() {
            let seg = top[i].1.segment_ord;
            let mut scorer = weight.scorer(searcher.segment_reader(seg), 1.0)?;
            // `seek_danger` checks a candidate without running on to the
            // next match (a phrase's next match may be far); after a miss the
            // scorer takes only `seek_danger` calls, at increasing targets.
            let (mut valid, mut next) = (true, 0);
            while i < top.len() && top[i].1.segment_ord == seg {
                let doc = top[i].1.doc_id;
                i += 1;
                if valid && scorer.doc() >= doc {
                    if scorer.doc() == doc {
                        top[i - 1].0 += scorer.score();
                    }
                    continue;
                }
                if !valid && doc < next {
                    continue;
                }
                match scorer.seek_danger(doc) {
                    SeekDangerResult::Found => {
                        valid = true;
                        top[i - 1].0 += scorer.score();
                    }
                    SeekDangerResult::SeekLowerBound(bound) => {
                        valid = false;
                        next = bound;
                    }
                }
            }
        }
    }
    Ok(())
}

/// The filters as required and excluded clauses.
fn filter_clauses(fields: &Fields, filters: &Filters) -> Vec<(Occur, Box<dyn Query>)> {
    let mut clauses: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    if let Some(t) = &filters.doc_type {
        clauses.push((
            Occur::Must,
            Box::new(TermQuery::new(
                Term::from_field_text(fields.doc_type, &t.to_lowercase()),
                IndexRecordOption::Basic,
            )),
        ));
    }
    if let Some(l) = &filters.language {
        // One language, or several separated by commas (`en,it`): any of them.
        let any: Vec<(Occur, Box<dyn Query>)> = l
            .split(',')
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(|l| {
                let q: Box<dyn Query> = Box::new(TermQuery::new(
                    Term::from_field_text(fields.language, &l.to_lowercase()),
                    IndexRecordOption::Basic,
                ));
                (Occur::Should, q)
            })
            .collect();
        clauses.push((Occur::Must, Box::new(BooleanQuery::new(any))));
    }
    if let Some(a) = &filters.author {
        for w in crate::text::fold(a).split(|c: char| !c.is_alphanumeric()) {
            if w.is_empty() {
                continue;
            }
            clauses.push((
                Occur::Must,
                Box::new(TermQuery::new(
                    Term::from_field_text(fields.author, w),
                    IndexRecordOption::Basic,
                )),
            ));
        }
    }
    if filters.year_from.is_some() || filters.year_to.is_some() {
        let lo = filters
            .year_from
            .map(|y| Bound::Included(Term::from_field_i64(fields.year, y as i64)))
            .unwrap_or(Bound::Unbounded);
        let hi = filters
            .year_to
            .map(|y| Bound::Included(Term::from_field_i64(fields.year, y as i64)))
            .unwrap_or(Bound::Unbounded);
        clauses.push((Occur::Must, Box::new(RangeQuery::new(lo, hi))));
    }
    if filters.magisterial_only {
        clauses.push((
            Occur::Must,
            Box::new(TermQuery::new(
                Term::from_field_u64(fields.magisterial, 1),
                IndexRecordOption::Basic,
            )),
        ));
    }
    if filters.exclude_magisterial {
        clauses.push((
            Occur::MustNot,
            Box::new(TermQuery::new(
                Term::from_field_u64(fields.magisterial, 1),
                IndexRecordOption::Basic,
            )),
        ));
    }
    clauses
}

/// Weight of translated terms beside the query's own words.
const TRANSLATION_BOOST: f32 = 1.0;
/// Boost of a named concept's terms in the papal texts' other languages.
const ROMANCE_BOOST: f32 = 0.5;
/// Weight of other wordings (archaic ↔ modern) beside the query's own words.
const VARIANT_BOOST: f32 = 0.4;
/// Weight of a named Summa article's reference: it decides the ranking.
const SUMMA_BOOST: f32 = 8.0;

/// Weight of a title phrase: a query that is a document's title finds it.
const TITLE_PHRASE_BOOST: f32 = 3.0;
/// Weight of the author a query names with a possessive ("Augustine's").
const AUTHOR_BOOST: f32 = 1.5;
/// Weight of the kind of document a query names ("the encyclical on …").
const TYPE_BOOST: f32 = 1.0;

/// The query's own words, or any of their translations, other wordings, the
/// Summa article or the title it names (see [`crate::query`]); passages of
/// the author or the kind of document it names rank higher.
fn with_expansion(
    parser: &QueryParser,
    fields: &Fields,
    query: Box<dyn Query>,
    exp: &crate::query::Expansion,
) -> Box<dyn Query> {
    if exp.is_empty() {
        return query;
    }
    let mut any: Vec<(Occur, Box<dyn Query>)> = vec![(Occur::Should, query)];
    let boosted = |q: Box<dyn Query>, boost: f32| -> (Occur, Box<dyn Query>) {
        (Occur::Should, Box::new(BoostQuery::new(q, boost)))
    };
    for (terms, boost) in [
        (&exp.translations, TRANSLATION_BOOST),
        (&exp.romance, ROMANCE_BOOST),
        (&exp.variants, VARIANT_BOOST),
    ] {
        if !terms.is_empty() {
            let (q, _errors) = parser.parse_query_lenient(&sanitize(&terms.join(" ")));
            any.push(boosted(q, boost));
        }
    }
    if let Some(s) = &exp.summa {
        let terms: Vec<Term> = s
            .tokens()
            .iter()
            .map(|t| Term::from_field_text(fields.reference, t))
            .collect();
        if terms.len() >= 2 {
            any.push(boosted(Box::new(PhraseQuery::new(terms)), SUMMA_BOOST));
        }
    }
    let mut extra: Vec<(Occur, Box<dyn Query>)> = Vec::new();
    if let Some(d) = &exp.described {
        let title = sanitize(&d.title).replace('"', " ");
        if !title.trim().is_empty() {
            let (q, _errors) = parser.parse_query_lenient(&format!("title:\"{}\"", title.trim()));
            any.push(boosted(q, TITLE_PHRASE_BOOST));
            if !d.types.is_empty() || d.author.is_some() {
                // the subject on its own, beside the words "encyclical on"
                let (q, _errors) = parser.parse_query_lenient(&title);
                any.push(boosted(q, 1.0));
            }
        }
        extra.extend(
            described_boosts(fields, d)
                .into_iter()
                .map(|q| (Occur::Should, q)),
        );
    }
    let matched: Box<dyn Query> = Box::new(BooleanQuery::new(any));
    if extra.is_empty() {
        return matched;
    }
    extra.insert(0, (Occur::Must, matched));
    Box::new(BooleanQuery::new(extra))
}

/// Weight of the query's neighbouring words found side by side.
const PROXIMITY_BOOST: f32 = 1.0;

/// The proximity pass for `q` (see [`crate::query::proximity`]): scores for
/// the passages that have the query's neighbouring words together, added to
/// the query's own.
fn proximity_query(index: &Index, fields: &Fields, q: &str) -> Option<Box<dyn Query>> {
    if !crate::query::enabled() {
        return None;
    }
    crate::query::proximity::query(index, body_field(fields, "en"), q, PROXIMITY_BOOST)
}

/// Keep the query language (quotes for phrases, `+`/`-`) but neutralise field
/// syntax and stray operators: `John 6:51` must not be read as field `John 6`.
fn sanitize(q: &str) -> String {
    let mut out = String::with_capacity(q.len());
    for c in q.chars() {
        match c {
            ':' | '(' | ')' | '[' | ']' | '{' | '}' | '^' | '~' | '*' | '\\' | '!' | '<' | '>'
            | '=' | '/' | '\'' | '`' => out.push(' '),
            _ => out.push(c),
        }
    }
    // An odd number of quotes would make a dangling phrase.
    if out.matches('"').count() % 2 == 1 {
        out = out.replace('"', " ");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::doc;

    fn index() -> (Index, Fields) {
        let (schema, fields) = schema();
        let index = Index::create_in_ram(schema);
        register_tokenizers(&index);
        let en = body_field(&fields, "en");
        let mut w = index
            .writer_with_num_threads(1, 15_000_000)
            .expect("writer");
        let texts = [
            (
                "Confessions",
                "Augustine",
                "Take up and read, take up and read: our heart is restless until it rests in thee.",
            ),
            (
                "City of God",
                "Augustine",
                "Two loves have made two cities: love of self and love of God.",
            ),
            (
                "Homily",
                "Chrysostom",
                "Love and do what you will; read the Scripture and love God.",
            ),
            (
                "Letter",
                "Jerome",
                "Ignorance of the Scriptures is ignorance of Christ; read and love them.",
            ),
            (
                "Sermon",
                "Leo",
                "Christian, recognize your dignity, and do not return to your former baseness.",
            ),
            (
                "Rule",
                "Benedict",
                "Listen, my son, to the precepts of the master, and read with love.",
            ),
        ];
        for (i, (title, author, body)) in texts.iter().enumerate() {
            w.add_document(doc!(
                fields.ord => i as u64,
                fields.title => *title,
                fields.author => *author,
                en => *body,
            ))
            .expect("add");
        }
        w.commit().expect("commit");
        (index, fields)
    }

    fn ranked(index: &Index, q: &LexicalQuery, n: usize) -> Vec<(u32, f32)> {
        let searcher = index.reader().expect("reader").searcher();
        top_docs(&searcher, q, n)
            .expect("search")
            .into_iter()
            .map(|(s, a)| (a.doc_id, s))
            .collect()
    }

    #[test]
    fn split_query_scores_as_the_whole_query() {
        let (index, fields) = index();
        for q in [
            "take up and read",
            "love and do what you will",
            "love of God",
            "recognize your dignity Christian",
            "\"take up\" read",
            "take-up and read",
            "the \"love of God\"",
        ] {
            let split =
                build(&index, &fields, q, &Filters::default(), (0.3, 0.5), true).expect("q");
            assert!(matches!(split, LexicalQuery::Split { .. }), "{q}");
            let whole =
                build(&index, &fields, q, &Filters::default(), (0.3, 0.5), false).expect("q");
            let (a, b) = (ranked(&index, &split, 10), ranked(&index, &whole, 10));
            // The candidates are the passages with a term that is not common
            // (here: in at most one passage); each has the whole query's
            // score, in the whole query's order, and the best is the same.
            assert!(!a.is_empty(), "{q}");
            assert_eq!(a[0].0, b[0].0, "{q}: {a:?} vs {b:?}");
            let mut last = 0;
            for (doc, score) in &a {
                let at = b.iter().position(|(d, _)| d == doc);
                let Some(at) = at else {
                    panic!("{q}: {doc} not found by the whole query: {a:?} vs {b:?}");
                };
                assert!(at >= last, "{q}: order {a:?} vs {b:?}");
                last = at;
                assert!(
                    (score - b[at].1).abs() < 1e-4 * score.abs().max(1.0),
                    "{q}: {a:?} vs {b:?}"
                );
            }
        }
    }

    #[test]
    fn accumulated_scores_are_the_boolean_querys() {
        let (index, fields) = index();
        let searcher = index.reader().expect("reader").searcher();
        let en = body_field(&fields, "en");
        let terms: Vec<(Term, Score)> = [
            (en, "read", 1.0),
            (en, "love", 0.4),
            (fields.title, "god", 1.5),
            (fields.author, "augustine", 0.5),
            (en, "scriptur", 2.0),
            (en, "absent", 1.0),
        ]
        .iter()
        .map(|(f, w, b)| (Term::from_field_text(*f, w), *b))
        .collect();
        let refs: Vec<(&Term, Score)> = terms.iter().map(|(t, b)| (t, *b)).collect();
        let clauses: Vec<(Occur, Box<dyn Query>)> = terms
            .iter()
            .map(|(t, b)| (Occur::Should, term_query(t, *b)))
            .collect();
        let query = BooleanQuery::new(clauses);
        for k in [1, 3, 10] {
            let mut got = accumulate(&searcher, &refs, &[], k).expect("accumulate");
            sort_best_first(&mut got);
            let want = searcher
                .search(&query, &TopDocs::with_limit(k).order_by_score())
                .expect("search");
            assert_eq!(got.len(), want.len(), "k={k}: {got:?} vs {want:?}");
            for ((a, da), (b, db)) in got.iter().zip(&want) {
                assert_eq!(da, db, "k={k}: {got:?} vs {want:?}");
                assert!((a - b).abs() < 1e-5 * b.abs(), "k={k}: {got:?} vs {want:?}");
            }
        }
        // The scoring buffers are left zeroed for the next pass.
        let again = accumulate(&searcher, &refs, &[], 10).expect("accumulate");
        assert_eq!(
            again.len(),
            searcher
                .search(&query, &TopDocs::with_limit(10).order_by_score())
                .expect("search")
                .len()
        );
        assert!(accumulate(&searcher, &[], &[], 10)
            .expect("empty")
            .is_empty());
    }

    #[test]
    fn operators_keep_the_whole_query() {
        let (index, fields) = index();
        for q in ["+love -self", "love -self", "+read +love"] {
            let built =
                build_query(&index, &fields, q, &Filters::default(), (0.3, 0.5)).expect("q");
            assert!(matches!(built, LexicalQuery::Whole(_)), "{q}");
            assert!(!ranked(&index, &built, 10).is_empty(), "{q}");
        }
    }
}
