//! Date phrases: "today", "next Sunday", "Easter Sunday 2026", "19 March 2027", in several languages.

use chrono::Weekday;

/// An English weekday name (or 3-letter abbreviation).
pub fn weekday_from_english(w: &str) -> Option<Weekday> {
    let w = w.to_lowercase();
    let p = w.get(..3)?;
    Some(match p {
        "mon" => Weekday::Mon,
        "tue" => Weekday::Tue,
        "wed" => Weekday::Wed,
        "thu" => Weekday::Thu,
        "fri" => Weekday::Fri,
        "sat" => Weekday::Sat,
        "sun" => Weekday::Sun,
        _ => return None,
    })
}

/// An English month name (or 3-letter abbreviation).
pub fn month_from_name(w: &str) -> Option<u32> {
    let w = w.to_lowercase();
    let p = w.get(..3)?;
    let m = match p {
        "jan" => 1,
        "feb" => 2,
        "mar" => 3,
        "apr" => 4,
        "may" => 5,
        "jun" => 6,
        "jul" => 7,
        "aug" => 8,
        "sep" => 9,
        "oct" => 10,
        "nov" => 11,
        "dec" => 12,
        _ => return None,
    };
    Some(m)
}

/// Lower-case, strip accents (NFD, combining marks dropped), keep other scripts as they are.
pub fn fold(s: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    s.nfd()
        .filter(|c| !('\u{0300}'..='\u{036f}').contains(c))
        .collect::<String>()
        .to_lowercase()
}

use crate::calendar::{CalendarData, CalendarSpec};
use crate::error::LiturgyError;
use chrono::{Datelike, Duration, NaiveDate};

/// The forms a date phrase may take, listed in the `-32602` error.
pub const ACCEPTED_FORMS: &str = "accepted date forms: an ISO date (2026-03-19); 3/19/2027 (month/day/year) or 19.3.2027; \
\"March 19\", \"19 March 2027\" (English, Latin, Spanish, Italian, Portuguese, French month names); \
today / tomorrow / yesterday (also hodie, hoy, oggi, hoje, aujourd'hui, dnes, 今天, আজ, आयज …); \
a weekday with next / last / this (\"next Sunday\", \"domingo próximo\", \"příští neděli\", \"下周日\", \"আগামী রবিবার\"); \
a named day with or without a year (Christmas, Easter Sunday 2026, Ash Wednesday, Palm Sunday, Holy Thursday, Good Friday, \
Easter Vigil, Divine Mercy Sunday, Ascension, Pentecost, Trinity Sunday, Corpus Christi, Sacred Heart, Christ the King, \
the 3rd Sunday of Advent, Gaudete, Laetare, First Sunday of Lent, Holy Family, Epiphany, Baptism of the Lord, All Saints, \
All Souls, the Assumption, the Immaculate Conception, St Joseph, Sts Peter and Paul, or a saint by name)";

fn bad(phrase: &str) -> LiturgyError {
    LiturgyError::BadPhrase(format!(
        "cannot understand the date {phrase:?}; {ACCEPTED_FORMS}"
    ))
}

/// Named days: aliases (folded, any language) to a calendar key.
const NAMED: &[(&str, &[&str])] = &[
    (
        "EasterVigil",
        &[
            "easter vigil",
            "holy saturday",
            "vigilia paschalis",
            "sabbato sancto",
            "sabado santo",
            "vigilia pascual",
            "sabato santo",
            "veglia pasquale",
            "vigilia pasquale",
            "vigilia pascal",
            "samedi saint",
            "vigile pascale",
            "bila sobota",
            "velikonocni vigilie",
        ],
    ),
    (
        "Easter2",
        &[
            "divine mercy sunday",
            "divine mercy",
            "second sunday of easter",
            "2nd sunday of easter",
            "low sunday",
            "dominica in albis",
            "divina misericordia",
            "divina misericordia",
            "divine misericorde",
            "nedele bozího milosrdenstvi",
            "nedele boziho milosrdenstvi",
        ],
    ),
    (
        "Easter",
        &[
            "easter sunday",
            "easter day",
            "easter",
            "pascha",
            "dominica resurrectionis",
            "domingo de resurreccion",
            "domingo de pascua",
            "pascua",
            "pasqua",
            "domingo de pascoa",
            "pascoa",
            "paques",
            "velikonocni nedele",
            "velikonoce",
            "复活节",
            "復活節",
            "复活主日",
            "ইস্টার",
            "পাস্কা",
            "पास्क",
            "ईस्टर",
        ],
    ),
    (
        "AshWednesday",
        &[
            "ash wednesday",
            "dies cinerum",
            "feria iv cinerum",
            "miercoles de ceniza",
            "mercoledi delle ceneri",
            "quarta-feira de cinzas",
            "quarta feira de cinzas",
            "mercredi des cendres",
            "popelecni streda",
            "圣灰星期三",
            "聖灰星期三",
            "ভস্ম বুধবার",
        ],
    ),
    (
        "PalmSun",
        &[
            "palm sunday",
            "passion sunday",
            "dominica in palmis",
            "domingo de ramos",
            "domenica delle palme",
            "dimanche des rameaux",
            "kvetna nedele",
            "圣枝主日",
            "聖枝主日",
        ],
    ),
    (
        "HolyThurs",
        &[
            "holy thursday",
            "maundy thursday",
            "cena domini",
            "jueves santo",
            "giovedi santo",
            "quinta-feira santa",
            "quinta feira santa",
            "jeudi saint",
            "zeleny ctvrtek",
            "圣周四",
            "聖週四",
        ],
    ),
    (
        "GoodFri",
        &[
            "good friday",
            "in passione domini",
            "viernes santo",
            "venerdi santo",
            "sexta-feira santa",
            "sexta feira santa",
            "vendredi saint",
            "velky patek",
            "耶稣受难日",
            "耶穌受難日",
            "গুড ফ্রাইডে",
            "পুণ্য শুক্রবার",
        ],
    ),
    (
        "Pentecost",
        &[
            "pentecost sunday",
            "pentecost",
            "whitsunday",
            "pentecoste",
            "pentecostes",
            "pentecote",
            "letnice",
            "seslani ducha svateho",
            "圣神降临",
            "聖神降臨",
            "五旬节",
            "五旬節",
            "পেন্টেকস্ট",
            "পঞ্চাশত্তমী",
            "पेंतेकोस्त",
        ],
    ),
    (
        "Ascension",
        &[
            "ascension of the lord",
            "ascension thursday",
            "ascension",
            "ascensio domini",
            "ascension del senor",
            "ascension",
            "ascensione",
            "ascensao",
            "nanebevstoupeni",
            "耶稣升天",
            "耶穌升天",
        ],
    ),
    (
        "Trinity",
        &[
            "trinity sunday",
            "holy trinity",
            "most holy trinity",
            "sanctissimae trinitatis",
            "santisima trinidad",
            "santissima trinita",
            "santissima trindade",
            "sainte trinite",
            "nejsvetejsi trojice",
            "圣三",
            "聖三",
        ],
    ),
    (
        "CorpusChristi",
        &[
            "corpus christi",
            "body and blood of christ",
            "corpus domini",
            "corpo de deus",
            "fete-dieu",
            "fete dieu",
            "saint-sacrement",
            "saint sacrement",
            "bozi telo",
            "基督圣体",
            "基督聖體",
        ],
    ),
    (
        "SacredHeart",
        &[
            "sacred heart",
            "sacratissimi cordis",
            "sagrado corazon",
            "sacro cuore",
            "sagrado coracao",
            "sacre-coeur",
            "sacre coeur",
            "nejsvetejsiho srdce",
            "耶稣圣心",
            "耶穌聖心",
        ],
    ),
    (
        "ChristKing",
        &[
            "christ the king",
            "christ king",
            "king of the universe",
            "christi regis",
            "cristo rey",
            "cristo re",
            "cristo rei",
            "christ roi",
            "krista krale",
            "基督普世君王",
        ],
    ),
    ("Advent3", &["gaudete"]),
    ("Lent4", &["laetare"]),
    (
        "HolyFamily",
        &[
            "holy family",
            "sacrae familiae",
            "sagrada familia",
            "santa famiglia",
            "sagrada familia",
            "sainte famille",
            "svate rodiny",
            "圣家",
            "聖家",
        ],
    ),
    (
        "Epiphany",
        &[
            "epiphany",
            "epiphania",
            "epifania",
            "reyes magos",
            "epiphanie",
            "zjeveni pane",
            "tri kralu",
            "主显节",
            "主顯節",
        ],
    ),
    (
        "BaptismLord",
        &[
            "baptism of the lord",
            "baptism of our lord",
            "baptismatis domini",
            "bautismo del senor",
            "battesimo del signore",
            "batismo do senhor",
            "bapteme du seigneur",
            "krtu pane",
            "主受洗",
        ],
    ),
    (
        "MaryMotherOfGod",
        &[
            "mary mother of god",
            "mother of god",
            "sanctae dei genetricis",
            "madre de dios",
            "madre di dio",
            "mae de deus",
            "mere de dieu",
            "matky bozi",
            "天主之母",
        ],
    ),
    (
        "AllSouls",
        &[
            "all souls",
            "faithful departed",
            "omnium fidelium defunctorum",
            "fieles difuntos",
            "dia de muertos",
            "commemorazione dei defunti",
            "fieis defuntos",
            "finados",
            "jour des morts",
            "fideles defunts",
            "dusicky",
            "追思已亡",
            "追思亡者",
        ],
    ),
    (
        "AllSaints",
        &[
            "all saints",
            "omnium sanctorum",
            "todos los santos",
            "ognissanti",
            "tutti i santi",
            "todos os santos",
            "toussaint",
            "vsech svatych",
            "诸圣节",
            "諸聖節",
        ],
    ),
    (
        "Assumption",
        &[
            "assumption",
            "assumptio",
            "asuncion",
            "assunzione",
            "ferragosto",
            "assuncao",
            "assomption",
            "nanebevzeti",
            "圣母升天",
            "聖母升天",
        ],
    ),
    (
        "ImmaculateConception",
        &[
            "immaculate conception",
            "immaculata conceptio",
            "inmaculada concepcion",
            "inmaculada",
            "immacolata concezione",
            "immacolata",
            "imaculada conceicao",
            "immaculee conception",
            "neposkvrneneho poceti",
            "始胎无染原罪",
            "無染原罪",
        ],
    ),
    (
        "Annunciation",
        &[
            "annunciation",
            "annuntiatio",
            "anunciacion",
            "annunciazione",
            "anunciacao",
            "annonciation",
            "zvestovani pane",
            "预报救主",
            "預報救主",
        ],
    ),
    (
        "StJoseph",
        &[
            "st joseph",
            "saint joseph",
            "st. joseph",
            "sancti ioseph",
            "san jose",
            "san giuseppe",
            "sao jose",
            "svateho josefa",
            "sv. josefa",
            "圣若瑟",
            "聖若瑟",
        ],
    ),
    (
        "StsPeterPaulAp",
        &[
            "sts peter and paul",
            "saints peter and paul",
            "st peter and st paul",
            "peter and paul",
            "ss. peter and paul",
            "petri et pauli",
            "san pedro y san pablo",
            "santi pietro e paolo",
            "sao pedro e sao paulo",
            "saints pierre et paul",
            "petra a pavla",
            "圣伯多禄圣保禄",
            "聖伯多祿聖保祿",
        ],
    ),
    (
        "NativityJohnBaptist",
        &[
            "nativity of john the baptist",
            "birth of john the baptist",
            "st john the baptist",
            "san juan bautista",
            "san giovanni battista",
            "sao joao batista",
            "saint jean-baptiste",
            "saint jean baptiste",
        ],
    ),
    (
        "Christmas",
        &[
            "christmas day",
            "christmas",
            "xmas",
            "nativity of the lord",
            "nativitas domini",
            "navidad",
            "natale",
            "natal",
            "noel",
            "vanoce",
            "bozi hod vanocni",
            "圣诞节",
            "聖誕節",
            "圣诞",
            "聖誕",
            "বড়দিন",
            "বড়দিন",
            "ক্রিসমাস",
            "नाताळ",
            "क्रिसमस",
        ],
    ),
];

const RELATIVE: &[(&str, i64)] = &[
    ("day after tomorrow", 2),
    ("day before yesterday", -2),
    ("pasado manana", 2),
    ("dopodomani", 2),
    ("apres-demain", 2),
    ("apres demain", 2),
    ("depois de amanha", 2),
    ("anteontem", -2),
    ("antier", -2),
    ("avant-hier", -2),
    ("l'altro ieri", -2),
    ("pozitri", 2),
    ("predevcirem", -2),
    ("后天", 2),
    ("前天", -2),
    ("today", 0),
    ("tonight", 0),
    ("hodie", 0),
    ("hoy", 0),
    ("oggi", 0),
    ("hoje", 0),
    ("aujourd'hui", 0),
    ("aujourdhui", 0),
    ("dnes", 0),
    ("dneska", 0),
    ("今天", 0),
    ("今日", 0),
    ("আজ", 0),
    ("আজকে", 0),
    ("आयज", 0),
    ("आज", 0),
    ("tomorrow", 1),
    ("cras", 1),
    ("manana", 1),
    ("domani", 1),
    ("amanha", 1),
    ("demain", 1),
    ("zitra", 1),
    ("明天", 1),
    ("明日", 1),
    ("আগামীকাল", 1),
    ("फाल्यां", 1),
    ("फाल्या", 1),
    ("yesterday", -1),
    ("heri", -1),
    ("ayer", -1),
    ("ieri", -1),
    ("ontem", -1),
    ("hier", -1),
    ("vcera", -1),
    ("昨天", -1),
    ("昨日", -1),
    ("গতকাল", -1),
    ("काल", -1),
];

/// Weekday words (folded) in every supported language; index 0 = Monday.
const WEEKDAYS: &[(&str, u32)] = &[
    ("monday", 0),
    ("tuesday", 1),
    ("wednesday", 2),
    ("thursday", 3),
    ("friday", 4),
    ("saturday", 5),
    ("sunday", 6),
    ("lunes", 0),
    ("martes", 1),
    ("miercoles", 2),
    ("jueves", 3),
    ("viernes", 4),
    ("sabado", 5),
    ("domingo", 6),
    ("lunedi", 0),
    ("martedi", 1),
    ("mercoledi", 2),
    ("giovedi", 3),
    ("venerdi", 4),
    ("sabato", 5),
    ("domenica", 6),
    ("segunda-feira", 0),
    ("segunda", 0),
    ("terca-feira", 1),
    ("terca", 1),
    ("quarta-feira", 2),
    ("quarta", 2),
    ("quinta-feira", 3),
    ("quinta", 3),
    ("sexta-feira", 4),
    ("sexta", 4),
    ("lundi", 0),
    ("mardi", 1),
    ("mercredi", 2),
    ("jeudi", 3),
    ("vendredi", 4),
    ("samedi", 5),
    ("dimanche", 6),
    ("feria secunda", 0),
    ("feria tertia", 1),
    ("feria quarta", 2),
    ("feria quinta", 3),
    ("feria sexta", 4),
    ("sabbato", 5),
    ("dominica", 6),
    ("pondeli", 0),
    ("utery", 1),
    ("streda", 2),
    ("stredu", 2),
    ("ctvrtek", 3),
    ("patek", 4),
    ("sobota", 5),
    ("sobotu", 5),
    ("nedele", 6),
    ("nedeli", 6),
    ("星期一", 0),
    ("星期二", 1),
    ("星期三", 2),
    ("星期四", 3),
    ("星期五", 4),
    ("星期六", 5),
    ("星期日", 6),
    ("星期天", 6),
    ("周一", 0),
    ("周二", 1),
    ("周三", 2),
    ("周四", 3),
    ("周五", 4),
    ("周六", 5),
    ("周日", 6),
    ("周天", 6),
    ("礼拜天", 6),
    ("主日", 6),
    ("সোমবার", 0),
    ("মঙ্গলবার", 1),
    ("বুধবার", 2),
    ("বৃহস্পতিবার", 3),
    ("শুক্রবার", 4),
    ("শনিবার", 5),
    ("রবিবার", 6),
    ("सोमार", 0),
    ("मंगळार", 1),
    ("बुधवार", 2),
    ("बुदवार", 2),
    ("बिरेस्तार", 3),
    ("शुक्रार", 4),
    ("शेनवार", 5),
    ("आयतार", 6),
];

const NEXT_WORDS: &[&str] = &[
    "next",
    "coming",
    "proximo",
    "proxima",
    "que viene",
    "prossimo",
    "prossima",
    "prochain",
    "prochaine",
    "pristi",
    "pristi",
    "下",
    "আগামী",
    "फुडलो",
    "फुडले",
    "proximus",
    "sequenti",
];
const LAST_WORDS: &[&str] = &[
    "last",
    "previous",
    "past",
    "pasado",
    "pasada",
    "scorso",
    "scorsa",
    "passado",
    "passada",
    "dernier",
    "derniere",
    "minuly",
    "minulou",
    "minulu",
    "上",
    "গত",
    "फाटलो",
    "फाटले",
    "praeterita",
];

const MONTHS: &[(&str, u32)] = &[
    ("january", 1),
    ("february", 2),
    ("march", 3),
    ("april", 4),
    ("may", 5),
    ("june", 6),
    ("july", 7),
    ("august", 8),
    ("september", 9),
    ("october", 10),
    ("november", 11),
    ("december", 12),
    ("jan", 1),
    ("feb", 2),
    ("mar", 3),
    ("apr", 4),
    ("jun", 6),
    ("jul", 7),
    ("aug", 8),
    ("sep", 9),
    ("sept", 9),
    ("oct", 10),
    ("nov", 11),
    ("dec", 12),
    ("ianuarii", 1),
    ("ianuarius", 1),
    ("januarii", 1),
    ("februarii", 2),
    ("februarius", 2),
    ("martii", 3),
    ("martius", 3),
    ("aprilis", 4),
    ("maii", 5),
    ("maius", 5),
    ("iunii", 6),
    ("iunius", 6),
    ("junii", 6),
    ("iulii", 7),
    ("iulius", 7),
    ("julii", 7),
    ("augusti", 8),
    ("augustus", 8),
    ("septembris", 9),
    ("octobris", 10),
    ("novembris", 11),
    ("decembris", 12),
    ("enero", 1),
    ("febrero", 2),
    ("marzo", 3),
    ("abril", 4),
    ("mayo", 5),
    ("junio", 6),
    ("julio", 7),
    ("agosto", 8),
    ("septiembre", 9),
    ("setiembre", 9),
    ("octubre", 10),
    ("noviembre", 11),
    ("diciembre", 12),
    ("gennaio", 1),
    ("febbraio", 2),
    ("aprile", 4),
    ("maggio", 5),
    ("giugno", 6),
    ("luglio", 7),
    ("settembre", 9),
    ("ottobre", 10),
    ("dicembre", 12),
    ("janeiro", 1),
    ("fevereiro", 2),
    ("marco", 3),
    ("maio", 5),
    ("junho", 6),
    ("julho", 7),
    ("setembro", 9),
    ("outubro", 10),
    ("novembro", 11),
    ("dezembro", 12),
    ("janvier", 1),
    ("fevrier", 2),
    ("mars", 3),
    ("avril", 4),
    ("mai", 5),
    ("juin", 6),
    ("juillet", 7),
    ("aout", 8),
    ("septembre", 9),
    ("octobre", 10),
    ("decembre", 12),
    ("ledna", 1),
    ("unora", 2),
    ("brezna", 3),
    ("dubna", 4),
    ("kvetna", 5),
    ("cervna", 6),
    ("cervence", 7),
    ("srpna", 8),
    ("zari", 9),
    ("rijna", 10),
    ("listopadu", 11),
    ("prosince", 12),
];

const ORDINALS: &[(&str, u32)] = &[
    ("first", 1),
    ("1st", 1),
    ("second", 2),
    ("2nd", 2),
    ("third", 3),
    ("3rd", 3),
    ("fourth", 4),
    ("4th", 4),
    ("fifth", 5),
    ("5th", 5),
    ("sixth", 6),
    ("6th", 6),
    ("seventh", 7),
    ("7th", 7),
    ("primer", 1),
    ("primero", 1),
    ("primera", 1),
    ("segundo", 2),
    ("tercer", 3),
    ("tercero", 3),
    ("cuarto", 4),
    ("quinto", 5),
    ("prima", 1),
    ("seconda", 2),
    ("terza", 3),
    ("quarta", 4),
    ("quinta", 5),
    ("premier", 1),
    ("deuxieme", 2),
    ("troisieme", 3),
    ("quatrieme", 4),
    ("cinquieme", 5),
    ("primeiro", 1),
    ("terceiro", 3),
    ("quarto", 4),
    ("prvni", 1),
    ("druha", 2),
    ("treti", 3),
    ("ctvrta", 4),
];

/// How a phrase was understood.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved {
    /// A civil date.
    Date(NaiveDate),
}

fn contains_word(hay: &str, needle: &str) -> bool {
    if !needle.is_ascii()
        && !needle
            .chars()
            .any(|c| c.is_alphabetic() && (c as u32) < 0x2000 && !c.is_ascii())
    {
        // CJK / Indic: substring match.
        return hay.contains(needle);
    }
    let mut start = 0;
    while let Some(i) = hay[start..].find(needle) {
        let a = start + i;
        let b = a + needle.len();
        let before_ok = hay[..a]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        let after_ok = hay[b..].chars().next().is_none_or(|c| !c.is_alphanumeric());
        if before_ok && after_ok {
            return true;
        }
        start = a + needle.len().max(1);
        if start >= hay.len() {
            break;
        }
    }
    false
}

fn find_year(tokens: &[&str]) -> Option<i32> {
    tokens
        .iter()
        .filter_map(|t| t.parse::<i32>().ok().filter(|_| t.len() == 4))
        .find(|y| (1583..=9999).contains(y))
}

fn iso_in(s: &str) -> Option<NaiveDate> {
    let b = s.as_bytes();
    for i in 0..b.len().saturating_sub(9) {
        let Some(w) = s.get(i..i + 10) else { continue };
        if w.as_bytes()[4] == b'-' && w.as_bytes()[7] == b'-' {
            if let Ok(d) = NaiveDate::parse_from_str(w, "%Y-%m-%d") {
                let before = i == 0 || !b[i - 1].is_ascii_digit();
                let after = i + 10 >= b.len() || !b[i + 10].is_ascii_digit();
                if before && after {
                    return Some(d);
                }
            }
        }
    }
    None
}

fn numeric_date(tokens: &[&str]) -> Option<NaiveDate> {
    for t in tokens {
        let t = t.trim_matches(|c: char| !c.is_ascii_digit());
        if let Some(parts) = Some(t.split('/').collect::<Vec<_>>()).filter(|p| p.len() == 3) {
            let (m, d, y) = (
                parts[0].parse().ok()?,
                parts[1].parse().ok()?,
                parts[2].parse::<i32>().ok()?,
            );
            return NaiveDate::from_ymd_opt(y, m, d);
        }
        if let Some(parts) = Some(t.split('.').collect::<Vec<_>>()).filter(|p| p.len() == 3) {
            let (d, m, y) = (
                parts[0].parse().ok()?,
                parts[1].parse().ok()?,
                parts[2].parse::<i32>().ok()?,
            );
            return NaiveDate::from_ymd_opt(y, m, d);
        }
    }
    None
}

/// Resolve a date phrase relative to `today`, for a calendar (named days follow its transfers).
///
/// Conventions: a phrase without a year means the next occurrence, today
/// included; "next Sunday" is the first Sunday strictly after today;
/// "this Sunday" and a bare "Sunday" are the next Sunday, today included;
/// "last Sunday" is the most recent Sunday strictly before today;
/// `3/19/2027` is month/day/year, `19.3.2027` day.month.year.
pub fn resolve(
    cal: &CalendarData,
    spec: &CalendarSpec,
    phrase: &str,
    today: NaiveDate,
) -> Result<NaiveDate, LiturgyError> {
    let original = phrase;
    let p = fold(phrase.trim());
    let p = p.replace(['’', '`'], "'");
    if p.is_empty() {
        return Err(bad(original));
    }
    if let Some(d) = iso_in(&p) {
        return Ok(d);
    }
    let cleaned: String = p
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '/' | '.' | '-' | '\'') || !c.is_ascii() {
                c
            } else {
                ' '
            }
        })
        .collect();
    let tokens: Vec<&str> = cleaned.split_whitespace().collect();
    if let Some(d) = numeric_date(&tokens) {
        return Ok(d);
    }
    let spaced = tokens
        .iter()
        .map(|t| t.trim_end_matches('.'))
        .collect::<Vec<_>>()
        .join(" ");
    let year = find_year(&tokens);
    // Ordinal Sundays of the seasons.
    let has_sunday = [
        "sunday", "domingo", "domenica", "dimanche", "dominica", "nedele", "nedeli",
    ]
    .iter()
    .any(|w| contains_word(&spaced, w));
    if has_sunday {
        let season = if [
            "advent", "adviento", "avvento", "avent", "advento", "adventus", "adventni",
        ]
        .iter()
        .any(|w| spaced.contains(w))
        {
            Some(("Advent", 4))
        } else if [
            "lent",
            "cuaresma",
            "quaresima",
            "careme",
            "quaresma",
            "quadragesima",
            "postni",
        ]
        .iter()
        .any(|w| contains_word(&spaced, w))
        {
            Some(("Lent", 5))
        } else if [
            "easter",
            "pascua",
            "pasqua",
            "paques",
            "pascoa",
            "paschae",
            "velikonocni",
        ]
        .iter()
        .any(|w| contains_word(&spaced, w))
        {
            Some(("Easter", 7))
        } else if spaced.contains("ordinary time")
            || spaced.contains("tiempo ordinario")
            || spaced.contains("tempo ordinario")
            || spaced.contains("temps ordinaire")
            || spaced.contains("per annum")
        {
            Some(("OrdSunday", 34))
        } else {
            None
        };
        if let Some((prefix, max)) = season {
            let n = tokens
                .iter()
                .find_map(|t| ORDINALS.iter().find(|(w, _)| w == t).map(|(_, n)| *n))
                .or_else(|| {
                    tokens.iter().find_map(|t| {
                        let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
                        digits
                            .parse::<u32>()
                            .ok()
                            .filter(|n| *n >= 1 && *n <= 34 && digits.len() <= 2)
                    })
                });
            if let Some(n) = n.filter(|n| *n >= 1 && *n <= max) {
                if !(prefix == "Easter" && n == 1) {
                    let key = format!("{prefix}{n}");
                    return find_key(cal, spec, &key, year, today).ok_or_else(|| bad(original));
                }
            }
        }
    }
    // Named days (longest alias first).
    let mut best: Option<(usize, &str)> = None;
    for (key, aliases) in NAMED {
        for a in *aliases {
            if contains_word(&spaced, a) && best.is_none_or(|(l, _)| a.len() > l) {
                best = Some((a.len(), key));
            }
        }
    }
    if let Some((_, key)) = best {
        return find_key(cal, spec, key, year, today).ok_or_else(|| bad(original));
    }
    // Relative days.
    for (w, off) in RELATIVE {
        if contains_word(&spaced, w) {
            return Ok(today + Duration::days(*off));
        }
    }
    // Month and day.
    let month = tokens.iter().find_map(|t| {
        let t = t.trim_end_matches('.');
        MONTHS.iter().find(|(w, _)| *w == t).map(|(_, m)| *m)
    });
    if let Some(m) = month {
        let day = tokens.iter().find_map(|t| {
            let digits: String = t.chars().take_while(|c| c.is_ascii_digit()).collect();
            let rest = &t[digits.len()..];
            let suffix_ok = matches!(
                rest,
                "" | "." | "st" | "nd" | "rd" | "th" | "o" | "º" | "er" | ","
            );
            digits
                .parse::<u32>()
                .ok()
                .filter(|d| (1..=31).contains(d) && digits.len() <= 2 && suffix_ok)
        });
        if let Some(d) = day {
            return match year {
                Some(y) => NaiveDate::from_ymd_opt(y, m, d).ok_or_else(|| bad(original)),
                None => {
                    let this = NaiveDate::from_ymd_opt(today.year(), m, d);
                    match this {
                        Some(x) if x >= today => Ok(x),
                        _ => {
                            // Next occurrence (29 February: the next leap year).
                            (1..=8)
                                .find_map(|k| NaiveDate::from_ymd_opt(today.year() + k, m, d))
                                .ok_or_else(|| bad(original))
                        }
                    }
                }
            };
        }
    }
    // Weekdays.
    let mut wd: Option<(usize, u32)> = None;
    for (w, n) in WEEKDAYS {
        if contains_word(&spaced, w) && wd.is_none_or(|(l, _)| w.len() > l) {
            wd = Some((w.len(), *n));
        }
    }
    if let Some((_, n)) = wd {
        let next = NEXT_WORDS.iter().any(|w| {
            contains_word(&spaced, w)
                || (w.chars().all(|c| !c.is_ascii()) && spaced.contains(&format!("{w}周"))
                    || spaced.contains(&format!("{w}星期")))
        });
        let last = LAST_WORDS.iter().any(|w| {
            contains_word(&spaced, w)
                || spaced.contains(&format!("{w}周"))
                || spaced.contains(&format!("{w}星期"))
        });
        let cur = today.weekday().num_days_from_monday();
        let ahead = (n + 7 - cur) % 7;
        return Ok(if last {
            let back = (cur + 7 - n) % 7;
            today - Duration::days(if back == 0 { 7 } else { back } as i64)
        } else if next {
            today + Duration::days(if ahead == 0 { 7 } else { ahead } as i64)
        } else {
            today + Duration::days(ahead as i64)
        });
    }
    // A saint or feast by name.
    if let Some(key) = match_name(cal, &spaced) {
        return find_key(cal, spec, &key, year, today).ok_or_else(|| bad(original));
    }
    if let Some(y) = year {
        if tokens.len() == 1 {
            return NaiveDate::from_ymd_opt(y, 1, 1).ok_or_else(|| bad(original));
        }
    }
    Err(bad(original))
}

fn match_name(cal: &CalendarData, spaced: &str) -> Option<String> {
    const STOP: &[&str] = &[
        "saint",
        "saints",
        "st",
        "sts",
        "san",
        "santa",
        "santo",
        "sao",
        "sainte",
        "the",
        "of",
        "and",
        "feast",
        "day",
        "de",
        "di",
        "da",
        "do",
        "la",
        "el",
        "le",
        "del",
        "della",
        "des",
        "du",
        "y",
        "e",
        "et",
        "sv",
        "svateho",
        "svate",
        "blessed",
        "our",
        "lady",
        "memorial",
        "when",
        "is",
        "readings",
        "for",
        "mass",
        "martyr",
        "bishop",
        "priest",
        "virgin",
        "pope",
        "doctor",
        "church",
        "apostle",
        "religious",
        "abbot",
        "companions",
        "martyrs",
        "nuestra",
        "senora",
        "madonna",
        "notre",
        "dame",
        "nossa",
        "senhora",
    ];
    let q: Vec<&str> = spaced
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.len() > 2 && !STOP.contains(w) && w.parse::<i32>().is_err())
        .collect();
    if q.is_empty() {
        return None;
    }
    let lady = spaced.contains("lady")
        || spaced.contains("senora")
        || spaced.contains("madonna")
        || spaced.contains("notre dame")
        || spaced.contains("senhora");
    let mut best: Option<(f64, String)> = None;
    for (key, _lang, name) in cal.all_names() {
        let n = fold(name);
        let words: Vec<&str> = n
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.len() > 2 && !STOP.contains(w))
            .collect();
        if words.is_empty() {
            continue;
        }
        let hits = q.iter().filter(|w| words.contains(w)).count();
        if hits == 0 {
            continue;
        }
        let mut score = hits as f64 / q.len() as f64 + hits as f64 / (words.len() as f64 * 4.0);
        if lady && key.starts_with("OurLady") {
            score += 0.2;
        }
        if best.as_ref().is_none_or(|(s, _)| score > *s) {
            best = Some((score, key.to_string()));
        }
    }
    best.filter(|(s, _)| *s >= 0.99).map(|(_, k)| k)
}

/// The date of a celebration key in a year, or the next occurrence from `today`.
pub fn find_key(
    cal: &CalendarData,
    spec: &CalendarSpec,
    key: &str,
    year: Option<i32>,
    today: NaiveDate,
) -> Option<NaiveDate> {
    let in_year = |y: i32| -> Option<NaiveDate> {
        let days = cal.year(spec, y).ok()?;
        days.iter()
            .find(|d| d.celebrations[0].key == key)
            .or_else(|| {
                days.iter()
                    .find(|d| d.celebrations.iter().any(|c| c.key == key))
            })
            .map(|d| d.date)
            .or_else(|| {
                spec.sanctorale
                    .iter()
                    .find(|s| s.key == key && s.rule.is_none())
                    .and_then(|s| NaiveDate::from_ymd_opt(y, s.month, s.day))
            })
    };
    match year {
        Some(y) => in_year(y),
        None => {
            let this = in_year(today.year());
            match this {
                Some(d) if d >= today => Some(d),
                _ => in_year(today.year() + 1),
            }
        }
    }
}
