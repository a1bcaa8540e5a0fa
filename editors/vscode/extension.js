// The 0-lang extension: highlighting comes from the grammars in package.json; this file starts
// the language server (`zero lsp`) for .0 and .0c files through vscode-languageclient.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

/** How to start the server: `zerolang.server.path` and `zerolang.server.args` from the settings. */
function serverOptions() {
  const config = vscode.workspace.getConfiguration("zerolang");
  const command = config.get("server.path") || "zero";
  const args = config.get("server.args") || ["lsp"];
  // TransportKind.stdio adds `--stdio`, which `zero lsp` accepts.
  return { command, args, transport: TransportKind.stdio };
}

function clientOptions() {
  return {
    documentSelector: [
      { scheme: "file", language: "zerolang" },
      { scheme: "file", language: "zerolang-compact" },
      { scheme: "untitled", language: "zerolang" },
      { scheme: "untitled", language: "zerolang-compact" },
    ],
  };
}

async function start() {
  const options = serverOptions();
  client = new LanguageClient("zerolang", "0-lang language server", options, clientOptions());
  try {
    await client.start();
  } catch (error) {
    client = undefined;
    const shown = [options.command, ...options.args].join(" ");
    vscode.window.showErrorMessage(
      `0-lang: could not start \`${shown}\` (${error && error.message ? error.message : error}). ` +
        "Install it with `python -m pip install \".[lsp]\"` in a clone of zerolang, or set `zerolang.server.path`.",
    );
  }
}

async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand("zerolang.restartServer", async () => {
      if (client) {
        await client.stop();
      }
      await start();
    }),
  );
  await start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate, serverOptions, clientOptions };
