//! Epithets, traditional titles and nicknames of saints and popes, rewritten to the
//! name the directories hold before a query is analysed ("the Angelic Doctor" →
//! "Thomas Aquinas", "the Poverello" → "Francis of Assisi", "JPII" → "John Paul II").
//!
//! A curated table, not learnt: every row is a title in established use, with where it
//! is attested. Abbreviations of the sources:
//!
//! - **CE**: *The Catholic Encyclopedia* (1907–1913), the article on the saint or
//!   "Doctors of the Church" (scholastic titles: *Doctor Angelicus*, *Seraphicus*, …).
//! - **B16**: Benedict XVI, General Audiences on the Fathers and Doctors (2007–2011),
//!   vatican.va, which use these titles in their headings and text.
//! - **MR**: the Roman Martyrology / Breviary lessons.
//! - **Pius XI** etc.: the papal act that gave the title (e.g. Pius XI, *Studiorum
//!   Ducem* 1923, "Angelic or Common Doctor"; Pius XII, *Doctor Mellifluus* 1953).
//! - **Pop.**: the popular name under which the figure is universally known (the
//!   name of the shrine, the canonization homily).
//!
//! Matching: the query is folded ([`crate::fold::fold`]), leading titles ("the",
//! "saint", "st", "san", …) are dropped; a phrase equal to the whole remaining query is
//! rewritten, and a phrase of two or more words found inside a longer query is
//! replaced in place ("St. Thomas, the Angelic Doctor" → "thomas thomas aquinas").

use std::collections::HashMap;
use std::sync::LazyLock;

/// One epithet: its folded phrasings (any language) and the name it stands for.
#[derive(Debug, Clone, Copy)]
pub struct Epithet {
    /// Folded phrasings, without a leading "the"/"saint".
    pub phrases: &'static [&'static str],
    /// The name to look up instead.
    pub name: &'static str,
    /// Where the title is attested (abbreviations in the module docs).
    pub source: &'static str,
}

/// The epithet table.
pub const EPITHETS: &[Epithet] = &[
    // Doctors of the Church: the scholastic and traditional titles
    Epithet {
        phrases: &[
            "angelic doctor",
            "doctor angelicus",
            "common doctor",
            "doctor communis",
            "dottore angelico",
            "doctor angelico",
            "docteur angelique",
            "doutor angelico",
            "andelsky ucitel",
            "dumb ox",
        ],
        name: "Thomas Aquinas",
        source: "CE 'Thomas Aquinas'; Pius XI, Studiorum Ducem (1923)",
    },
    Epithet {
        phrases: &[
            "seraphic doctor",
            "doctor seraphicus",
            "dottore serafico",
            "doctor serafico",
            "docteur seraphique",
            "doutor serafico",
        ],
        name: "Bonaventure",
        source: "CE 'St. Bonaventure'; B16 audience 3 Mar 2010",
    },
    Epithet {
        phrases: &[
            "mellifluous doctor",
            "doctor mellifluus",
            "dottore mellifluo",
            "doctor melifluo",
            "docteur melliflu",
            "doutor melifluo",
            "last of the fathers",
        ],
        name: "Bernard of Clairvaux",
        source: "Pius XII, Doctor Mellifluus (1953); CE 'St. Bernard of Clairvaux'",
    },
    Epithet {
        phrases: &[
            "doctor of grace",
            "doctor gratiae",
            "dottore della grazia",
            "doctor de la gracia",
            "docteur de la grace",
            "doutor da graca",
            "bishop of hippo",
        ],
        name: "Augustine of Hippo",
        source: "CE 'St. Augustine of Hippo' (Doctor gratiae); B16 audience 9 Jan 2008",
    },
    Epithet {
        phrases: &[
            "golden mouthed",
            "golden mouth",
            "goldenmouth",
            "golden tongued",
            "chrysostomos",
            "boca de oro",
            "bocca d oro",
            "bouche d or",
            "zlatousty",
            "zlatoust",
        ],
        name: "John Chrysostom",
        source: "CE 'St. John Chrysostom' (Chrysostomos, 'golden-mouthed'); B16 audience 19 Sep 2007",
    },
    Epithet {
        phrases: &[
            "universal doctor",
            "doctor universalis",
            "dottore universale",
        ],
        name: "Albert the Great",
        source: "CE 'St. Albertus Magnus'; Pius XI, In Thesauris Sapientiae (1931)",
    },
    Epithet {
        phrases: &["mystical doctor", "doctor mysticus", "dottore mistico", "doctor mistico"],
        name: "John of the Cross",
        source: "CE 'St. John of the Cross'; Pius XI (doctorate, 1926)",
    },
    Epithet {
        phrases: &[
            "evangelical doctor",
            "doctor evangelicus",
            "hammer of heretics",
            "malleus haereticorum",
        ],
        name: "Anthony of Padua",
        source: "Pius XII, Exulta Lusitania Felix (1946), 'Doctor Evangelicus'; CE 'St. Anthony of Padua'",
    },
    Epithet {
        phrases: &[
            "harp of the holy spirit",
            "harp of the spirit",
            "cithara spiritus sancti",
            "ephrem the syrian",
        ],
        name: "Ephrem",
        source: "B16 audience 28 Nov 2007; Benedict XV, Principi Apostolorum (1920)",
    },
    Epithet {
        phrases: &["venerable bede", "father of english history", "beda venerabilis"],
        name: "Bede",
        source: "CE 'St. Bede the Venerable'",
    },
    Epithet {
        phrases: &["theologian", "gregory the theologian"],
        name: "Gregory of Nazianzus",
        source: "CE 'St. Gregory of Nazianzus'; B16 audience 8 Aug 2007",
    },
    Epithet {
        phrases: &["father of orthodoxy", "pillar of the church", "athanasius the great"],
        name: "Athanasius of Alexandria",
        source: "CE 'St. Athanasius'; B16 audience 20 Jun 2007",
    },
    Epithet {
        phrases: &["doctor of prayer", "teresa of jesus", "santa teresa de jesus"],
        name: "Teresa of Avila",
        source: "Paul VI, doctorate homily (27 Sep 1970)",
    },
    Epithet {
        phrases: &["most zealous doctor", "doctor zelantissimus", "prince of moralists"],
        name: "Alphonsus Liguori",
        source: "CE 'St. Alphonsus Liguori'; Pius IX (doctorate, 1871)",
    },
    // Apostles and evangelisers
    Epithet {
        phrases: &[
            "apostle of the gentiles",
            "apostle to the gentiles",
            "apostle of the nations",
            "apostolus gentium",
            "apostolo delle genti",
            "apostol de los gentiles",
            "apotre des gentils",
            "apostolo dos gentios",
            "apostol narodu",
            "saul of tarsus",
            "paul of tarsus",
        ],
        name: "Paul the Apostle",
        source: "Rom 11:13; MR 25 Jan and 29 Jun",
    },
    Epithet {
        phrases: &["prince of the apostles", "simon peter", "peter the apostle", "simon bar jonah"],
        name: "Peter",
        source: "MR 29 Jun; Mt 16:17-18",
    },
    Epithet {
        phrases: &["doubting thomas", "didymus"],
        name: "Thomas the Apostle",
        source: "Jn 20:24-29; MR 3 Jul",
    },
    Epithet {
        phrases: &["beloved disciple", "john the evangelist", "evangelist john"],
        name: "John the Apostle",
        source: "Jn 13:23; MR 27 Dec",
    },
    Epithet {
        phrases: &["forerunner", "precursor", "baptist"],
        name: "John the Baptist",
        source: "MR 24 Jun and 29 Aug",
    },
    Epithet {
        phrases: &["apostle of ireland"],
        name: "Patrick",
        source: "CE 'St. Patrick'",
    },
    Epithet {
        phrases: &["apostle of germany", "apostle of the germans", "winfrid", "wynfrith"],
        name: "Boniface",
        source: "CE 'St. Boniface'; B16 audience 11 Mar 2009",
    },
    Epithet {
        phrases: &["apostle of the indies", "apostle of the far east", "apostle of japan"],
        name: "Francis Xavier",
        source: "CE 'St. Francis Xavier'",
    },
    Epithet {
        phrases: &["apostle of rome", "third apostle of rome"],
        name: "Philip Neri",
        source: "CE 'St. Philip Neri'",
    },
    Epithet {
        phrases: &["apostle of the english"],
        name: "Augustine of Canterbury",
        source: "CE 'St. Augustine of Canterbury'",
    },
    Epithet {
        phrases: &["apostle of charity", "father of the poor", "monsieur vincent"],
        name: "Vincent de Paul",
        source: "CE 'St. Vincent de Paul'; Leo XIII (patron of charities, 1885)",
    },
    Epithet {
        phrases: &["apostle of the lepers", "damien of molokai", "damian of molokai", "damien de veuster"],
        name: "Father Damien",
        source: "Pop.; Benedict XVI, canonization homily 11 Oct 2009",
    },
    // Founders and the universally known
    Epithet {
        phrases: &[
            "poverello",
            "il poverello",
            "poverello of assisi",
            "poverello d assisi",
            "little poor man",
            "poor man of assisi",
            "seraphic father",
        ],
        name: "Francis of Assisi",
        source: "CE 'St. Francis of Assisi'; Pius XI, Rite Expiatis (1926)",
    },
    Epithet {
        phrases: &[
            "maid of orleans",
            "pucelle",
            "la pucelle",
            "pucelle d orleans",
            "la pucelle d orleans",
            "jungfrau von orleans",
            "pulzella d orleans",
            "doncella de orleans",
            "donzela de orleans",
            "panna orleanska",
        ],
        name: "Joan of Arc",
        source: "CE 'St. Joan of Arc'; Benedict XV, canonization (1920)",
    },
    Epithet {
        phrases: &[
            "little flower",
            "little flower of jesus",
            "saint of the little way",
            "petite fleur",
            "piccolo fiore",
            "florecilla",
            "florzinha",
            "teresita",
            "therese of the child jesus",
            "teresa of the child jesus",
            "teresa di gesu bambino",
            "therese de l enfant jesus",
            "teresa del nino jesus",
        ],
        name: "Therese of Lisieux",
        source: "Pop. (Story of a Soul, ch. 1); Pius XI, canonization (1925)",
    },
    Epithet {
        phrases: &[
            "cure of ars",
            "cure d ars",
            "the cure d ars",
            "saint cure of ars",
            "curato d ars",
            "cura de ars",
            "cura d ars",
            "pfarrer von ars",
            "farar z arsu",
        ],
        name: "John Vianney",
        source: "CE 'Blessed Jean-Baptiste-Marie Vianney'; B16, letter for the Year for Priests (2009)",
    },
    Epithet {
        phrases: &["padre pio", "pio of pietrelcina", "pio da pietrelcina"],
        name: "Padre Pio",
        source: "Pop.; John Paul II, canonization homily 16 Jun 2002",
    },
    Epithet {
        phrases: &["don bosco", "giovanni bosco"],
        name: "John Bosco",
        source: "Pop.; Pius XI, canonization (1934)",
    },
    Epithet {
        phrases: &["brother andre", "frere andre"],
        name: "Andre Bessette",
        source: "Pop. (Saint Joseph's Oratory, Montreal); canonized 17 Oct 2010",
    },
    Epithet {
        phrases: &["lily of the mohawks", "kateri"],
        name: "Kateri Tekakwitha",
        source: "Pop.; Benedict XVI, canonization homily 21 Oct 2012",
    },
    Epithet {
        phrases: &["mother cabrini"],
        name: "Frances Xavier Cabrini",
        source: "Pop.; Pius XII, canonization (1946)",
    },
    Epithet {
        phrases: &["apostle of divine mercy", "secretary of divine mercy", "sister faustina"],
        name: "Faustina Kowalska",
        source: "John Paul II, canonization homily 30 Apr 2000",
    },
    Epithet {
        phrases: &["saint of the impossible", "saint of impossible causes", "rita da cascia"],
        name: "Rita of Cascia",
        source: "Pop.; Leo XIII, canonization (1900)",
    },
    Epithet {
        phrases: &["father of monks", "father of monasticism", "anthony of egypt", "antony of egypt"],
        name: "Anthony the Great",
        source: "CE 'St. Anthony'; Athanasius, Life of Antony",
    },
    Epithet {
        phrases: &["father of western monasticism", "benedict of norcia", "benedetto da norcia"],
        name: "Benedict of Nursia",
        source: "CE 'St. Benedict of Nursia'; Paul VI, Pacis Nuntius (1964)",
    },
    Epithet {
        phrases: &["wonderworker", "thaumaturgus", "gregory the wonderworker"],
        name: "Gregory Thaumaturgus",
        source: "CE 'St. Gregory Thaumaturgus'",
    },
    Epithet {
        phrases: &["saint of auschwitz", "martyr of charity"],
        name: "Maximilian Kolbe",
        source: "John Paul II, canonization homily 10 Oct 1982",
    },
    Epithet {
        phrases: &["mother teresa of calcutta", "saint teresa of calcutta"],
        name: "Mother Teresa",
        source: "Pop.; Francis, canonization homily 4 Sep 2016",
    },
    // Popes
    Epithet {
        phrases: &[
            "jpii",
            "jp2",
            "jp ii",
            "jp 2",
            "jpe ii",
            "jpii the great",
            "john paul the great",
            "giovanni paolo magno",
        ],
        name: "John Paul II",
        source: "Pop.",
    },
    Epithet {
        phrases: &["jpi", "jp1", "jp i", "smiling pope", "il papa del sorriso"],
        name: "John Paul I",
        source: "Pop.",
    },
    Epithet {
        phrases: &["bxvi", "b16", "b xvi", "pope emeritus"],
        name: "Benedict XVI",
        source: "Pop.; the title he took on resigning (2013)",
    },
    Epithet {
        phrases: &["gregory the great", "gregorio magno", "gregorius magnus", "gregoire le grand"],
        name: "Gregory I",
        source: "CE 'Pope St. Gregory I ('the Great')'; B16 audience 28 May 2008",
    },
    Epithet {
        phrases: &["leo the great", "leone magno", "leo magnus", "leon le grand", "leon magno"],
        name: "Leo I",
        source: "CE 'Pope St. Leo I (the Great)'; B16 audience 5 Mar 2008",
    },
    Epithet {
        phrases: &["good pope john", "il papa buono", "good pope"],
        name: "John XXIII",
        source: "Pop.",
    },
];

/// Leading words that do not belong to an epithet ("the", "saint", "st" …).
fn is_lead(w: &str) -> bool {
    matches!(
        w,
        "the" | "saint" | "st" | "san" | "santa" | "santo" | "sainte" | "sao" | "il" | "la" | "le"
    )
}

/// Every phrasing of the table, with its epithet and its place in the table (which decides
/// between two phrases of the same length found in one query: the earlier one).
struct Phrases {
    by_phrase: HashMap<&'static str, (usize, &'static Epithet)>,
    /// The most words in one phrasing.
    max_words: usize,
}

fn phrases() -> &'static Phrases {
    static PHRASES: LazyLock<Phrases> = LazyLock::new(|| {
        let mut by_phrase = HashMap::new();
        let mut max_words = 1;
        let all = EPITHETS
            .iter()
            .flat_map(|e| e.phrases.iter().map(move |p| (*p, e)));
        for (order, (p, e)) in all.enumerate() {
            by_phrase.insert(p, (order, e));
            max_words = max_words.max(p.split(' ').count());
        }
        Phrases {
            by_phrase,
            max_words,
        }
    });
    &PHRASES
}

/// The name a folded query stands for, when it is (or contains) a known epithet.
///
/// Returns the rewritten query: the epithet's name for a whole-query match, or the
/// query with the epithet replaced by the name for a multi-word epithet inside it (the
/// longest such phrase, at its first place). Every run of the query's words is looked up
/// in the table's phrases, not every phrase searched for in the query: this runs on every
/// name look-up.
pub fn expand(folded: &str) -> Option<String> {
    let table = phrases();
    let words: Vec<&str> = folded.split(' ').filter(|w| !w.is_empty()).collect();
    let start = words.iter().take_while(|w| is_lead(w)).count();
    let core = words[start.min(words.len())..].join(" ");
    let whole = [core.as_str(), folded]
        .into_iter()
        .filter_map(|q| table.by_phrase.get(q))
        .min_by_key(|(order, _)| *order);
    if let Some((_, e)) = whole {
        return Some(e.name.to_string());
    }
    let (at, end, e) = longest_inner_phrase(folded, table)?;
    let replaced = format!("{}{}{}", &folded[..at], e.name, &folded[end..]);
    Some(replaced.trim().to_string())
}

/// The longest phrase of two or more words that occurs in `folded` as whole words: its
/// byte range and epithet. Of two as long, the one earlier in the table; of two places, the
/// first.
fn longest_inner_phrase(folded: &str, table: &Phrases) -> Option<(usize, usize, &'static Epithet)> {
    // byte ranges of the words (folded text separates words by single spaces)
    let mut spans = Vec::new();
    let mut from = 0;
    for w in folded.split(' ') {
        if !w.is_empty() {
            spans.push((from, from + w.len()));
        }
        from += w.len() + 1;
    }
    let mut best: Option<(usize, usize, usize, &'static Epithet)> = None;
    for (i, &(at, _)) in spans.iter().enumerate() {
        for &(_, end) in spans.iter().skip(i + 1).take(table.max_words - 1) {
            let Some(&(order, e)) = table.by_phrase.get(&folded[at..end]) else {
                continue;
            };
            let better = best.is_none_or(|(b_at, b_end, b_order, _)| {
                let (len, b_len) = (end - at, b_end - b_at);
                len > b_len || (len == b_len && order < b_order)
            });
            if better {
                best = Some((at, end, order, e));
            }
        }
    }
    best.map(|(at, end, _, e)| (at, end, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fold::fold;

    #[test]
    fn whole_and_inner_epithets() {
        assert_eq!(
            expand(&fold("The Angelic Doctor")).as_deref(),
            Some("Thomas Aquinas")
        );
        assert_eq!(
            expand(&fold("il Poverello")).as_deref(),
            Some("Francis of Assisi")
        );
        assert_eq!(
            expand(&fold("La Pucelle d'Orléans")).as_deref(),
            Some("Joan of Arc")
        );
        assert_eq!(
            expand(&fold("St. Thomas, the Angelic Doctor")).as_deref(),
            Some("st thomas the Thomas Aquinas")
        );
        assert_eq!(expand(&fold("Thomas Aquinas")), None);
        assert_eq!(expand(&fold("Angelus")), None);
    }

    #[test]
    fn phrases_are_folded_and_unique() {
        let mut seen = std::collections::HashSet::new();
        for e in EPITHETS {
            assert!(!e.source.is_empty(), "{}", e.name);
            for p in e.phrases {
                assert_eq!(fold(p), *p, "not folded: {p}");
                assert!(seen.insert(*p), "twice: {p}");
            }
        }
    }

    /// The table look-up finds what searching every phrase in the query finds.
    #[test]
    fn the_phrase_map_agrees_with_a_scan_of_every_phrase() {
        fn scan(folded: &str) -> Option<String> {
            let words: Vec<&str> = folded.split(' ').filter(|w| !w.is_empty()).collect();
            let start = words.iter().take_while(|w| is_lead(w)).count();
            let core = words[start..].join(" ");
            for e in EPITHETS {
                if e.phrases.iter().any(|p| *p == core || *p == folded) {
                    return Some(e.name.to_string());
                }
            }
            let padded = format!(" {folded} ");
            let mut best: Option<(&str, usize, &Epithet)> = None;
            for e in EPITHETS {
                for p in e.phrases.iter().filter(|p| p.contains(' ')) {
                    if best.is_some_and(|(b, _, _)| p.len() <= b.len()) {
                        continue;
                    }
                    if let Some(at) = padded.find(&format!(" {p} ")) {
                        best = Some((p, at, e));
                    }
                }
            }
            let (p, at, e) = best?;
            Some(
                format!("{}{}{}", &folded[..at], e.name, &folded[at + p.len()..])
                    .trim()
                    .to_string(),
            )
        }
        let mut queries = vec![
            "the angelic doctor".to_string(),
            "st thomas the angelic doctor and the seraphic doctor".to_string(),
            "good pope john xxiii".to_string(),
            "pope benedict xvi".to_string(),
            "".to_string(),
            "the".to_string(),
            "saint  angelic doctor".to_string(),
        ];
        for e in EPITHETS {
            for p in e.phrases {
                queries.push(p.to_string());
                queries.push(format!("saint {p}"));
                queries.push(format!("life of {p} in rome"));
                queries.push(format!("{p} and {}", e.phrases[0]));
            }
        }
        for q in &queries {
            assert_eq!(expand(q), scan(q), "{q:?}");
        }
    }
}
