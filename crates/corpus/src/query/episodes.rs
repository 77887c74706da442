//! The pericope index (`data/pericopes.tsv`): our own short titles of the
//! Bible's episodes in the ten languages served, with their verse ranges, so
//! that "Zacchaeus climbs a tree to see Jesus" or "匝凯爬上树" finds Luke 19
//! in every Bible of the corpus.
//!
//! [`Episodes::find`] scores each episode by the words of the query its
//! titles and keywords share (each word weighted by how few episodes have
//! it; Chinese by character pairs), and answers only when one episode
//! clearly leads: enough rare words matched, most of the query's known
//! words covered, and well ahead of the next episode.

use super::normalize::{is_han, Normalized};
use std::collections::{HashMap, HashSet};

/// The bundled index.
pub const DATA: &str = include_str!("../../data/pericopes.tsv");

/// Columns: id, book, range, then the titles in these languages, then keywords.
const TITLE_LANGS: [&str; 10] = ["en", "la", "it", "es", "pt", "fr", "cs", "zh", "bn", "kok"];
/// A word in more than this share of the episodes says nothing about which.
const COMMON_SHARE: f32 = 0.04;
/// Least summed weight of the words matched: one word that at most about
/// five episodes have, or two commoner ones.
const MIN_SCORE: f32 = 4.5;
/// Episodes counted at least this many in a word's weight (a small index
/// weighs its words as a full one would).
const MIN_EPISODES: f32 = 100.0;
/// Least share of the weight of the query's words known to the index that
/// the episode matches, with two words or more matched, and with one.
const MIN_COVER: f32 = 0.5;
const MIN_COVER_ONE_WORD: f32 = 0.6;
/// Function words of the ten languages, never evidence of an episode.
const STOP: &[&str] = &[
    "the", "and", "with", "from", "that", "this", "his", "her", "him", "who", "what", "which",
    "when", "where", "why", "how", "does", "did", "was", "were", "are", "for", "into", "out",
    "about", "after", "before", "their", "them", "they", "then", "there", "has", "had", "have",
    "can", "will", "would", "should", "not", "one", "two", "three", "its", "our", "your", "all",
    "che", "per", "con", "una", "uno", "gli", "nel", "nella", "del", "della", "dei", "delle",
    "sul", "sulla", "dal", "dalla", "dai", "come", "non", "suo", "sua", "loro", "tra", "fra",
    "que", "por", "para", "los", "las", "sus", "pero", "sin", "sobre", "entre", "hasta", "desde",
    "ele", "ela", "dos", "das", "nos", "nas", "pelo", "pela", "pelos", "pelas", "aos", "com",
    "uma", "seu", "mas", "sem", "les", "des", "une", "dans", "sur", "par", "pour", "avec", "qui",
    "aux", "son", "ses", "est", "sont", "quo", "quae", "quod", "cum", "non", "sed", "sunt", "eius",
    "suum", "sua", "jak", "kde", "proc", "ktery", "ktera", "ktere", "jeho", "jeji", "pro", "pri",
    "pod", "nad", "jako", "aby", "ale", "nebo", "tak", "towards", "toward", "ever", "say", "says",
    "said", "people", "being", "became", "become", "some", "any", "very", "also", "only", "still",
];
/// How far the best episode leads the next one.
const MIN_LEAD: f32 = 1.25;

/// One account of an episode: a book and a verse range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// The book's code in the store's Bible ids (`luk` in `bible-dr-luk`).
    pub book: String,
    /// First chapter and verse.
    pub start: (u32, u32),
    /// Last chapter and verse.
    pub end: (u32, u32),
}

/// An episode found.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// The episode's id (`zacchaeus`).
    pub id: String,
    /// Its English title.
    pub title: String,
    /// Its accounts (one per Gospel that tells it).
    pub accounts: Vec<Account>,
}

#[derive(Debug, Clone)]
struct Episode {
    id: String,
    title: String,
    accounts: Vec<Account>,
    terms: HashSet<String>,
}

/// The pericope index.
#[derive(Debug, Default)]
pub struct Episodes {
    episodes: Vec<Episode>,
    /// term → number of episodes with it
    df: HashMap<String, usize>,
    /// terms written as names (a capital letter inside a title), and every
    /// term of the scripts without capitals
    names: HashSet<String>,
}

/// `"19:1-10"`, `"19:1-20:3"`, `"19:1"`: the first and last chapter and verse.
fn span_of(range: &str) -> Option<((u32, u32), (u32, u32))> {
    let (first, last) = range.split_once('-').unwrap_or((range, ""));
    let (c, v) = first.trim().split_once(':')?;
    let start: (u32, u32) = (c.parse().ok()?, v.parse().ok()?);
    let last = last.trim();
    let end = match last.split_once(':') {
        Some((c, v)) => (c.parse().ok()?, v.parse().ok()?),
        None if last.is_empty() => start,
        None => (start.0, last.parse().ok()?),
    };
    (end >= start).then_some((start, end))
}

/// A Latin-script word without its commonest English endings ("raises",
/// "raising" → "rais"), so that the forms of a verb meet; others as they are.
fn stem(w: &str) -> String {
    if w.len() >= 5 && w.chars().all(|c| c.is_ascii_alphanumeric()) {
        for suffix in ["ing", "es", "ed", "s"] {
            if let Some(base) = w.strip_suffix(suffix) {
                if base.len() >= 4 {
                    return base.to_string();
                }
            }
        }
    }
    w.to_string()
}

/// The comparable terms of a text: its words (Latin, Bengali, Devanagari
/// scripts; stemmed), each pair of neighbouring words but function words,
/// and, for Chinese, its pairs of characters. With `names`, the words
/// written with a capital letter (and those of scripts without capitals) are
/// put there too.
fn terms(text: &str, out: &mut HashSet<String>, mut names: Option<&mut HashSet<String>>) {
    let n = Normalized::new(text);
    let capitals: Vec<bool> = text
        .split(|c: char| !super::normalize::is_word_char(c))
        .filter(|w| !w.is_empty())
        .map(|w| w.chars().next().is_some_and(char::is_uppercase))
        .collect();
    let mut previous: Option<String> = None;
    for (i, w) in n.words.iter().enumerate() {
        if w.chars().any(is_han) {
            let han: Vec<char> = w.chars().collect();
            for pair in han.windows(2) {
                let pair: String = pair.iter().collect();
                if let Some(names) = names.as_deref_mut() {
                    names.insert(pair.clone());
                }
                out.insert(pair);
            }
            previous = None;
            continue;
        }
        if w.chars().count() < 2 || is_stop(w) {
            previous = None;
            continue;
        }
        let s = stem(w);
        if let Some(p) = previous.replace(s.clone()) {
            out.insert(format!("{p} {s}"));
        }
        if let Some(names) = names.as_deref_mut() {
            let latin = w.chars().all(|c| c.is_ascii_alphanumeric());
            if !latin || capitals.get(i).copied().unwrap_or(false) {
                names.insert(s.clone());
            }
        }
        out.insert(s);
    }
}

/// True for a word that says nothing about an episode: a function word, or
/// a Latin-script word of one or two letters.
fn is_stop(w: &str) -> bool {
    let latin = w.chars().all(|c| c.is_ascii_alphanumeric());
    (latin && w.len() <= 2) || STOP.contains(&w)
}

/// True when a query word and an index word are the same word, a short
/// ending aside ("climbs"/"climb", "Zacchaeus"/"Zacchaeus'").
fn same_word(a: &str, b: &str) -> bool {
    if a == b {
        return true;
    }
    // by bytes: a prefix is never longer than what it begins
    let (long, short) = if a.len() >= b.len() { (a, b) } else { (b, a) };
    let (l, s) = (long.chars().count(), short.chars().count());
    s >= 5 && l.saturating_sub(s) <= 2 && long.starts_with(short)
}

impl Episodes {
    /// Parse `text` (the format of `data/pericopes.tsv`); malformed lines
    /// are reported and skipped. Lines sharing an id prefix before a
    /// `-mat`/`-mar`/`-luk`/`-joh` suffix, or sharing their English title,
    /// are accounts of one episode.
    pub fn parse(text: &str) -> (Episodes, Vec<String>) {
        let mut by_title: HashMap<String, usize> = HashMap::new();
        let mut names: HashSet<String> = HashSet::new();
        let mut episodes: Vec<Episode> = Vec::new();
        let mut warnings = Vec::new();
        for (n, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let cells: Vec<&str> = line.split('\t').collect();
            let span = cells.get(2).and_then(|r| span_of(r));
            let (Some((start, end)), true) = (span, cells.len() >= 3 + TITLE_LANGS.len()) else {
                warnings.push(format!("pericopes.tsv line {}: malformed", n + 1));
                continue;
            };
            let account = Account {
                book: cells[1].trim().to_string(),
                start,
                end,
            };
            let title = cells[3].trim().to_string();
            let mut t = HashSet::new();
            for cell in &cells[3..] {
                for part in cell.split(';') {
                    terms(part, &mut t, Some(&mut names));
                }
            }
            let key = title.to_lowercase();
            match by_title.get(&key) {
                Some(&i) => {
                    let e = &mut episodes[i];
                    if !e.accounts.contains(&account) {
                        e.accounts.push(account);
                    }
                    e.terms.extend(t);
                }
                None => {
                    by_title.insert(key, episodes.len());
                    episodes.push(Episode {
                        id: cells[0].trim().to_string(),
                        title,
                        accounts: vec![account],
                        terms: t,
                    });
                }
            }
        }
        let mut df: HashMap<String, usize> = HashMap::new();
        for e in &episodes {
            for t in &e.terms {
                *df.entry(t.clone()).or_insert(0) += 1;
            }
        }
        (
            Episodes {
                episodes,
                df,
                names,
            },
            warnings,
        )
    }

    /// The bundled index.
    pub fn bundled() -> &'static Episodes {
        static E: std::sync::OnceLock<Episodes> = std::sync::OnceLock::new();
        E.get_or_init(|| Episodes::parse(DATA).0)
    }

    /// Number of episodes.
    pub fn len(&self) -> usize {
        self.episodes.len()
    }

    /// True when the index holds no episode.
    pub fn is_empty(&self) -> bool {
        self.episodes.is_empty()
    }

    /// The weight of an index term: rarer is heavier; `None` when common.
    fn weight(&self, term: &str) -> Option<f32> {
        let n = self.episodes.len() as f32;
        let df = *self.df.get(term)? as f32;
        (df <= (n * COMMON_SHARE).max(2.0)).then(|| (n.max(MIN_EPISODES) / df).ln() + 1.0)
    }

    /// The episode `query` describes, when one clearly leads.
    pub fn find(&self, query: &str) -> Option<Found> {
        self.explain(query).ok()
    }

    /// [`Self::find`], or why nothing was found (for tuning and tests).
    pub fn explain(&self, query: &str) -> Result<Found, String> {
        let mut q = HashSet::new();
        terms(query, &mut q, None);
        // a single word ("saints", "Zacchaeus") names a subject or a person,
        // not an episode described
        let words = q.iter().filter(|t| !t.contains(' ')).count();
        if words < 2 {
            return Err("fewer than two words".into());
        }
        // each query term: the index terms it stands for (itself, other
        // endings of the word), and its weight (its own when the index has it)
        let mut known: Vec<(Vec<&str>, f32)> = Vec::new();
        let mut words: Vec<&String> = q.iter().collect();
        words.sort();
        for t in words {
            let exact = self.df.get_key_value(t.as_str()).map(|(k, _)| k.as_str());
            let mut keys: Vec<&str> = exact.into_iter().collect();
            if !t.contains(' ') {
                keys.extend(
                    self.df
                        .keys()
                        .filter(|k| !k.contains(' ') && k.as_str() != t && same_word(k, t))
                        .map(String::as_str),
                );
            }
            let w = match exact {
                Some(k) => self.weight(k).unwrap_or(0.0),
                None => keys
                    .iter()
                    .filter_map(|k| self.weight(k))
                    .fold(0.0f32, f32::max),
            };
            if w > 0.0 {
                known.push((keys, w));
            }
        }
        let total: f32 = known.iter().map(|k| k.1).sum();
        if total <= 0.0 {
            return Err("no word of the index".into());
        }
        // a theological term ("Eucharist", "grace") names a subject, not an
        // episode: an episode needs a word that is not one, or a name only
        // one episode has (the glossary knows Zacchaeus too)
        let concept = |keys: &[&str]| {
            keys.iter().any(|k| {
                !k.contains(' ')
                    && super::glossary::global().is_term(k)
                    && !(self.names.contains(*k) && self.df.get(*k) == Some(&1))
            })
        };
        // (episode, score, terms matched, a name among them)
        let mut scored: Vec<(usize, f32, usize, bool)> = self
            .episodes
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let hits: Vec<&(Vec<&str>, f32)> = known
                    .iter()
                    .filter(|(keys, _)| keys.iter().any(|k| e.terms.contains(*k)))
                    .collect();
                let name = hits
                    .iter()
                    .any(|(keys, _)| keys.iter().any(|k| self.names.contains(*k)));
                if hits.iter().all(|(keys, _)| concept(keys)) {
                    return (i, 0.0, 0, false);
                }
                (i, hits.iter().map(|h| h.1).sum(), hits.len(), name)
            })
            .filter(|(_, s, _, _)| *s > 0.0)
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let (best, score, matched, name) = *scored.first().ok_or("no episode matched")?;
        // the runner-up that another book tells (the lions' den of Daniel 6
        // and of Daniel 14 lead to the same book)
        let books = |i: usize| -> Vec<&str> {
            self.episodes[i]
                .accounts
                .iter()
                .map(|a| a.book.as_str())
                .collect()
        };
        let runner_up = scored.iter().skip(1).find(|s| books(s.0) != books(best));
        let second = runner_up.map_or(0.0, |s| s.1);
        let cover = score / total;
        // one word alone is an episode only when it is a name and most of the query
        let enough = if matched >= 2 {
            cover >= MIN_COVER
        } else {
            name && cover >= MIN_COVER_ONE_WORD
        };
        if score < MIN_SCORE || !enough || score < second * MIN_LEAD {
            let name = |i: usize| self.episodes[i].id.as_str();
            return Err(format!(
                "best {} {score:.1} ({matched} words) of {total:.1}, second {} {second:.1}; known {known:?}",
                name(best),
                runner_up.map_or("-", |s| name(s.0))
            ));
        }
        let e = &self.episodes[best];
        Ok(Found {
            id: e.id.clone(),
            title: e.title.clone(),
            accounts: e.accounts.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIXTURE: &str = "# id\tbook\trange\ten\tla\tit\tes\tpt\tfr\tcs\tzh\tbn\tkok\tkeywords\n\
zacchaeus\tluk\t19:1-10\tJesus and Zacchaeus\tZacchaeus publicanus\tZaccheo\tZaqueo\tZaqueu\tZachée\tZacheus\t耶稣与匝凯\tসক্কেয়\tजक्कय\tsycamore;tax collector;Jericho;撒该\n\
emmaus\tluk\t24:13-35\tThe road to Emmaus\tDiscipuli Emmaus\tI discepoli di Emmaus\tLos discípulos de Emaús\tOs discípulos de Emaús\tLes pèlerins d'Emmaüs\tEmauzy\t以马忤斯\tইম্মায়ুস\tएम्मावूस\ttwo disciples;breaking of the bread\n\
feeding\tmat\t14:13-21\tFeeding of the five thousand\tMultiplicatio panum\tMoltiplicazione dei pani\tMultiplicación de los panes\tMultiplicação dos pães\tMultiplication des pains\tNasycení pěti tisíc\t五饼二鱼\tপাঁচ হাজার\tपांच हजार\tloaves;fishes;multitude\n\
feeding\tjoh\t6:1-15\tFeeding of the five thousand\tMultiplicatio panum\tMoltiplicazione dei pani\tMultiplicación de los panes\tMultiplicação dos pães\tMultiplication des pains\tNasycení pěti tisíc\t五饼二鱼\tপাঁচ হাজার\tपांच हजार\tloaves;fishes;boy\n\
cana\tjoh\t2:1-11\tThe wedding at Cana\tNuptiae in Cana\tLe nozze di Cana\tLas bodas de Caná\tAs bodas de Caná\tLes noces de Cana\tSvatba v Káni\t加纳婚宴\tকানা\tकाना\twater into wine;marriage feast\n\
broken\tjoh\tx\tBroken\n";

    fn index() -> Episodes {
        let (e, warnings) = Episodes::parse(FIXTURE);
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        e
    }

    #[test]
    fn a_described_episode_is_found_in_any_language() {
        let e = index();
        assert_eq!(e.len(), 4);
        assert_eq!(span_of("19:1-20:3"), Some(((19, 1), (20, 3))));
        assert_eq!(span_of("2:21-21"), Some(((2, 21), (2, 21))));
        assert_eq!(span_of("19:5-1"), None);
        let f = e.find("Zacchaeus climbs a tree to see Jesus").unwrap();
        assert_eq!((f.id.as_str(), f.accounts[0].start), ("zacchaeus", (19, 1)));
        assert_eq!(
            e.find("the two disciples on the road to Emmaus")
                .unwrap()
                .id,
            "emmaus"
        );
        assert_eq!(e.find("Zaqueo sube al árbol").unwrap().id, "zacchaeus");
        assert_eq!(e.find("匝凯爬上树").unwrap().id, "zacchaeus");
        let f = e
            .explain("Jesus feeds five thousand with loaves and fishes")
            .unwrap();
        assert_eq!(f.accounts.len(), 2);
    }

    #[test]
    fn words_of_any_script_compare_without_panic() {
        // more bytes, fewer characters: Bengali beside Latin letters
        assert!(!same_word("অনুগ্রহ", "abcdefghijklmnopqrstu"));
        assert!(!same_word("abcdefghijklmnopqrstu", "অনুগ্রহ"));
        assert!(same_word("zacchaeus", "zacchaeuss"));
        let e = index();
        let _ = e.find("অনুগ্রহ সম্পর্কে মণ্ডলী কী শিক্ষা দেয় real presence abcdefghijklmnop");
    }

    #[test]
    fn other_queries_find_nothing() {
        let e = index();
        assert_eq!(e.find("What is grace?"), None);
        assert_eq!(e.find(""), None);
        assert_eq!(e.find("the"), None);
        assert_eq!(
            e.find("Zacchaeus"),
            None,
            "one word is not an episode described"
        );
        assert_eq!(e.find("the sacraments"), None);
    }
}
