//! The "nothing found" reply of extractive answers, in the language of the
//! question.

use crate::lang::Lang;

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
