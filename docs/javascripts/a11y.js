// Accessibility fixes for the theme, checked by axe-core in the browser tests:
// - the search overlay is a dialog: give it a name;
// - a table or notebook cell wider than its column scrolls in its own box: make that box
//   reachable by keyboard.
(function () {
  function fix() {
    var search = document.querySelector(".md-search[role=dialog]");
    if (search && !search.getAttribute("aria-label")) search.setAttribute("aria-label", "Search");
    document.querySelectorAll(".md-typeset table, .highlight-ipynb").forEach(function (box) {
      if (box.scrollWidth > box.clientWidth + 1 && box.tabIndex < 0) {
        box.tabIndex = 0;
        if (!box.getAttribute("aria-label")) {
          box.setAttribute("aria-label", box.tagName === "TABLE" ? "Table (scrolls sideways)" : "Code (scrolls sideways)");
        }
      }
    });
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fix);
  else fix();
  window.addEventListener("load", fix);
  window.addEventListener("resize", fix);
})();
