// The VS Code extension's client, run outside VS Code: extension.js is loaded with a stand-in for
// the `vscode` module (the setting arbo.command from $ARBO_TEST_COMMAND, a JSON list) and a
// stand-in LanguageClient that records the server options activate() gives it. Then the server
// those options name is started and spoken to with vscode-jsonrpc, the library under
// vscode-languageclient: initialize, open $ARBO_TEST_RECORD, wait for its diagnostics, ask for
// completions at the end of its last line. What was seen goes to standard output as JSON.
import { createRequire } from "node:module";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const extension = path.resolve(here, "..", "..", "editors", "vscode");
const require = createRequire(path.join(extension, "package.json"));
const Module = require("node:module");

const configured = JSON.parse(process.env.ARBO_TEST_COMMAND);
const started = [];
const disposable = { dispose() {} };
const vscode = {
  workspace: {
    getConfiguration: (section) => ({ get: (key) => (section === "arbo" && key === "command" ? configured : undefined) }),
    createFileSystemWatcher: () => disposable,
    onDidChangeConfiguration: () => disposable,
  },
  window: { showErrorMessage: (words) => started.push({ error: words }) },
  commands: { registerCommand: () => disposable },
};
class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    const { documentSelector, initializationOptions } = clientOptions;
    started.push({ id, name, serverOptions, documentSelector, initializationOptions });
  }
  async start() {}
  async stop() {}
}
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === "vscode") return vscode;
  if (request === "vscode-languageclient/node") return { LanguageClient, TransportKind: { stdio: 0 } };
  return load.call(this, request, parent, isMain);
};
const main = require(path.join(extension, JSON.parse(fs.readFileSync(path.join(extension, "package.json"))).main));
await main.activate({ subscriptions: [] });
Module._load = load;

const { serverOptions } = started[0];
const rpc = require("vscode-jsonrpc/node");
const server = spawn(serverOptions.command, serverOptions.args, { stdio: ["pipe", "pipe", "inherit"] });
const connection = rpc.createMessageConnection(
  new rpc.StreamMessageReader(server.stdout),
  new rpc.StreamMessageWriter(server.stdin),
);
const record = process.env.ARBO_TEST_RECORD;
const uri = pathToFileURL(record).href;
const text = fs.readFileSync(record, "utf8");
const diagnostics = new Promise((resolve) =>
  connection.onNotification("textDocument/publishDiagnostics", (params) => {
    if (params.uri === uri) resolve(params.diagnostics);
  }),
);
connection.listen();
const initialized = await connection.sendRequest("initialize", {
  processId: process.pid,
  rootUri: pathToFileURL(path.dirname(record)).href,
  capabilities: { textDocument: { completion: { completionItem: { snippetSupport: false } } } },
});
connection.sendNotification("initialized", {});
connection.sendNotification("textDocument/didOpen", {
  textDocument: { uri, languageId: "arbo", version: 1, text },
});
let timer;
const late = new Promise((_, fail) => { timer = setTimeout(() => fail(new Error("no diagnostics in 30 s")), 30000); });
const seen = await Promise.race([diagnostics, late]);
clearTimeout(timer);
const lines = text.replace(/\n$/, "").split("\n");
const completion = await connection.sendRequest("textDocument/completion", {
  textDocument: { uri },
  position: { line: lines.length - 1, character: lines[lines.length - 1].length },
});
await connection.sendRequest("shutdown");
connection.sendNotification("exit");
const code = await new Promise((resolve) => server.on("exit", resolve));
connection.dispose();
process.stdout.write(JSON.stringify({
  started,
  capabilities: Object.keys(initialized.capabilities).sort(),
  diagnostics: seen,
  labels: (completion.items || completion).map((item) => item.label),
  exit: code,
}) + "\n");
