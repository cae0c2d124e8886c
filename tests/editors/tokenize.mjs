// Tokenizes .arb files with the VS Code extension's TextMate grammar, as VS Code does
// (vscode-textmate on the oniguruma regular expressions of vscode-oniguruma).
//
//   node tests/editors/tokenize.mjs                  compare every sample with its kept snapshot
//   node tests/editors/tokenize.mjs --update         write the snapshots anew
//   node tests/editors/tokenize.mjs --snapshots DIR  compare with (or --update) the snapshots in DIR
//   node tests/editors/tokenize.mjs --json FILE...   print the tokens of the files as JSON
//
// The packages come from editors/vscode (its package.json and package-lock.json; `npm ci` there).
import { createRequire } from "node:module";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..", "..");
const extension = path.join(root, "editors", "vscode");
const require = createRequire(path.join(extension, "package.json"));
const textmate = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const GRAMMAR = path.join(extension, "syntaxes", "arbo.tmLanguage.json");
const SAMPLES = path.join(root, "samples");

async function loadGrammar() {
  const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm"));
  await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new textmate.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (sources) => new oniguruma.OnigScanner(sources),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scopeName) =>
      scopeName === "source.arbo"
        ? textmate.parseRawGrammar(fs.readFileSync(GRAMMAR, "utf8"), GRAMMAR)
        : null,
  });
  return registry.loadGrammar("source.arbo");
}

// Each line of the file: its tokens, each {line, start, end, text, scopes} (source.arbo left out).
function tokenize(grammar, text) {
  const tokens = [];
  let stack = textmate.INITIAL;
  text.split(/\r\n|\r|\n/).forEach((line, index) => {
    const result = grammar.tokenizeLine(line, stack);
    for (const token of result.tokens) {
      const end = Math.min(token.endIndex, line.length);
      if (end <= token.startIndex) continue;
      tokens.push({
        line: index + 1,
        start: token.startIndex,
        end,
        text: line.slice(token.startIndex, end),
        scopes: token.scopes.slice(1),
      });
    }
    stack = result.ruleStack;
  });
  return tokens;
}

// The snapshot's text: each line of the record, then its tokens that carry a scope, one a line.
function snapshot(grammar, text) {
  const lines = text.split(/\r\n|\r|\n/);
  const tokens = tokenize(grammar, text);
  const out = [];
  lines.forEach((line, index) => {
    out.push(`${index + 1}> ${line}`);
    for (const token of tokens) {
      if (token.line !== index + 1 || token.scopes.length === 0 || !token.text.trim()) continue;
      out.push(`    ${token.start}-${token.end} ${JSON.stringify(token.text)} ${token.scopes.join(" ")}`);
    }
  });
  return out.join("\n") + "\n";
}

function samples(folder) {
  const found = [];
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) found.push(...samples(full));
    else if (entry.name.endsWith(".arb")) found.push(full);
  }
  return found.sort();
}

async function main(argv) {
  const grammar = await loadGrammar();
  if (argv[0] === "--json") {
    const files = argv.slice(1).map((file) => ({ file, tokens: tokenize(grammar, fs.readFileSync(file, "utf8")) }));
    process.stdout.write(JSON.stringify(files) + "\n");
    return 0;
  }
  const update = argv.includes("--update");
  const at = argv.indexOf("--snapshots");
  const folder = at >= 0 ? path.resolve(argv[at + 1]) : path.join(here, "snapshots");
  const changed = [];
  const kept = new Set();
  for (const file of samples(SAMPLES)) {
    const name = path.relative(SAMPLES, file) + ".tokens";
    kept.add(name);
    const target = path.join(folder, name);
    const fresh = snapshot(grammar, fs.readFileSync(file, "utf8"));
    if (update) {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, fresh);
      continue;
    }
    const old = fs.existsSync(target) ? fs.readFileSync(target, "utf8") : null;
    if (old === null) changed.push(`${name}: no snapshot`);
    else if (old !== fresh) {
      const a = old.split("\n");
      const b = fresh.split("\n");
      const at = a.findIndex((line, i) => line !== b[i]);
      changed.push(`${name}:${at + 1}: kept ${JSON.stringify(a[at])}, now ${JSON.stringify(b[at])}`);
    }
  }
  if (!update && fs.existsSync(folder)) {
    const walk = (dir) => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(path.join(dir, e.name)) : [path.relative(folder, path.join(dir, e.name))]);
    for (const name of walk(folder)) if (!kept.has(name)) changed.push(`${name}: a snapshot of no sample`);
  }
  if (update) {
    process.stderr.write(`wrote ${kept.size} snapshots into ${folder}\n`);
    return 0;
  }
  if (changed.length) {
    process.stderr.write(changed.join("\n") + "\n");
    process.stderr.write(`${changed.length} of ${kept.size} samples tokenize otherwise than their snapshot; ` +
      "if the grammar's change is meant, run: node tests/editors/tokenize.mjs --update\n");
    return 1;
  }
  process.stderr.write(`${kept.size} samples tokenize as their snapshots\n`);
  return 0;
}

process.exitCode = await main(process.argv.slice(2));
