// Exact conversion of the shared vocabulary (content, messages, tool definitions, sealed calls,
// results, enums; the session facts are in session.ts, re-exported here) between protobuf messages and the typed form of types.ts.
// `read*` functions are the inner readers the event and decision codecs compose; they throw a
// field error naming the proto field path, and `fromProto*` wraps each into a total Result.
import { create } from "@bufbuild/protobuf";
import { HookdError, fieldError } from "../errors.js";
import type { JsonObject, JsonValue } from "../json.js";
import { toJsonText } from "../json.js";
import * as pb from "../proto.js";
import type {
  AgentMessage,
  ContentBlock,
  FailurePolicy,
  MessageSource,
  Role,
  ToolCall,
  ToolDefinitionInfo,
  ToolResult,
} from "../types.js";
import type { Result } from "./result.js";
import { decode, enumMap, readJson, reader, unknownCase, unknownVariant } from "./result.js";

// ---- enums ---------------------------------------------------------------------------------

const roles = enumMap<Role, pb.Role>({ user: pb.Role.USER, assistant: pb.Role.ASSISTANT });
const failurePolicies = enumMap<FailurePolicy, pb.FailurePolicy>({
  "fail-closed": pb.FailurePolicy.FAIL_CLOSED,
  "fail-open": pb.FailurePolicy.FAIL_OPEN,
});

/** `undefined` (the point's default) is FAILURE_POLICY_UNSPECIFIED. */
export function toProtoFailurePolicy(policy: FailurePolicy | undefined): pb.FailurePolicy {
  return policy === undefined ? pb.FailurePolicy.UNSPECIFIED : failurePolicies.toProto(policy);
}
/** FAILURE_POLICY_UNSPECIFIED is `undefined` (the point's default); unknown numbers are errors. */
export function fromProtoFailurePolicy(policy: pb.FailurePolicy, path = "failure_policy"): Result<FailurePolicy | undefined> {
  return decode("invalid_argument", path, () =>
    policy === pb.FailurePolicy.UNSPECIFIED ? undefined : failurePolicies.read(policy, path),
  );
}

// ---- content and messages ------------------------------------------------------------------

export function toProtoContentBlock(block: ContentBlock): pb.ContentBlock {
  switch (block.type) {
    case "text":
      return create(pb.ContentBlockSchema, { block: { case: "text", value: block.text } });
    case "json":
      return create(pb.ContentBlockSchema, { block: { case: "json", value: block.json } });
    case "image":
      return create(pb.ContentBlockSchema, {
        block: { case: "image", value: { uri: block.uri, mediaType: block.mediaType } },
      });
    default:
      return unknownVariant(block, "content block");
  }
}

/** A json block must hold valid JSON; its text is kept byte for byte. */
export function readContentBlock(message: pb.ContentBlock, path: string): ContentBlock {
  const block = message.block;
  switch (block.case) {
    case "text":
      return { type: "text", text: block.value };
    case "json":
      readJson(block.value, `${path}.json`);
      return { type: "json", json: block.value };
    case "image":
      return { type: "image", uri: block.value.uri, mediaType: block.value.mediaType };
    case undefined:
      throw fieldError(path, "no block set");
    default:
      return unknownCase(block, path);
  }
}
export const fromProtoContentBlock = reader(readContentBlock, "block");

export const toProtoContent = (blocks: readonly ContentBlock[]): pb.ContentBlock[] => blocks.map(toProtoContentBlock);
export const readContent = (blocks: readonly pb.ContentBlock[], path: string): ContentBlock[] =>
  blocks.map((block, index) => readContentBlock(block, `${path}[${index}]`));

export function toProtoMessageSource(source: MessageSource): pb.MessageSource {
  switch (source.kind) {
    case "user":
      return create(pb.MessageSourceSchema, { kind: { case: "user", value: {} } });
    case "plugin":
      return create(pb.MessageSourceSchema, { kind: { case: "plugin", value: { name: source.name } } });
    case "tool":
      return create(pb.MessageSourceSchema, { kind: { case: "tool", value: { callId: source.callId } } });
    case "model":
      return create(pb.MessageSourceSchema, { kind: { case: "model", value: {} } });
    default:
      return unknownVariant(source, "message source");
  }
}

export function readMessageSource(message: pb.MessageSource | undefined, path: string): MessageSource {
  if (message === undefined) throw fieldError(path, "missing");
  const kind = message.kind;
  switch (kind.case) {
    case "user":
      return { kind: "user" };
    case "plugin":
      return { kind: "plugin", name: kind.value.name };
    case "tool":
      return { kind: "tool", callId: kind.value.callId };
    case "model":
      return { kind: "model" };
    case undefined:
      throw fieldError(path, "no kind set");
    default:
      return unknownCase(kind, path);
  }
}
export const fromProtoMessageSource = reader(readMessageSource, "source");

export function toProtoMessage(message: AgentMessage): pb.Message {
  return create(pb.MessageSchema, {
    id: message.id,
    role: roles.toProto(message.role),
    content: toProtoContent(message.content),
    source: toProtoMessageSource(message.source),
  });
}

/** Role and source are required; content may be empty here (validate.ts demands a block). */
export function readMessage(message: pb.Message, path: string): AgentMessage {
  return {
    id: message.id,
    role: roles.read(message.role, `${path}.role`),
    content: readContent(message.content, `${path}.content`),
    source: readMessageSource(message.source, `${path}.source`),
  };
}
export const fromProtoMessage = reader(readMessage, "message");

export const toProtoMessages = (messages: readonly AgentMessage[]): pb.Message[] => messages.map(toProtoMessage);
export const readMessages = (messages: readonly pb.Message[], path: string): AgentMessage[] =>
  messages.map((message, index) => readMessage(message, `${path}[${index}]`));
/** What an unset source on a plugin-contributed message reads as, until the daemon sources it. */
const UNSOURCED: pb.MessageSource = create(pb.MessageSourceSchema, { kind: { case: "plugin", value: { name: "" } } });

/**
 * The messages a plugin's decision contributes (entered, injected, steering, additional
 * contexts). Their source may be left unset: the daemon sources every contributed message to the
 * plugin's configured name whatever it says (daemon/src/engine/authorship.ts), so an unset one
 * reads as an unnamed plugin source until then. Everything else is read as readMessages reads it.
 */
export const readContributedMessages = (messages: readonly pb.Message[], path: string): AgentMessage[] =>
  messages.map((message, index) => readMessage(message.source?.kind.case === undefined ? { ...message, source: UNSOURCED } : message, `${path}[${index}]`));

// ---- tools ---------------------------------------------------------------------------------

export function toProtoToolDefinition(tool: ToolDefinitionInfo): pb.ToolDefinition {
  return create(pb.ToolDefinitionSchema, {
    name: tool.name,
    description: tool.description,
    inputSchemaJson: tool.inputSchemaJson,
    concurrencySafe: tool.concurrencySafe,
    finalizesContent: tool.finalizesContent === true,
  });
}

/** A non-empty input schema must be valid JSON; its text is kept byte for byte. */
export function readToolDefinition(message: pb.ToolDefinition, path: string): ToolDefinitionInfo {
  if (message.inputSchemaJson !== "") readJson(message.inputSchemaJson, `${path}.input_schema_json`);
  return {
    name: message.name,
    description: message.description,
    inputSchemaJson: message.inputSchemaJson,
    concurrencySafe: message.concurrencySafe,
    // Only when set, so a definition without the boundary reads back as it was written.
    ...(message.finalizesContent ? { finalizesContent: true } : {}),
  };
}
export const fromProtoToolDefinition = reader(readToolDefinition, "tool");

/** Sends `argumentsJson`, the canonical text, as is. */
export function toProtoToolCall(call: ToolCall): pb.ToolCall {
  return create(pb.ToolCallSchema, {
    callId: call.callId,
    rootCallId: call.rootCallId,
    ...(call.parentCallId === undefined ? {} : { parentCallId: call.parentCallId }),
    toolName: call.toolName,
    argumentsJson: call.argumentsJson,
    sessionId: call.sessionId,
    turn: call.turn,
    step: call.step,
    ...(call.originalArgumentsJson === undefined ? {} : { originalArgumentsJson: call.originalArgumentsJson }),
    ...(call.rewrittenBy === undefined ? {} : { rewrittenBy: [...call.rewrittenBy] }),
  });
}

/**
 * Parses `arguments_json` (and `original_arguments_json`, when set) losslessly; each text becomes
 * its canonical form. A rewritten call's original arguments and rewriters are kept.
 */
export function readToolCall(message: pb.ToolCall | undefined, path: string): ToolCall {
  if (message === undefined) throw fieldError(path, "missing");
  const args = readJson(message.argumentsJson, `${path}.arguments_json`);
  const original = message.originalArgumentsJson === undefined ? undefined : readJson(message.originalArgumentsJson, `${path}.original_arguments_json`);
  return {
    callId: message.callId,
    rootCallId: message.rootCallId,
    ...(message.parentCallId === undefined ? {} : { parentCallId: message.parentCallId }),
    toolName: message.toolName,
    arguments: args.value,
    argumentsJson: args.text,
    sessionId: message.sessionId,
    turn: message.turn,
    step: message.step,
    ...(original === undefined ? {} : { originalArguments: original.value, originalArgumentsJson: original.text }),
    ...(message.rewrittenBy.length === 0 ? {} : { rewrittenBy: [...message.rewrittenBy] }),
  };
}
export const fromProtoToolCall = reader(readToolCall, "call");

/** Throws HookdError("invalid_json") when a value or metadata is not JSON (the typed form was bypassed). */
export function toProtoToolResult(result: ToolResult): pb.ToolResult {
  const contexts = toProtoMessages(result.contexts);
  if (result.isError) {
    const { message, code, name } = result;
    const failure = { message, code, name, content: toProtoContent(result.content) };
    return create(pb.ToolResultSchema, { outcome: { case: "failure", value: failure }, contexts });
  }
  const success = {
    valueJson: jsonText(result.value, "result.value"),
    content: toProtoContent(result.content),
    ...(result.metadata === undefined ? {} : { metadataJson: jsonText(result.metadata, "result.metadata") }),
  };
  return create(pb.ToolResultSchema, { outcome: { case: "success", value: success }, contexts });
}

/** value_json is parsed losslessly; metadata_json, when set, must hold a JSON object. */
export function readToolResult(message: pb.ToolResult | undefined, path: string): ToolResult {
  if (message === undefined) throw fieldError(path, "missing");
  const contexts = readMessages(message.contexts, `${path}.contexts`);
  const outcome = message.outcome;
  switch (outcome.case) {
    case "success": {
      const at = `${path}.success`;
      const { valueJson, metadataJson } = outcome.value;
      return {
        isError: false,
        value: readJson(valueJson, `${at}.value_json`).value,
        content: readContent(outcome.value.content, `${at}.content`),
        ...(metadataJson === undefined ? {} : { metadata: readJsonObject(metadataJson, `${at}.metadata_json`) }),
        contexts,
      };
    }
    case "failure": {
      const { message: text, code, name } = outcome.value;
      return { isError: true, message: text, code, name, content: readContent(outcome.value.content, `${path}.failure.content`), contexts };
    }
    case undefined:
      throw fieldError(path, "no outcome set");
    default:
      return unknownCase(outcome, path);
  }
}
export const fromProtoToolResult = reader(readToolResult, "result");

function readJsonObject(text: string, path: string): JsonObject {
  const value = readJson(text, path).value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw fieldError(path, "expected a JSON object");
  return value as JsonObject;
}

/** Canonical JSON text of a typed value; a non-JSON value is a caller bug reported as invalid_json. */
export function jsonText(value: JsonValue, path: string): string {
  try {
    return toJsonText(value, path);
  } catch (error) {
    throw new HookdError("invalid_json", (error as Error).message, { cause: error });
  }
}

export * from "./session.js";
