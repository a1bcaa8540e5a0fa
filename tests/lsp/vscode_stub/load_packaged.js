// Loads a packaged extension (an unzipped .vsix) with its own node_modules, the `vscode` API
// standing in as a proxy that answers every property: every module the client needs must be
// inside the .vsix. Prints what loaded. Usage: node load_packaged.js UNZIPPED_VSIX
"use strict";

const Module = require("module");
const path = require("path");

function anything(name) {
  const stand_in = function () {
    return anything(`${name}()`);
  };
  return new Proxy(stand_in, {
    get(_, property) {
      if (property === Symbol.toPrimitive) {
        return () => name;
      }
      if (property === "then") {
        return undefined; // not a promise
      }
      return anything(`${name}.${String(property)}`);
    },
    construct() {
      return anything(`new ${name}`);
    },
  });
}

const load = Module._load;
Module._load = function (request, parent, isMain) {
  return request === "vscode" ? anything("vscode") : load.call(this, request, parent, isMain);
};

const root = path.resolve(process.argv[2], "extension");
const client = require(path.join(root, "node_modules", "vscode-languageclient", "node"));
const extension = require(path.join(root, "extension.js"));
process.stdout.write(
  JSON.stringify({
    LanguageClient: typeof client.LanguageClient,
    stdio: client.TransportKind.stdio,
    activate: typeof extension.activate,
    deactivate: typeof extension.deactivate,
  }),
);
