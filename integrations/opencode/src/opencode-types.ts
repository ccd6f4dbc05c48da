// The part of OpenCode's plugin API (@opencode-ai/plugin, as OpenCode 1.18 calls it) this plugin
// uses, declared here so the package needs nothing from OpenCode to build or install.

export interface PluginInput {
  /** The project directory OpenCode runs in. */
  readonly directory: string;
}

export interface TextPart {
  readonly type: "text";
  text: string;
  readonly synthetic?: boolean;
}

export type Part = TextPart | { readonly type: string };

export interface BusEvent {
  readonly type: string;
  readonly properties: Readonly<Record<string, unknown>>;
}

export interface Hooks {
  readonly event?: (input: { readonly event: BusEvent }) => Promise<void>;
  readonly "chat.message"?: (input: { readonly sessionID: string }, output: { readonly parts: Part[] }) => Promise<void>;
  /** Mutating `args` rewrites the call; a throw blocks it, its message becoming the tool's result. */
  readonly "tool.execute.before"?: (input: { readonly tool: string; readonly sessionID: string; readonly callID: string }, output: { args: Record<string, unknown> }) => Promise<void>;
  /** Mutating `output` changes what the model sees. */
  readonly "tool.execute.after"?: (
    input: { readonly tool: string; readonly sessionID: string; readonly callID: string; readonly args?: Record<string, unknown> },
    output: { title: string; output: string; metadata: unknown },
  ) => Promise<void>;
}

export type Plugin = (input: PluginInput) => Promise<Hooks>;
