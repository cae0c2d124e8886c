// The arbo extension: starts `arbo lsp` for .arb records and connects VS Code to it.
// The colouring is the TextMate grammar (syntaxes/arbo.tmLanguage.json); everything that knows
// the rules (diagnostics, completion, hover, formatting, ...) comes from the language server.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

// The command that runs the server: the setting arbo.command (a program and its first
// arguments), then `lsp`.
function settings() {
  return vscode.workspace.getConfiguration("arbo");
}

function serverOptions() {
  const configured = settings().get("command") || ["arbo"];
  const [command, ...args] = configured.length ? configured : ["arbo"];
  return { command, args: [...args, "lsp"], transport: TransportKind.stdio };
}

async function start() {
  client = new LanguageClient("arbo", "arbo lsp", serverOptions(), {
    documentSelector: [
      { scheme: "file", language: "arbo" },
      { scheme: "untitled", language: "arbo" },
    ],
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher("**/*.arb") },
    initializationOptions: { workspaceDiagnostics: settings().get("workspaceDiagnostics") !== false },
  });
  try {
    await client.start();
  } catch (error) {
    const words = `arbo lsp did not start (${error.message || error}). Install arbo with ` +
      "pip install 'arbo-notation[lsp]', or set arbo.command to the program that runs it.";
    vscode.window.showErrorMessage(words);
  }
}

async function stop() {
  if (client) {
    const stopping = client;
    client = undefined;
    await stopping.stop();
  }
}

function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand("arbo.restartServer", async () => {
      await stop();
      await start();
    }),
    vscode.workspace.onDidChangeConfiguration(async (change) => {
      if (change.affectsConfiguration("arbo.command") || change.affectsConfiguration("arbo.workspaceDiagnostics")) {
        await stop();
        await start();
      }
    }),
  );
  return start();
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
