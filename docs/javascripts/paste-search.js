// A reader pastes an error message into the search box to find its recipe. The theme's search reads
// some characters of a query as syntax (quotes: all words required; + required, - excluded, ~ fuzzy,
// ^ boost, * wildcard, : a field), and torch's messages are full of them ("+dynamic", "^~~~", "-1",
// "driver.c:9:10:", "L['x']"): the search then fails ("Invalid query") or finds nothing. A paste is
// words to find, not a query: it keeps letters, digits, "_" and the dots inside names
// (torch._dynamo.exc.Unsupported, Python.h), and the rest becomes spaces. What differs from one
// machine to the next goes too: file paths, addresses and bare numbers (line numbers, sizes, counts)
// name nothing the site can match. So do English stop words: the index leaves them out (its
// stopWordFilter), and the theme searches every word as a prefix, so "in" would match the titles of
// pages about installation and Inductor; and so do single letters (the "x" of "L['x']"). A typed
// query is left as typed here; the search worker leaves out its stop words only
// (src/eager_vs_compiled/pages/search_stop_words.js).
(function () {
  // Lunr's English stop words (lunr.stopWordFilter), which the site's search index drops.
  var STOP = new Set(("a able about across after all almost also am among an and any are as at be because been but by " +
    "can cannot could dear did do does either else ever every for from get got had has have he her hers him his how " +
    "however i if in into is it its just least let like likely may me might most must my neither no nor not of off " +
    "often on only or other our own rather said say says she should since so some than that the their them then there " +
    "these they this tis to too twas us wants was we were what when where which while who whom why will with would " +
    "yet you your").split(" "));
  function words(text) {
    return text.replace(/\S*[\/\\]\S*|\b0x[0-9a-f]+\b/gi, " ")
      .replace(/[^\p{L}\p{N}_.]+/gu, " ")
      .replace(/(^|\s)[\d.]+(?=\s|$)/g, " ")
      .replace(/\.{2,}|(^|\s)\.+|\.+(?=\s|$)/g, " ")
      .split(/\s+/).filter(function (w) { return w.length > 1 && !STOP.has(w.toLowerCase()); }).join(" ");
  }
  document.addEventListener("paste", function (event) {
    var box = event.target;
    if (!(box instanceof HTMLInputElement) || !box.matches("[data-md-component=search-query]")) return;
    var text = event.clipboardData ? event.clipboardData.getData("text") : "";
    if (!text) return;
    event.preventDefault();
    box.setRangeText(words(text), box.selectionStart, box.selectionEnd, "end");
    box.dispatchEvent(new KeyboardEvent("keyup", {bubbles: true}));  // what the theme's search listens to
  }, true);
})();
