//! The interface text: English, with a small table for Czech, Chinese, Bengali
//! and Konkani (Devanagari). A string missing in a language falls back to
//! English. The language is chosen by `?lang=`, else by `Accept-Language`.
//!
//! Only strings we could translate with confidence are in the table; the
//! rest (long help texts, error details) stay English on purpose.

/// An interface language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    /// English (the reference; every key has it).
    #[default]
    En,
    /// Czech.
    Cs,
    /// Chinese (simplified).
    Zh,
    /// Bengali.
    Bn,
    /// Konkani, in Devanagari.
    Kok,
}

/// Every language, in menu order.
pub const LANGS: [Lang; 5] = [Lang::En, Lang::Cs, Lang::Zh, Lang::Bn, Lang::Kok];

impl Lang {
    /// The BCP 47 tag used in `lang` attributes and `?lang=`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Cs => "cs",
            Lang::Zh => "zh",
            Lang::Bn => "bn",
            Lang::Kok => "kok",
        }
    }

    /// The language's own name.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Cs => "Čeština",
            Lang::Zh => "中文",
            Lang::Bn => "বাংলা",
            Lang::Kok => "कोंकणी",
        }
    }

    /// The language of a tag (`cs`, `zh-CN`, `kok-IN`), if supported.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let primary = tag
            .trim()
            .split(['-', '_'])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Lang::En),
            "cs" => Some(Lang::Cs),
            "zh" => Some(Lang::Zh),
            "bn" => Some(Lang::Bn),
            "kok" | "gom" => Some(Lang::Kok),
            _ => None,
        }
    }

    /// `?lang=` wins; else the first supported language of `Accept-Language`
    /// by quality; else English.
    pub fn choose(query: Option<&str>, accept_language: Option<&str>) -> Lang {
        if let Some(l) = query.and_then(Lang::from_tag) {
            return l;
        }
        let Some(header) = accept_language else {
            return Lang::En;
        };
        let mut best: Option<(f32, Lang)> = None;
        for item in header.split(',').take(32) {
            let mut bits = item.split(';');
            let tag = bits.next().unwrap_or("");
            let q = bits
                .find_map(|b| b.trim().strip_prefix("q="))
                .and_then(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            if let Some(l) = Lang::from_tag(tag) {
                if best.is_none_or(|(bq, _)| q > bq) {
                    best = Some((q, l));
                }
            }
        }
        best.map(|(_, l)| l).unwrap_or(Lang::En)
    }
}

/// (key, English, Czech, Chinese, Bengali, Konkani); "" = fall back to English.
const TABLE: &[(&str, &str, &str, &str, &str, &str)] = &[
    ("app.name", "Ecclesia console", "Konzole Ecclesia", "Ecclesia 控制台", "Ecclesia কনসোল", "Ecclesia कन्सोल"),
    ("nav.home", "Home", "Domů", "首页", "প্রথম পাতা", "मुखेल पान"),
    ("nav.readings", "Readings", "Čtení", "弥撒读经", "পাঠ", "वाचपां"),
    ("nav.calendar", "Year", "Rok", "年历", "বছর", "वर्स"),
    ("nav.ask", "Ask", "Zeptat se", "提问", "জিজ্ঞাসা", "विचार"),
    ("nav.lookup", "Look-ups", "Adresáře", "查询", "খোঁজ", ""),
    ("nav.search", "Documents", "Dokumenty", "文献", "নথি", ""),
    ("nav.explorer", "Skills explorer", "Průzkumník dovedností", "技能浏览器", "", ""),
    ("nav.skip", "Skip to content", "Přejít na obsah", "跳到正文", "মূল বিষয়ে যান", ""),
    ("home.today", "Today", "Dnes", "今天", "আজ", "आयज"),
    ("home.coming", "Coming feasts", "Nadcházející svátky", "即将到来的节日", "", ""),
    ("home.all_readings", "The readings in full", "Čtení celá", "读经全文", "", ""),
    ("home.all_martyrology", "The whole Martyrology of the day", "Celé martyrologium dne", "当日完整殉道录", "", ""),
    ("home.intro", "Mass readings, the liturgical year, cited answers from the Church's documents, and the directories of saints, popes, clergy and dioceses.", "Mešní čtení, liturgický rok, odpovědi s citacemi z církevních dokumentů a adresáře svatých, papežů, duchovních a diecézí.", "弥撒读经、礼仪年历、引用教会文献的回答，以及圣人、教宗、神职人员和教区名录。", "", ""),
    ("readings.title", "Mass readings", "Mešní čtení", "弥撒读经", "খ্রিস্টযাগের পাঠ", ""),
    ("form.phrase", "Date phrase", "Datum slovy", "日期短语", "তারিখের বাক্যাংশ", ""),
    ("form.phrase.help", "For example: today, next Sunday, Easter 2027, 2026-03-19", "Například: today, next Sunday, Easter 2027, 2026-03-19", "例如：today、next Sunday、Easter 2027、2026-03-19", "", ""),
    ("form.date", "or pick a date", "nebo vyberte datum", "或选择日期", "অথবা তারিখ বাছুন", ""),
    ("form.calendar", "Calendar", "Kalendář", "日历", "পঞ্জিকা", ""),
    ("form.translation", "Translation", "Překlad", "译本", "অনুবাদ", ""),
    ("form.show", "Show", "Zobrazit", "显示", "দেখান", ""),
    ("form.language", "Language", "Jazyk", "语言", "ভাষা", "भास"),
    ("day.rank", "Rank", "Stupeň", "等级", "", ""),
    ("day.colour", "Colour", "Barva", "祭衣颜色", "রং", ""),
    ("day.season", "Season", "Období", "礼仪时期", "", ""),
    ("day.week", "Week", "Týden", "周", "সপ্তাহ", "सुमानो"),
    ("day.sunday_cycle", "Sunday cycle", "Nedělní cyklus", "主日循环", "", ""),
    ("day.weekday_cycle", "Weekday cycle", "Cyklus všedních dnů", "平日循环", "", ""),
    ("day.psalter", "Psalter week", "Týden žaltáře", "圣咏集周", "", ""),
    ("day.also", "Also on this day", "Tento den také", "本日亦纪念", "", ""),
    ("day.optional", "optional", "nezávazná", "自由", "ঐচ্ছিক", ""),
    ("day.other_masses", "Other Masses", "Další mše", "其他弥撒", "", ""),
    ("day.martyrology", "Roman Martyrology of the day", "Římské martyrologium dne", "当日罗马殉道录", "", ""),
    ("day.no_readings", "No Mass readings were found for this day.", "Pro tento den nebyla nalezena žádná čtení.", "未找到本日的弥撒读经。", "", ""),
    ("martyrology.title", "Roman Martyrology", "Římské martyrologium", "罗马殉道录", "", ""),
    ("calendar.title", "The year at a glance", "Rok v přehledu", "年历一览", "", ""),
    ("calendar.month", "Month", "Měsíc", "月", "মাস", "म्हयनो"),
    ("calendar.year", "Year", "Rok", "年", "বছর", "वर्स"),
    ("calendar.prev", "Previous month", "Předchozí měsíc", "上个月", "আগের মাস", "फाटलो म्हयनो"),
    ("calendar.next", "Next month", "Další měsíc", "下个月", "পরের মাস", "फुडलो म्हयनो"),
    ("calendar.keys", "Keyboard: ← and → (or p and n) change the month.", "Klávesnice: ← a → (nebo p a n) mění měsíc.", "键盘：← 和 →（或 p 和 n）切换月份。", "", ""),
    ("calendar.ics", "Subscribe to this calendar (iCalendar)", "Odebírat tento kalendář (iCalendar)", "订阅此日历（iCalendar）", "", ""),
    ("ask.title", "Ask a question", "Položte otázku", "提出问题", "প্রশ্ন করুন", ""),
    ("ask.question", "Your question", "Vaše otázka", "您的问题", "আপনার প্রশ্ন", ""),
    ("ask.submit", "Ask", "Zeptat se", "提问", "জিজ্ঞাসা করুন", "विचार"),
    ("ask.sources", "Sources", "Prameny", "出处", "সূত্র", ""),
    ("ask.related", "Related questions", "Související otázky", "相关问题", "সম্পর্কিত প্রশ্ন", ""),
    ("ask.answer", "Answer", "Odpověď", "回答", "উত্তর", "जाप"),
    ("ask.see_also", "Where to read it", "Kde si to přečíst", "在哪里阅读", "কোথায় পড়বেন", "खंय वाचूंक मेळटा"),
    ("lookup.title", "Look-ups", "Adresáře", "查询", "খোঁজ", ""),
    ("lookup.kind", "Directory", "Adresář", "名录", "", ""),
    ("lookup.query", "Name", "Jméno", "名称", "নাম", "नांव"),
    ("lookup.saint", "Saints", "Svatí", "圣人", "সাধু", ""),
    ("lookup.pope", "Popes", "Papežové", "教宗", "পোপ", ""),
    ("lookup.person", "Clergy", "Duchovní", "神职人员", "যাজক", ""),
    ("lookup.diocese", "Dioceses", "Diecéze", "教区", "ধর্মপ্রদেশ", ""),
    ("lookup.alternates", "Other matches", "Další shody", "其他匹配", "", ""),
    ("lookup.lineage", "Episcopal lineage", "Biskupská posloupnost", "主教祝圣传承", "", ""),
    ("lookup.statistics", "Statistics", "Statistiky", "统计", "পরিসংখ্যান", ""),
    ("lookup.not_found", "Nothing matched this query.", "Dotazu nic neodpovídá.", "没有匹配的结果。", "কিছু পাওয়া যায়নি।", ""),
    ("search.title", "Search the documents", "Hledat v dokumentech", "搜索文献", "নথি খুঁজুন", ""),
    ("search.query", "Search for", "Hledat", "搜索", "খুঁজুন", "सोद"),
    ("search.submit", "Search", "Hledat", "搜索", "খুঁজুন", "सोद"),
    ("search.type", "Type", "Typ", "类型", "ধরন", ""),
    ("search.author", "Author", "Autor", "作者", "লেখক", ""),
    ("search.language", "Language of the document", "Jazyk dokumentu", "文献语言", "", ""),
    ("search.none", "No documents matched.", "Žádný dokument neodpovídá.", "没有匹配的文献。", "", ""),
    ("search.prev", "Previous page", "Předchozí stránka", "上一页", "আগের পাতা", ""),
    ("search.next", "Next page", "Další stránka", "下一页", "পরের পাতা", ""),
    ("doc.cited", "Cited passage", "Citovaná pasáž", "被引用段落", "", ""),
    ("doc.not_found", "Document not found.", "Dokument nebyl nalezen.", "未找到文献。", "", ""),
    ("explorer.title", "Skills explorer", "Průzkumník dovedností", "技能浏览器", "", ""),
    ("explorer.card", "Agent card", "Karta agenta", "智能体卡片", "", ""),
    ("explorer.request", "Request", "Požadavek", "请求", "অনুরোধ", ""),
    ("explorer.send", "Send", "Odeslat", "发送", "পাঠান", "धाड"),
    ("explorer.response", "Response", "Odpověď", "响应", "উত্তর", ""),
    ("explorer.curl", "The same request with curl", "Tentýž požadavek přes curl", "等效的 curl 命令", "", ""),
    ("explorer.key", "API key (kept only in this tab)", "Klíč API (jen v této záložce)", "API 密钥（仅保存在此标签页）", "", ""),
    ("explorer.nojs", "Sending from the page needs JavaScript; the curl command works anywhere.", "Odeslání ze stránky vyžaduje JavaScript; příkaz curl funguje kdekoli.", "从页面发送需要 JavaScript；curl 命令随处可用。", "", ""),
    ("unavailable", "Not available on this server: its data has not been loaded.", "Na tomto serveru není k dispozici: data nebyla načtena.", "此服务器上不可用：数据尚未加载。", "", ""),
    ("error.title", "The request could not be answered", "Požadavek nelze vyřídit", "无法处理该请求", "", ""),
    ("error.back", "Back to the start page", "Zpět na úvodní stránku", "返回首页", "প্রথম পাতায় ফিরুন", ""),
    ("nojs", "Works without JavaScript; with it, answers stream in as they are written.", "Funguje i bez JavaScriptu; s ním se odpovědi zobrazují průběžně.", "无需 JavaScript 即可使用；启用后回答会实时显示。", "", ""),
];

/// The text of `key` in `lang`, falling back to English, then to the key itself.
pub fn t(lang: Lang, key: &str) -> &'static str {
    let Some(row) = TABLE.iter().find(|r| r.0 == key) else {
        tracing::debug!(key, "missing interface string");
        return "";
    };
    let s = match lang {
        Lang::En => row.1,
        Lang::Cs => row.2,
        Lang::Zh => row.3,
        Lang::Bn => row.4,
        Lang::Kok => row.5,
    };
    if s.is_empty() {
        row.1
    } else {
        s
    }
}

/// True when `key` has its own text in `lang` (not the English fallback).
pub fn is_translated(lang: Lang, key: &str) -> bool {
    lang == Lang::En || t(lang, key) != t(Lang::En, key)
}

/// Every key of the table (tests, coverage reports).
pub fn keys() -> impl Iterator<Item = &'static str> {
    TABLE.iter().map(|r| r.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fallback_to_english() {
        assert_eq!(t(Lang::Cs, "nav.readings"), "Čtení");
        assert_eq!(t(Lang::Kok, "explorer.card"), "Agent card");
        assert_eq!(t(Lang::Zh, "no.such.key"), "");
        assert!(!is_translated(Lang::Kok, "explorer.card"));
    }

    #[test]
    fn every_key_has_english_and_is_unique() {
        let mut seen = std::collections::HashSet::new();
        for row in TABLE {
            assert!(!row.1.is_empty(), "{} has no English", row.0);
            assert!(seen.insert(row.0), "{} twice", row.0);
        }
    }

    #[test]
    fn choose_language() {
        assert_eq!(Lang::choose(Some("cs"), Some("zh")), Lang::Cs);
        assert_eq!(
            Lang::choose(Some("xx"), Some("fr, zh-CN;q=0.8, bn;q=0.9")),
            Lang::Bn
        );
        assert_eq!(Lang::choose(None, Some("kok-IN")), Lang::Kok);
        assert_eq!(Lang::choose(None, Some("de;q=abc")), Lang::En);
        assert_eq!(Lang::choose(None, None), Lang::En);
    }
}

/// Month names (nominative), January first.
const MONTHS: [[&str; 12]; 5] = [
    [
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ],
    [
        "leden",
        "únor",
        "březen",
        "duben",
        "květen",
        "červen",
        "červenec",
        "srpen",
        "září",
        "říjen",
        "listopad",
        "prosinec",
    ],
    [
        "一月",
        "二月",
        "三月",
        "四月",
        "五月",
        "六月",
        "七月",
        "八月",
        "九月",
        "十月",
        "十一月",
        "十二月",
    ],
    [
        "জানুয়ারি",
        "ফেব্রুয়ারি",
        "মার্চ",
        "এপ্রিল",
        "মে",
        "জুন",
        "জুলাই",
        "আগস্ট",
        "সেপ্টেম্বর",
        "অক্টোবর",
        "নভেম্বর",
        "ডিসেম্বর",
    ],
    [
        "जानेवारी",
        "फेब्रुवारी",
        "मार्च",
        "एप्रिल",
        "मे",
        "जून",
        "जुलय",
        "ऑगस्ट",
        "सप्टेंबर",
        "ऑक्टोबर",
        "नोव्हेंबर",
        "डिसेंबर",
    ],
];
/// Czech months in the genitive (dates: "31. května 2026").
const CS_MONTHS_GENITIVE: [&str; 12] = [
    "ledna",
    "února",
    "března",
    "dubna",
    "května",
    "června",
    "července",
    "srpna",
    "září",
    "října",
    "listopadu",
    "prosince",
];
/// Weekday names, Sunday first.
const WEEKDAYS: [[&str; 7]; 5] = [
    [
        "Sunday",
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
    ],
    [
        "neděle",
        "pondělí",
        "úterý",
        "středa",
        "čtvrtek",
        "pátek",
        "sobota",
    ],
    [
        "星期日",
        "星期一",
        "星期二",
        "星期三",
        "星期四",
        "星期五",
        "星期六",
    ],
    [
        "রবিবার",
        "সোমবার",
        "মঙ্গলবার",
        "বুধবার",
        "বৃহস্পতিবার",
        "শুক্রবার",
        "শনিবার",
    ],
    [
        "आयतार",
        "सोमार",
        "मंगळार",
        "बुधवार",
        "बिरेस्तार",
        "शुक्रार",
        "शेनवार",
    ],
];
/// Short weekday names for the month grid's head, Sunday first.
const WEEKDAYS_SHORT: [[&str; 7]; 5] = [
    ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"],
    ["Ne", "Po", "Út", "St", "Čt", "Pá", "So"],
    ["日", "一", "二", "三", "四", "五", "六"],
    ["রবি", "সোম", "মঙ্গল", "বুধ", "বৃহস্পতি", "শুক্র", "শনি"],
    [
        "आयतार",
        "सोमार",
        "मंगळार",
        "बुधवार",
        "बिरेस्तार",
        "शुक्रार",
        "शेनवार",
    ],
];

fn idx(lang: Lang) -> usize {
    LANGS.iter().position(|l| *l == lang).unwrap_or(0)
}

/// The name of month `m` (1–12); empty outside.
pub fn month_name(lang: Lang, m: u32) -> &'static str {
    MONTHS[idx(lang)]
        .get(m.saturating_sub(1) as usize)
        .copied()
        .unwrap_or("")
}

/// The weekday name, `d` days from Sunday (0–6).
pub fn weekday_name(lang: Lang, d: u32) -> &'static str {
    WEEKDAYS[idx(lang)].get(d as usize).copied().unwrap_or("")
}

/// The short weekday name, `d` days from Sunday (0–6).
pub fn weekday_short(lang: Lang, d: u32) -> &'static str {
    WEEKDAYS_SHORT[idx(lang)]
        .get(d as usize)
        .copied()
        .unwrap_or("")
}

/// "June 2026", "červen 2026", "2026年六月".
pub fn month_year(lang: Lang, year: i32, m: u32) -> String {
    match lang {
        Lang::Zh => format!("{year}年{}月", m),
        _ => format!("{} {year}", month_name(lang, m)),
    }
}

/// A long date: "Sunday, 31 May 2026", "neděle 31. května 2026", "2026年5月31日 星期日".
pub fn date_long(lang: Lang, d: chrono::NaiveDate) -> String {
    use chrono::Datelike;
    let wd = weekday_name(lang, d.weekday().num_days_from_sunday());
    let (day, m, y) = (d.day(), d.month(), d.year());
    match lang {
        Lang::En => format!("{wd}, {day} {} {y}", month_name(lang, m)),
        Lang::Cs => format!(
            "{wd} {day}. {} {y}",
            CS_MONTHS_GENITIVE
                .get(m as usize - 1)
                .copied()
                .unwrap_or("")
        ),
        Lang::Zh => format!("{y}年{m}月{day}日 {wd}"),
        Lang::Bn | Lang::Kok => format!("{wd}, {day} {} {y}", month_name(lang, m)),
    }
}

#[cfg(test)]
mod date_tests {
    use super::*;

    #[test]
    fn dates_in_each_language() {
        let d = chrono::NaiveDate::from_ymd_opt(2026, 5, 31).unwrap();
        assert_eq!(date_long(Lang::En, d), "Sunday, 31 May 2026");
        assert_eq!(date_long(Lang::Cs, d), "neděle 31. května 2026");
        assert_eq!(date_long(Lang::Zh, d), "2026年5月31日 星期日");
        assert_eq!(month_year(Lang::Zh, 2026, 6), "2026年6月");
        assert_eq!(month_year(Lang::En, 2026, 6), "June 2026");
        assert_eq!(month_name(Lang::En, 13), "");
        assert_eq!(weekday_short(Lang::Cs, 0), "Ne");
    }
}
