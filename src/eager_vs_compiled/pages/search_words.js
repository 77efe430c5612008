// eager-vs-compiled (src/eager_vs_compiled/pages/search.py, shim "han-query-words"): the Chinese of a
// query cut into the words of the index it searches. The index holds the words jieba cut the pages into,
// less the stop words (不, 的, 与 ...: lunr.zh.stopWordFilter); a reader types Chinese without spaces.
// The theme's own cut never ends a word on a run's last character and stops at the first character
// that begins no word of the index, a stop word included: "版本不匹配" searched for "版本" alone.
// This cut covers `run` with the fewest characters that are neither a word of the index nor a stop
// word, then with the fewest words; it keeps the index's words (a stop word or a character the index
// lacks has nothing to match), or the whole run where none is left. A space stands between the words,
// and between them and the text next to the run ("torch版本" is two words in the index too).
function evcHanWords(run, at, query, index) {
  var filter = typeof lunr !== "undefined" && lunr.zh && lunr.zh.stopWordFilter;
  var stop = function (c) { return filter ? filter(c) === undefined : false; };
  // best[end]: [characters unmatched, words] of the best cut of run.slice(0, end);
  // from[end]: where the last word of that cut starts
  var best = [[0, 0]], from = [0];
  for (var end = 1; end <= run.length; end++) {
    best[end] = [best[end - 1][0] + (stop(run.charAt(end - 1)) ? 0 : 1), best[end - 1][1] + 1];
    from[end] = end - 1;
    for (var start = Math.max(0, end - 16); start < end; start++) {  // jieba's words are shorter (6 at most here)
      var cost = [best[start][0], best[start][1] + 1];
      if (run.slice(start, end) in index
          && (cost[0] < best[end][0] || (cost[0] === best[end][0] && cost[1] < best[end][1]))) {
        best[end] = cost;
        from[end] = start;
      }
    }
  }
  var words = [];
  for (var last = run.length; last > 0; last = from[last]) {
    var word = run.slice(from[last], last);
    if (word in index) words.unshift(word);
  }
  // No space after a space, a presence sign (+ required, - left out) or a field's colon; none before a
  // space or the suffixes of lunr's query syntax (* wildcard, ~ fuzzy, ^ boost).
  var before = /(^|\s)[+-]?$|:$/.test(query.slice(0, at)) ? "" : " ";
  var after = /^([\s*~^]|$)/.test(query.slice(at + run.length)) ? "" : " ";
  return before + (words.length ? words.join(" ") : run) + after;
}
