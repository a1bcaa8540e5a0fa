"""`zero explore`: the memory explorer, a local web page over the stores the other commands use.

- `markup`: HTML that escapes every value it is given (`html`, `Html`, `lines`);
- `reads`: what the pages show, read through the Python API (`zerolang.memory`), never writing
  unless the explorer was started `--write`;
- `pages`, `timeline`: the pages as pure functions from what was read to HTML;
- `app`: the Starlette application (routes, the space it serves, headers: a strict CSP);
- `worker`: the one thread the stores are opened and used on;
- `serve`: uvicorn on a socket bound before it starts (one-line errors for a bad host or port);
- `static/`: the stylesheet and the scripts (the graph drawing), shipped in the wheel.

Needs the `explore` extra (Starlette, uvicorn); nothing is fetched from the network.
"""
