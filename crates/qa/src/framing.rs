//! The framing text of extractive answers (the lead, the section headings, the
//! "nothing found" reply) in the language of the question. Quotations are
//! never translated: they stay verbatim in the language of their source.

use crate::lang::Lang;
use crate::passage::SourceKind;

/// Section heading for a kind of source.
pub fn heading(lang: Lang, kind: SourceKind) -> &'static str {
    use SourceKind::*;
    match (lang, kind) {
        (Lang::En, k) => k.heading(),
        (Lang::Cs, Scripture) => "Písmo svaté",
        (Lang::Cs, Magisterium) => "Učitelský úřad církve",
        (Lang::Cs, Catechism) => "Katechismus",
        (Lang::Cs, Fathers) => "Církevní otcové",
        (Lang::Cs, Theology) => "Teologové a učitelé církve",
        (Lang::Cs, Commentary) => "Komentáře",
        (Lang::Cs, Other) => "Jiné prameny",
        (Lang::Zh, Scripture) => "圣经",
        (Lang::Zh, Magisterium) => "教会训导",
        (Lang::Zh, Catechism) => "要理问答",
        (Lang::Zh, Fathers) => "教父",
        (Lang::Zh, Theology) => "神学家与教会圣师",
        (Lang::Zh, Commentary) => "注释",
        (Lang::Zh, Other) => "其他资料",
        (Lang::Bn, Scripture) => "পবিত্র শাস্ত্র",
        (Lang::Bn, Magisterium) => "মণ্ডলীর শিক্ষাধিকার",
        (Lang::Bn, Catechism) => "ধর্মশিক্ষা",
        (Lang::Bn, Fathers) => "মণ্ডলীর পিতৃগণ",
        (Lang::Bn, Theology) => "ঈশতত্ত্ববিদ ও মণ্ডলীর আচার্যগণ",
        (Lang::Bn, Commentary) => "ভাষ্য",
        (Lang::Bn, Other) => "অন্যান্য উৎস",
        (Lang::Kok, Scripture) => "पवित्र पुस्तक",
        (Lang::Kok, Magisterium) => "इगर्जेचें शिकवणी अधिकार",
        (Lang::Kok, Catechism) => "कातेसिस",
        (Lang::Kok, Fathers) => "इगर्जेचे बापूय",
        (Lang::Kok, Theology) => "देवशास्त्री आनी इगर्जेचे दोतोर",
        (Lang::Kok, Commentary) => "भाश्य",
        (Lang::Kok, Other) => "हेर आदार",
        (Lang::La, Scripture) => "Sacra Scriptura",
        (Lang::La, Magisterium) => "Magisterium Ecclesiae",
        (Lang::La, Catechism) => "Catechismus",
        (Lang::La, Fathers) => "Patres Ecclesiae",
        (Lang::La, Theology) => "Theologi et Doctores Ecclesiae",
        (Lang::La, Commentary) => "Commentarii",
        (Lang::La, Other) => "Alii fontes",
        (Lang::It, Scripture) => "Sacra Scrittura",
        (Lang::It, Magisterium) => "Il Magistero",
        (Lang::It, Catechism) => "Il Catechismo",
        (Lang::It, Fathers) => "I Padri della Chiesa",
        (Lang::It, Theology) => "Teologi e Dottori della Chiesa",
        (Lang::It, Commentary) => "Commento",
        (Lang::It, Other) => "Altre fonti",
        (Lang::Es, Scripture) => "Sagrada Escritura",
        (Lang::Es, Magisterium) => "El Magisterio",
        (Lang::Es, Catechism) => "El Catecismo",
        (Lang::Es, Fathers) => "Los Padres de la Iglesia",
        (Lang::Es, Theology) => "Teólogos y Doctores de la Iglesia",
        (Lang::Es, Commentary) => "Comentario",
        (Lang::Es, Other) => "Otras fuentes",
        (Lang::Pt, Scripture) => "Sagrada Escritura",
        (Lang::Pt, Magisterium) => "O Magistério",
        (Lang::Pt, Catechism) => "O Catecismo",
        (Lang::Pt, Fathers) => "Os Padres da Igreja",
        (Lang::Pt, Theology) => "Teólogos e Doutores da Igreja",
        (Lang::Pt, Commentary) => "Comentário",
        (Lang::Pt, Other) => "Outras fontes",
        (Lang::Fr, Scripture) => "La Sainte Écriture",
        (Lang::Fr, Magisterium) => "Le Magistère",
        (Lang::Fr, Catechism) => "Le Catéchisme",
        (Lang::Fr, Fathers) => "Les Pères de l'Église",
        (Lang::Fr, Theology) => "Théologiens et Docteurs de l'Église",
        (Lang::Fr, Commentary) => "Commentaire",
        (Lang::Fr, Other) => "Autres sources",
    }
}

/// A short plural noun for a kind of source, for the lead sentence.
pub fn noun(lang: Lang, kind: SourceKind) -> &'static str {
    use SourceKind::*;
    match (lang, kind) {
        (Lang::En, k) => k.noun(),
        (Lang::Cs, Scripture) => "Písma",
        (Lang::Cs, Magisterium) => "papežských dokumentů",
        (Lang::Cs, Catechism) => "katechismu",
        (Lang::Cs, Fathers) => "církevních otců",
        (Lang::Cs, Theology) => "teologů",
        (Lang::Cs, Commentary) => "komentářů",
        (Lang::Cs, Other) => "jiných spisů",
        (Lang::Zh, Scripture) => "圣经",
        (Lang::Zh, Magisterium) => "教宗文件",
        (Lang::Zh, Catechism) => "要理问答",
        (Lang::Zh, Fathers) => "教父著作",
        (Lang::Zh, Theology) => "神学家著作",
        (Lang::Zh, Commentary) => "注释",
        (Lang::Zh, Other) => "其他著作",
        (Lang::Bn, Scripture) => "শাস্ত্র",
        (Lang::Bn, Magisterium) => "পোপীয় দলিল",
        (Lang::Bn, Catechism) => "ধর্মশিক্ষা",
        (Lang::Bn, Fathers) => "মণ্ডলীর পিতৃগণের রচনা",
        (Lang::Bn, Theology) => "ঈশতত্ত্ববিদদের রচনা",
        (Lang::Bn, Commentary) => "ভাষ্য",
        (Lang::Bn, Other) => "অন্যান্য রচনা",
        (Lang::Kok, Scripture) => "पवित्र पुस्तक",
        (Lang::Kok, Magisterium) => "पापाचीं दस्तावेजां",
        (Lang::Kok, Catechism) => "कातेसिस",
        (Lang::Kok, Fathers) => "इगर्जेच्या बापायचीं बरपां",
        (Lang::Kok, Theology) => "देवशास्त्र्यांचीं बरपां",
        (Lang::Kok, Commentary) => "भाश्य",
        (Lang::Kok, Other) => "हेर बरपां",
        (Lang::La, Scripture) => "Scriptura",
        (Lang::La, Magisterium) => "documenta pontificia",
        (Lang::La, Catechism) => "catechismus",
        (Lang::La, Fathers) => "Patres Ecclesiae",
        (Lang::La, Theology) => "theologi",
        (Lang::La, Commentary) => "commentarii",
        (Lang::La, Other) => "alia scripta",
        (Lang::It, Scripture) => "la Scrittura",
        (Lang::It, Magisterium) => "documenti pontifici",
        (Lang::It, Catechism) => "il catechismo",
        (Lang::It, Fathers) => "i Padri della Chiesa",
        (Lang::It, Theology) => "i teologi",
        (Lang::It, Commentary) => "commenti",
        (Lang::It, Other) => "altri scritti",
        (Lang::Es, Scripture) => "la Escritura",
        (Lang::Es, Magisterium) => "documentos pontificios",
        (Lang::Es, Catechism) => "el catecismo",
        (Lang::Es, Fathers) => "los Padres de la Iglesia",
        (Lang::Es, Theology) => "los teólogos",
        (Lang::Es, Commentary) => "comentarios",
        (Lang::Es, Other) => "otros escritos",
        (Lang::Pt, Scripture) => "a Escritura",
        (Lang::Pt, Magisterium) => "documentos pontifícios",
        (Lang::Pt, Catechism) => "o catecismo",
        (Lang::Pt, Fathers) => "os Padres da Igreja",
        (Lang::Pt, Theology) => "os teólogos",
        (Lang::Pt, Commentary) => "comentários",
        (Lang::Pt, Other) => "outros escritos",
        (Lang::Fr, Scripture) => "l'Écriture",
        (Lang::Fr, Magisterium) => "des documents pontificaux",
        (Lang::Fr, Catechism) => "le catéchisme",
        (Lang::Fr, Fathers) => "les Pères de l'Église",
        (Lang::Fr, Theology) => "les théologiens",
        (Lang::Fr, Commentary) => "des commentaires",
        (Lang::Fr, Other) => "d'autres écrits",
    }
}

/// The word joining the last two items of a list.
fn and(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "and",
        Lang::Cs => "a",
        Lang::Zh => "和",
        Lang::Bn => "এবং",
        Lang::Kok => "आनी",
        Lang::La => "et",
        Lang::It => "e",
        Lang::Es => "y",
        Lang::Pt => "e",
        Lang::Fr => "et",
    }
}

/// `a, b and c` in `lang`.
pub fn join_list(lang: Lang, items: &[String], sep: &str) -> String {
    let and = and(lang);
    match items.len() {
        0 => String::new(),
        1 => items[0].clone(),
        2 => format!("{} {and} {}", items[0], items[1]),
        n => format!(
            "{}{} {and} {}",
            items[..n - 1].join(sep),
            sep.trim_end(),
            items[n - 1]
        ),
    }
}

/// `(and 3 more)`.
pub fn and_more(lang: Lang, n: usize) -> String {
    match lang {
        Lang::En => format!(" (and {n} more)"),
        Lang::Cs => format!(" (a {n} dalších)"),
        Lang::Zh => format!("（另有{n}项）"),
        Lang::Bn => format!(" (এবং আরও {n}টি)"),
        Lang::Kok => format!(" (आनी आनीक {n})"),
        Lang::La => format!(" (et {n} alia)"),
        Lang::It => format!(" (e altri {n})"),
        Lang::Es => format!(" (y {n} más)"),
        Lang::Pt => format!(" (e mais {n})"),
        Lang::Fr => format!(" (et {n} autres)"),
    }
}

/// The lead: the question, the kinds of source and the documents found.
pub fn lead(lang: Lang, question: &str, kinds: &str, list: &str) -> String {
    let q = question;
    match lang {
        Lang::En => format!(
            "On the question \u{201c}{q}\u{201d}, the most relevant passages in the library come from {kinds} \u{2014} {list}. \
             They are quoted below as they stand in the sources, grouped by kind of source; \
             each marker leads to the full citation."
        ),
        Lang::Cs => format!(
            "K otázce \u{201e}{q}\u{201c} pocházejí nejvýznamnější pasáže knihovny z {kinds} \u{2014} {list}. \
             Níže jsou citovány tak, jak stojí v pramenech (v jazyce originálu), seskupené podle druhu pramene; \
             každá značka vede k úplné citaci."
        ),
        Lang::Zh => format!(
            "关于\u{201c}{q}\u{201d}这个问题，资料库中最相关的段落来自{kinds}\u{2014}\u{2014}{list}。\
             以下按资料类别分组，照原文（原文语言）引用；每个标记都指向完整的出处。"
        ),
        Lang::Bn => format!(
            "\u{201c}{q}\u{201d} প্রশ্নটির বিষয়ে গ্রন্থাগারের সবচেয়ে প্রাসঙ্গিক অংশগুলি এসেছে {kinds} থেকে \u{2014} {list}। \
             নিচে সেগুলি উৎসে যেমন আছে তেমনই (মূল ভাষায়) উদ্ধৃত হয়েছে, উৎসের ধরন অনুযায়ী সাজানো; \
             প্রতিটি চিহ্ন পূর্ণ উদ্ধৃতির দিকে নিয়ে যায়।"
        ),
        Lang::Kok => format!(
            "\u{201c}{q}\u{201d} ह्या प्रस्नाविशीं ग्रंथालयांतले सगळ्यांत म्हत्वाचे भाग {kinds} हांचे कडल्यान येतात \u{2014} {list}. \
             ते सकयल मूळ आदारांत आसात तशेच (मूळ भासेंत) दिल्यात, आदाराच्या प्रकारां प्रमाणें; \
             दरेक खूण पुराय संदर्भाक व्हरता."
        ),
        Lang::La => format!(
            "Ad quaestionem \u{201c}{q}\u{201d} loci bibliothecae maxime pertinentes sumuntur ex his: {kinds} \u{2014} {list}. \
             Infra afferuntur ut in fontibus stant (lingua originali), secundum genus fontis ordinati; \
             quaeque nota ad plenam citationem ducit."
        ),
        Lang::It => format!(
            "Sulla domanda \u{ab}{q}\u{bb}, i passi più pertinenti della biblioteca provengono da {kinds} \u{2014} {list}. \
             Sono citati qui sotto come si trovano nelle fonti (nella lingua originale), raggruppati per tipo di fonte; \
             ogni rimando porta alla citazione completa."
        ),
        Lang::Es => format!(
            "Sobre la pregunta \u{ab}{q}\u{bb}, los pasajes más pertinentes de la biblioteca proceden de {kinds} \u{2014} {list}. \
             Se citan a continuación tal como están en las fuentes (en su lengua original), agrupados por tipo de fuente; \
             cada marca lleva a la cita completa."
        ),
        Lang::Pt => format!(
            "Sobre a pergunta \u{ab}{q}\u{bb}, as passagens mais pertinentes da biblioteca vêm de {kinds} \u{2014} {list}. \
             São citadas abaixo tal como estão nas fontes (na língua original), agrupadas por tipo de fonte; \
             cada marca leva à citação completa."
        ),
        Lang::Fr => format!(
            "Sur la question \u{ab}\u{a0}{q}\u{a0}\u{bb}, les passages les plus pertinents de la bibliothèque proviennent de {kinds} \u{2014} {list}. \
             Ils sont cités ci-dessous tels qu'ils figurent dans les sources (dans leur langue originale), regroupés par type de source\u{a0}; \
             chaque renvoi mène à la citation complète."
        ),
    }
}

/// The reply when no passage was found.
pub fn nothing_found(lang: Lang) -> &'static str {
    match lang {
        Lang::En => {
            "I found no passage in the library that addresses this question. \
             Try rephrasing it with the key terms (a doctrine, a sacrament, a document or a verse), \
             or search the documents directly with document_search."
        }
        Lang::Cs => {
            "V knihovně jsem nenašel žádnou pasáž, která by odpovídala na tuto otázku. \
             Zkuste ji přeformulovat s klíčovými pojmy (nauka, svátost, dokument nebo verš) \
             nebo prohledejte dokumenty přímo pomocí document_search."
        }
        Lang::Zh => {
            "资料库中没有找到回答这个问题的段落。请用关键词（教义、圣事、文件或经文）重新表述，\
             或直接用 document_search 搜索文件。"
        }
        Lang::Bn => {
            "গ্রন্থাগারে এই প্রশ্নের উত্তর দেয় এমন কোনো অংশ পাইনি। মূল শব্দ (একটি মতবাদ, সাক্রামেন্ত, দলিল বা পদ) \
             দিয়ে প্রশ্নটি আবার লিখুন, অথবা document_search দিয়ে সরাসরি দলিল খুঁজুন।"
        }
        Lang::Kok => {
            "ह्या प्रस्नाक जाप दिवपी एकूय भाग ग्रंथालयांत मेळ्ळो ना. मुखेल उतरां (शिकवण, सोक्रामेंत, दस्तावेज वा वचन) \
             वापरून प्रस्न परत बरयात, वा document_search वापरून दस्तावेज सोदात."
        }
        Lang::La => {
            "Nullum locum in bibliotheca inveni qui huic quaestioni respondeat. \
             Quaestionem verbis praecipuis (doctrina, sacramentum, documentum, versus) iterum pone, \
             aut documenta ipsa per document_search quaere."
        }
        Lang::It => {
            "Non ho trovato nella biblioteca alcun passo che risponda a questa domanda. \
             Prova a riformularla con i termini chiave (una dottrina, un sacramento, un documento o un versetto) \
             oppure cerca direttamente nei documenti con document_search."
        }
        Lang::Es => {
            "No encontré en la biblioteca ningún pasaje que responda a esta pregunta. \
             Intenta reformularla con los términos clave (una doctrina, un sacramento, un documento o un versículo) \
             o busca directamente en los documentos con document_search."
        }
        Lang::Pt => {
            "Não encontrei na biblioteca nenhuma passagem que responda a esta pergunta. \
             Tente reformulá-la com os termos-chave (uma doutrina, um sacramento, um documento ou um versículo) \
             ou pesquise diretamente nos documentos com document_search."
        }
        Lang::Fr => {
            "Je n'ai trouvé dans la bibliothèque aucun passage qui réponde à cette question. \
             Essayez de la reformuler avec les termes clés (une doctrine, un sacrement, un document ou un verset) \
             ou cherchez directement dans les documents avec document_search."
        }
    }
}
