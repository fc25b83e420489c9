#!/usr/bin/env python3
"""The web app's message catalogues (clients/web/locales/*.json) are complete and consistent,
and index.html preloads the modules the first page needs.

- every language has the same keys, each plural entry the same forms ("one", "other");
- each translation uses the placeholders its English text uses ({station}, {count}), no others;
- every key the code names (a "section.name" string in clients/web/js) is in the catalogues, and
  every key in the catalogues is used (enum.* keys are named at run time, from the API's values);
- no text for people is written in the page code: a string literal of two or more words is
  reported unless it is a comment, a log line, or on the short list of technical strings below.

Exit status 1 with each problem listed. Run by the test command; `--list-keys` prints the keys.
"""
import json
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parents[2] / "clients" / "web"
catalogues = {path.stem: json.loads(path.read_text()) for path in sorted((root / "locales").glob("*.json"))}
problems = []

placeholder = re.compile(r"\{(\w+)\}")


def forms(entry):
    return entry if isinstance(entry, dict) else {"": entry}


def names(entry):
    return set().union(*(placeholder.findall(text) for text in forms(entry).values()))


english = catalogues.get("en")
if english is None or "it" not in catalogues:
    sys.exit("clients/web/locales needs en.json and it.json")
for language, catalogue in catalogues.items():
    for key in sorted(set(english) ^ set(catalogue)):
        problems.append(f"{language}.json: {key} is {'missing' if key in english else 'not in en.json'}")
    for key in sorted(set(english) & set(catalogue)):
        mine, theirs = forms(catalogue[key]), forms(english[key])
        if isinstance(catalogue[key], dict) and not {"one", "other"} <= set(mine):
            problems.append(f"{language}.json: {key} needs the forms 'one' and 'other'")
        if isinstance(catalogue[key], dict) != isinstance(english[key], dict):
            problems.append(f"{language}.json: {key} is plural in one language only")
        if names(catalogue[key]) - names(english[key]):
            problems.append(f"{language}.json: {key} uses {sorted(names(catalogue[key]) - names(english[key]))}, which en.json does not")
        if not all(text.strip() for text in mine.values()):
            problems.append(f"{language}.json: {key} is empty")

code = {path: path.read_text() for path in sorted((root / "js").rglob("*.js"))}
used = set()
key_literal = re.compile(r"""["`]([a-z][A-Za-z]*\.[A-Za-z][A-Za-z0-9_]*)["`]""")
for path, text in code.items():
    for line_number, line in enumerate(text.splitlines(), 1):
        for key in key_literal.findall(line):
            if key.split(".")[0] in {section.split(".")[0] for section in english}:
                used.add(key)
                if key not in english:
                    problems.append(f"{path.relative_to(root)}:{line_number}: {key} is in no catalogue")
for key in sorted(set(english) - used):
    if not key.startswith("enum."):
        problems.append(f"en.json: {key} is never used")

# Text for people in the code: a literal with two or more words. The exceptions are technical.
technical = {
    "text/event-stream", "application/json", "use strict",
}
literal = re.compile(r""""((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`""")
words = re.compile(r"[A-Za-zÀ-ÿ]{2,}[ ,.;:!?]+[A-Za-zÀ-ÿ]{2,}")
for path, text in code.items():
    for line_number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith(("//", "*", "/*")) or "console." in line or "new CustomEvent" in line:
            continue
        for match in literal.finditer(line):
            value = next(group for group in match.groups() if group is not None)
            # A template's expressions are code; what a nested template leaves is code too.
            value = re.sub(r"\$\{.*$", " ", re.sub(r"\$\{[^{}]*\}", " ", value))
            if value in technical or 't("' in value or not words.search(value):
                continue
            # CSS selectors, class lists, URLs and media types are not text for people.
            if re.fullmatch(r"[\w\s\-.#:>\[\]=\"'(),*/?&%+@]*", value) and not re.search(r"[A-Z][a-z]+ [a-z]+", value) and (
                "." in value or "-" in value or "#" in value or "[" in value or "/" in value or value == value.lower()
            ):
                continue
            problems.append(f"{path.relative_to(root)}:{line_number}: text in the code, not the catalogue: {value.strip()!r}")

# index.html asks at once for every module the first page needs: app.js's static imports, and
# theirs (a first visit on a slow connection would otherwise wait for each import in turn); the
# other pages' modules load when someone opens them, so they are not preloaded.
page = (root / "index.html").read_text()
preloaded = set(re.findall(r'<link rel="modulepreload" href="/app/(js/[\w/.-]+\.js)">', page))
static_import = re.compile(r'^import [^;]*? from "(\.{1,2}/[\w/.-]+\.js)";', re.M)
needed, pending = set(), ["js/app.js"]
while pending:
    module = pending.pop()
    for target in static_import.findall((root / module).read_text()):
        resolved = str((root / module).parent.joinpath(target).resolve().relative_to(root))
        if resolved not in needed:
            needed.add(resolved)
            pending.append(resolved)
for missing in sorted(needed - preloaded):
    problems.append(f"index.html: no <link rel=\"modulepreload\" href=\"/app/{missing}\"> (app.js needs it at once)")
for extra in sorted(preloaded - needed):
    problems.append(f"index.html: preloads /app/{extra}, which the first page does not import")

if "--list-keys" in sys.argv:
    print("\n".join(sorted(english)))
if problems:
    print("\n".join(problems))
    sys.exit(1)
print(f"catalogues: {len(catalogues)} languages, {len(english)} keys each, {len(code)} scripts checked")
