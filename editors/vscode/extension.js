// The VS Code client for regelwerk: starts `regelwerk lsp` over stdio for .rules files.
// Everything else (diagnostics, hover, rename, the scenario code lenses and their command)
// comes from the server. Plain JavaScript, no build step: `npm install` here, then run the
// folder as an extension (F5 in VS Code, or `code --extensionDevelopmentPath=editors/vscode`).
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration("regelwerk");
  const [command, ...args] = config.get("server.command", ["regelwerk", "lsp"]);
  const specDir = config.get("specDir", "");
  const serverOptions = { command, args }; // stdio is the default transport
  const clientOptions = {
    documentSelector: [
      { scheme: "file", language: "regelwerk" },
      { scheme: "untitled", language: "regelwerk" },
    ],
    initializationOptions: specDir ? { specDir } : {},
  };
  client = new LanguageClient("regelwerk", "regelwerk language server", serverOptions, clientOptions);
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
