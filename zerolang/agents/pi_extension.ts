/**
 * zero-memory: 0-memory for pi (and OpenClaw's pi-based agents).
 *
 * - before_agent_start: what memory recalls about the prompt goes into the context, as a message;
 * - agent_end: the session's new turns are captured as experiences.
 *
 * Both run `zero hook pi` with the event as JSON on stdin. A failure never stops the agent: it is
 * shown once as a notice and the turn goes on. Install with `zero hook install pi` (or copy this
 * file to ~/.pi/agent/extensions/ or .pi/extensions/ and set ZERO_HOOK_COMMAND_JSON to
 * `["/path/to/zero", "hook", "pi"]`).
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { spawn } from "node:child_process";

// The command line of `zero hook pi` (`zero hook install pi` writes it; ZERO_HOOK_COMMAND_JSON overrides it).
const ZERO: string[] = JSON.parse(process.env.ZERO_HOOK_COMMAND_JSON ?? '["zero", "hook", "pi"]');
const TIMEOUT_MS = 15_000;

function zeroHook(event: Record<string, unknown>): Promise<string> {
  return new Promise((resolve) => {
    const child = spawn(ZERO[0], ZERO.slice(1), { stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    const timer = setTimeout(() => child.kill(), TIMEOUT_MS);
    child.stdout.on("data", (chunk) => (out += chunk));
    child.stderr.on("data", (chunk) => (err += chunk));
    child.on("error", (error) => {
      clearTimeout(timer);
      console.error(`zero-memory: ${error.message}`);
      resolve("");
    });
    child.on("close", () => {
      clearTimeout(timer);
      if (err.trim()) console.error(err.trim());
      resolve(out);
    });
    child.stdin.end(JSON.stringify(event));
  });
}

export default function (pi: ExtensionAPI) {
  pi.on("before_agent_start", async (event, ctx) => {
    const context = await zeroHook({
      event: "before_agent_start",
      prompt: event.prompt,
      cwd: ctx.cwd,
      session_file: ctx.sessionManager.getSessionFile(),
    });
    if (!context.trim()) return;
    return { message: { customType: "zero-memory", content: context, display: false } };
  });

  pi.on("agent_end", async (_event, ctx) => {
    const file = ctx.sessionManager.getSessionFile();
    if (file) await zeroHook({ event: "agent_end", session_file: file });
  });
}
