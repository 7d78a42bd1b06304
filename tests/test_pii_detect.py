"""The personal-data detectors (text/pii.py), in English and Chinese text: what they must find,
and the look-alikes (order numbers, dates, versions, amounts, IDs with a wrong check digit)
they must leave alone."""

from __future__ import annotations

import pytest

from engramdb.text.pii import cn_id_ok, find_pii, iban_ok, luhn_ok


def kinds(text: str) -> list[tuple[str, str]]:
    return [(f.kind, f.value) for f in find_pii(text)]


@pytest.mark.parametrize(("text", "kind", "value"), [
    ("Write to maria.garcia+news@mail.example.org today", "email",
     "maria.garcia+news@mail.example.org"),
    ("我的邮箱是zhang_wei@163.com，有事联系", "email", "zhang_wei@163.com"),
    ("联系：li.na@example.com.cn。", "email", "li.na@example.com.cn"),
    ("Call me on +1 (212) 555-0143 after six", "phone", "+1 (212) 555-0143"),
    ("office line 020 7946 0018 in London", "phone", "020 7946 0018"),
    ("座机号码是010-62345678，上班时间打", "phone", "010-62345678"),
    ("Berlin office: +49 30 901820", "phone", "+49 30 901820"),
    ("Paid with 5500 0055 5555 5559 yesterday", "card", "5500 0055 5555 5559"),
    ("amex 3782-822463-10005", "card", "3782-822463-10005"),
    ("我的信用卡号6011000990139424，别告诉别人", "card", "6011000990139424"),
    ("Salary goes to NL91 ABNA 0417 1643 00 each month", "iban", "NL91 ABNA 0417 1643 00"),
    ("账户 FR1420041010050500013M02606 收款", "iban", "FR1420041010050500013M02606"),
    ("身份证：44030419900307123X，请核对", "cn_id", "44030419900307123X"),
    ("ID 110101200001011232 on file", "cn_id", "110101200001011232"),
    ("我的手机是15912345678", "cn_mobile", "15912345678"),
    ("手机 +86 186 1234 5678 随时打", "cn_mobile", "+86 186 1234 5678"),
    ("text her at 177-0000-1234 tonight", "cn_mobile", "177-0000-1234"),
])
def test_each_kind_is_found_in_english_and_chinese_text(text, kind, value):  # type: ignore[no-untyped-def]
    assert (kind, value) in kinds(text)


@pytest.mark.parametrize("text", [
    "Order 4539578763621486 shipped on 2024-05-06",            # a Luhn-valid order number
    "订单号 4539578763621486 已发货",
    "order #2125550143 is late",                              # a phone-shaped order number
    "订单号13812345678已签收",
    "快递单号：15987654321",
    "Release 2.14.3 of the app, build 20240506.1",
    "会议定在2024年5月6日10:30，地点301室",
    "The meeting is on 2024-05-06 at 10:30 in room 1502",
    "We sold 1,234,567 units for $12,345,678.90",
    "价格是12999元，库存3456件",
    "the server at 192.168.100.200 port 8080",
    "ISBN 978-3-16-148410-0 and DOI 10.1000/182",
    "coordinates 39.9042, 116.4074",
    "1234 5678 9012 3456",                                    # fails Luhn
    "NL91 ABNA 0417 1643 01",                                 # fails mod-97
    "DE89 3704 0044 0532 0130",                               # too short for a German IBAN
    "身份证44030419900307123Y",                               # wrong check character
    "编号 440304199013071234",                               # month 13
    "12345678 and 87654321",
    "version v1.13.812345678",
    "email me at the usual address",
    "the @channel handle and a@b",
])
def test_look_alikes_are_not_personal_data(text):  # type: ignore[no-untyped-def]
    assert kinds(text) == []


def test_spans_do_not_overlap_and_come_left_to_right() -> None:
    text = ("张伟 13812345678, zhang@example.com, 卡 4111 1111 1111 1111, "
            "身份证 11010519491231002X, +1 415-555-2671")
    found = find_pii(text)
    assert [f.kind for f in found] == ["cn_mobile", "email", "card", "cn_id", "phone"]
    assert all(a.end <= b.start for a, b in zip(found, found[1:], strict=False))
    assert all(text[f.start:f.end] == f.value for f in found)


def test_the_check_digits() -> None:
    assert luhn_ok("4111111111111111") and not luhn_ok("4111111111111112")
    assert iban_ok("GB82 WEST 1234 5698 7654 32") and not iban_ok("GB82 WEST 1234 5698 7654 33")
    assert cn_id_ok("11010519491231002X") and not cn_id_ok("110105194912310021")
    assert not cn_id_ok("11010519490230002X")   # 30 February


@pytest.mark.parametrize(("text", "kind", "value"), [
    ("My SSN is 123-45-6789, keep it safe", "ssn", "123-45-6789"),
    ("social security number: 078051120 on the form", "ssn", "078051120"),
    ("他的社会安全号码是123-45-6789。", "ssn", "123-45-6789"),
    ("Write to jane at example dot com", "email", "jane at example dot com"),
    ("mail jane (at) example (dot) com please", "email", "jane (at) example (dot) com"),
    ("J.Doe [at] mail [dot] example [dot] org.", "email",
     "J.Doe [at] mail [dot] example [dot] org"),
    ("reach me: jane AT example DOT co DOT uk", "email", "jane AT example DOT co DOT uk"),
    ("jane(at)example.com", "email", "jane(at)example.com"),
    ("我的邮箱是 wang.fang at example dot cn，谢谢", "email", "wang.fang at example dot cn"),
    ("邮箱 li.na (at) qq (dot) com", "email", "li.na (at) qq (dot) com"),
])
def test_ssns_and_written_out_emails_are_found(text, kind, value):  # type: ignore[no-untyped-def]
    assert (kind, value) in kinds(text)


@pytest.mark.parametrize("text", [
    "look at the example",
    "I looked at google.com yesterday",                      # a site, not an address
    "Email me at the office dot",
    "meet me at home dot com",                               # "me" is no mailbox
    "she is at school today. Dot the i's",
    "jobs lost at the dot com bust; look at this dot com bubble",
    "call 212-555-0143 before noon",                         # a phone: 3-3-4, never an SSN
    "the release on 2024-05-06 and 05-06-2024",              # dates
    "upgrade to 1.23-45-6789 or v123-45-6789",               # versions
    "order 123-45-6789 shipped",                             # a reference number
    "000-12-3456, 666-12-3456, 900-12-3456, 123-00-4567, 123-45-0000",  # never issued
    "ISBN 978-3-16-148410-0",
    "订单号 123-45-6789 已发货",
    "我们在上海见面，时间是2024年5月6日",
])
def test_ssn_and_written_out_email_look_alikes_are_not_found(text):  # type: ignore[no-untyped-def]
    assert [k for k, _ in kinds(text) if k in ("ssn", "email")] == []


def test_one_address_however_written_is_one_canonical_value() -> None:
    from engramdb.text.pii import canonical

    forms = ["Jane@Example.com", "jane at example dot com", "jane (at) example (dot) com",
             "jane [AT] example [DOT] com"]
    assert {canonical("email", f.value) for t in forms for f in find_pii(t)} == \
        {"jane@example.com"}
    assert canonical("cn_mobile", "+86 138-1234-5678") == canonical("cn_mobile", "13812345678")
    assert canonical("ssn", "123-45-6789") == "123456789"
