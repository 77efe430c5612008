// eager-vs-compiled (src/eager_vs_compiled/pages/search.py, shim "typed-stop-words"): the English stop
// words of a typed query left out before it is searched. The index holds none (lunr.stopWordFilter
// drops them), and the theme searches every word as a prefix: "in" then matched the titles that hold
// "inside", "index" or "InvalidCxxCompiler", "i" those with "ignored", "to" every "torch.compile",
// and a question typed in a sentence found the page with the most such prefixes first. A pasted
// message loses them in the page (docs/javascripts/paste-search.js); a typed one loses them here.
// A word is left out only when a space follows it: the last word may be the start of a longer one
// ("in" of "inductor"). Words with query syntax (+in, title:in, in*) are kept as typed.
function evcTypedWords(query) {
  var filter = typeof lunr !== "undefined" && lunr.stopWordFilter;
  if (!filter) return query;
  return query.replace(/(^|\s)([A-Za-z]+)(?=\s)/g, function (all, before, word) {
    return filter(word.toLowerCase()) === undefined ? before : all;
  });
}
