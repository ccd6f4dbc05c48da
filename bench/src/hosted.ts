// The hosted loop as a scripted agent: a raw typed HookHost.Session client that answers each
// StepRequest (the first step of a turn with N tool calls, the next with a final message) and
// each DispatchRequest (with a small success), and reads frames until TurnEnded. Also opens idle
// sessions for the memory scenario. Protocol problems fail loudly.
import { pb } from "@hookd/sdk/internal";
import type { BidiCall } from "@hookd/sdk/internal";
import type { HostClient } from "./lab.js";
import { CWD } from "./messages.js";

type SessionCall = BidiCall<(typeof pb.HookHost.method)["session"]>;

export interface ScriptedAgent {
  /** One turn: a prompt, `toolCalls` tool calls in one step, a final step; resolves at TurnEnded. */
  turn(toolCalls: number): Promise<void>;
  close(): void;
}

const BASH = { name: "Bash", description: "Run a shell command", inputSchemaJson: "", concurrencySafe: false };

export async function openAgent(client: HostClient, sessionId: string, agentId: string): Promise<ScriptedAgent> {
  const call: SessionCall = client.session({ waitForReady: true });
  const frames = call.responses[Symbol.asyncIterator]();
  await call.send({ frame: { case: "open", value: { sessionId, source: pb.SessionSource.STARTUP, cwd: CWD, tools: [BASH], agentId } } });
  const opened = await frames.next();
  if (opened.done === true || opened.value.frame.case !== "opened") throw new Error(`expected opened, got ${opened.done === true ? "end of stream" : opened.value.frame.case}`);
  let turns = 0;
  return {
    async turn(toolCalls) {
      turns++;
      await call.send({ frame: { case: "prompt", value: { kind: pb.PromptKind.FOLLOW_UP, content: [{ block: { case: "text", value: "list the files" } }] } } });
      let dispatched = 0;
      for (;;) {
        const next = await frames.next();
        if (next.done === true) throw new Error("the daemon ended the session stream mid-turn");
        const frame = next.value.frame;
        switch (frame.case) {
          case "stepRequest": {
            const first = frame.value.step === 1;
            await call.send({
              frame: {
                case: "stepReply",
                value: {
                  requestId: frame.value.requestId,
                  assistantMessage: {
                    role: pb.Role.ASSISTANT,
                    content: [{ block: { case: "text", value: first ? "Running the tools." : "Done." } }],
                    source: { kind: { case: "model", value: {} } },
                  },
                  toolCalls: first
                    ? Array.from({ length: toolCalls }, (_, i) => ({
                        callId: `t${turns}-c${i}`,
                        toolName: "Bash",
                        argumentsJson: JSON.stringify({ command: `ls -la src/dir${i}`, description: "List a directory" }),
                      }))
                    : [],
                },
              },
            });
            break;
          }
          case "dispatchRequest":
            dispatched++;
            await call.send({
              frame: {
                case: "dispatchReply",
                value: {
                  requestId: frame.value.requestId,
                  result: { outcome: { case: "success", value: { valueJson: '"file-a.ts\\nfile-b.ts"', content: [{ block: { case: "text", value: "file-a.ts\nfile-b.ts" } }] } } },
                },
              },
            });
            break;
          case "approvalRequest":
            throw new Error(`unexpected approval request: ${frame.value.reason}`);
          case "problem":
            throw new Error(`daemon reported a problem: ${frame.value.code} ${frame.value.message}`);
          case "turnEnded":
            if (frame.value.reason !== pb.TurnEndReason.COMPLETED) throw new Error(`turn ended with ${pb.TurnEndReason[frame.value.reason]}: ${frame.value.detail}`);
            if (dispatched !== toolCalls) throw new Error(`expected ${toolCalls} dispatches, got ${dispatched}`);
            return;
          default:
            break; // turnStarted, toolResult, context: nothing to answer
        }
      }
    },
    close() {
      call.cancel();
    },
  };
}

/** Opens a session and keeps its stream; resolves once the daemon answered SessionOpened. */
export async function openIdleSession(client: HostClient, sessionId: string, agentId: string): Promise<SessionCall> {
  const call: SessionCall = client.session({ waitForReady: true });
  await call.send({ frame: { case: "open", value: { sessionId, source: pb.SessionSource.STARTUP, cwd: CWD, tools: [BASH], agentId } } });
  const frames = call.responses[Symbol.asyncIterator]();
  const opened = await frames.next();
  if (opened.done === true || opened.value.frame.case !== "opened") throw new Error("expected opened");
  return call;
}
