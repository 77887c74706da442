//! [`Registry`]: the entries of the data file, with an index of every name
//! they are known by, and the lookups the answering pipeline needs: the
//! documents a question names, a pope's or the Council's documents ranked by
//! subject, and the documents whose subjects a question names.

use crate::aliases::SubjectAliases;
use crate::entry::Entry;
use crate::fold::{fold, indic_skeleton, is_han, is_indic};
use crate::mention::{self, Mentions};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The data file, compiled in: facts only (titles, dates, links), written by us.
const BUNDLED: &str = include_str!("../data/registry.json");
/// The names people use for the modern subjects, compiled in.
const BUNDLED_ALIASES: &str = include_str!("../data/subject_aliases.json");

/// Why a registry could not be read.
#[derive(Debug, thiserror::Error)]
pub enum RegistryError {
    /// The JSON does not parse or has the wrong shape.
    #[error("registry: {0}")]
    Json(#[from] serde_json::Error),
    /// Two rows share an id.
    #[error("registry: duplicate id {0:?}")]
    DuplicateId(String),
    /// A row's date is not `YYYY-MM-DD`.
    #[error("registry: {id}: date {date:?} is not YYYY-MM-DD")]
    BadDate {
        /// The row.
        id: String,
        /// Its date.
        date: String,
    },
}

/// How a name is matched in a question.
#[derive(Debug, Clone)]
struct Name {
    /// The folded name (`" evangelium vitae "`), or the raw abbreviation for exact-case names.
    key: String,
    /// An upper-case abbreviation (`"CCC"`, `"GS"`): matched as a whole word in its own case.
    abbreviation: bool,
    /// A Devanagari or Bengali name: `key` is its consonant skeleton, matched against the question's.
    indic: bool,
    /// The entry.
    entry: usize,
}

/// The registry of the modern Magisterium.
#[derive(Debug, Clone)]
pub struct Registry {
    entries: Vec<Entry>,
    by_id: HashMap<String, usize>,
    /// Longest names first, so that "Evangelii gaudium" wins over a shorter name inside it.
    names: Vec<Name>,
    /// The names people use for the subjects, in the ten languages.
    aliases: SubjectAliases,
}

impl Registry {
    /// The registry compiled into the binary (parsed once; the data file is checked by tests).
    pub fn bundled() -> &'static Registry {
        static REGISTRY: OnceLock<Registry> = OnceLock::new();
        REGISTRY.get_or_init(|| match Registry::from_json(BUNDLED) {
            Ok(r) => match SubjectAliases::from_json(BUNDLED_ALIASES) {
                Ok(a) => r.with_subject_aliases(a),
                Err(e) => {
                    tracing::error!("subject aliases: {e}; subjects are matched in English only");
                    r
                }
            },
            Err(e) => {
                // The bundled file is tested; an unreadable one must not take the answers down.
                tracing::error!("{e}; the registry of the modern Magisterium is empty");
                empty()
            }
        })
    }

    /// A registry from the data file's JSON (an array of [`Entry`]).
    pub fn from_json(json: &str) -> Result<Registry, RegistryError> {
        Registry::new(serde_json::from_str(json)?)
    }

    /// A registry over `entries`; ids must be unique and dates ISO.
    pub fn new(entries: Vec<Entry>) -> Result<Registry, RegistryError> {
        let mut by_id = HashMap::new();
        let mut names = Vec::new();
        for (i, e) in entries.iter().enumerate() {
            if by_id.insert(e.id.clone(), i).is_some() {
                return Err(RegistryError::DuplicateId(e.id.clone()));
            }
            if !is_iso_date(&e.date) {
                return Err(RegistryError::BadDate {
                    id: e.id.clone(),
                    date: e.date.clone(),
                });
            }
            for n in e.all_names() {
                if let Some(name) = Name::of(n, i) {
                    names.push(name);
                }
            }
        }
        names.sort_by(|a, b| b.key.len().cmp(&a.key.len()).then(a.entry.cmp(&b.entry)));
        names.dedup_by(|a, b| a.key == b.key && a.entry == b.entry);
        Ok(Registry {
            entries,
            by_id,
            names,
            aliases: SubjectAliases::default(),
        })
    }

    /// This registry, matching subjects by `aliases` too.
    pub fn with_subject_aliases(self, aliases: SubjectAliases) -> Registry {
        Registry { aliases, ..self }
    }

    /// Every entry, in file order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry with `id`.
    pub fn get(&self, id: &str) -> Option<&Entry> {
        self.by_id.get(id).map(|&i| &self.entries[i])
    }

    /// The first entry of `doc_type` (`"catechism"`) whose id starts with `prefix`.
    pub fn find(&self, doc_type: &str, prefix: &str) -> Option<&Entry> {
        self.entries
            .iter()
            .find(|e| e.doc_type == doc_type && e.id.starts_with(prefix))
    }

    /// What `question` names: registry documents (by any of their names, a
    /// Catechism paragraph, a canon), the Second Vatican Council, modern
    /// popes, and titles given after a word like "encyclical" that the
    /// registry does not know.
    pub fn mentions(&self, question: &str) -> Mentions<'_> {
        let mut folded = fold(question);
        let skeleton = if is_indic(question) {
            indic_skeleton(question)
        } else {
            String::new()
        };
        let mut found: Vec<usize> = Vec::new();
        for name in &self.names {
            let hit = if name.indic {
                skeleton.contains(&name.key)
            } else if name.abbreviation {
                mention::has_word(question, &name.key)
            } else if name.key.trim().chars().any(is_han) {
                let key = name.key.trim();
                let hit = folded.contains(key);
                if hit {
                    folded = folded.replace(key, " ");
                }
                hit
            } else {
                let hit = folded.contains(&name.key);
                if hit {
                    folded = folded.replace(&name.key, " ");
                }
                hit
            };
            if hit && !found.contains(&name.entry) {
                found.push(name.entry);
            }
        }
        let mut m = mention::scan(question, &folded);
        if m.catechism_paragraph.is_some() {
            if let Some(i) = self
                .find("catechism", "catechism-of-the-catholic-church")
                .and_then(|e| self.by_id.get(&e.id))
            {
                push_unique(&mut found, *i);
            }
        }
        if let Some(year) = m.canon_code {
            let prefix = if year == 1917 {
                "code-of-canon-law-1917"
            } else {
                "code-of-canon-law-1983"
            };
            if let Some(i) = self.by_id.get(prefix) {
                push_unique(&mut found, *i);
            }
        }
        // A title after "encyclical" that is one of our names is not unknown.
        m.unknown_titles.retain(|t| {
            let f = fold(t);
            !self
                .names
                .iter()
                .any(|n| !n.abbreviation && !n.indic && (f.contains(&n.key) || n.key.contains(&f)))
        });
        Mentions {
            documents: found.into_iter().map(|i| &self.entries[i]).collect(),
            ..m
        }
    }

    /// Entries that pass `keep`, ranked by how much of `text` their subjects
    /// and titles cover (entries that cover nothing are left out).
    pub fn by_subject(&self, text: &str, keep: impl Fn(&Entry) -> bool) -> Vec<(&Entry, f32)> {
        let words = mention::stems(&fold(text));
        if words.is_empty() {
            return Vec::new();
        }
        let mut out: Vec<(&Entry, f32)> = self
            .entries
            .iter()
            .filter(|e| keep(e))
            .filter_map(|e| {
                let score = e
                    .subjects
                    .iter()
                    .chain(std::iter::once(&e.title_en))
                    .map(|s| {
                        let ws = mention::stems(&fold(s));
                        if ws.is_empty() {
                            return 0.0;
                        }
                        let hit = ws.iter().filter(|w| words.contains(*w)).count();
                        hit as f32 / ws.len() as f32
                    })
                    .fold(0.0f32, |a, b| a + b * b);
                (score > 0.0).then_some((e, score))
            })
            .collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.date.cmp(&b.0.date)));
        out
    }

    /// Entries one of whose subject phrases `text` contains whole (`"euthanasia"`,
    /// `"in vitro fertilization"`; a word also matches itself with a short ending
    /// more, so `"vaccine"` meets `"vaccines"`) or names by one of its aliases
    /// in any of the ten languages ("test-tube babies", "试管婴儿"), with the
    /// registry's phrases found; longest phrases first.
    pub fn subjects_named_in(&self, text: &str) -> Vec<(&Entry, Vec<&str>)> {
        let words = word_list(&fold(text));
        let aliased = self.aliases.subjects_in(text);
        let mut out: Vec<(&Entry, Vec<&str>, usize)> = self
            .entries
            .iter()
            .filter_map(|e| {
                let found: Vec<&str> = e
                    .subjects
                    .iter()
                    .filter(|s| {
                        if aliased.contains(&s.as_str()) {
                            return true;
                        }
                        // "AI": an upper-case abbreviation, as a word in its own case.
                        if s.len() <= 4 && s.chars().all(|c| c.is_ascii_uppercase()) {
                            return mention::has_word(text, s);
                        }
                        let f = fold(s);
                        let phrase = word_list(&f);
                        f.trim().len() >= 4
                            && !phrase.is_empty()
                            && words
                                .windows(phrase.len())
                                .any(|w| w.iter().zip(&phrase).all(|(a, b)| same_word(a, b)))
                    })
                    .map(String::as_str)
                    .collect();
                let n: usize = found.iter().map(|s| s.len()).sum();
                (n > 0).then_some((e, found, n))
            })
            .collect();
        out.sort_by(|a, b| b.2.cmp(&a.2).then(b.0.date.cmp(&a.0.date)));
        out.into_iter().map(|(e, f, _)| (e, f)).collect()
    }
}

impl Name {
    fn of(raw: &str, entry: usize) -> Option<Name> {
        let raw = raw.trim();
        let letters = raw.chars().filter(|c| c.is_alphanumeric()).count();
        if letters < 2 {
            return None;
        }
        let abbreviation = letters <= 5
            && !raw.contains(' ')
            && raw
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
        if abbreviation {
            return Some(Name {
                key: raw.to_string(),
                abbreviation,
                indic: false,
                entry,
            });
        }
        if is_indic(raw) {
            let key = indic_skeleton(raw);
            // Four consonants at least: shorter skeletons match too much.
            return (key.chars().filter(|c| *c != ' ').count() >= 4).then_some(Name {
                key,
                abbreviation: false,
                indic: true,
                entry,
            });
        }
        let key = fold(raw);
        // A single short word ("Spe") matches too much; Chinese names are whole titles.
        let han = key.chars().any(is_han);
        if !han && key.trim().chars().count() < 6 {
            return None;
        }
        Some(Name {
            key,
            abbreviation,
            indic: false,
            entry,
        })
    }
}

/// The words of a folded text.
fn word_list(folded: &str) -> Vec<String> {
    folded
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// The same word, or one with a short ending more (`vaccine`/`vaccines`); not
/// a longer word of the same root (`ecclesia` is not `ecclesiology`).
pub(crate) fn same_word(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    // Short words only as they are: "you" is not "youth".
    short == long
        || short.chars().count() >= 5 && long.starts_with(short) && long.len() - short.len() <= 2
}

fn push_unique(v: &mut Vec<usize>, i: usize) {
    if !v.contains(&i) {
        v.push(i);
    }
}

fn is_iso_date(d: &str) -> bool {
    let b = d.as_bytes();
    b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
}

fn empty() -> Registry {
    Registry {
        entries: Vec::new(),
        by_id: HashMap::new(),
        names: Vec::new(),
        aliases: SubjectAliases::default(),
    }
}
