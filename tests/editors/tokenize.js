// Tokenize files with a TextMate grammar the way VS Code does (vscode-textmate + vscode-oniguruma)
// and print every non-blank token with its scopes, as JSON: {file: "line<TAB>text<TAB>scopes\n..."}.
//
//   NODE_PATH=<folder with node_modules> node tokenize.js GRAMMAR.json FILE...
//
// Used by tests/editors/test_vscode_grammar.py, which installs the two packages.
"use strict";

const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

async function main() {
  const [grammarPath, ...files] = process.argv.slice(2);
  const raw = vsctm.parseRawGrammar(fs.readFileSync(grammarPath, "utf8"), grammarPath);
  const wasm = fs.readFileSync(path.join(path.dirname(require.resolve("vscode-oniguruma")), "onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scopeName) => (scopeName === raw.scopeName ? raw : null),
  });
  const grammar = await registry.loadGrammar(raw.scopeName);
  const result = {};
  for (const file of files) {
    const out = [];
    let stack = vsctm.INITIAL;
    const lines = fs.readFileSync(file, "utf8").split(/\r?\n/);
    lines.forEach((line, index) => {
      const tokenized = grammar.tokenizeLine(line, stack);
      for (const token of tokenized.tokens) {
        const text = line.substring(token.startIndex, token.endIndex);
        if (text.trim() === "") continue;
        out.push(`${index + 1}\t${JSON.stringify(text)}\t${token.scopes.join(" ")}`);
      }
      stack = tokenized.ruleStack;
    });
    result[file] = out.join("\n") + "\n";
  }
  process.stdout.write(JSON.stringify(result));
}

main().catch((error) => {
  process.stderr.write(`${error.stack || error}\n`);
  process.exit(1);
});
