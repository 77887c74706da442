//! The tantivy BM25 index over passages: schema, analysers per language,
//! query parsing with title/author/heading boosts, filters.

use crate::CorpusError;
use std::ops::Bound;
use tantivy::query::{
    BooleanQuery, BoostQuery, Occur, PhraseQuery, Query, QueryParser, RangeQuery, TermQuery,
};
use tantivy::schema::{
    Field, IndexRecordOption, NumericOptions, Schema, TextFieldIndexing, TextOptions, STRING,
};
use tantivy::tokenizer::{
    AsciiFoldingFilter, Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer,
    StopWordFilter, TextAnalyzer,
};
use tantivy::{Index, Term};

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
    /// Language code (`en`, `la`, …).
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

/// Build the lexical query for `q` with `filters` and the (title, author) boosts.
pub fn build_query(
    index: &Index,
    fields: &Fields,
    q: &str,
    filters: &Filters,
    (title_boost, author_boost): (f32, f32),
) -> Result<Box<dyn Query>, CorpusError> {
    let mut default_fields = vec![
        fields.title,
        fields.author,
        fields.heading,
        fields.reference,
    ];
    default_fields.extend(fields.bodies.iter().map(|(_, f)| *f));
    let mut parser = QueryParser::for_index(index, default_fields);
    parser.set_field_boost(fields.title, title_boost);
    parser.set_field_boost(fields.author, author_boost);
    parser.set_field_boost(fields.heading, 1.3);
    parser.set_field_boost(fields.reference, 1.5);
    // Lenient: user input never fails to parse; field syntax is disabled by escaping ':'
    // outside quotes would lose "John 6:51", so only known field names are honoured.
    let (query, _errors) = parser.parse_query_lenient(&sanitize(q));
    let expansion = crate::query::expand(q);
    let query = with_expansion(&parser, fields, query, &expansion);
    // A Summa reference is found by its reference, not by its words' order; a
    // question in another language by its terms' translations.
    let query = if expansion.summa.is_none() && expansion.translations.is_empty() {
        with_proximity(index, fields, query, q)
    } else {
        query
    };
    let mut clauses: Vec<(Occur, Box<dyn Query>)> = vec![(Occur::Must, query)];
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
        clauses.push((
            Occur::Must,
            Box::new(TermQuery::new(
                Term::from_field_text(fields.language, &l.to_lowercase()),
                IndexRecordOption::Basic,
            )),
        ));
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
    Ok(Box::new(BooleanQuery::new(clauses)))
}

/// Weight of translated terms beside the query's own words.
const TRANSLATION_BOOST: f32 = 1.0;
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
                extra.push(boosted(Box::new(BooleanQuery::new(words)), AUTHOR_BOOST));
            }
        }
        for t in &d.types {
            let q = TermQuery::new(
                Term::from_field_text(fields.doc_type, t),
                IndexRecordOption::Basic,
            );
            extra.push(boosted(Box::new(q), TYPE_BOOST));
        }
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

/// `query`, ranking higher the passages that have the query's neighbouring
/// words together (see [`crate::query::proximity`]); the set matched is the same.
fn with_proximity(
    index: &Index,
    fields: &Fields,
    query: Box<dyn Query>,
    q: &str,
) -> Box<dyn Query> {
    if !crate::query::enabled() {
        return query;
    }
    match crate::query::proximity::query(index, body_field(fields, "en"), q, PROXIMITY_BOOST) {
        Some(near) => Box::new(BooleanQuery::new(vec![
            (Occur::Must, query),
            (Occur::Should, near),
        ])),
        None => query,
    }
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
