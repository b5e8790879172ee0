#!/usr/bin/env python3
"""Checks that HTML documents parse without a single error under the WHATWG parsing rules.

Uses html5lib in strict mode (pure Python, from PyPI; no Java): any parse error, such as a stray end
tag, a missing doctype or an unescaped character, fails with its line and column. Also fails on
duplicate id attributes, which the parser accepts but the standard forbids.

    python3 -m venv .build/html-check-venv && .build/html-check-venv/bin/pip install html5lib
    .build/html-check-venv/bin/python scripts/check-html.py page.html [more.html ...]
"""
import sys

import html5lib


def check(path):
    with open(path, "rb") as handle:
        data = handle.read()
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    try:
        document = parser.parse(data)
    except html5lib.html5parser.ParseError as error:
        line, column = parser.errors[-1][0] if parser.errors else ("?", "?")
        return [f"{path}:{line}:{column}: {error}"]
    problems = []
    seen = set()
    for element in document.iter():
        identifier = element.get("id")
        if identifier is None:
            continue
        if identifier in seen:
            problems.append(f"{path}: duplicate id '{identifier}'")
        seen.add(identifier)
    return problems


def main(paths):
    problems = [problem for path in paths for problem in check(path)]
    for problem in problems:
        print(problem)
    if not problems:
        print(f"{len(paths)} document(s) valid")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
