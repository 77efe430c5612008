"""The visible prose of a rendered Chinese page, for the checks of the Chinese edition's words and spacing."""
import html
import re
from html.parser import HTMLParser

SKIPPED = {"pre", "script", "style", "svg", "blockquote", "nav", "header", "footer", "button", "textarea"}
VOID = {"br", "img", "input", "hr", "meta", "link", "wbr", "source", "col", "area", "base", "embed", "param", "track"}


class _Prose(HTMLParser):
    """The article's text: code becomes a Latin placeholder (its own spacing is its own, but a missing
    space beside it is not); code blocks, quotations of the source articles (blockquotes and
    `evc-seed-quote` spans), charts and scripts go."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out, self.depth, self.skip, self.in_article = [], 0, 0, 0

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        if tag == "article":
            self.in_article += 1
        if self.skip or tag in SKIPPED or "evc-seed-quote" in (dict(attrs).get("class") or ""):
            self.skip += 1
        elif tag == "code" and self.in_article:
            self.out.append("CODE")
            self.skip += 1
        elif tag in ("p", "li", "td", "th", "h1", "h2", "h3", "h4", "div", "tr", "summary", "figcaption"):
            self.out.append("\n")

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self.skip:
            self.skip -= 1
        if tag == "article":
            self.in_article -= 1

    def handle_data(self, data):
        if self.in_article and not self.skip:
            self.out.append(data)


def prose(page_html: str) -> str:
    parser = _Prose()
    parser.feed(page_html)
    text = html.unescape("".join(parser.out))
    text = re.sub(r"《[^》]*》", "《》", text)  # the titles of the source articles, as they are written
    return re.sub(r"[ \t]+", " ", text)
