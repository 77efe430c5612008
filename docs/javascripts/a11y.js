// Accessibility fixes for the theme, checked by axe-core in the browser tests:
// - the search overlay is a dialog: give it a name;
// - a table, code block or notebook cell wider than its column scrolls in its own box, which must take
//   the keyboard's focus. The build gives every such box tabindex="0" in the HTML (pages/a11y.py), so it
//   is focusable before any script runs, at any width. The theme's script takes it off code blocks
//   where the device cannot hover or the block does not scroll: put it back at once (a mutation
//   observer runs before anything else can look). Boxes that scroll now also get a name that says so.
(function () {
  var BOXES = ".md-typeset table, .highlight-ipynb, .md-typeset pre > code";
  function fix() {
    var search = document.querySelector(".md-search[role=dialog]");
    if (search && !search.getAttribute("aria-label")) search.setAttribute("aria-label", "Search");
    document.querySelectorAll(BOXES).forEach(label);
  }
  function label(box) {
    if (!box.hasAttribute("tabindex")) box.setAttribute("tabindex", "0");
    if (box.scrollWidth > box.clientWidth + 1 && !box.getAttribute("aria-label")) {
      box.setAttribute("aria-label", box.tagName === "TABLE" ? "Table (scrolls sideways)" : "Code (scrolls sideways)");
    }
  }
  new MutationObserver(function (changes) {  // the theme removed it: put it back
    changes.forEach(function (c) {
      if (!c.target.hasAttribute("tabindex") && c.target.matches(BOXES)) c.target.setAttribute("tabindex", "0");
    });
  }).observe(document.documentElement, {attributes: true, attributeFilter: ["tabindex"], subtree: true});
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fix);
  else fix();
  window.addEventListener("load", fix);
  window.addEventListener("resize", fix);
})();
