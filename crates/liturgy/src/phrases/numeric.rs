//! Numbers written with digits (any script), numeric dates and Chinese numerals.

use chrono::NaiveDate;

/// ASCII digit for a Bengali, Devanagari or full-width digit; other characters unchanged.
pub fn ascii_digit(c: char) -> char {
    let base = match c {
        '\u{09E6}'..='\u{09EF}' => 0x09E6,
        '\u{0966}'..='\u{096F}' => 0x0966,
        '\u{FF10}'..='\u{FF19}' => 0xFF10,
        _ => return c,
    };
    char::from_u32('0' as u32 + (c as u32 - base)).unwrap_or(c)
}

/// True for a word made only of ASCII digits and the separators `/ . -`, starting with a digit.
pub fn is_numeric_shape(w: &str) -> bool {
    w.starts_with(|c: char| c.is_ascii_digit())
        && w.chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '/' | '.' | '-'))
}

/// The readings of a numeric date such as `2027-04-01`, `31/12/2027`, `1.4.2027`.
///
/// * year first (`2027-04-01`, `2027/4/1`): year, month, day;
/// * year last: when only one of month/day and day/month is a real date it is
///   the reading; when both are and they differ, dots read day.month
///   (`3.4.2027` = 3 April) and slashes or hyphens give both readings, which
///   the caller reports as ambiguous (`03/04/2027`).
///
/// `Err` says why a date-shaped word is not a date.
pub fn numeric_date(w: &str) -> Result<Vec<NaiveDate>, &'static str> {
    let sep = w
        .chars()
        .find(|c| !c.is_ascii_digit())
        .ok_or("not a date")?;
    let parts: Vec<&str> = w.split(sep).collect();
    if parts.len() != 3 || parts.iter().any(|p| p.is_empty() || p.len() > 4) {
        return Err("not a date: write it as 2027-04-01");
    }
    if parts
        .iter()
        .any(|p| p.contains(|c: char| !c.is_ascii_digit()))
    {
        return Err("mixes separators");
    }
    let n = |p: &str| p.parse::<u32>().unwrap_or(0);
    let (a, b, c) = (n(parts[0]), n(parts[1]), n(parts[2]));
    if parts[0].len() == 4 {
        let y = i32::try_from(a).map_err(|_| "no such date")?;
        return NaiveDate::from_ymd_opt(y, b, c)
            .map(|d| vec![d])
            .ok_or("no such date");
    }
    if parts[2].len() != 4 {
        return Err("the year must have four digits");
    }
    let y = i32::try_from(c).map_err(|_| "no such date")?;
    let month_first = NaiveDate::from_ymd_opt(y, a, b);
    let day_first = NaiveDate::from_ymd_opt(y, b, a);
    match (month_first, day_first) {
        (Some(m), Some(d)) if m == d => Ok(vec![m]),
        (Some(_), Some(d)) if sep == '.' => Ok(vec![d]),
        (Some(m), Some(d)) => Ok(vec![m, d]),
        (Some(m), None) => Ok(vec![m]),
        (None, Some(d)) => Ok(vec![d]),
        (None, None) => Err("no such date"),
    }
}

/// A number in digits, bare (`10`) or ordinal (`1st`, `3rd`, `1er`, `1º`, `3.`).
pub enum Digits {
    /// A cardinal.
    Cardinal(u32),
    /// An ordinal.
    Ordinal(u32),
}

/// Read `w` as a number in digits, with an optional ordinal suffix.
pub fn digits(w: &str) -> Option<Digits> {
    let end = w.find(|c: char| !c.is_ascii_digit()).unwrap_or(w.len());
    let (num, suffix) = w.split_at(end);
    if num.is_empty() || num.len() > 9 {
        return None;
    }
    let n: u32 = num.parse().ok()?;
    match suffix {
        "" => Some(Digits::Cardinal(n)),
        "st" | "nd" | "rd" | "th" | "er" | "re" | "e" | "o" | "a" | "º" | "ª" | "°" | "." => {
            Some(Digits::Ordinal(n))
        }
        _ => None,
    }
}

/// The value of a Chinese numeral character, or 10 for 十.
fn cjk_digit(c: char) -> Option<u32> {
    Some(match c {
        '〇' | '零' => 0,
        '一' => 1,
        '二' | '两' | '兩' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        '十' => 10,
        _ => return None,
    })
}

/// A Chinese numeral at the start of `chars` (一, 十, 十五, 二十一, 二〇二七):
/// its value and how many characters it takes.
pub fn chinese_numeral(chars: &[char]) -> Option<(u32, usize)> {
    let len = chars
        .iter()
        .take(8)
        .take_while(|c| cjk_digit(**c).is_some())
        .count();
    let run = &chars[..len];
    if run.is_empty() {
        return None;
    }
    let vals: Vec<u32> = run.iter().filter_map(|c| cjk_digit(*c)).collect();
    let value = match vals.as_slice() {
        [10] => 10,
        [10, u] if *u < 10 => 10 + u,
        [t, 10] if *t < 10 => t * 10,
        [t, 10, u] if *t < 10 && *u < 10 => t * 10 + u,
        digits if digits.iter().all(|d| *d < 10) => digits
            .iter()
            .fold(0u32, |acc, d| acc.saturating_mul(10).saturating_add(*d)),
        _ => return None,
    };
    Some((value, len))
}

/// The readings (day, month) of a day and month in digits without a year:
/// `31/12`, `12/31`, `19.3.`, `19.3`. The order rule is that of
/// [`numeric_date`]: dots read day.month; with a slash, both readings when
/// both are real and differ.
pub fn day_month(w: &str) -> Result<Vec<(u32, u32)>, &'static str> {
    let (sep, body) = if w.contains('/') {
        ('/', w)
    } else {
        ('.', w.strip_suffix('.').unwrap_or(w))
    };
    let parts: Vec<&str> = body.split(sep).collect();
    let [a, b] = parts.as_slice() else {
        return Err("not a date: write it as 2027-04-01");
    };
    if a.is_empty() || b.is_empty() || a.len() > 2 || b.len() > 2 {
        return Err("not a date: write it as 2027-04-01");
    }
    let (a, b): (u32, u32) = (a.parse().unwrap_or(0), b.parse().unwrap_or(0));
    // Checked against a leap year, so that 29/2 is a day and month.
    let real = |d: u32, m: u32| NaiveDate::from_ymd_opt(2028, m, d).is_some();
    let month_first = real(b, a).then_some((b, a));
    let day_first = real(a, b).then_some((a, b));
    match (month_first, day_first) {
        (Some(m), Some(d)) if m == d => Ok(vec![m]),
        (Some(_), Some(d)) if sep == '.' => Ok(vec![d]),
        (Some(m), Some(d)) => Ok(vec![m, d]),
        (Some(x), None) | (None, Some(x)) => Ok(vec![x]),
        (None, None) => Err("no such date"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ymd(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn numeric_order() {
        assert_eq!(numeric_date("31/12/2027"), Ok(vec![ymd(2027, 12, 31)]));
        assert_eq!(numeric_date("12/31/2027"), Ok(vec![ymd(2027, 12, 31)]));
        assert_eq!(numeric_date("3.4.2027"), Ok(vec![ymd(2027, 4, 3)]));
        assert_eq!(
            numeric_date("03/04/2027"),
            Ok(vec![ymd(2027, 3, 4), ymd(2027, 4, 3)])
        );
        assert_eq!(numeric_date("2027-04-03"), Ok(vec![ymd(2027, 4, 3)]));
        assert!(numeric_date("3/4/27").is_err());
        assert!(numeric_date("13/13/2027").is_err());
        assert!(numeric_date("1/2.2027").is_err());
        assert_eq!(day_month("31/12"), Ok(vec![(31, 12)]));
        assert_eq!(day_month("3/4"), Ok(vec![(4, 3), (3, 4)]));
        assert_eq!(day_month("19.3."), Ok(vec![(19, 3)]));
        assert_eq!(day_month("29/2"), Ok(vec![(29, 2)]));
    }

    #[test]
    fn chinese_numerals() {
        let n = |s: &str| chinese_numeral(&s.chars().collect::<Vec<_>>());
        assert_eq!(n("三天"), Some((3, 1)));
        assert_eq!(n("十"), Some((10, 1)));
        assert_eq!(n("十五"), Some((15, 2)));
        assert_eq!(n("二十"), Some((20, 2)));
        assert_eq!(n("二十一日"), Some((21, 3)));
        assert_eq!(n("二〇二七年"), Some((2027, 4)));
        assert_eq!(n("两周"), Some((2, 1)));
        assert_eq!(n("十十"), None);
        assert_eq!(n("天"), None);
    }

    #[test]
    fn digits_in_every_script() {
        let s: String = "২০২৭ २०२७ ２０２７".chars().map(ascii_digit).collect();
        assert_eq!(s, "2027 2027 2027");
    }
}
