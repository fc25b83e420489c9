#!/usr/bin/env python3
"""Every text the services write for a person has its Italian.

The services write their words in English where they make them, as `PersonText`
(Shared/Domain/Language/PersonText.swift): refusals, field problems, notifications, emails. This
finds those literals in the Swift sources, as templates (each interpolation `%@`, as PersonText
makes them at run time), and compares them with the Italian catalogue
(Shared/Domain/Language/Italian.swift):

- a template no catalogue entry translates fails the check (`--missing` lists them as Swift
  lines to paste and translate);
- an entry no code writes any more fails too (it would only confuse the next translator);
- a translation must use as many arguments as its template.

Where a PersonText is written: the message of a ServiceError case (`.notFound("...")`), a
field's problem (`.invalid(field, "...")`, `fail(field, "...")`, `FieldProblem(... description:
"...")`), `what:`, `sentBy:` and `reason:` of the validation helpers and refusals, the gateway's
`GatewayRefusal`/`HTTPErrorBody` messages, a notification's `title:`/`body:`, an email's
`subject:`/`body:` and a text message's `body:`, anything written
`"..." as PersonText` or assigned to a `PersonText` (each branch of an `if` expression too), and the `return`s of a function or property
of type PersonText.
"""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parents[1]
catalogue_path = root / "Shared/Domain/Language/Italian.swift"
sources = [
    path for folder in ("Services", "Shared") for path in sorted((root / folder).rglob("*.swift"))
    if "/Generated/" not in str(path) and "Shared/Proto/" not in str(path) and path != catalogue_path
]


def read_literal(text, start, verbatim=False):
    """The Swift string literal opening at text[start] ('"'): (template, end index). Each
    interpolation becomes %@ and each % becomes %%, as PersonText's interpolation makes them
    (unless `verbatim`: the catalogue's literals are templates already)."""
    assert text[start] == '"'
    if text.startswith('"""', start):
        return read_multiline(text, start, verbatim)
    out = []
    i = start + 1
    escapes = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", '"': '"', "'": "'", "\\": "\\"}
    while i < len(text):
        c = text[i]
        if c == '"':
            return "".join(out), i + 1
        if c == "\n":
            return None, i
        if c == "\\":
            nxt = text[i + 1]
            if nxt == "(":
                i = skip_balanced(text, i + 1)
                out.append("%@")
                continue
            if nxt == "u":
                close = text.index("}", i)
                out.append(chr(int(text[i + 3:close], 16)))
                i = close + 1
                continue
            out.append(escapes.get(nxt, nxt))
            i += 2
            continue
        out.append("%%" if c == "%" and not verbatim else c)
        i += 1
    return None, i


def read_multiline(text, start, verbatim=False):
    """A multi-line literal (\"\"\" on its own lines): the indentation of its closing delimiter
    is stripped from every line, and a line ending in a backslash continues the next."""
    close = start + 3
    while True:
        close = text.index('"""', close)
        if text[close - 1] != "\\":
            break
        close += 3
    body = text[start + 3:close]
    lines = body.split("\n")[1:]
    indent = len(lines[-1]) - len(lines[-1].lstrip(" "))
    content = "\n".join(line[indent:] for line in lines[:-1])
    content = re.sub(r"\\\n", "", content)
    template, _ = read_literal('"' + content.replace('"', '\\"').replace("\n", "\\n") + '"', 0, verbatim)
    return template, close + 3


def skip_balanced(text, start):
    """Index after the bracket group opening at text[start] ('(', '[' or '{'), skipping strings."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = [pairs[text[start]]]
    i = start + 1
    while i < len(text) and stack:
        c = text[i]
        if c == '"':
            _, i = read_literal(text, i)
            continue
        if c in pairs:
            stack.append(pairs[c])
        elif c == stack[-1]:
            stack.pop()
        i += 1
    return i


def top_level(text, start):
    """(index, character, template) for each character of the code from `start` that is outside a
    string literal and a bracket group; a literal comes as one step, `template` its template (None
    for anything else, and for a literal that could not be read). Groups are skipped whole, so a
    call's own arguments are never confused with what they contain."""
    i = start
    while i < len(text):
        c = text[i]
        if c == '"':
            template, end = read_literal(text, i)
            yield i, c, template
            i = end
            continue
        if c in "([{":
            i = skip_balanced(text, i)
            continue
        yield i, c, None
        i += 1


def top_level_literals(text, start, stop_at=",)]}\n"):
    """The string literals of the expression starting at `start`, up to a top-level `stop_at`
    character: both branches of a ternary, not what is inside a call or a closure."""
    found = []
    for _, c, template in top_level(text, start):
        if c == '"':
            if template is not None:
                found.append(template)
        elif c in stop_at:
            break
    return found


def after_first_argument(text, start):
    """Index after the first argument (and its comma) of a call whose arguments start at `start`."""
    for i, c, _ in top_level(text, start):
        if c == ",":
            return i + 1
        if c in ")]}":
            return None
    return None


message_cases = r"\.(?:alreadyExists|notFound|unauthenticated|failedPrecondition|permissionDenied|storageFull|declined)\("
patterns = [
    # The message is the whole first argument.
    (re.compile(message_cases), "whole"),
    (re.compile(r"\.localized\(\.\w+,\s*"), "whole"),
    # The field, then its problem.
    (re.compile(r"\.invalid\((?=\s*[^\[\s])"), "second"),
    (re.compile(r"\bfail\("), "second"),
    (re.compile(r"\b(?:what|sentBy):\s*"), "whole"),
    # Explicitly typed.
    (re.compile(r":\s*(?:PersonText|TranslatedText)\s*=\s*"), "line"),
    (re.compile(r"(?=\"[^\"\n]*\"\s+as\s+PersonText\b)"), "whole"),
]
# Calls whose labelled arguments are words for a person: the call, and those labels.
labelled_calls = {
    "GatewayRefusal": {"message"}, "HTTPErrorBody": {"message"}, "TranscodingError": {"reason"}, "throttled": {"reason"},
    "FieldProblem": {"description"}, "CardProblem": {"description"}, "PeerNotification": {"title", "body"}, "NotificationContent": {"title", "body"},
    "OutboxMessage": {"title", "body"}, "Email": {"subject", "body"}, "TextMessage": {"body"}, "tell": {"title", "body"},
    "tellOwner": {"title", "reason"}, "refuse": {"reason"}, "Problem": {"reason"},
}
call = re.compile(r"\b(" + "|".join(labelled_calls) + r")\(")


def labelled_arguments(text, open_paren):
    """(label, start of its value) for each labelled argument of the call opening at `open_paren`."""
    found = []
    argument_start = open_paren + 1
    for i, c, _ in top_level(text, open_paren + 1):
        if c in ",)":
            label = re.match(r"\s*(\w+):\s*", text[argument_start:i])
            if label:
                found.append((label.group(1), argument_start + label.end()))
            if c == ")":
                break
            argument_start = i + 1
    return found


typed_body = re.compile(r"(?:->|:)\s*(?:PersonText|TranslatedText)\s*(?:=\s*switch\b[^{\n]*)?\{")
returned = re.compile(r"\breturn\s+|\bcase [^:\n]+:\s*(?=\")|\bdefault:\s*(?=\")|\bcase [^:\n]+:\s*\n\s*(?=\")")

templates = {}
for path in sources:
    text = path.read_text()
    if "PersonText" not in text and not re.search(
        message_cases + r"|\.invalid\(|\bfail\(|GatewayRefusal|HTTPErrorBody|PeerNotification|NotificationContent\(|OutboxMessage|Email\(|TextMessage\(", text
    ):
        continue
    where = lambda index: f"{path.relative_to(root)}:{text.count(chr(10), 0, index) + 1}"
    for pattern, kind in patterns:
        for match in pattern.finditer(text):
            start = match.end()
            if kind == "skip":
                continue
            if kind == "second":
                start = after_first_argument(text, start)
                if start is None:
                    continue
            found = top_level_literals(text, start, "\n" if kind == "line" else ",)]}")
            for template in found:
                templates.setdefault(template, where(match.start()))
    for match in call.finditer(text):
        for label, value in labelled_arguments(text, match.end() - 1):
            if label in labelled_calls[match.group(1)]:
                for template in top_level_literals(text, value, ",)"):
                    templates.setdefault(template, where(match.start()))
    for match in typed_body.finditer(text):
        end = skip_balanced(text, match.end() - 1)
        body = text[match.end():end]
        # A body of one expression returns it without `return`.
        if body.lstrip().startswith('"'):
            for template in top_level_literals(body, body.index('"'), "\n"):
                templates.setdefault(template, where(match.end()))
        for inner in returned.finditer(body):
            for template in top_level_literals(body, inner.end(), "\n"):
                templates.setdefault(template, where(match.end() + inner.start()))

# An `if` expression assigned to a PersonText: the literal each branch evaluates to.
typed_if = re.compile(r":\s*(?:PersonText|TranslatedText)\s*=\s*if\b")
for path in sources:
    text = path.read_text()
    for match in typed_if.finditer(text):
        position = match.end()
        while (brace := text.find("{", position)) >= 0:
            end = skip_balanced(text, brace)
            body = text[brace + 1:end]
            if body.lstrip().startswith('"'):
                for template in top_level_literals(body, body.index('"'), "\n"):
                    templates.setdefault(template, f"{path.relative_to(root)}:{text.count(chr(10), 0, brace) + 1}")
            if not re.match(r"\s*else\b", text[end + 1:]):
                break
            position = end + 1

# Templates with no words to translate: "%@", "%@: %@".
templates = {template: place for template, place in templates.items() if re.search(r"[A-Za-z]", template.replace("%@", ""))}

catalogue_text = catalogue_path.read_text()
entries = {}
position = catalogue_text.index("[", catalogue_text.index("italian"))
while (start := catalogue_text.find('"', position)) >= 0:
    key, end = read_literal(catalogue_text, start, verbatim=True)
    value, position = read_literal(catalogue_text, catalogue_text.index('"', catalogue_text.index(":", end)), verbatim=True)
    entries[key] = value

problems = []
missing = sorted(set(templates) - set(entries))
for template in missing:
    problems.append(f"{templates[template]}: no Italian for {template!r}")
for key in sorted(set(entries) - set(templates)):
    problems.append(f"Italian.swift: {key!r} is written by no code")


def arguments(template):
    return len(re.findall(r"%@", template)) + len(set(re.findall(r"%(\d+)\$@", template)))


for key, value in entries.items():
    if key in templates and arguments(key) != arguments(value):
        problems.append(f"Italian.swift: {key!r} takes {arguments(key)} arguments, its Italian {arguments(value)}")

if "--missing" in sys.argv:
    swift = lambda text: '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    for template in missing:
        print(f"    {swift(template)}: {swift(template)},  // {templates[template]}")
    sys.exit(0)
if "--list" in sys.argv:
    for template, place in sorted(templates.items()):
        print(f"{place}: {template}")
    sys.exit(0)
if problems:
    print("\n".join(problems))
    print(f"{len(problems)} problems; scripts/check-person-texts.py --missing prints the entries to add")
    sys.exit(1)
print(f"person texts: {len(templates)} templates, each with its Italian")
