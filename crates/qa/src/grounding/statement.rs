//! The sentences that open an answer the library cannot give in full, in the
//! ten languages of the classifier. Titles stay as they are; links are the
//! official ones from the registry or the catalogue.

use super::SeeAlso;
use crate::lang::Lang;

/// `Evangelium vitae (John Paul II, 1995): https://…; Dei Verbum (…): …`
fn list(items: &[SeeAlso]) -> String {
    items
        .iter()
        .map(|s| {
            let who = match (&s.author, s.year) {
                (Some(a), Some(y)) => format!(" ({a}, {y})"),
                (Some(a), None) => format!(" ({a})"),
                (None, Some(y)) => format!(" ({y})"),
                (None, None) => String::new(),
            };
            match &s.url {
                Some(u) => format!("{}{who}: {u}", s.title),
                None => format!("{}{who}", s.title),
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn quoted(lang: Lang, titles: &[String]) -> String {
    let (open, close) = match lang {
        Lang::It | Lang::Es | Lang::Pt | Lang::Fr => ("\u{ab}", "\u{bb}"),
        Lang::Cs => ("\u{201e}", "\u{201c}"),
        Lang::Zh => ("\u{300a}", "\u{300b}"),
        _ => ("\u{201c}", "\u{201d}"),
    };
    titles
        .iter()
        .map(|t| format!("{open}{t}{close}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The library does not hold the named documents; where to read them.
pub fn not_held(lang: Lang, items: &[SeeAlso]) -> String {
    let l = list(items);
    match lang {
        Lang::En => format!("This library does not hold the text this question needs: {l}."),
        Lang::Cs => format!("Tato knihovna neobsahuje text, který tato otázka potřebuje: {l}."),
        Lang::Zh => format!("本资料库没有收录回答这个问题所需的文本：{l}。"),
        Lang::Bn => format!("এই গ্রন্থাগারে এই প্রশ্নের জন্য প্রয়োজনীয় পাঠ্যটি নেই: {l}।"),
        Lang::Kok => format!("ह्या प्रस्नाक जाय आशिल्लो मजकूर ह्या ग्रंथालयांत ना: {l}."),
        Lang::La => format!("Haec bibliotheca textum quo haec quaestio eget non habet: {l}."),
        Lang::It => {
            format!("Questa biblioteca non contiene il testo che serve a questa domanda: {l}.")
        }
        Lang::Es => {
            format!("Esta biblioteca no contiene el texto que esta pregunta necesita: {l}.")
        }
        Lang::Pt => {
            format!("Esta biblioteca não contém o texto de que esta pergunta precisa: {l}.")
        }
        Lang::Fr => format!(
            "Cette bibliothèque ne contient pas le texte dont cette question a besoin\u{a0}: {l}."
        ),
    }
}

/// A title that names no document the library or its registry knows.
pub fn nonexistent(lang: Lang, titles: &[String]) -> String {
    let t = quoted(lang, titles);
    match lang {
        Lang::En => format!("This library holds no document called {t}, and no Church document of that name is known to it."),
        Lang::Cs => format!("Tato knihovna neobsahuje žádný dokument s názvem {t} a žádný církevní dokument toho jména nezná."),
        Lang::Zh => format!("本资料库没有名为{t}的文件，也不知道有这个名称的教会文件。"),
        Lang::Bn => format!("এই গ্রন্থাগারে {t} নামে কোনো দলিল নেই, এবং ওই নামের কোনো মণ্ডলীর দলিল তার জানা নেই।"),
        Lang::Kok => format!("ह्या ग्रंथालयांत {t} नांवाचो दस्तावेज ना, आनी त्या नांवाचो इगर्जेचो दस्तावेज ताका खबर ना."),
        Lang::La => format!("Haec bibliotheca nullum documentum {t} appellatum habet, neque ullum Ecclesiae documentum eo nomine novit."),
        Lang::It => format!("Questa biblioteca non contiene alcun documento intitolato {t}, e non conosce alcun documento della Chiesa con questo nome."),
        Lang::Es => format!("Esta biblioteca no contiene ningún documento titulado {t}, y no conoce ningún documento de la Iglesia con ese nombre."),
        Lang::Pt => format!("Esta biblioteca não contém nenhum documento intitulado {t}, e não conhece nenhum documento da Igreja com esse nome."),
        Lang::Fr => format!("Cette bibliothèque ne contient aucun document intitulé {t}, et ne connaît aucun document de l'Église portant ce nom."),
    }
}

/// The question needs the Magisterium after 1930, which the library does not
/// hold; the documents most likely to answer, when any are known.
pub fn modern(lang: Lang, items: &[SeeAlso]) -> String {
    let l = if items.is_empty() {
        "https://www.vatican.va".to_string()
    } else {
        list(items)
    };
    match lang {
        Lang::En => format!("This library does not hold what this question needs: it has no text of the Magisterium after 1930 (the Second Vatican Council, the Catechism of the Catholic Church, the recent popes). Where to read it: {l}."),
        Lang::Cs => format!("Tato knihovna neobsahuje to, co tato otázka potřebuje: nemá žádný text učitelského úřadu po roce 1930 (Druhý vatikánský koncil, Katechismus katolické církve, nedávní papežové). Kde to číst: {l}."),
        Lang::Zh => format!("本资料库没有回答这个问题所需的内容：它没有1930年以后的训导文本（梵二大公会议、《天主教教理》、近代教宗）。可在此阅读：{l}。"),
        Lang::Bn => format!("এই প্রশ্নের জন্য যা প্রয়োজন তা এই গ্রন্থাগারে নেই: ১৯৩০ সালের পরের শিক্ষাধিকারের কোনো পাঠ্য এখানে নেই (দ্বিতীয় ভাটিকান মহাসভা, কাথলিক মণ্ডলীর ধর্মশিক্ষা, সাম্প্রতিক পোপগণ)। কোথায় পড়বেন: {l}।"),
        Lang::Kok => format!("ह्या प्रस्नाक जाय तें ह्या ग्रंथालयांत ना: 1930 उपरांतचो इगर्जेच्या शिकवणी अधिकाराचो मजकूर हांगा ना (दुसरी वॅटिकन परिशद, कॅथलिक इगर्जेचें कातेसिस, हालींचे पापा). खंय वाचूंक मेळटा: {l}."),
        Lang::La => format!("Haec bibliotheca non habet quo haec quaestio eget: nullum Magisterii textum post annum 1930 continet (Concilium Vaticanum II, Catechismum Catholicae Ecclesiae, recentiores Pontifices). Ubi legatur: {l}."),
        Lang::It => format!("Questa biblioteca non contiene ciò che serve a questa domanda: non ha alcun testo del Magistero posteriore al 1930 (il Concilio Vaticano II, il Catechismo della Chiesa Cattolica, i papi recenti). Dove leggerlo: {l}."),
        Lang::Es => format!("Esta biblioteca no contiene lo que esta pregunta necesita: no tiene ningún texto del Magisterio posterior a 1930 (el Concilio Vaticano II, el Catecismo de la Iglesia Católica, los papas recientes). Dónde leerlo: {l}."),
        Lang::Pt => format!("Esta biblioteca não contém o que esta pergunta precisa: não tem nenhum texto do Magistério posterior a 1930 (o Concílio Vaticano II, o Catecismo da Igreja Católica, os papas recentes). Onde ler: {l}."),
        Lang::Fr => format!("Cette bibliothèque ne contient pas ce dont cette question a besoin\u{a0}: elle n'a aucun texte du Magistère postérieur à 1930 (le concile Vatican II, le Catéchisme de l'Église catholique, les papes récents). Où le lire\u{a0}: {l}."),
    }
}

/// The passages found leave part of the question uncovered.
pub fn uncovered(lang: Lang, words: &[String]) -> String {
    let w = words.join(", ");
    match lang {
        Lang::En => format!("The library's passages answer this question only in part: none of them speaks of {w}."),
        Lang::Cs => format!("Pasáže knihovny odpovídají na tuto otázku jen zčásti: žádná z nich nemluví o {w}."),
        Lang::Zh => format!("资料库中的段落只能部分回答这个问题：没有一段谈到{w}。"),
        Lang::Bn => format!("গ্রন্থাগারের অংশগুলি এই প্রশ্নের উত্তর আংশিকভাবে দেয়: কোনোটিতেই {w} নিয়ে কিছু নেই।"),
        Lang::Kok => format!("ग्रंथालयांतले भाग ह्या प्रस्नाक फकत थोडी जाप दितात: {w} हाचेविशीं खंयच्याच भागांत ना."),
        Lang::La => format!("Loci bibliothecae huic quaestioni ex parte tantum respondent: nullus eorum de {w} loquitur."),
        Lang::It => format!("I passi della biblioteca rispondono a questa domanda solo in parte: nessuno parla di {w}."),
        Lang::Es => format!("Los pasajes de la biblioteca responden a esta pregunta solo en parte: ninguno habla de {w}."),
        Lang::Pt => format!("As passagens da biblioteca respondem a esta pergunta só em parte: nenhuma fala de {w}."),
        Lang::Fr => format!("Les passages de la bibliothèque ne répondent qu'en partie à cette question\u{a0}: aucun ne parle de {w}."),
    }
}

/// Before the rest of a partial answer.
pub fn partial_intro(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Other sources in the library speak to the subject:",
        Lang::Cs => "K tématu se vyjadřují jiné prameny knihovny:",
        Lang::Zh => "资料库中的其他资料谈到这个主题：",
        Lang::Bn => "গ্রন্থাগারের অন্য উৎসগুলি বিষয়টি নিয়ে বলে:",
        Lang::Kok => "ग्रंथालयांतले हेर आदार ह्या विशयाचेर उलयतात:",
        Lang::La => "Alii bibliothecae fontes de hac re loquuntur:",
        Lang::It => "Altre fonti della biblioteca trattano l'argomento:",
        Lang::Es => "Otras fuentes de la biblioteca tratan el tema:",
        Lang::Pt => "Outras fontes da biblioteca tratam do assunto:",
        Lang::Fr => "D'autres sources de la bibliothèque traitent du sujet\u{a0}:",
    }
}

/// Before the related passages of an answer the library cannot give.
pub fn related_intro(lang: Lang) -> &'static str {
    match lang {
        Lang::En => "Related passages that the library does hold follow; they do not answer the question itself.",
        Lang::Cs => "Následují související pasáže, které knihovna obsahuje; na samotnou otázku neodpovídají.",
        Lang::Zh => "以下是资料库中相关的段落；它们并不直接回答这个问题。",
        Lang::Bn => "গ্রন্থাগারে থাকা সম্পর্কিত অংশগুলি নিচে দেওয়া হলো; এগুলি প্রশ্নটির সরাসরি উত্তর দেয় না।",
        Lang::Kok => "ग्रंथालयांत आशिल्ले संबंदीत भाग सकयल दिल्यात; ते प्रस्नाक थेट जाप दिनात.",
        Lang::La => "Sequuntur loci affines quos bibliotheca habet; ipsi quaestioni non respondent.",
        Lang::It => "Seguono passi affini che la biblioteca contiene; non rispondono alla domanda in sé.",
        Lang::Es => "Siguen pasajes afines que la biblioteca contiene; no responden a la pregunta en sí.",
        Lang::Pt => "Seguem-se passagens afins que a biblioteca contém; não respondem à pergunta em si.",
        Lang::Fr => "Suivent des passages apparentés que la bibliothèque contient\u{a0}; ils ne répondent pas à la question elle-même.",
    }
}
