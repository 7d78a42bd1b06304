"""Personal data in text: e-mail addresses (also written out: "jane at example dot com",
"jane (at) example (dot) com"), phone numbers, payment cards, IBANs, US Social Security
numbers, Chinese resident ID numbers and Chinese mobile numbers (the write path's PII policy:
write/privacy.py).

Each detector checks what a pattern found before it counts: a card's digits pass the Luhn check
and start like a card network's, an IBAN's mod-97 check is 1 and its length is its country's,
a Chinese ID's birth date is a real date and its ISO 7064 MOD 11-2 check character matches, a
phone number is one ``phonenumbers`` calls valid. Digits written next to an order, invoice or
tracking word ("订单号", "order #") are not taken for phone or card numbers. An SSN is written
123-45-6789 (area not 000, 666 or 9xx, group not 00, serial not 0000), or as nine digits right
after "SSN" / "social security number"; other digit groups (a phone's 3-3-4, a date, a version)
never are. A written-out e-mail needs the bracketed "(at)" / "[at]", or a plain " at " followed
by at least one " dot " (so "look at the example" or "I looked at google.com" are not
addresses), a local part and domain labels that are no stop words ("jobs lost at the dot com
bust"), and a top-level domain that is a known generic one or two letters.

``find_pii`` returns the spans, left to right, never overlapping (the first detector in
``KINDS`` wins a contested span)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from .stopwords import EN_STOP

KINDS = ("email", "iban", "card", "cn_id", "ssn", "cn_mobile", "phone")
LABELS = {"email": "an e-mail address", "iban": "an IBAN", "card": "a payment card number",
          "cn_id": "a Chinese resident ID number", "ssn": "a US Social Security number",
          "cn_mobile": "a Chinese mobile number", "phone": "a phone number"}

_EMAIL = re.compile(r"(?<![A-Za-z0-9._%+-])[A-Za-z0-9][A-Za-z0-9._%+-]*@"
                    r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?"
                    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.[A-Za-z]{2,24}"
                    r"(?![A-Za-z0-9-])")
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_BRACKET_AT = r"\s*[(\[{<]\s*(?i:at)\s*[)\]}>]\s*"
_BRACKET_DOT = r"\s*[(\[{<]\s*(?i:dot)\s*[)\]}>]\s*"
_OBFUSCATED_EMAIL = re.compile(
    r"(?<![A-Za-z0-9._%+@-])(?P<local>[A-Za-z0-9][A-Za-z0-9._%+-]*?)"
    r"(?P<at>" + _BRACKET_AT + r"|\s+(?i:at)\s+|@)"
    r"(?P<domain>" + _LABEL + r"(?:(?:" + _BRACKET_DOT + r"|\s+(?i:dot)\s+|\.)" + _LABEL
    + r")+)(?![A-Za-z0-9-]|\.[A-Za-z0-9])")
_DOT_WORD = re.compile(_BRACKET_DOT + r"|\s+(?i:dot)\s+")
_AT_WORD = re.compile(r"(?i)\bat\b")
_TLDS = frozenset("com net org edu gov mil int info biz name pro io ai app dev co me tv xyz "
                  "online site tech store email mail".split())
_SSN = re.compile(r"(?<![0-9A-Za-z.+/-])([0-9]{3})-([0-9]{2})-([0-9]{4})"
                  r"(?![0-9A-Za-z/-]|[.,][0-9])")
_SSN_SAID = re.compile(r"(?<![0-9A-Za-z])(?:ssn|social security(?: number| no\.?)?|"
                       r"社会安全号码?|社安号)\W{0,3}(?:is\s+|是)?"
                       r"([0-9]{3})[ -]?([0-9]{2})[ -]?([0-9]{4})(?![0-9])", re.IGNORECASE)
_IBAN_START = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}[0-9]{2}")
_CARD = re.compile(r"(?<![0-9.,/:-])[0-9](?:[ -]?[0-9]){12,18}(?![0-9]|[.,/:-][0-9])")
_CN_ID = re.compile(r"(?<![0-9A-Za-z])[1-8][0-9]{16}[0-9Xx](?![0-9A-Za-z])")
_CN_MOBILE = re.compile(r"(?<![0-9+])(?:(?:\+|00)?86[ -]?)?1[3-9][0-9](?:[ -]?[0-9]{4}){2}"
                        r"(?![0-9])")
# a number said to be an order, invoice, tracking or reference number is not a phone or card
_NOT_PHONE = re.compile(r"(order|invoice|tracking|ticket|ref(?:erence)?|serial|account|"
                        r"no\.|#|订单|单号|编号|流水|快递|运单|发票|工单|序列号)\W{0,3}$",
                        re.IGNORECASE)
_PHONE_REGIONS = ("US", "CN", "GB")
_IBAN_LENGTHS = {
    "AD": 24, "AE": 23, "AL": 28, "AT": 20, "AZ": 28, "BA": 20, "BE": 16, "BG": 22, "BH": 22,
    "BR": 29, "BY": 28, "CH": 21, "CR": 22, "CY": 28, "CZ": 24, "DE": 22, "DK": 18, "DO": 28,
    "EE": 20, "EG": 29, "ES": 24, "FI": 18, "FO": 18, "FR": 27, "GB": 22, "GE": 22, "GI": 23,
    "GL": 18, "GR": 27, "GT": 28, "HR": 21, "HU": 28, "IE": 22, "IL": 23, "IQ": 23, "IS": 26,
    "IT": 27, "JO": 30, "KW": 30, "KZ": 20, "LB": 28, "LC": 32, "LI": 21, "LT": 20, "LU": 20,
    "LV": 21, "MC": 27, "MD": 24, "ME": 22, "MK": 19, "MR": 27, "MT": 31, "MU": 30, "NL": 18,
    "NO": 15, "PK": 24, "PL": 28, "PS": 29, "PT": 25, "QA": 29, "RO": 24, "RS": 22, "SA": 24,
    "SC": 31, "SE": 24, "SI": 19, "SK": 24, "SM": 27, "ST": 25, "SV": 28, "TL": 23, "TN": 24,
    "TR": 26, "UA": 29, "VA": 22, "VG": 24, "XK": 20,
}
_CARD_PREFIXES = (re.compile(r"4|5[1-5]|2(?:2[2-9]|[3-6][0-9]|7[01]|720)|3[47]|3[0689]|35|"
                             r"6(?:011|4[4-9]|5|2)"))
_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_ID_CHECK = "10X98765432"


@dataclass(frozen=True)
class Found:
    kind: str
    start: int
    end: int
    value: str


def luhn_ok(digits: str) -> bool:
    total = 0
    for i, ch in enumerate(reversed(digits)):
        n = int(ch)
        if i % 2:
            n = n * 2 - 9 if n > 4 else n * 2
        total += n
    return total % 10 == 0


def iban_ok(text: str) -> bool:
    iban = text.replace(" ", "")
    if _IBAN_LENGTHS.get(iban[:2]) != len(iban):
        return False
    moved = iban[4:] + iban[:4]
    return int("".join(str(int(ch, 36)) for ch in moved)) % 97 == 1


def cn_id_ok(text: str) -> bool:
    try:
        born = date(int(text[6:10]), int(text[10:12]), int(text[12:14]))
    except ValueError:
        return False
    if not 1900 <= born.year <= 2100:
        return False
    total = sum(int(d) * w for d, w in zip(text[:17], _ID_WEIGHTS, strict=True))
    return _ID_CHECK[total % 11] == text[17].upper()


def _ibans(text: str) -> list[Found]:
    """IBANs: a country code and check digits, then the country's length of letters and digits
    (single spaces allowed between them), passing the mod-97 check."""
    found = []
    for m in _IBAN_START.finditer(text):
        want = _IBAN_LENGTHS.get(m.group()[:2])
        if want is None:
            continue
        end, size = m.end(), 4
        while size < want and end < len(text):
            step = 2 if text[end] == " " and end + 1 < len(text) else 1
            ch = text[end + step - 1]
            if not (ch.isascii() and ch.isalnum()) or (step == 1 and ch == " "):
                break
            end, size = end + step, size + 1
        after = text[end:end + 1]
        if size == want and not (after.isascii() and after.isalnum()) \
                and iban_ok(text[m.start():end]):
            found.append(Found("iban", m.start(), end, text[m.start():end]))
    return found


def _card_ok(text: str) -> bool:
    digits = re.sub(r"[ -]", "", text)
    separators = set(re.findall(r"[ -]", text))
    if len(separators) > 1 or not 13 <= len(digits) <= 19:
        return False
    return bool(_CARD_PREFIXES.match(digits)) and luhn_ok(digits)


def _not_a_reference(text: str, start: int) -> bool:
    return _NOT_PHONE.search(text[max(0, start - 16):start]) is None


def ssn_ok(area: str, group: str, serial: str) -> bool:
    """An SSN's parts as the SSA issues them: area 001-899 but not 666, group and serial not
    all zeros."""
    return area not in ("000", "666") and area[0] != "9" and group != "00" and serial != "0000"


def _ssns(text: str) -> list[Found]:
    found = [Found("ssn", m.start(), m.end(), m.group()) for m in _SSN.finditer(text)
             if ssn_ok(*m.groups()) and _not_a_reference(text, m.start())]
    found += [Found("ssn", m.start(1), m.end(), text[m.start(1):m.end()])
              for m in _SSN_SAID.finditer(text) if ssn_ok(*m.groups())]
    return found


def _obfuscated_emails(text: str) -> list[Found]:
    """Addresses written out: "jane at example dot com", "jane (at) example (dot) com"."""
    found = []
    for m in _OBFUSCATED_EMAIL.finditer(text):
        at, domain = m.group("at"), m.group("domain")
        if at == "@" and not _DOT_WORD.search(domain):
            continue  # a plain address: _EMAIL's
        if not at.strip().startswith(("(", "[", "{", "<")) and at != "@" \
                and not _DOT_WORD.search(domain):
            continue  # "I looked at google.com": a plain " at " needs a written " dot "
        labels = [x.lower() for x in re.split(_DOT_WORD.pattern + r"|\.", domain)]
        tld = labels[-1]
        if any(x in EN_STOP for x in [m.group("local").lower(), *labels]) \
                or not tld.isalpha() or not (tld in _TLDS or len(tld) == 2):
            continue  # "lost at the dot com bust": a function word is no mailbox nor domain
        found.append(Found("email", m.start(), m.end(), m.group()))
    return found


def canonical(kind: str, value: str) -> str:
    """The value as one form, whatever way it was written: an e-mail lower-cased with its
    written-out "at"/"dot" as "@"/"."; a number's digits (and letters) without separators, a
    Chinese mobile without its +86."""
    if kind == "email":
        value = _DOT_WORD.sub(".", re.sub(_BRACKET_AT + r"|\s+(?i:at)\s+", "@", value, count=1))
        return value.lower()
    plain = re.sub(r"[^0-9A-Za-z]", "", value).upper()
    if kind == "cn_mobile" and len(plain) > 11:
        plain = plain[-11:]
    return plain


def _regex_finds(text: str) -> list[Found]:
    found = [Found("email", m.start(), m.end(), m.group()) for m in _EMAIL.finditer(text)]
    if _AT_WORD.search(text) or "@" in text:
        found += _obfuscated_emails(text)
    found += _ssns(text)
    found += _ibans(text)
    found += [Found("card", m.start(), m.end(), m.group()) for m in _CARD.finditer(text)
              if _card_ok(m.group()) and _not_a_reference(text, m.start())]
    found += [Found("cn_id", m.start(), m.end(), m.group()) for m in _CN_ID.finditer(text)
              if cn_id_ok(m.group())]
    found += [Found("cn_mobile", m.start(), m.end(), m.group())
              for m in _CN_MOBILE.finditer(text) if _not_a_reference(text, m.start())]
    return found


def _phones(text: str) -> list[Found]:
    import phonenumbers  # ~40 ms to import: only a process that screens text pays it

    found = []
    for region in _PHONE_REGIONS:
        for m in phonenumbers.PhoneNumberMatcher(text, region,
                                                 leniency=phonenumbers.Leniency.VALID):
            if _not_a_reference(text, m.start):
                found.append(Found("phone", m.start, m.end, m.raw_string))
    return found


def find_pii(text: str) -> list[Found]:
    """The personal data in ``text``, left to right, no two spans overlapping."""
    if not text or not (any(ch.isdigit() or ch == "@" for ch in text)
                        or _AT_WORD.search(text)):
        return []
    candidates = _regex_finds(text)
    if sum(ch.isdigit() for ch in text) >= 7:
        candidates += _phones(text)
    candidates.sort(key=lambda f: (KINDS.index(f.kind), f.start))
    kept: list[Found] = []
    for f in candidates:
        if all(f.end <= k.start or f.start >= k.end for k in kept):
            kept.append(f)
    return sorted(kept, key=lambda f: f.start)
