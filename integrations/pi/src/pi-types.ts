// The part of pi's extension API (@earendil-works/pi-coding-agent 1.6, docs/extensions.md) this
// extension uses, declared here so the package needs nothing from pi to build or install.

export interface TextContent {
  readonly type: "text";
  readonly text: string;
}

export interface ExtensionContext {
  readonly cwd: string;
  readonly sessionManager: { getSessionId(): string };
}

export interface SessionStartEvent {
  readonly reason: "startup" | "reload" | "new" | "resume" | "fork";
}
export interface SessionShutdownEvent {
  readonly reason: string;
}
export interface InputEvent {
  readonly text: string;
}
export type InputResult = { readonly action: "continue" } | { readonly action: "transform"; readonly text: string } | { readonly action: "handled" };
export interface ToolCallEvent {
  readonly toolName: string;
  readonly toolCallId: string;
  /** Mutated in place to rewrite the call. */
  readonly input: Record<string, unknown>;
}
export interface ToolCallResult {
  readonly block: true;
  readonly reason: string;
}
export interface ToolResultEvent {
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: Record<string, unknown>;
  readonly content: readonly ({ readonly type: string } & Partial<TextContent>)[];
  readonly isError: boolean;
}
export interface ToolResultPatch {
  readonly content: readonly TextContent[];
  readonly isError?: boolean;
}
export interface SettleEvent {
  readonly entries: readonly unknown[];
}
export interface SettleResult {
  readonly entries: readonly unknown[];
  readonly continue: boolean;
}

export interface Handlers {
  session_start: (event: SessionStartEvent, ctx: ExtensionContext) => Promise<void>;
  session_shutdown: (event: SessionShutdownEvent, ctx: ExtensionContext) => Promise<void>;
  input: (event: InputEvent, ctx: ExtensionContext) => Promise<InputResult>;
  tool_call: (event: ToolCallEvent, ctx: ExtensionContext) => Promise<ToolCallResult | undefined>;
  tool_result: (event: ToolResultEvent, ctx: ExtensionContext) => Promise<ToolResultPatch | undefined>;
  agent_before_settle: (event: SettleEvent, ctx: ExtensionContext) => Promise<SettleResult | undefined>;
}

export interface ExtensionAPI {
  on<E extends keyof Handlers>(event: E, handler: Handlers[E]): void;
  on(event: string, handler: (event: unknown, ctx: ExtensionContext) => Promise<void>): void;
}
