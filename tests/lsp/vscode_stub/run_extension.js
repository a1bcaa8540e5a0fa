// Runs editors/vscode/extension.js against stand-ins for `vscode` and `vscode-languageclient/node`
// and prints, as JSON, what it asked them to do.
// Usage: node run_extension.js EXTENSION_JS [SETTINGS_JSON] [fail]
"use strict";

const Module = require("module");
const path = require("path");

const calls = { clients: [], started: 0, stopped: 0, errors: [], commands: [] };
const settings = JSON.parse(process.argv[3] || "{}");
const failStart = process.argv[4] === "fail";

const vscode = {
  workspace: {
    getConfiguration: (section) => ({ get: (key) => settings[`${section}.${key}`] }),
  },
  window: { showErrorMessage: (message) => calls.errors.push(message) },
  commands: {
    registerCommand: (name, callback) => {
      calls.commands.push(name);
      return { dispose() {}, callback };
    },
  },
};

class LanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    calls.clients.push({ id, name, serverOptions, clientOptions });
  }
  async start() {
    calls.started += 1;
    if (failStart) {
      throw new Error("spawn zero ENOENT");
    }
  }
  async stop() {
    calls.stopped += 1;
  }
}

const stubs = {
  vscode,
  "vscode-languageclient/node": { LanguageClient, TransportKind: { stdio: 0, ipc: 1, pipe: 2, socket: 3 } },
};
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (Object.prototype.hasOwnProperty.call(stubs, request)) {
    return stubs[request];
  }
  return load.call(this, request, parent, isMain);
};

(async () => {
  const extension = require(path.resolve(process.argv[2]));
  const context = { subscriptions: [] };
  await extension.activate(context);
  await extension.deactivate();
  process.stdout.write(JSON.stringify(calls));
})().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error));
  process.exit(1);
});
