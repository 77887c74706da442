//! Named days: liturgical days by calendar key (following the calendar's
//! transfers), traditional names, fixed civil days, and saints by name.

use crate::calendar::{CalendarData, CalendarSpec};
use chrono::{Datelike, Duration, NaiveDate};
use std::borrow::Cow;

/// What a named day is counted from.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Base {
    /// A celebration key of the calendar ("Pentecost", "StJoseph", "Advent3").
    Key(Cow<'static, str>),
    /// A civil month and day.
    Fixed(u32, u32),
}

/// A named day: a base and a number of days from it (an eve is -1).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct NamedDay {
    /// What it is counted from.
    pub base: Base,
    /// Days after the base.
    pub offset: i64,
}

impl NamedDay {
    /// A calendar key.
    pub fn key(k: impl Into<Cow<'static, str>>) -> Self {
        NamedDay {
            base: Base::Key(k.into()),
            offset: 0,
        }
    }
    /// The day before.
    pub fn eve(&self) -> Self {
        NamedDay {
            base: self.base.clone(),
            offset: self.offset - 1,
        }
    }
}

/// Named days: aliases (folded, any language) to a calendar key.
const KEYED: &[(&str, &[&str])] = &[
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

/// More aliases of calendar keys: traditional English names and inflected forms.
const KEYED_MORE: &[(&str, &[&str])] = &[
    (
        "Pentecost",
        &[
            "whitsun",
            "whit sunday",
            "whitsun day",
            "letnicich",
            "পেন্টেকস্টের",
        ],
    ),
    (
        "Easter",
        &["velikonocich", "velikonocemi", "ইস্টারের", "পাস্কার"],
    ),
    (
        "Christmas",
        &["vanocich", "vanocemi", "বড়দিনের", "ক্রিসমাসের"],
    ),
    ("Lent4", &["mothering sunday", "laetare sunday"]),
    ("Advent3", &["gaudete sunday"]),
    ("Advent1", &["advent sunday"]),
    (
        "AllSaints",
        &[
            "all hallows",
            "hallowmas",
            "all saints' day",
            "all saints day",
        ],
    ),
    ("AllSouls", &["all souls' day", "all souls day"]),
    (
        "Ascension",
        &[
            "ascension day",
            "nanebevstoupeni pane",
            "ascensione del signore",
            "ascensao do senhor",
            "耶稣升天节",
            "耶穌升天節",
        ],
    ),
    (
        "Assumption",
        &[
            "assumptio beatae mariae virginis",
            "nanebevzeti panny marie",
            "assuncao de nossa senhora",
            "assomption de la vierge marie",
        ],
    ),
    (
        "Epiphany",
        &[
            "epiphania domini",
            "epifania del senor",
            "epifania do senhor",
            "dia de reyes",
            "tri kralove",
            "jour des rois",
        ],
    ),
    ("PalmSun", &["dominica palmarum", "棕枝主日"]),
    (
        "CorpusChristi",
        &[
            "corporis et sanguinis christi",
            "cuerpo y sangre de cristo",
            "corpo e sangue de cristo",
            "corps et sang du christ",
            "基督圣体圣血节",
            "基督聖體聖血節",
        ],
    ),
    (
        "MaryMotherOfGod",
        &[
            "matky bozi panny marie",
            "santa maria madre de dios",
            "maria santissima madre di dio",
            "sainte marie mere de dieu",
            "santa maria mae de deus",
        ],
    ),
    (
        "SacredHeart",
        &[
            "sagrado corazon de jesus",
            "sacratissimo cuore di gesu",
            "sacre coeur de jesus",
            "sagrado coracao de jesus",
            "耶稣圣心节",
            "耶穌聖心節",
        ],
    ),
    (
        "ChristKing",
        &[
            "jesucristo rey del universo",
            "cristo re dell'universo",
            "christ roi de l'univers",
            "cristo rei do universo",
            "krista krale",
            "基督普世君王节",
        ],
    ),
    (
        "Christmas",
        &[
            "natal do senhor",
            "natale del signore",
            "navidad del senor",
            "nativite du seigneur",
            "narozeni pane",
            "圣诞节日",
        ],
    ),
    ("AllSaints", &["vsichni svati"]),
    ("AllSouls", &["pamatka vsech vernych zemrelych"]),
    ("AshWednesday", &["圣灰礼仪日", "聖灰禮儀日", "圣灰节"]),
    (
        "GoodFri",
        &["耶稣受难节", "耶穌受難節", "圣周五", "聖週五", "圣周星期五"],
    ),
    ("HolyThurs", &["圣周星期四", "濯足节"]),
    ("EasterVigil", &["圣周六", "聖週六", "圣周星期六"]),
    ("Easter2", &["quasimodo", "quasimodo sunday"]),
    ("Easter4", &["good shepherd sunday"]),
    // Rose vestments are worn on both Gaudete and Laetare: the name is ambiguous.
    ("Advent3", &["rose sunday"]),
    ("Lent4", &["rose sunday"]),
];

/// Days a fixed number of days from a calendar key (Whit Monday = Pentecost + 1).
const DERIVED: &[(&str, i64, &[&str])] = &[
    (
        "Pentecost",
        1,
        &[
            "whit monday",
            "lundi de pentecote",
            "lunes de pentecostes",
            "lunedi di pentecoste",
            "segunda feira de pentecostes",
            "svatodusni pondeli",
        ],
    ),
    ("Pentecost", 2, &["whit tuesday"]),
    (
        "Easter",
        1,
        &[
            "easter monday",
            "lunes de pascua",
            "pasquetta",
            "lunedi dell'angelo",
            "lundi de paques",
            "velikonocni pondeli",
            "segunda feira de pascoa",
            "复活节星期一",
        ],
    ),
    (
        "AshWednesday",
        -1,
        &[
            "shrove tuesday",
            "pancake day",
            "mardi gras",
            "martes de carnaval",
            "martedi grasso",
            "terca feira de carnaval",
            "masopustni utery",
        ],
    ),
    ("Easter", -6, &["holy monday", "monday of holy week"]),
    ("Easter", -5, &["holy tuesday", "tuesday of holy week"]),
    (
        "Easter",
        -4,
        &["holy wednesday", "spy wednesday", "wednesday of holy week"],
    ),
    ("Easter", -63, &["septuagesima", "septuagesima sunday"]),
    ("Easter", -56, &["sexagesima", "sexagesima sunday"]),
    ("Easter", -49, &["quinquagesima", "quinquagesima sunday"]),
];

/// Days on a fixed civil date every year (Lady Day = 25 March).
const FIXED: &[(u32, u32, &[&str])] = &[
    (3, 25, &["lady day"]),
    (8, 1, &["lammas", "lammas day"]),
    (
        10,
        31,
        &[
            "all hallows' eve",
            "all hallows eve",
            "halloween",
            "hallowe'en",
        ],
    ),
    (
        12,
        26,
        &[
            "boxing day",
            "st stephen's day",
            "saint stephen's day",
            "st stephens day",
        ],
    ),
    (
        2,
        2,
        &[
            "candlemas",
            "candlemas day",
            "candelaria",
            "candelora",
            "chandeleur",
            "hromnice",
            "candeias",
        ],
    ),
    (9, 29, &["michaelmas", "michaelmas day"]),
    (11, 11, &["martinmas"]),
    (1, 5, &["twelfth night"]),
    (1, 6, &["twelfth day"]),
    (6, 24, &["midsummer day"]),
    (12, 28, &["childermas"]),
    (
        1,
        1,
        &[
            "new year's day",
            "new years day",
            "new year",
            "ano nuevo",
            "capodanno",
            "ano novo",
            "jour de l'an",
            "novy rok",
            "元旦",
        ],
    ),
    (
        12,
        31,
        &[
            "new year's eve",
            "new years eve",
            "nochevieja",
            "silvestr",
            "saint-sylvestre",
            "la saint sylvestre",
            "reveillon",
        ],
    ),
    (
        12,
        24,
        &["nochebuena", "stedry den", "平安夜", "圣诞夜", "聖誕夜"],
    ),
];

/// Every alias of a named day, as (surface, day).
pub fn entries() -> Vec<(&'static str, NamedDay)> {
    let mut out = Vec::new();
    for (key, aliases) in KEYED.iter().chain(KEYED_MORE) {
        out.extend(aliases.iter().map(|a| (*a, NamedDay::key(*key))));
    }
    for (key, offset, aliases) in DERIVED {
        let day = NamedDay {
            base: Base::Key(Cow::Borrowed(key)),
            offset: *offset,
        };
        out.extend(aliases.iter().map(|a| (*a, day.clone())));
    }
    for (m, d, aliases) in FIXED {
        let day = NamedDay {
            base: Base::Fixed(*m, *d),
            offset: 0,
        };
        out.extend(aliases.iter().map(|a| (*a, day.clone())));
    }
    out
}

/// The date of a named day in civil year `year` (of its base).
pub fn date_of(
    cal: &CalendarData,
    spec: &CalendarSpec,
    day: &NamedDay,
    year: i32,
) -> Option<NaiveDate> {
    let base = match &day.base {
        Base::Key(k) => find_key(cal, spec, k, Some(year), NaiveDate::MIN)?,
        Base::Fixed(m, d) => NaiveDate::from_ymd_opt(year, *m, *d)?,
    };
    Duration::try_days(day.offset).and_then(|x| base.checked_add_signed(x))
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
            .find(|d| d.celebrations.first().is_some_and(|c| c.key == key))
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
