// Accessibility fixes for the theme, checked by axe-core in the browser tests:
// - the search overlay is a dialog: give it a name;
// - a table, code block or notebook cell wider than its column scrolls in its own box: make that
//   box reachable by keyboard. The theme does this for code blocks only where the device can hover,
//   and takes it back on phones; a phone with a keyboard (or a screen reader) needs it too.
(function () {
  function fix() {
    var search = document.querySelector(".md-search[role=dialog]");
    if (search && !search.getAttribute("aria-label")) search.setAttribute("aria-label", "Search");
    document.querySelectorAll(".md-typeset table, .highlight-ipynb, .md-typeset pre > code").forEach(focusable);
  }
  function focusable(box) {
    if (box.scrollWidth > box.clientWidth + 1 && !box.hasAttribute("tabindex")) {
      box.setAttribute("tabindex", "0");
      if (!box.getAttribute("aria-label")) {
        box.setAttribute("aria-label", box.tagName === "TABLE" ? "Table (scrolls sideways)" : "Code (scrolls sideways)");
      }
    }
  }
  new MutationObserver(function (changes) {  // the theme removed it again: put it back
    changes.forEach(function (c) { if (c.target.matches("pre > code")) focusable(c.target); });
  }).observe(document.documentElement, {attributes: true, attributeFilter: ["tabindex"], subtree: true});
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fix);
  else fix();
  window.addEventListener("load", fix);
  window.addEventListener("resize", fix);
})();
